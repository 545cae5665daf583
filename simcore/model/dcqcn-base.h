/*
 * What the two DCQCN reaction points (fabric::Dcqcn, per CNP; fabric::DcqcnSampled, timer
 * driven) share: the rate increase (timer and byte counter stages, fast recovery, additive and
 * hyper increase), the cut of the current rate by alpha with the target clamping rules, the
 * rate bounds and the attributes with those meanings. Each subclass registers them with its own
 * defaults (AddSharedAttributes) and decides when to cut and how alpha evolves.
 */
#ifndef FABRIC_DCQCN_BASE_H
#define FABRIC_DCQCN_BASE_H

#include "model/congestion-ops.h"

#include "ns3/event-id.h"
#include "ns3/nstime.h"
#include "ns3/traced-callback.h"

namespace fabric
{

class DcqcnBase : public CongestionOps
{
  public:
    double GetRateBps() const override;
    void OnBytesSent(uint32_t bytes) override;

    /** Target rate in bit/s. */
    double GetTargetBps() const;
    /** Rate increase events since the last cut (timer, byte counter). */
    uint32_t GetTimerStage() const;
    uint32_t GetByteStage() const;
    /** Whether the increase timer raised the rate since the last cut (clamp-after-timer). */
    bool GetTimerIncreasedSinceCut() const;

  protected:
    /** Defaults of the shared attributes, which differ between the two reaction points. */
    struct SharedDefaults
    {
        double increaseTimerUs;
        uint64_t byteCounter;
        uint32_t fastRecoverySteps;
        double raiBps;
        double minRateBps;
        bool clampTarget;
        bool clampAfterTimerIncrease;
    };

    /** Adds G, RateIncreaseTimer, ByteCounter, FastRecoverySteps, RaiBps, RhaiBps, MinRateBps,
     *  ClampTargetRate, ClampTargetAfterTimerIncrease, MaxDecrease and the Rate trace. */
    static ns3::TypeId AddSharedAttributes(ns3::TypeId tid, const SharedDefaults& d);

    /** Line rate, current and target rate set to lineRateBps, alpha to InitialAlpha. */
    void ResetRates(double lineRateBps);
    /** Cuts the current rate by alpha (target clamped per the attributes), resets the increase
     *  stages and restarts the increase timer. */
    void CutRate(double alpha);
    /** One increase step: fast recovery, additive or hyper increase by the stage counts. */
    void Increase();
    /** Sets the rate within [MinRateBps, line rate], firing the Rate trace when it changes. */
    void SetRate(double rate);
    void StopIncrease();

    // Attributes
    double m_g = 1.0 / 256;
    ns3::Time m_alphaPeriod;
    ns3::Time m_decreaseInterval;
    ns3::Time m_increaseTimer;
    uint64_t m_byteCounter = 0;
    uint32_t m_fastRecoverySteps = 5;
    double m_raiBps = 40e6;
    double m_rhaiBps = 200e6;
    double m_minRateBps = 100e6;
    double m_initialAlpha = 1.0;
    bool m_clampTarget = true;              ///< every cut sets Rt = Rc
    bool m_clampAfterTimerIncrease = false; ///< else Rt = Rc only after a timer increase
    double m_maxDecrease = 1.0;             ///< largest fraction of Rc one cut may take off

    // State
    double m_lineRate = 0;
    double m_rate = 0;
    double m_target = 0;
    double m_alpha = 1.0;
    uint32_t m_timerStage = 0;
    uint32_t m_byteStage = 0;
    uint64_t m_bytesSinceStage = 0;
    bool m_timerIncreasedSinceCut = false;

  private:
    void OnIncreaseTimer();

    ns3::EventId m_increaseEvent;
    ns3::TracedCallback<double, double> m_rateTrace; ///< old, new rate (bit/s)
};

} // namespace fabric

#endif
