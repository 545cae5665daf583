/*
 * DCQCN reaction point (Zhu et al., SIGCOMM 2015), as described in docs/model.md.
 */
#ifndef FABRIC_DCQCN_H
#define FABRIC_DCQCN_H

#include "model/congestion-ops.h"

#include "ns3/event-id.h"
#include "ns3/nstime.h"
#include "ns3/traced-callback.h"

namespace fabric
{

class Dcqcn : public CongestionOps
{
  public:
    static ns3::TypeId GetTypeId();
    Dcqcn();

    void Init(double lineRateBps) override;
    double GetRateBps() const override;
    void OnCnp() override;
    void OnBytesSent(uint32_t bytes) override;
    void Stop() override;
    std::string GetName() const override;

    /** Target rate in bit/s. */
    double GetTargetBps() const;
    /** Alpha as of now, the alpha timer's ticks applied lazily. */
    double GetAlpha() const;
    /** Rate increase events since the last cut (timer, byte counter). */
    uint32_t GetTimerStage() const;
    uint32_t GetByteStage() const;
    /** Whether the increase timer raised the rate since the last cut (clamp-after-timer). */
    bool GetTimerIncreasedSinceCut() const;

  protected:
    void DoDispose() override;

  private:
    void OnIncreaseTimer();
    void OnDeferredCut();
    void AdvanceAlpha();
    void Cut(double alpha);
    void Increase();
    void ScheduleIncrease();
    void SetRate(double rate);

    // Attributes
    double m_g = 1.0 / 256;
    ns3::Time m_alphaPeriod;
    ns3::Time m_decreaseInterval;
    ns3::Time m_increaseTimer;
    uint64_t m_byteCounter = 10000000;
    uint32_t m_fastRecoverySteps = 5;
    double m_raiBps = 40e6;
    double m_rhaiBps = 200e6;
    double m_minRateBps = 100e6;
    double m_initialAlpha = 1.0;
    bool m_alphaRestartsOnCnp = true;     ///< alpha timer restarted by each CNP (else periodic)
    bool m_clampTarget = true;            ///< paper: every cut sets Rt = Rc
    bool m_clampAfterTimerIncrease = false; ///< with m_clampTarget off: Rt = Rc only after a timer increase
    double m_maxDecrease = 1.0;           ///< largest fraction of Rc one cut may take off

    // State
    double m_lineRate = 0;
    double m_rate = 0;
    double m_target = 0;
    double m_alpha = 1.0;          ///< alpha at m_alphaRefPs
    int64_t m_alphaRefPs = 0;      ///< time alpha was last set (last CNP or timer tick, or Init)
    bool m_cnpSinceTick = false;   ///< periodic alpha timer: a CNP came since the last tick
    int64_t m_lastCutPs = -1;      ///< -1: never cut
    uint32_t m_timerStage = 0;
    uint32_t m_byteStage = 0;
    uint64_t m_bytesSinceStage = 0;
    bool m_timerIncreasedSinceCut = false;
    ns3::EventId m_increaseEvent;
    ns3::EventId m_cutEvent; ///< a cut owed at the end of the decrease interval

    ns3::TracedCallback<double, double> m_rateTrace; ///< old, new rate (bit/s)
};

} // namespace fabric

#endif
