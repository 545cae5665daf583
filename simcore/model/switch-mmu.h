/*
 * Shared-buffer admission of one switch: ingress accounting per (port, priority) in cells,
 * Choudhury-Hahne dynamic threshold, per-(port, priority) PFC headroom, XOFF/XON decisions.
 */
#ifndef FABRIC_SWITCH_MMU_H
#define FABRIC_SWITCH_MMU_H

#include "model/fabric-context.h"
#include "model/roce-packet.h"
#include "model/fabric-config.h"

#include <algorithm>
#include <cstdint>
#include <vector>

namespace fabric
{

/** Occupancy statistics of one ingress (port, priority), kept by its switch beside its charge. */
struct IngressOccupancy
{
    uint64_t maxBytes = 0;    ///< after warm-up
    uint64_t maxBytesRun = 0; ///< whole run
    double byteTimePs = 0;    ///< integral of occupancy over time after warm-up (bytes x ps)
    uint64_t bytes = 0;       ///< occupancy since lastChangePs
    int64_t lastChangePs = 0;
};

class SwitchMmu
{
  public:
    enum Verdict : uint8_t
    {
        ADMIT,
        DROP_HEADROOM,
        DROP_BUFFER,
        DROP_TAIL_THRESHOLD
    };

    /**
     * headroomBytes[port] is the headroom of each (port, priority). The shared pool is the
     * buffer less one headroom reservation per port (for the data priority).
     */
    void Configure(uint32_t nPorts, uint64_t bufferBytes, uint32_t cellBytes, const PfcConfig& pfc,
                   const std::vector<uint64_t>& headroomBytes);

    /** Bytes charged for a frame: rounded up to whole cells. */
    uint32_t Charge(uint32_t frameBytes) const
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

    /** Admits charge bytes arriving on (port, prio); egressBytes is the target queue's depth. */
    Verdict Admit(uint32_t port, uint8_t prio, uint32_t charge, uint64_t egressBytes)
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

    /** The frame left the switch: release its charge from (port, prio). */
    void Release(uint32_t port, uint8_t prio, uint32_t charge)
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

    /** Changes alpha from now on (a `set` fault replaying a misconfiguration). */
    void SetAlpha(double alpha)
    {
        m_pfc.alpha = alpha;
    }

    /** alpha x (free shared buffer). */
    uint64_t Threshold() const
    {
        uint64_t freeBytes = m_pool > m_sharedUsed ? m_pool - m_sharedUsed : 0;
        return static_cast<uint64_t>(m_pfc.alpha * static_cast<double>(freeBytes));
    }

    /** The ingress port's alpha (pfc.alpha_by_rate, else pfc.alpha) x (free shared buffer). */
    uint64_t Threshold(uint32_t port) const
    {
        uint64_t freeBytes = m_pool > m_sharedUsed ? m_pool - m_sharedUsed : 0;
        double alpha = port < m_portAlpha.size() ? m_portAlpha[port] : m_pfc.alpha;
        return static_cast<uint64_t>(alpha * static_cast<double>(freeBytes));
    }

    /** Gives one ingress port its own alpha (call after Configure). */
    void SetPortAlpha(uint32_t port, double alpha);

    /** PFC on and the ingress queue is over the threshold or using headroom. */
    bool ShouldPause(uint32_t port, uint8_t prio) const
    {
        if (!m_pfc.enabled)
        {
            return false;
        }
        const Ingress& in = m_ingress[Index(port, prio)];
        return in.headroom > 0 || in.shared > Threshold(port);
    }

    /** No headroom in use and the ingress queue at least the XON offset below the threshold. */
    bool ShouldResume(uint32_t port, uint8_t prio) const
    {
        const Ingress& in = m_ingress[Index(port, prio)];
        return in.headroom == 0 &&
               (in.shared == 0 || in.shared + m_pfc.xonOffsetBytes <= Threshold(port));
    }

    /**
     * What an admission or a release of one ingress (port, priority) touches, on one cache line:
     * the MMU's charge and, beside it, the statistics and XOFF state the switch keeps of it (on a
     * large fabric each separate line was a cache miss per frame: docs/benchmarks.md).
     */
    struct alignas(64) Ingress
    {
        uint64_t shared = 0;
        uint64_t headroom = 0;
        IngressOccupancy occupancy; ///< the switch's (FabricSwitch::UpdateIngressStats)
        bool xoff = false;          ///< the switch asserts XOFF for it (FabricSwitch::CheckXoff)
    };

    /** The record of (port, prio); port in range. */
    Ingress& Record(uint32_t port, uint8_t prio)
    {
        return m_ingress[Index(port, prio)];
    }
    /** Where the record of (port, prio) is, or nullptr out of range (a prefetch's hint). */
    const Ingress* RecordHint(uint32_t port, uint8_t prio) const
    {
        size_t i = Index(port, prio);
        return i < m_ingress.size() ? &m_ingress[i] : nullptr;
    }
    /** Where the record vector's own fields are (a prefetch's hint). */
    const void* RecordsHint() const
    {
        return &m_ingress;
    }
    /** The record of (port, prio), bounds checked. */
    const Ingress& RecordAt(uint32_t port, uint8_t prio) const
    {
        return m_ingress.at(Index(port, prio));
    }

    uint64_t IngressShared(uint32_t port, uint8_t prio) const;
    uint64_t IngressHeadroom(uint32_t port, uint8_t prio) const;
    uint64_t SharedPool() const;
    uint64_t HeadroomOf(uint32_t port) const;
    const PfcConfig& Pfc() const;

  private:
    uint32_t Index(uint32_t port, uint8_t prio) const
    {
        return port * kNumPriorities + (prio & 7);
    }

    PfcConfig m_pfc;
    uint32_t m_cell = 208;
    uint64_t m_cellInv = UINT64_MAX / 208 + 1; ///< x / m_cell = (m_cellInv * x) >> 64 (32-bit x)
    uint64_t m_pool = 0;
    uint64_t m_sharedUsed = 0;
    std::vector<uint64_t> m_headroom;
    std::vector<double> m_portAlpha; ///< per ingress port
    std::vector<Ingress> m_ingress;
};

} // namespace fabric

#endif
