/*
 * One class per collective algorithm (docs/model.md, "Collectives"), in the manner of the
 * congestion-control classes (model/congestion-ops.h): each says what it needs of a request
 * (its preconditions and the finest split of the message), how many transfers it plans and how
 * it plans one channel. PlanBuilder is what they plan with: it numbers the transfers, their
 * connections and the ranks they touch; collective-plan.cc adds iterations and connection
 * windows around the channels and keeps the public functions (collective-plan.h).
 *
 * An algorithm lives in its own file (collective-ring.cc, collective-tree.cc,
 * collective-halving-doubling.cc, collective-direct.cc, collective-hierarchical.cc) and is
 * listed once in the table of collective-algorithm.cc; the ops that accept it are declared
 * with the scenario format (backend/app/scenarios/traffic.py, generated into kCollectiveOps).
 */
#ifndef FABRIC_COLLECTIVE_ALGORITHM_H
#define FABRIC_COLLECTIVE_ALGORITHM_H

#include "collective-plan.h"

#include <cstdint>
#include <map>
#include <string>
#include <tuple>
#include <vector>

namespace fabric
{
namespace collective
{

inline uint64_t
CeilDiv(uint64_t a, uint64_t b)
{
    return (a + b - 1) / b;
}

/** Sizes of the chunks a block of `bytes` is sent in (one chunk when chunk is 0). */
std::vector<uint64_t> Chunks(uint64_t bytes, uint64_t chunk);

/** `v` rotated left by `by` (mod its size). */
std::vector<uint32_t> Rotated(std::vector<uint32_t> v, uint32_t by);

/** Parent of every position of an in-order binary tree over n positions (-1: the root). */
std::vector<int64_t> InOrderTreeParents(uint32_t n);

/** The ranks grouped by server, servers in order of their first rank. */
struct Servers
{
    std::vector<std::vector<uint32_t>> ranks;
    bool contiguousEqual = false; ///< each server's ranks are consecutive, all servers equal
};

Servers GroupByServer(const std::vector<uint32_t>& serverOf);

/**
 * The ring of one channel. Ranks grouped by server (consecutive, equal counts g) visit each
 * server's GPUs from local index (c - s) mod g, so the hop leaving server s lands on the same
 * local index (rail) of server s + 1: one rail leaf, no spine. Otherwise rank order.
 */
std::vector<uint32_t> RingOrder(const Servers& servers, uint32_t n, uint32_t channel);

/** The transfers of a plan as an algorithm adds them, channel by channel. */
class PlanBuilder
{
  public:
    explicit PlanBuilder(const CollectiveRequest& req);

    const CollectiveRequest& Request() const { return m_req; }
    /** Ranks. */
    uint32_t N() const { return m_n; }
    const Servers& ServerGroups() const { return m_servers; }
    /** The channel's share of the message (channels split it; the last may carry padding). */
    uint64_t ChannelBytes() const { return CeilDiv(m_req.messageBytes, m_req.channels); }
    /** The chunk of tree and broadcast (kDefaultPipelineChunk when the request sets none). */
    uint64_t PipelineChunk() const;

    /**
     * Adds a transfer of the current iteration after `after` and returns its index; the same
     * (channel, src, dst) is the same connection. The transfer also waits for what the
     * iteration and its connection's window ask (collective-plan.cc: when it is added, all it
     * depends on is known).
     */
    uint32_t Add(uint32_t src,
                 uint32_t dst,
                 uint64_t bytes,
                 uint32_t step,
                 uint32_t channel,
                 const std::vector<uint32_t>& after);

    /**
     * A ring of `steps` steps over `order` (position p sends to p + 1), each moving `block`
     * bytes (in chunks). Step 0 of position p waits for start[p] (empty: nothing). Returns,
     * per position, the transfers of the last step INTO it, chunk by chunk.
     */
    std::vector<std::vector<uint32_t>> Ring(const std::vector<uint32_t>& order,
                                            uint64_t block,
                                            uint32_t steps,
                                            uint32_t firstStep,
                                            uint32_t c,
                                            uint64_t chunk,
                                            const std::vector<std::vector<uint32_t>>& start);

  protected:
    const CollectiveRequest& m_req;
    uint32_t m_n;
    Servers m_servers;
    uint32_t m_iteration = 0;
    TransferPlan m_out;
    std::vector<std::vector<uint32_t>> m_touch; ///< per rank: the transfers it sends or receives
    std::vector<std::vector<uint32_t>> m_prevTouch; ///< m_touch of the iteration before
    std::map<std::tuple<uint32_t, uint32_t, uint32_t>, uint32_t> m_connections;
    std::vector<std::vector<uint32_t>> m_onConnection; ///< per connection: its transfers in order
};

/** A collective algorithm: stateless, one instance in the table. */
class CollectiveAlgorithm
{
  public:
    virtual ~CollectiveAlgorithm() = default;

    /** The name the scenario gives it ("ring", "tree", ...). */
    virtual const char* Name() const = 0;

    /**
     * Preconditions beyond the op accepting the algorithm and n >= 2 (checked before): throws
     * PlanError. None by default.
     */
    virtual void Check(const CollectiveRequest& req) const;

    /**
     * The finest split of one channel's share of the message (every transfer carries at least
     * one byte): 1 for broadcast, else the ranks, by default.
     */
    virtual uint64_t MessageParts(const CollectiveRequest& req) const;

    /** Transfers of one channel and iteration (a double: checked against limits before). */
    virtual double TransfersPerChannel(const CollectiveRequest& req) const = 0;

    /** Whether the flow engine may stream its connections (collective-plan.h). No by default. */
    virtual bool Streamable(const CollectiveRequest& req) const;

    /** Adds the transfers of channel c of the current iteration. */
    virtual void PlanChannel(PlanBuilder& plan, uint32_t c) const = 0;
};

/** The algorithm of that name; nullptr when none has it. */
const CollectiveAlgorithm* FindCollectiveAlgorithm(const std::string& name);

/** Every algorithm, in the table's order. */
std::vector<const CollectiveAlgorithm*> CollectiveAlgorithms();

} // namespace collective
} // namespace fabric

#endif
