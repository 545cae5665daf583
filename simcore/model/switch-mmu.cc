#include "model/switch-mmu.h"

#include <algorithm>

namespace fabric
{

void
SwitchMmu::Configure(uint32_t nPorts, uint64_t bufferBytes, uint32_t cellBytes,
                     const PfcConfig& pfc, const std::vector<uint64_t>& headroomBytes)
{
    m_pfc = pfc;
    m_cell = std::max<uint32_t>(1, cellBytes);
    m_cellInv = UINT64_MAX / m_cell + 1;
    m_headroom.assign(nPorts, 0);
    m_portAlpha.assign(nPorts, pfc.alpha);
    uint64_t reserved = 0;
    for (uint32_t i = 0; i < nPorts && i < headroomBytes.size(); ++i)
    {
        m_headroom[i] = pfc.enabled ? headroomBytes[i] : 0;
        reserved += m_headroom[i];
    }
    m_pool = bufferBytes > reserved ? bufferBytes - reserved : 0;
    m_sharedUsed = 0;
    m_ingress.assign(static_cast<size_t>(nPorts) * kNumPriorities, Ingress());
}

uint32_t
SwitchMmu::Charge(uint32_t frameBytes) const
{
    // Whole cells, rounded up; the division is a multiplication (exact for 32-bit operands).
    uint64_t x = static_cast<uint64_t>(frameBytes) + m_cell - 1;
    if (x > UINT32_MAX || m_cell == 1)
    {
        return static_cast<uint32_t>(x / m_cell * m_cell);
    }
    uint64_t cells = static_cast<uint64_t>((static_cast<unsigned __int128>(m_cellInv) * x) >> 64);
    return static_cast<uint32_t>(cells * m_cell);
}

uint64_t
SwitchMmu::Threshold() const
{
    uint64_t freeBytes = m_pool > m_sharedUsed ? m_pool - m_sharedUsed : 0;
    return static_cast<uint64_t>(m_pfc.alpha * static_cast<double>(freeBytes));
}

uint64_t
SwitchMmu::Threshold(uint32_t port) const
{
    uint64_t freeBytes = m_pool > m_sharedUsed ? m_pool - m_sharedUsed : 0;
    double alpha = port < m_portAlpha.size() ? m_portAlpha[port] : m_pfc.alpha;
    return static_cast<uint64_t>(alpha * static_cast<double>(freeBytes));
}

void
SwitchMmu::SetPortAlpha(uint32_t port, double alpha)
{
    if (port < m_portAlpha.size())
    {
        m_portAlpha[port] = alpha;
    }
}

SwitchMmu::Verdict
SwitchMmu::Admit(uint32_t port, uint8_t prio, uint32_t charge, uint64_t egressBytes)
{
    uint32_t idx = Index(port, prio);
    if (idx >= m_ingress.size())
    {
        return DROP_BUFFER;
    }
    Ingress& in = m_ingress[idx];
    bool fitsPool = m_sharedUsed + charge <= m_pool;
    if (!m_pfc.enabled)
    {
        if (!fitsPool)
        {
            return DROP_BUFFER;
        }
        if (egressBytes + charge > Threshold())
        {
            return DROP_TAIL_THRESHOLD;
        }
        in.shared += charge;
        m_sharedUsed += charge;
        return ADMIT;
    }
    if (fitsPool && in.shared + charge <= Threshold(port))
    {
        in.shared += charge;
        m_sharedUsed += charge;
        return ADMIT;
    }
    if (in.headroom + charge <= m_headroom[port])
    {
        in.headroom += charge;
        return ADMIT;
    }
    return DROP_HEADROOM;
}

void
SwitchMmu::Release(uint32_t port, uint8_t prio, uint32_t charge)
{
    uint32_t idx = Index(port, prio);
    if (idx >= m_ingress.size())
    {
        return;
    }
    Ingress& in = m_ingress[idx];
    uint64_t fromHeadroom = std::min<uint64_t>(in.headroom, charge);
    in.headroom -= fromHeadroom;
    uint64_t fromShared = std::min<uint64_t>(in.shared, charge - fromHeadroom);
    in.shared -= fromShared;
    m_sharedUsed -= std::min(m_sharedUsed, fromShared);
}

bool
SwitchMmu::ShouldPause(uint32_t port, uint8_t prio) const
{
    if (!m_pfc.enabled)
    {
        return false;
    }
    const Ingress& in = m_ingress[Index(port, prio)];
    return in.headroom > 0 || in.shared > Threshold(port);
}

bool
SwitchMmu::ShouldResume(uint32_t port, uint8_t prio) const
{
    const Ingress& in = m_ingress[Index(port, prio)];
    return in.headroom == 0 &&
           (in.shared == 0 || in.shared + m_pfc.xonOffsetBytes <= Threshold(port));
}

uint64_t
SwitchMmu::IngressShared(uint32_t port, uint8_t prio) const
{
    return m_ingress.at(Index(port, prio)).shared;
}

uint64_t
SwitchMmu::IngressHeadroom(uint32_t port, uint8_t prio) const
{
    return m_ingress.at(Index(port, prio)).headroom;
}

uint64_t
SwitchMmu::SharedPool() const
{
    return m_pool;
}

uint64_t
SwitchMmu::HeadroomOf(uint32_t port) const
{
    return port < m_headroom.size() ? m_headroom[port] : 0;
}

const PfcConfig&
SwitchMmu::Pfc() const
{
    return m_pfc;
}

} // namespace fabric
