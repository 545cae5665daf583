/*
 * ShareQueue: the links of a progressive filling by their fair share, the least first (at one
 * share the lower link: the order does not change the rates), for MaxMinSolver::Fill. A
 * filling over few links scans them for the least (a few comparisons in a row beat a heap's
 * updates); over more, an indexed binary heap keeps it on top.
 */
#ifndef FABRIC_FLOW_SHARE_QUEUE_H
#define FABRIC_FLOW_SHARE_QUEUE_H

#include <cstdint>
#include <vector>

namespace fabric
{
namespace flow
{

class ShareQueue
{
  public:
    /** No link (Least of an empty queue). */
    static constexpr uint32_t kNone = UINT32_MAX;

    /** Empties it for links 0 .. count - 1. */
    void Reset(uint32_t count);

    /** Puts the link in at this share, or moves it there. */
    void Set(uint32_t link, double share);

    /** Takes the link out (if it is in). */
    void Remove(uint32_t link);

    bool Contains(uint32_t link) const { return m_pos[link] != kNone; }

    /** The share the link is in at. */
    double Share(uint32_t link) const { return m_share[link]; }

    /** Whether it keeps a heap (not a scanned list): a share raised costs an update there. */
    bool IsHeap() const { return !m_scan; }

    /** The link of the least share (kNone: none). */
    uint32_t Least() const;

  private:
    bool Less(uint32_t a, uint32_t b) const;
    void SiftUp(uint32_t pos);
    void SiftDown(uint32_t pos);

    bool m_scan = true;
    std::vector<double> m_share;
    std::vector<uint32_t> m_pos;  ///< per link: its place in m_heap or m_live (kNone: out)
    std::vector<uint32_t> m_heap; ///< a binary min-heap by Less
    std::vector<uint32_t> m_live; ///< the links in, in no order (scanned)
};

} // namespace flow
} // namespace fabric

#endif
