/*
 * "erd": the ERD transport (Lin et al., reliable-datagram multipath QPs for hyperscale AI
 * clusters; docs/model.md, "ERD"). One RD QP per process carries every destination, so a NIC
 * holds p QP contexts. Each message's packets leave over nic.erd.paths UDP source ports in
 * turn (packet k of a QP by port k mod paths), so ECMP spreads them; every DATA frame carries
 * the RD headers (RDETH 4 + DETH 8 bytes) and the EETH (Type 1 bit, Msg_ID 2, S_Len 2,
 * S_Offset 4: 9 bytes with the bit rounded up to a byte), 21 bytes more than an RC frame.
 *
 * Receiver: a bitmap per message (kept as one bitmap over the QP's undelivered PSNs, which are
 * the concatenated messages); a message is delivered once complete and only after every
 * earlier message (order of Msg_ID), and one ACK per delivered batch tells the sender (the
 * paper's "receiver notifies the sender", stage 5). No per-packet ACK. Every T
 * (nic.erd.nack_interval_us; "auto" = 2.5 x the flow's RTT as measured from its ACKs, at least
 * its base RTT: the paper's 2-3 RTT from its RTT Detector) a scan
 * NACKs each run of missing packets that were already overtaken at the previous scan (so
 * missing for at least T: late, not merely reordered), and, when nothing arrived for a whole
 * T, the tail after the highest packet seen. NACKs and ACKs travel as control frames on the
 * QP's fixed source port at the control priority (the "retransmission info path"); a lost
 * NACK is repeated at the next scan because the hole is still there.
 *
 * Sender: best effort, never waits for an ACK except that the send buffer (qp_depth
 * messages) bounds what is unacknowledged. A NACKed packet goes to the QP's retry queue,
 * which is served before the QP's new data (the paper's high-priority RetryQ), unless its
 * latest copy is younger than T (it may still be in flight); a retransmission leaves by the
 * next path. The NIC's retransmission timeout resends the highest packet sent (a tail probe):
 * its arrival lets the receiver's scan find the holes, or repeats a lost ACK.
 */
#ifndef FABRIC_ERD_TRANSPORT_H
#define FABRIC_ERD_TRANSPORT_H

#include "model/transport.h"

#include <deque>
#include <unordered_map>

namespace fabric
{

class ErdTransport : public Transport
{
  public:
    static ns3::TypeId GetTypeId();

    bool CanSend(const FlowState& f) const override;
    uint64_t NextPsn(FlowState& f, int64_t now, bool& retransmit) override;
    uint16_t SourcePort(const FlowState& f, uint64_t psn) const override;
    void OnData(FlowState& f, const RocePacket& p, int64_t now) override;
    bool OnAck(FlowState& f, const RocePacket& p, bool nack, int64_t now) override;
    void OnTimeout(FlowState& f, int64_t now) override;
    void OnRetire(uint32_t flow) override;
    uint32_t ExtraHeaderBytes() const override;
    uint64_t QpsPerNic(uint64_t hosts, uint64_t processes) const override;
    uint64_t ContextKey(const FlowSpec& spec, uint32_t processes) const override;
    std::string GetName() const override;

    /** The NACK scan period of a flow: nic.erd.nack_interval_us, or 2.5 x its base RTT. */
    int64_t NackIntervalPs(const FlowState& f) const;
    /** Source port of path k (0 .. paths-1) of a QP whose own port is base: all distinct. */
    static uint16_t PathPort(uint16_t base, uint32_t k);

  private:
    enum : uint8_t
    {
        QUEUED = 1, ///< waits in the retry queue
        RESENT = 2  ///< sent more than once (no RTT sample from its ACK)
    };

    struct Sender
    {
        std::deque<int64_t> sentPs; ///< per PSN in [sndUna, sndNxt): its latest transmission
        std::deque<uint8_t> queued; ///< per PSN in [sndUna, sndNxt): QUEUED | RESENT
        std::deque<uint64_t> retry; ///< the RetryQ: NACKed PSNs, oldest first
    };

    struct Receiver
    {
        std::deque<uint8_t> have; ///< per PSN from f.expected (the first undelivered): arrived
        uint64_t leading = 0;     ///< arrived PSNs at the front of have without a gap
        uint64_t held = 0;        ///< arrived, not yet delivered (the reorder buffer)
        uint64_t highest = 0;     ///< highest PSN seen + 1
        uint64_t highestAtScan = 0;
        bool arrivedSinceScan = false;
        bool scanPending = false;
    };

    uint32_t FlowIndex(const FlowState& f) const;
    uint64_t PacketsPerMessage(const FlowState& f) const;
    /** Delivers every complete message at the head of the bitmap; returns whether any. */
    bool DeliverCompleteMessages(FlowState& f, Receiver& r, const RocePacket& p, int64_t now);
    /** The receiver's periodic bitmap scan (one chain of events per receiving flow). */
    void Scan(uint32_t flow);
    void QueueRetry(Sender& s, const FlowState& f, uint64_t psn);

    std::unordered_map<uint32_t, Sender> m_senders;
    std::unordered_map<uint32_t, Receiver> m_receivers;
    bool m_lastWasRetry = false; ///< the PSN NextPsn just returned is a retransmission
};

} // namespace fabric

#endif
