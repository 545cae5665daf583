/*
 * The RDMA WAN accelerator of NTT (seeds/002, section 5) as the behaviour of a DCI site edge
 * switch: for every QP whose data enters from its own site and leaves over the long-haul link,
 * it
 *  - answers each in-order DATA frame at once with a pseudo-ACK to the local sender (the PSN the
 *    receiver would acknowledge, the same QP: the flow index stands for the destination QPN;
 *    the model's ACK carries no MSN, so none is forged),
 *  - holds a copy until the far end's real ACK covers it (at most BufferBytes, all QPs
 *    together; a frame that does not fit passes through unheld and is acknowledged end to end
 *    as without the accelerator). Frames after such a gap are held but not pseudo-ACKed (an
 *    ACK is cumulative: it would vouch for the unheld ones); when the far end's ACK closes the
 *    gap, one pseudo-ACK covers the held frames that follow it, so a buffer below the long
 *    link's BDP costs throughput in proportion (about (buffer + window) / RTT) instead of
 *    switching the QP back to end-to-end ACKs for good,
 *  - absorbs the real ACKs the pseudo-ACKs already answered, and resends held data itself over
 *    the long link: go-back-N from a NACK's PSN, or all held data after RetransmitTimeout
 *    without progress. The receiving NIC keeps its go-back-N receiver, so a loss costs the
 *    held frames after it; a reorder buffer at the far edge (selective repeat) is not modelled.
 * Everything else is the FabricSwitch's: forwarding, buffer admission, PFC, ECN.
 * Attached by the network builder to the two edges of a dci topology when
 * topology.accelerator.enabled; no other switch runs this code.
 */
#ifndef FABRIC_DCI_ACCELERATOR_H
#define FABRIC_DCI_ACCELERATOR_H

#include "model/fabric-switch.h"

#include <map>
#include <unordered_map>

namespace fabric
{

/** What one accelerator did over the run (results: dci_accelerator). */
struct DciAcceleratorStats
{
    uint64_t pseudoAcks = 0;        ///< pseudo-ACKs sent to local senders
    uint64_t absorbedAcks = 0;      ///< real ACKs/NACKs from the far end not passed on
    uint64_t retransmitted = 0;     ///< DATA frames resent over the long link
    uint64_t retransmitTimeouts = 0;
    uint64_t passedUnheld = 0;      ///< DATA frames forwarded without a copy (buffer full, gap)
    uint64_t maxHeldBytes = 0;      ///< peak of frame bytes held
};

class DciAccelerator : public FabricSwitch
{
  public:
    static ns3::TypeId GetTypeId();
    DciAccelerator();

    /**
     * Call after Configure and SetRoutes: longPort is the port of the long-haul link;
     * bufferBytes bounds the frame bytes held; retransmitTimeoutPs the resend timer.
     */
    void Attach(uint32_t longPort, uint64_t bufferBytes, int64_t retransmitTimeoutPs);

    void Receive(uint32_t port, RocePacket p) override;

    const DciAcceleratorStats& Stats() const;
    uint64_t HeldBytes() const;

  private:
    /**
     * One QP seen leaving the site. The sender believes PSNs below pseudoAcked delivered; every
     * PSN in [acked, pseudoAcked) is held, so the accelerator can resend it. Held frames at or
     * above pseudoAcked follow a frame that passed unheld and wait for the far end's ACK.
     */
    struct Proxy
    {
        uint64_t acked = 0;       ///< the far end's cumulative ACK
        uint64_t pseudoAcked = 0; ///< next PSN the accelerator may answer for
        std::map<uint64_t, RocePacket> held; ///< by PSN
        int64_t lastProgressPs = 0;
        bool timerArmed = false;
        bool HoldsPseudoAcked() const
        {
            return !held.empty() && held.begin()->first < pseudoAcked;
        }
    };

    void OnLocalData(uint32_t inPort, const RocePacket& p);
    /** Returns true when the far end's ACK/NACK is absorbed here. */
    bool OnFarAck(const RocePacket& p);
    void SendPseudoAck(const RocePacket& data, uint64_t psn);
    void ReleaseUpTo(Proxy& x, uint64_t psn);
    /** Drops the held frames from PSN psn on (not pseudo-ACKed: the sender resends them). */
    void DropFrom(Proxy& x, uint64_t psn);
    /** Moves pseudoAcked over the held frames that adjoin it and pseudo-ACKs; true if it did. */
    bool AnswerHeld(Proxy& x, const RocePacket& any);
    void ResendHeld(uint32_t flow, Proxy& x);
    void ArmTimer(uint32_t flow, Proxy& x);
    void CheckTimer(uint32_t flow);

    uint32_t m_longPort = UINT32_MAX;
    uint64_t m_bufferBytes = 0;
    uint64_t m_heldBytes = 0;
    int64_t m_rtoPs = 0;
    std::unordered_map<uint32_t, Proxy> m_proxies; ///< by flow index
    DciAcceleratorStats m_stats;
};

} // namespace fabric

#endif
