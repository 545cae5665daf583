/*
 * DCQCN reaction point in its sampled (timer-driven) form: a CNP only sets two flags; alpha is
 * updated once per alpha period (by g if a CNP arrived in that period, else decayed) and the rate
 * is cut at most once per decrease period, at the period boundary, if a CNP arrived since the last
 * check. Alpha is set to 1 by the first CNP. This is how ConnectX firmware schedules the reaction
 * point (rate_reduce_monitor_period, dce_tcp_rtt) and how the HPCC ns-3 simulator models it
 * ("Mellanox version", rdma-hw.cc); the per-CNP form is fabric::Dcqcn (docs/model.md).
 *
 * Increase stages, clamping and the shared attributes are fabric::DcqcnBase's (as for
 * fabric::Dcqcn), so the NIC configures both from the same CcConfig.
 */
#ifndef FABRIC_DCQCN_SAMPLED_H
#define FABRIC_DCQCN_SAMPLED_H

#include "model/dcqcn-base.h"

#include "ns3/event-id.h"
#include "ns3/nstime.h"

namespace fabric
{

class DcqcnSampled : public DcqcnBase
{
  public:
    static ns3::TypeId GetTypeId();
    DcqcnSampled();

    void Init(double lineRateBps) override;
    void OnCnp() override;
    void Stop() override;
    std::string GetName() const override;

    /** Alpha as of now: every alpha period boundary up to now applied. */
    double GetAlpha();

  protected:
    void DoDispose() override;

  private:
    /** Applies the alpha period boundaries at or before now (lazily: no event per period). */
    void AdvanceAlpha(int64_t nowPs);
    void OnDecreaseCheck();
    void ScheduleDecreaseCheck(int64_t nowPs);

    bool m_seenCnp = false;
    int64_t m_alphaOriginPs = 0;  ///< first CNP: alpha boundaries at origin + k x period, k >= 1
    uint64_t m_alphaTicks = 0;    ///< boundaries applied so far
    bool m_alphaFlag = false;     ///< a CNP arrived since the last alpha boundary
    int64_t m_decreaseOriginPs = 0; ///< decrease checks at origin + k x interval, k >= 0
    bool m_decreaseFlag = false;  ///< a CNP arrived since the last decrease check
    ns3::EventId m_decreaseEvent;
};

} // namespace fabric

#endif
