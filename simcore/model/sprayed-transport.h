/*
 * "sprayed": an out-of-order-tolerant transport in the manner of the multipath RDMA transports
 * shipped since 2023 (Ultra Ethernet, SRD, adaptive-routing RoCE): every DATA frame carries its
 * own UDP source port, so ECMP hashes packets of one QP onto different paths; the receiver keeps
 * a reorder buffer of nic.sprayed.reorder_window_packets and delivers the in-order prefix; every
 * ACK carries the cumulative PSN and one selectively acknowledged PSN; the sender retransmits
 * only the packets it infers lost and, on a timeout, every packet not yet SACKed. Loss is
 * inferred by time, not by a count of later arrivals (RACK, RFC 8985, simplified): spraying
 * reorders packets by the queueing difference between paths, far more than the 3 packets of
 * TCP's duplicate-ACK rule, so a count would resend much of a flow spuriously. A packet is
 * taken for lost once it has been outstanding longer than the QP's smoothed RTT plus four
 * times its RTT variation (RFC 6298's estimator, the bound a path's queueing spread sets) and
 * than the RTT of the packet just acknowledged plus a quarter of the smallest RTT seen (RACK's
 * reordering window).
 */
#ifndef FABRIC_SPRAYED_TRANSPORT_H
#define FABRIC_SPRAYED_TRANSPORT_H

#include "model/transport.h"

#include <deque>
#include <unordered_map>

namespace fabric
{

class SprayedTransport : public Transport
{
  public:
    static ns3::TypeId GetTypeId();

    bool CanSend(const FlowState& f) const override;
    uint64_t NextPsn(FlowState& f, int64_t now, bool& retransmit) override;
    uint16_t SourcePort(const FlowState& f, uint64_t psn) const override;
    void OnData(FlowState& f, const RocePacket& p, int64_t now) override;
    bool OnAck(FlowState& f, const RocePacket& p, bool nack, int64_t now) override;
    void OnTimeout(FlowState& f, int64_t now) override;
    void OnTrimmed(FlowState& f, const RocePacket& p, int64_t now) override;
    void OnRetire(uint32_t flow) override;
    uint64_t QpsPerNic(uint64_t hosts, uint64_t processes) const override;
    uint64_t ContextKey(const FlowSpec& spec, uint32_t processes) const override;
    std::string GetName() const override;

  private:
    enum : uint8_t
    {
        OUTSTANDING = 0,
        SACKED = 1,
        QUEUED = 2 ///< taken for lost, waits in the retransmission queue
    };

    struct Sender
    {
        std::deque<uint8_t> status; ///< per PSN in [sndUna, sndNxt)
        std::deque<int64_t> sentPs; ///< per PSN in [sndUna, sndNxt): its latest transmission
        std::deque<uint64_t> retx;  ///< PSNs to retransmit, oldest first
        uint64_t highestSacked = 0; ///< highest SACKed PSN + 1
        int64_t minRttPs = INT64_MAX;
        double srttPs = -1; ///< smoothed RTT (RFC 6298), -1 before the first sample
        double rttVarPs = 0;
    };

    /** Queues for retransmission the packets below highestSacked outstanding too long. */
    void DetectLosses(FlowState& f, Sender& s, int64_t latestRttPs, int64_t now);

    struct Receiver
    {
        std::deque<uint8_t> have; ///< per PSN in [expected, expected + window): arrived
    };

    uint64_t WindowPackets(const FlowState& f) const;
    uint32_t FlowIndex(const FlowState& f) const;

    std::unordered_map<uint32_t, Sender> m_senders;
    std::unordered_map<uint32_t, Receiver> m_receivers;
};

} // namespace fabric

#endif
