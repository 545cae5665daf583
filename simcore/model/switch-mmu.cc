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

void
SwitchMmu::SetPortAlpha(uint32_t port, double alpha)
{
    if (port < m_portAlpha.size())
    {
        m_portAlpha[port] = alpha;
    }
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
