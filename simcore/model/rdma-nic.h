/*
 * An RDMA NIC: queue pairs whose reliability (PSN order, ACKs, retransmission) is a Transport
 * chosen by TypeId (RC go-back-N, XRC, sprayed, ERD), a retransmission timeout, a window of
 * outstanding bytes, per-QP rate pacing by a CongestionOps reaction point, the DCQCN
 * notification point (CNP generation), a QP-context cache and PFC pause of its egress per
 * priority. Several QPs share the port round-robin. A multi-plane NIC (topology multi_plane) has
 * a port per plane: RC and XRC pin each QP to one plane by a hash, the sprayed and ERD
 * transports send each packet on whichever plane is free (docs/model.md, "Multi-plane NICs");
 * a one-port NIC runs the same code as before.
 */
#ifndef FABRIC_RDMA_NIC_H
#define FABRIC_RDMA_NIC_H

#include "model/fabric-device.h"
#include "model/packet-queue.h"
#include "model/qp-context-cache.h"
#include "model/transport.h"

#include "ns3/object-factory.h"
#include "ns3/traced-callback.h"

#include <vector>

namespace fabric
{

class RdmaNic : public FabricDevice
{
  public:
    static ns3::TypeId GetTypeId();
    RdmaNic();

    void Configure(FabricContext* ctx, uint32_t node, const NicConfig& cfg);

    /** Starts sending flow (an index into the context's flow table). */
    void StartFlow(uint32_t flow);

    /**
     * Posts the next message of a connection (a flow carrying transfers, in order): its
     * packets follow the ones posted before on the same QP, whose congestion-control state,
     * PSNs and path carry over. The first post starts the QP.
     */
    void PostMessage(uint32_t flow);

    void Receive(uint32_t port, RocePacket p) override;
    void PrefetchReceive(uint32_t port, const RocePacket& p, uint32_t stage) const override;
    void PrefetchTransmit(uint32_t port, uint32_t stage) const override;
    /** Fetches this NIC's own lines (the prefetch stages' first). */
    void PrefetchOwnFields() const;

    /**
     * Multi-plane NICs (more than one port): per port, the attachment table of that port's
     * plane (host -> attachment, UINT32_MAX when the host cannot be reached on that plane);
     * the NIC sends nothing toward a destination over a plane that cannot reach it.
     */
    void SetPlaneRoutes(std::vector<const std::vector<uint32_t>*> portAttach);
    /** The port a flow's packets leave by when it is pinned (RC, XRC); 0 on a one-port NIC. */
    uint32_t PathPort(const FlowSpec& f) const;
    /** Whether this NIC sends each packet of a QP on whichever plane is free (several ports,
     *  a transport that tolerates reordering: sprayed, ERD). */
    bool SpraysPlanes() const
    {
        return m_multiPort && !m_goBackN;
    }
    const NicConfig& Config() const;
    const Transport& GetTransport() const;
    /** Sends that found their QP context out of the cache (nic.qp_cache_entries). */
    uint64_t QpCacheMisses() const;

    // Fault hooks (model/fault-schedule.cc, model/nic-faults.cc).
    /**
     * Sends a PFC frame toward the ToR: quanta 0 resumes, indefinite holds until a resume.
     * Returns false when the NIC watchdog has stopped this NIC from pausing.
     */
    bool SendPause(uint8_t prio, uint16_t quanta, bool indefinite);
    /** NIC watchdog: a pause asserted continuously for detectPs is released and no more sent. */
    void SetPauseWatchdog(bool enabled, int64_t detectPs);
    bool PauseWatchdogFired() const;
    int64_t PauseWatchdogFiredPs() const;
    /** Received DATA goes to hook (a slow receive pipeline) instead of straight to the QP. */
    void SetRxHook(class SlowReceiver* hook);
    /** Hands a received DATA frame to its QP (the end of the receive pipeline). */
    void DeliverData(const RocePacket& p);
    void SetRtoUs(double rtoUs);
    void SetCnpIntervalUs(double us);

  protected:
    bool Dequeue(uint32_t port, RocePacket& out) override;
    bool HasBacklog(uint32_t port) const override;
    void DoDispose() override;

  private:
    friend class Transport; // the reliability layer acknowledges and delivers through the NIC
    friend class MultiPlaneNic;

    /** Starts a transmission on every port that may send (one port: TryTransmit(0)). */
    void Kick()
    {
        if (__builtin_expect(m_multiPort, 0))
        {
            KickPorts();
        }
        else
        {
            TryTransmit(0);
        }
    }
    __attribute__((noinline, cold)) void KickPorts();
    /** Queues a control frame for the wire. */
    void PushControl(const RocePacket& c)
    {
        if (__builtin_expect(m_multiPort, 0))
        {
            PushControlPlane(c);
            return;
        }
        m_ctrl.Push(c);
        TryTransmit(0);
    }
    /** Multi-plane: a pause on every port, other control frames on the port of the last
     *  arrival (the plane the flow's data came by), or the first usable one. */
    __attribute__((noinline, cold)) void PushControlPlane(const RocePacket& c);
    /** Multi-plane Dequeue: the port's control frames, then the round robin over the QPs that
     *  may use this port (pinned to it, or spraying and its plane reaches the destination). */
    bool DequeuePlane(uint32_t port, RocePacket& out);
    /** The round robin over the QPs (kPlanes: only those that may use port). */
    template <bool kPlanes>
    __attribute__((always_inline)) inline bool DequeueData(uint32_t port, RocePacket& out);
    /** Whether port is up here and its plane reaches dst. */
    bool PlaneUsable(uint32_t port, uint32_t dst) const;
    void OnData(const RocePacket& p);
    /** switch.trimming: a DATA frame's header whose payload a switch cut (out of line: rare). */
    __attribute__((noinline)) void OnTrimmedFrame(const RocePacket& p);
    void OnAck(const RocePacket& p, bool nack);
    void OnCnp(const RocePacket& p);
    void OnMarked(uint32_t flow, int64_t now);
    void SendCnp(uint32_t flow);
    void SendPendingCnp(uint32_t flow);
    void SendControl(const FlowState& f, PacketKind kind, uint32_t psn, uint32_t sack = 0);
    bool BuildData(uint32_t flow, RocePacket& out, int64_t now);
    void RetireFlow(uint32_t flow);
    /** Takes flow out of the round robin (finished, or a connection with nothing posted). */
    void Deactivate(uint32_t flow);
    void ScheduleWake(int64_t atPs);
    void Wake();
    void CheckRto(uint32_t flow);
    void CheckPauseWatchdog(int64_t since);
    /** The payload bytes of a frame whose last bit arrives now that arrived after warm-up:
     * all of them unless the frame's serialization began before the warm-up ended. */
    uint64_t PayloadInWindow(const RocePacket& p, int64_t now) const;

    NicConfig m_cfg;
    ns3::ObjectFactory m_ccFactory;
    ns3::Ptr<Transport> m_transport;
    bool m_goBackN = true; ///< RC or XRC: the window test is inlined (no virtual call per QP)
    uint32_t m_dataOverheadBytes = 0; ///< wire bytes of a DATA frame besides its payload
    QpContextCache m_qpCache;
    int64_t m_qpMissPs = 0;
    int64_t m_stallUntilPs = 0; ///< transmit pipeline waits for a QP context until then
    PacketQueue m_ctrl;
    // Multi-plane NICs only (several ports); a one-port NIC never reads these.
    bool m_multiPort = false;
    uint32_t m_rxPort = 0; ///< the port the frame being received came in by
    double m_nicRateBps = 0; ///< all ports together: a spraying QP's line rate
    std::vector<PacketQueue> m_portCtrl; ///< control frames of ports 1..n-1 (port 0: m_ctrl)
    std::vector<size_t> m_portRr; ///< per port: its round robin over m_active
    std::vector<const std::vector<uint32_t>*> m_portAttach; ///< per port: SetPlaneRoutes
    std::vector<uint32_t> m_active; ///< sending QPs (flow indices), in round-robin order
    size_t m_rr = 0;
    int64_t m_wakeAtPs = kForeverPs;
    int64_t m_rtoPs = 1000000000;
    int64_t m_cnpIntervalPs = 50000000;
    bool m_cnpWindow = true; ///< NicConfig::cnpMode == "window"
    class SlowReceiver* m_rxHook = nullptr;
    bool m_wdEnabled = false;
    int64_t m_wdDetectPs = 0;
    int64_t m_wdFiredPs = -1;
    int64_t m_pauseSincePs = -1; ///< start of the pause this NIC asserts now, -1 if none
    int64_t m_pauseLapsePs = -1; ///< when that pause lapses unless refreshed
    uint8_t m_pausedPrios = 0;   ///< priorities this NIC has paused (not yet resumed)

    ns3::TracedCallback<uint32_t> m_cnpTxTrace; ///< flow id of the QP a CNP was sent for
    ns3::TracedCallback<uint32_t> m_cnpRxTrace;
    ns3::TracedCallback<uint32_t> m_completeTrace; ///< flow id completed at this receiver
    ns3::TracedCallback<uint32_t> m_messageTrace;  ///< transfer completed at this receiver
    ns3::TracedCallback<uint32_t> m_postTrace;     ///< connection (flow) a message was posted on
};

/**
 * The NIC of a multi-plane host (more than one port, one per plane): its own Dequeue,
 * HasBacklog and Receive, so a one-port RdmaNic's per-packet path is the one it always was.
 */
class MultiPlaneNic : public RdmaNic
{
  public:
    static ns3::TypeId GetTypeId();

    void Receive(uint32_t port, RocePacket p) override;

  protected:
    bool Dequeue(uint32_t port, RocePacket& out) override;
    bool HasBacklog(uint32_t port) const override;
};

} // namespace fabric

#endif
