#include "model/nic-faults.h"

#include "ns3/simulator.h"

#include <algorithm>

namespace fabric
{

PfcStorm::PfcStorm(RdmaNic* nic, uint8_t prio, int64_t intervalPs)
    : m_nic(nic),
      m_prio(prio),
      m_intervalPs(std::max<int64_t>(1, intervalPs))
{
}

void
PfcStorm::Start()
{
    m_on = true;
    Tick();
}

void
PfcStorm::Stop()
{
    m_on = false;
    m_next.Cancel();
}

void
PfcStorm::Tick()
{
    if (!m_on)
    {
        return;
    }
    // The buggy NIC pauses with the largest quanta and refreshes before it lapses; a NIC whose
    // watchdog fired sends nothing (SendPause refuses).
    m_nic->SendPause(m_prio, 65535, false);
    m_next = ns3::Simulator::Schedule(ns3::PicoSeconds(m_intervalPs), &PfcStorm::Tick, this);
}

SlowReceiver::SlowReceiver(RdmaNic* nic, FabricContext* ctx, double drainBps, uint64_t bufferBytes)
    : m_nic(nic),
      m_ctx(ctx),
      m_psPerByte(8e12 / drainBps),
      m_buffer(bufferBytes)
{
}

void
SlowReceiver::Start()
{
    m_on = true;
    m_nic->SetRxHook(this);
}

void
SlowReceiver::Stop()
{
    m_on = false;
    m_nic->SetRxHook(nullptr);
    while (!m_q.empty())
    {
        RocePacket p = m_q.front();
        m_q.pop_front();
        m_nic->DeliverData(p);
    }
    m_bytes = 0;
    Release();
}

void
SlowReceiver::Arrive(const RocePacket& p)
{
    uint32_t bytes = FrameBytes(p);
    if (m_bytes + bytes > m_buffer)
    {
        ++Counters(m_ctx).drops[DROP_NIC_RX_OVERFLOW];
        if (PortFault* pf = m_nic->GetPortMutable(0).fault)
        {
            ++pf->drops[DROP_NIC_RX_OVERFLOW];
        }
        return;
    }
    m_q.push_back(p);
    m_bytes += bytes;
    uint8_t prio = p.priority & 7;
    if (m_bytes >= m_buffer / 2 && !((m_paused >> prio) & 1))
    {
        if (m_nic->SendPause(prio, 65535, true))
        {
            m_paused |= static_cast<uint8_t>(1u << prio);
        }
    }
    if (!m_busy)
    {
        m_busy = true;
        ns3::Simulator::Schedule(ns3::PicoSeconds(static_cast<int64_t>(bytes * m_psPerByte + 0.5)),
                                 &SlowReceiver::DrainHead, this);
    }
}

void
SlowReceiver::DrainHead()
{
    m_busy = false;
    if (!m_on || m_q.empty())
    {
        return;
    }
    RocePacket p = m_q.front();
    m_q.pop_front();
    m_bytes -= FrameBytes(p);
    m_nic->DeliverData(p);
    if (m_bytes <= m_buffer / 4)
    {
        Release();
    }
    if (!m_q.empty())
    {
        m_busy = true;
        int64_t t = static_cast<int64_t>(FrameBytes(m_q.front()) * m_psPerByte + 0.5);
        ns3::Simulator::Schedule(ns3::PicoSeconds(t), &SlowReceiver::DrainHead, this);
    }
}

void
SlowReceiver::Release()
{
    for (uint8_t prio = 0; prio < kNumPriorities; ++prio)
    {
        if ((m_paused >> prio) & 1)
        {
            m_nic->SendPause(prio, 0, false);
        }
    }
    m_paused = 0;
}

} // namespace fabric
