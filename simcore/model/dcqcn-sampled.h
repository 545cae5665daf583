/*
 * DCQCN reaction point in its sampled (timer-driven) form: a CNP only sets two flags; alpha is
 * updated once per alpha period (by g if a CNP arrived in that period, else decayed) and the rate
 * is cut at most once per decrease period, at the period boundary, if a CNP arrived since the last
 * check. Alpha is set to 1 by the first CNP. This is how ConnectX firmware schedules the reaction
 * point (rate_reduce_monitor_period, dce_tcp_rtt) and how the HPCC ns-3 simulator models it
 * ("Mellanox version", rdma-hw.cc); the per-CNP form is fabric::Dcqcn (docs/model.md).
 *
 * Increase stages, clamping and attributes are those of fabric::Dcqcn, so the NIC configures
 * both from the same CcConfig.
 */
#ifndef FABRIC_DCQCN_SAMPLED_H
#define FABRIC_DCQCN_SAMPLED_H

#include "model/congestion-ops.h"

#include "ns3/event-id.h"
#include "ns3/nstime.h"
#include "ns3/traced-callback.h"

namespace fabric
{

class DcqcnSampled : public CongestionOps
{
  public:
    static ns3::TypeId GetTypeId();
    DcqcnSampled();

    void Init(double lineRateBps) override;
    double GetRateBps() const override;
    void OnCnp() override;
    void OnBytesSent(uint32_t bytes) override;
    void Stop() override;
    std::string GetName() const override;

    double GetTargetBps() const;
    /** Alpha as of now: every alpha period boundary up to now applied. */
    double GetAlpha();
    /** Timer increase events since the last cut. */
    uint32_t GetTimerStage() const;

  protected:
    void DoDispose() override;

  private:
    /** Applies the alpha period boundaries at or before now (lazily: no event per period). */
    void AdvanceAlpha(int64_t nowPs);
    void OnDecreaseCheck();
    void ScheduleDecreaseCheck(int64_t nowPs);
    void OnIncreaseTimer();
    void Increase();
    void SetRate(double rate);

    // Attributes (names and meaning as fabric::Dcqcn)
    double m_g = 1.0 / 256;
    ns3::Time m_alphaPeriod;
    ns3::Time m_decreaseInterval;
    ns3::Time m_increaseTimer;
    uint64_t m_byteCounter = 0;
    uint32_t m_fastRecoverySteps = 1;
    double m_raiBps = 20e6;
    double m_rhaiBps = 200e6;
    double m_minRateBps = 1e9;
    double m_initialAlpha = 1.0;
    bool m_clampTarget = false;
    bool m_clampAfterTimerIncrease = true;
    double m_maxDecrease = 1.0;

    // State
    double m_lineRate = 0;
    double m_rate = 0;
    double m_target = 0;
    bool m_seenCnp = false;
    double m_alpha = 1.0;
    int64_t m_alphaOriginPs = 0;  ///< first CNP: alpha boundaries at origin + k x period, k >= 1
    uint64_t m_alphaTicks = 0;    ///< boundaries applied so far
    bool m_alphaFlag = false;     ///< a CNP arrived since the last alpha boundary
    int64_t m_decreaseOriginPs = 0; ///< decrease checks at origin + k x interval, k >= 0
    bool m_decreaseFlag = false;  ///< a CNP arrived since the last decrease check
    uint32_t m_timerStage = 0;
    uint32_t m_byteStage = 0;
    uint64_t m_bytesSinceStage = 0;
    bool m_timerIncreasedSinceCut = false;
    ns3::EventId m_decreaseEvent;
    ns3::EventId m_increaseEvent;

    ns3::TracedCallback<double, double> m_rateTrace; ///< old, new rate (bit/s)
};

} // namespace fabric

#endif
