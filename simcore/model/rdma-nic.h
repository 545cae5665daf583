/*
 * An RDMA NIC with RC queue pairs: PSN, ACK coalescing, NACK and go-back-N, retransmission
 * timeout, a window of outstanding bytes, per-QP rate pacing by a CongestionOps reaction point,
 * the DCQCN notification point (CNP generation) and PFC pause of its egress per priority.
 * One port per NIC; several QPs share it round-robin.
 */
#ifndef FABRIC_RDMA_NIC_H
#define FABRIC_RDMA_NIC_H

#include "model/fabric-device.h"
#include "model/packet-queue.h"

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
    uint32_t ActiveQps() const;

  protected:
    bool Dequeue(uint32_t port, RocePacket& out) override;
    bool HasBacklog(uint32_t port) const override;
    void DoDispose() override;

  private:
    void OnData(const RocePacket& p);
    void OnAck(const RocePacket& p, bool nack);
    void OnCnp(const RocePacket& p);
    void OnMarked(uint32_t flow, int64_t now);
    void SendCnp(uint32_t flow);
    void SendPendingCnp(uint32_t flow);
    void SendControl(const FlowState& f, PacketKind kind, uint32_t psn);
    bool BuildData(uint32_t flow, RocePacket& out, int64_t now);
    void RetireFlow(uint32_t flow);
    void ScheduleWake(int64_t atPs);
    void Wake();
    void CheckRto(uint32_t flow);

    NicConfig m_cfg;
    ns3::ObjectFactory m_ccFactory;
    PacketQueue m_ctrl;
    std::vector<uint32_t> m_active; ///< sending QPs (flow indices), in round-robin order
    size_t m_rr = 0;
    int64_t m_wakeAtPs = kForeverPs;
    int64_t m_rtoPs = 1000000000;
    int64_t m_cnpIntervalPs = 50000000;
    bool m_cnpWindow = true; ///< NicConfig::cnpMode == "window"

    ns3::TracedCallback<uint32_t> m_cnpTxTrace; ///< flow id of the QP a CNP was sent for
    ns3::TracedCallback<uint32_t> m_cnpRxTrace;
    ns3::TracedCallback<uint32_t> m_completeTrace; ///< flow id completed at this receiver
};

} // namespace fabric

#endif
