#include "model/dcqcn.h"

#include "ns3/boolean.h"
#include "ns3/double.h"
#include "ns3/simulator.h"
#include "ns3/uinteger.h"

#include <algorithm>
#include <cmath>

namespace fabric
{

NS_OBJECT_ENSURE_REGISTERED(Dcqcn);

ns3::TypeId
Dcqcn::GetTypeId()
{
    using namespace ns3;
    static TypeId tid =
        TypeId("fabric::Dcqcn")
            .SetParent<CongestionOps>()
            .SetGroupName("Fabric")
            .AddConstructor<Dcqcn>()
            .AddAttribute("G", "Alpha gain g", DoubleValue(1.0 / 256),
                          MakeDoubleAccessor(&Dcqcn::m_g), MakeDoubleChecker<double>(0, 1))
            .AddAttribute("AlphaUpdatePeriod", "Alpha decays by (1-g) per period without CNP",
                          TimeValue(MicroSeconds(55)), MakeTimeAccessor(&Dcqcn::m_alphaPeriod),
                          MakeTimeChecker())
            .AddAttribute("AlphaTimerRestartsOnCnp",
                          "true: alpha decays only after a full period without CNP and each CNP "
                          "adds g at once (the DCQCN paper's wording); false: a free-running "
                          "timer updates alpha every period, adding g if a CNP came in it "
                          "(the paper's fluid model, NVIDIA dce_tcp_rtt)",
                          BooleanValue(true),
                          MakeBooleanAccessor(&Dcqcn::m_alphaRestartsOnCnp),
                          MakeBooleanChecker())
            .AddAttribute("RateDecreaseInterval", "Minimum time between two rate cuts; a CNP inside it cuts at its end",
                          TimeValue(MicroSeconds(50)),
                          MakeTimeAccessor(&Dcqcn::m_decreaseInterval), MakeTimeChecker())
            .AddAttribute("RateIncreaseTimer", "Period of the rate increase timer",
                          TimeValue(MicroSeconds(55)), MakeTimeAccessor(&Dcqcn::m_increaseTimer),
                          MakeTimeChecker())
            .AddAttribute("ByteCounter", "Bytes per byte-counter increase stage (0 = off)",
                          UintegerValue(10000000), MakeUintegerAccessor(&Dcqcn::m_byteCounter),
                          MakeUintegerChecker<uint64_t>())
            .AddAttribute("FastRecoverySteps", "F", UintegerValue(5),
                          MakeUintegerAccessor(&Dcqcn::m_fastRecoverySteps),
                          MakeUintegerChecker<uint32_t>())
            .AddAttribute("RaiBps", "Additive increase step (bit/s)", DoubleValue(40e6),
                          MakeDoubleAccessor(&Dcqcn::m_raiBps), MakeDoubleChecker<double>(0))
            .AddAttribute("RhaiBps", "Hyper increase step (bit/s)", DoubleValue(200e6),
                          MakeDoubleAccessor(&Dcqcn::m_rhaiBps), MakeDoubleChecker<double>(0))
            .AddAttribute("MinRateBps", "Minimum rate (bit/s)", DoubleValue(100e6),
                          MakeDoubleAccessor(&Dcqcn::m_minRateBps), MakeDoubleChecker<double>(0))
            .AddAttribute("InitialAlpha", "Alpha at start", DoubleValue(1.0),
                          MakeDoubleAccessor(&Dcqcn::m_initialAlpha),
                          MakeDoubleChecker<double>(0, 1))
            .AddAttribute("ClampTargetRate",
                          "Every cut sets the target to the current rate (paper; NVIDIA "
                          "clamp_tgt_rate)",
                          BooleanValue(true), MakeBooleanAccessor(&Dcqcn::m_clampTarget),
                          MakeBooleanChecker())
            .AddAttribute("ClampTargetAfterTimerIncrease",
                          "With ClampTargetRate off: a cut sets the target to the current rate "
                          "only if the increase timer raised the rate since the previous cut "
                          "(NVIDIA clamp_tgt_rate_after_time_inc)",
                          BooleanValue(false),
                          MakeBooleanAccessor(&Dcqcn::m_clampAfterTimerIncrease),
                          MakeBooleanChecker())
            .AddAttribute("MaxDecrease",
                          "Largest fraction of the current rate one cut may take off "
                          "(1 = unbounded; NVIDIA rpg_min_dec_fac 50 % = 0.5)",
                          DoubleValue(1.0), MakeDoubleAccessor(&Dcqcn::m_maxDecrease),
                          MakeDoubleChecker<double>(0, 1))
            .AddTraceSource("Rate", "Sending rate changed (old, new) in bit/s",
                            MakeTraceSourceAccessor(&Dcqcn::m_rateTrace),
                            "ns3::TracedValueCallback::Double");
    return tid;
}

Dcqcn::Dcqcn()
    : m_alphaPeriod(ns3::MicroSeconds(55)),
      m_decreaseInterval(ns3::MicroSeconds(50)),
      m_increaseTimer(ns3::MicroSeconds(55))
{
}

void
Dcqcn::Init(double lineRateBps)
{
    m_lineRate = lineRateBps;
    m_rate = lineRateBps;
    m_target = lineRateBps;
    m_alpha = m_initialAlpha;
    m_cnpSinceTick = false;
    m_timerIncreasedSinceCut = false;
    m_alphaRefPs = ns3::Simulator::Now().GetPicoSeconds();
}

double
Dcqcn::GetRateBps() const
{
    return m_rate;
}

double
Dcqcn::GetTargetBps() const
{
    return m_target;
}

double
Dcqcn::GetAlpha() const
{
    int64_t period = m_alphaPeriod.GetPicoSeconds();
    if (period <= 0)
    {
        return m_alpha;
    }
    int64_t elapsed = ns3::Simulator::Now().GetPicoSeconds() - m_alphaRefPs;
    int64_t n = elapsed > 0 ? elapsed / period : 0;
    if (n == 0)
    {
        return m_alpha;
    }
    if (m_alphaRestartsOnCnp)
    {
        return m_alpha * std::pow(1.0 - m_g, static_cast<double>(n));
    }
    // Periodic timer: the first tick since m_alphaRefPs counts the CNPs seen before it, the
    // later ones saw none.
    double first = (1.0 - m_g) * m_alpha + (m_cnpSinceTick ? m_g : 0.0);
    return first * std::pow(1.0 - m_g, static_cast<double>(n - 1));
}

void
Dcqcn::AdvanceAlpha()
{
    int64_t period = m_alphaPeriod.GetPicoSeconds();
    int64_t now = ns3::Simulator::Now().GetPicoSeconds();
    if (period <= 0 || now - m_alphaRefPs < period)
    {
        return;
    }
    int64_t n = (now - m_alphaRefPs) / period;
    m_alpha = GetAlpha();
    m_alphaRefPs += n * period;
    m_cnpSinceTick = false;
}

uint32_t
Dcqcn::GetTimerStage() const
{
    return m_timerStage;
}

uint32_t
Dcqcn::GetByteStage() const
{
    return m_byteStage;
}

bool
Dcqcn::GetTimerIncreasedSinceCut() const
{
    return m_timerIncreasedSinceCut;
}

void
Dcqcn::SetRate(double rate)
{
    double old = m_rate;
    m_rate = std::min(std::max(rate, m_minRateBps), m_lineRate);
    if (old != m_rate)
    {
        m_rateTrace(old, m_rate);
    }
}

void
Dcqcn::OnCnp()
{
    int64_t now = ns3::Simulator::Now().GetPicoSeconds();
    if (!m_alphaRestartsOnCnp)
    {
        AdvanceAlpha();
    }
    double alpha = GetAlpha();
    int64_t interval = m_decreaseInterval.GetPicoSeconds();
    if (m_lastCutPs < 0 || now - m_lastCutPs >= interval)
    {
        Cut(alpha); // the paper: the cut uses alpha as it was before this CNP
    }
    else if (!m_cutEvent.IsRunning())
    {
        // At most one cut per interval, but a CNP inside it is not lost: the cut waits for the
        // interval's end (firmware rate_reduce_monitor_period; several CNPs make one cut).
        m_cutEvent = ns3::Simulator::Schedule(ns3::PicoSeconds(m_lastCutPs + interval - now),
                                              &Dcqcn::OnDeferredCut, this);
    }
    if (m_alphaRestartsOnCnp)
    {
        m_alpha = (1.0 - m_g) * alpha + m_g;
        m_alphaRefPs = now;
    }
    else
    {
        m_cnpSinceTick = true; // counted at the next tick of the alpha timer
    }
}

void
Dcqcn::OnDeferredCut()
{
    Cut(GetAlpha());
}

void
Dcqcn::Cut(double alpha)
{
    // Target: always the current rate (paper, clamp_tgt_rate); else only when the timer
    // raised the rate since the previous cut (clamp_tgt_rate_after_time_inc); else kept.
    if (m_clampTarget || (m_clampAfterTimerIncrease && m_timerIncreasedSinceCut))
    {
        m_target = m_rate;
    }
    double factor = std::max(1.0 - alpha / 2.0, 1.0 - m_maxDecrease);
    SetRate(m_rate * factor);
    m_lastCutPs = ns3::Simulator::Now().GetPicoSeconds();
    m_timerStage = 0;
    m_byteStage = 0;
    m_bytesSinceStage = 0;
    m_timerIncreasedSinceCut = false;
    ScheduleIncrease();
}

void
Dcqcn::ScheduleIncrease()
{
    m_increaseEvent.Cancel();
    if (m_increaseTimer.IsStrictlyPositive())
    {
        m_increaseEvent = ns3::Simulator::Schedule(m_increaseTimer, &Dcqcn::OnIncreaseTimer, this);
    }
}

void
Dcqcn::OnIncreaseTimer()
{
    ++m_timerStage;
    m_timerIncreasedSinceCut = true;
    Increase();
    if (m_rate < m_lineRate)
    {
        m_increaseEvent = ns3::Simulator::Schedule(m_increaseTimer, &Dcqcn::OnIncreaseTimer, this);
    }
}

void
Dcqcn::OnBytesSent(uint32_t bytes)
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
Dcqcn::Increase()
{
    // Stages per the DCQCN paper: fast recovery while both counters are <= F, hyper increase
    // once both exceed F, additive increase in between. Without a byte counter the timer alone
    // counts: F fast-recovery steps, F additive steps, then hyper increase (docs/model.md).
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
Dcqcn::Stop()
{
    m_increaseEvent.Cancel();
    m_cutEvent.Cancel();
}

std::string
Dcqcn::GetName() const
{
    return "dcqcn";
}

void
Dcqcn::DoDispose()
{
    m_increaseEvent.Cancel();
    m_cutEvent.Cancel();
    CongestionOps::DoDispose();
}

} // namespace fabric
