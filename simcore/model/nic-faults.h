/*
 * Faults of a NIC (Guo et al. 2016, sections 4.3 and 4.4): a PFC pause storm (a NIC that keeps
 * sending pause frames) and the slow-receiver symptom (a receive pipeline that drains slower
 * than the link and pauses the ToR). Both act through RdmaNic's public hooks.
 */
#ifndef FABRIC_NIC_FAULTS_H
#define FABRIC_NIC_FAULTS_H

#include "model/fabric-context.h"
#include "model/rdma-nic.h"

#include "ns3/event-id.h"

#include <cstdint>
#include <deque>

namespace fabric
{

/** A NIC sending a pause frame of 65535 quanta every intervalPs from Start() until Stop(). */
class PfcStorm
{
  public:
    PfcStorm(RdmaNic* nic, uint8_t prio, int64_t intervalPs);
    void Start();
    void Stop();

  private:
    void Tick();

    RdmaNic* m_nic;
    uint8_t m_prio;
    int64_t m_intervalPs;
    bool m_on = false;
    ns3::EventId m_next;
};

/**
 * A receive pipeline draining at drainBps: DATA waits in a buffer of bufferBytes; the NIC sends
 * XOFF at half of it and XON at a quarter; a full buffer drops (DROP_NIC_RX_OVERFLOW).
 */
class SlowReceiver
{
  public:
    SlowReceiver(RdmaNic* nic, FabricContext* ctx, double drainBps, uint64_t bufferBytes);
    /** Hooks the NIC's receive path. */
    void Start();
    /** The pipeline is healthy again: what waits is delivered now and the pause released. */
    void Stop();
    /** A DATA frame arrived from the wire. */
    void Arrive(const RocePacket& p);

  private:
    void DrainHead();
    void Release();

    RdmaNic* m_nic;
    FabricContext* m_ctx;
    double m_psPerByte;
    uint64_t m_buffer;
    std::deque<RocePacket> m_q;
    uint64_t m_bytes = 0;
    uint8_t m_paused = 0; ///< priorities this pipeline has paused
    bool m_busy = false;
    bool m_on = false;
};

} // namespace fabric

#endif
