/*
 * An RDMA NIC: queue pairs whose reliability (PSN order, ACKs, retransmission) is a Transport
 * chosen by TypeId (RC go-back-N, XRC, sprayed, ERD), a retransmission timeout, a window of
 * outstanding bytes, per-QP rate pacing by a CongestionOps reaction point, the DCQCN
 * notification point (CNP generation), a QP-context cache and PFC pause of its egress per
 * priority. One port per NIC; several QPs share it round-robin.
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

    void Receive(uint32_t port, RocePacket p) override;

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
};

} // namespace fabric

#endif
