#include "model/dcqcn-base.h"

#include "ns3/boolean.h"
#include "ns3/double.h"
#include "ns3/simulator.h"
#include "ns3/uinteger.h"

#include <algorithm>

namespace fabric
{

ns3::TypeId
DcqcnBase::AddSharedAttributes(ns3::TypeId tid, const SharedDefaults& d)
{
    using namespace ns3;
    return tid
        .AddAttribute("G", "Alpha gain g", DoubleValue(1.0 / 256),
                      MakeDoubleAccessor(&DcqcnBase::m_g), MakeDoubleChecker<double>(0, 1))
        .AddAttribute("RateIncreaseTimer", "Period of the rate increase timer (from a cut)",
                      TimeValue(MicroSeconds(d.increaseTimerUs)),
                      MakeTimeAccessor(&DcqcnBase::m_increaseTimer), MakeTimeChecker())
        .AddAttribute("ByteCounter", "Bytes per byte-counter increase stage (0 = off)",
                      UintegerValue(d.byteCounter), MakeUintegerAccessor(&DcqcnBase::m_byteCounter),
                      MakeUintegerChecker<uint64_t>())
        .AddAttribute("FastRecoverySteps", "F", UintegerValue(d.fastRecoverySteps),
                      MakeUintegerAccessor(&DcqcnBase::m_fastRecoverySteps),
                      MakeUintegerChecker<uint32_t>())
        .AddAttribute("RaiBps", "Additive increase step (bit/s)", DoubleValue(d.raiBps),
                      MakeDoubleAccessor(&DcqcnBase::m_raiBps), MakeDoubleChecker<double>(0))
        .AddAttribute("RhaiBps", "Hyper increase step (bit/s)", DoubleValue(200e6),
                      MakeDoubleAccessor(&DcqcnBase::m_rhaiBps), MakeDoubleChecker<double>(0))
        .AddAttribute("MinRateBps", "Minimum rate (bit/s)", DoubleValue(d.minRateBps),
                      MakeDoubleAccessor(&DcqcnBase::m_minRateBps), MakeDoubleChecker<double>(0))
        .AddAttribute("ClampTargetRate",
                      "Every cut sets the target to the current rate (paper; NVIDIA "
                      "clamp_tgt_rate)",
                      BooleanValue(d.clampTarget), MakeBooleanAccessor(&DcqcnBase::m_clampTarget),
                      MakeBooleanChecker())
        .AddAttribute("ClampTargetAfterTimerIncrease",
                      "With ClampTargetRate off: a cut sets the target to the current rate "
                      "only if the increase timer raised the rate since the previous cut "
                      "(NVIDIA clamp_tgt_rate_after_time_inc)",
                      BooleanValue(d.clampAfterTimerIncrease),
                      MakeBooleanAccessor(&DcqcnBase::m_clampAfterTimerIncrease),
                      MakeBooleanChecker())
        .AddAttribute("MaxDecrease",
                      "Largest fraction of the current rate one cut may take off "
                      "(1 = unbounded; NVIDIA rpg_min_dec_fac 50 % = 0.5)",
                      DoubleValue(1.0), MakeDoubleAccessor(&DcqcnBase::m_maxDecrease),
                      MakeDoubleChecker<double>(0, 1))
        .AddTraceSource("Rate", "Sending rate changed (old, new) in bit/s",
                        MakeTraceSourceAccessor(&DcqcnBase::m_rateTrace),
                        "ns3::TracedValueCallback::Double");
}

double
DcqcnBase::GetRateBps() const
{
    return m_rate;
}

double
DcqcnBase::GetTargetBps() const
{
    return m_target;
}

uint32_t
DcqcnBase::GetTimerStage() const
{
    return m_timerStage;
}

uint32_t
DcqcnBase::GetByteStage() const
{
    return m_byteStage;
}

bool
DcqcnBase::GetTimerIncreasedSinceCut() const
{
    return m_timerIncreasedSinceCut;
}

void
DcqcnBase::ResetRates(double lineRateBps)
{
    m_lineRate = lineRateBps;
    m_rate = lineRateBps;
    m_target = lineRateBps;
    m_alpha = m_initialAlpha;
}

void
DcqcnBase::SetRate(double rate)
{
    double old = m_rate;
    m_rate = std::min(std::max(rate, m_minRateBps), m_lineRate);
    if (old != m_rate)
    {
        m_rateTrace(old, m_rate);
    }
}

void
DcqcnBase::CutRate(double alpha)
{
    // Target: always the current rate (paper, clamp_tgt_rate); else only when the timer
    // raised the rate since the previous cut (clamp_tgt_rate_after_time_inc); else kept.
    if (m_clampTarget || (m_clampAfterTimerIncrease && m_timerIncreasedSinceCut))
    {
        m_target = m_rate;
    }
    double factor = std::max(1.0 - alpha / 2.0, 1.0 - m_maxDecrease);
    SetRate(m_rate * factor);
    m_timerStage = 0;
    m_byteStage = 0;
    m_bytesSinceStage = 0;
    m_timerIncreasedSinceCut = false;
    m_increaseEvent.Cancel();
    if (m_increaseTimer.IsStrictlyPositive())
    {
        m_increaseEvent =
            ns3::Simulator::Schedule(m_increaseTimer, &DcqcnBase::OnIncreaseTimer, this);
    }
}

void
DcqcnBase::OnIncreaseTimer()
{
    ++m_timerStage;
    m_timerIncreasedSinceCut = true;
    Increase();
    if (m_rate < m_lineRate)
    {
        m_increaseEvent =
            ns3::Simulator::Schedule(m_increaseTimer, &DcqcnBase::OnIncreaseTimer, this);
    }
}

void
DcqcnBase::OnBytesSent(uint32_t bytes)
{
    if (m_byteCounter == 0 || m_rate >= m_lineRate)
    {
        return;
    }
    m_bytesSinceStage += bytes;
    if (m_bytesSinceStage >= m_byteCounter)
    {
        m_bytesSinceStage -= m_byteCounter;
        ++m_byteStage;
        Increase();
    }
}

void
DcqcnBase::Increase()
{
    // Stages per the DCQCN paper: fast recovery while both counters are <= F, hyper increase
    // once both exceed F, additive increase in between. Without a byte counter the timer alone
    // counts: F fast-recovery steps, F additive steps, then hyper increase (docs/model.md; the
    // HPCC simulator's stage < F / == F / > F counted before the increment).
    uint32_t hi = m_timerStage;
    uint32_t lo = m_timerStage > m_fastRecoverySteps ? m_timerStage - m_fastRecoverySteps : 0;
    if (m_byteCounter > 0)
    {
        hi = std::max(m_timerStage, m_byteStage);
        lo = std::min(m_timerStage, m_byteStage);
    }
    if (hi > m_fastRecoverySteps)
    {
        m_target += (lo > m_fastRecoverySteps) ? m_rhaiBps : m_raiBps;
        m_target = std::min(m_target, m_lineRate);
    }
    SetRate((m_rate + m_target) / 2.0);
}

void
DcqcnBase::StopIncrease()
{
    m_increaseEvent.Cancel();
}

} // namespace fabric
