#include "model/dcqcn-sampled.h"

#include "ns3/boolean.h"
#include "ns3/double.h"
#include "ns3/simulator.h"
#include "ns3/uinteger.h"

#include <algorithm>
#include <cmath>

namespace fabric
{

NS_OBJECT_ENSURE_REGISTERED(DcqcnSampled);

namespace
{
/** The first decrease check comes one interval plus 1 ns after the first CNP, so an alpha
 *  boundary falling on the same instant is applied first (as in the HPCC simulator). */
constexpr int64_t kCheckAfterAlphaPs = 1000;
} // namespace

ns3::TypeId
DcqcnSampled::GetTypeId()
{
    using namespace ns3;
    static TypeId tid =
        TypeId("fabric::DcqcnSampled")
            .SetParent<CongestionOps>()
            .SetGroupName("Fabric")
            .AddConstructor<DcqcnSampled>()
            .AddAttribute("G", "Alpha gain g", DoubleValue(1.0 / 256),
                          MakeDoubleAccessor(&DcqcnSampled::m_g), MakeDoubleChecker<double>(0, 1))
            .AddAttribute("AlphaUpdatePeriod",
                          "Alpha period: alpha = (1-g) alpha + g if a CNP arrived in it, else "
                          "(1-g) alpha",
                          TimeValue(MicroSeconds(1)), MakeTimeAccessor(&DcqcnSampled::m_alphaPeriod),
                          MakeTimeChecker())
            .AddAttribute("RateDecreaseInterval",
                          "Period of the rate decrease check (cut if a CNP arrived since the last)",
                          TimeValue(MicroSeconds(4)),
                          MakeTimeAccessor(&DcqcnSampled::m_decreaseInterval), MakeTimeChecker())
            .AddAttribute("RateIncreaseTimer", "Period of the rate increase timer (from a cut)",
                          TimeValue(MicroSeconds(300)),
                          MakeTimeAccessor(&DcqcnSampled::m_increaseTimer), MakeTimeChecker())
            .AddAttribute("ByteCounter", "Bytes per byte-counter increase stage (0 = off)",
                          UintegerValue(0), MakeUintegerAccessor(&DcqcnSampled::m_byteCounter),
                          MakeUintegerChecker<uint64_t>())
            .AddAttribute("FastRecoverySteps", "F", UintegerValue(1),
                          MakeUintegerAccessor(&DcqcnSampled::m_fastRecoverySteps),
                          MakeUintegerChecker<uint32_t>())
            .AddAttribute("RaiBps", "Additive increase step (bit/s)", DoubleValue(20e6),
                          MakeDoubleAccessor(&DcqcnSampled::m_raiBps), MakeDoubleChecker<double>(0))
            .AddAttribute("RhaiBps", "Hyper increase step (bit/s)", DoubleValue(200e6),
                          MakeDoubleAccessor(&DcqcnSampled::m_rhaiBps),
                          MakeDoubleChecker<double>(0))
            .AddAttribute("MinRateBps", "Minimum rate (bit/s)", DoubleValue(1e9),
                          MakeDoubleAccessor(&DcqcnSampled::m_minRateBps),
                          MakeDoubleChecker<double>(0))
            .AddAttribute("InitialAlpha", "Alpha set by the first CNP", DoubleValue(1.0),
                          MakeDoubleAccessor(&DcqcnSampled::m_initialAlpha),
                          MakeDoubleChecker<double>(0, 1))
            .AddAttribute("ClampTargetRate", "Every cut sets the target to the current rate",
                          BooleanValue(false), MakeBooleanAccessor(&DcqcnSampled::m_clampTarget),
                          MakeBooleanChecker())
            .AddAttribute("ClampTargetAfterTimerIncrease",
                          "With ClampTargetRate off: a cut sets the target to the current rate "
                          "only if the increase timer raised the rate since the previous cut",
                          BooleanValue(true),
                          MakeBooleanAccessor(&DcqcnSampled::m_clampAfterTimerIncrease),
                          MakeBooleanChecker())
            .AddAttribute("MaxDecrease", "Largest fraction of the current rate one cut may take off",
                          DoubleValue(1.0), MakeDoubleAccessor(&DcqcnSampled::m_maxDecrease),
                          MakeDoubleChecker<double>(0, 1))
            .AddTraceSource("Rate", "Sending rate changed (old, new) in bit/s",
                            MakeTraceSourceAccessor(&DcqcnSampled::m_rateTrace),
                            "ns3::TracedValueCallback::Double");
    return tid;
}

DcqcnSampled::DcqcnSampled()
    : m_alphaPeriod(ns3::MicroSeconds(1)),
      m_decreaseInterval(ns3::MicroSeconds(4)),
      m_increaseTimer(ns3::MicroSeconds(300))
{
}

void
DcqcnSampled::Init(double lineRateBps)
{
    m_lineRate = lineRateBps;
    m_rate = lineRateBps;
    m_target = lineRateBps;
    m_alpha = m_initialAlpha;
    m_seenCnp = false;
}

double
DcqcnSampled::GetRateBps() const
{
    return m_rate;
}

double
DcqcnSampled::GetTargetBps() const
{
    return m_target;
}

uint32_t
DcqcnSampled::GetTimerStage() const
{
    return m_timerStage;
}

double
DcqcnSampled::GetAlpha()
{
    AdvanceAlpha(ns3::Simulator::Now().GetPicoSeconds());
    return m_alpha;
}

void
DcqcnSampled::AdvanceAlpha(int64_t nowPs)
{
    int64_t period = m_alphaPeriod.GetPicoSeconds();
    if (!m_seenCnp || period <= 0 || nowPs < m_alphaOriginPs + period)
    {
        return;
    }
    uint64_t due = static_cast<uint64_t>((nowPs - m_alphaOriginPs) / period);
    if (due <= m_alphaTicks)
    {
        return;
    }
    uint64_t n = due - m_alphaTicks;
    // The first boundary sees the flag; the later ones had no CNP in their period.
    m_alpha = (1.0 - m_g) * m_alpha + (m_alphaFlag ? m_g : 0.0);
    if (n > 1)
    {
        m_alpha *= std::pow(1.0 - m_g, static_cast<double>(n - 1));
    }
    m_alphaFlag = false;
    m_alphaTicks = due;
}

void
DcqcnSampled::OnCnp()
{
    int64_t now = ns3::Simulator::Now().GetPicoSeconds();
    if (!m_seenCnp)
    {
        // First CNP: alpha = 1 (InitialAlpha), both period grids start here; no cut yet.
        m_seenCnp = true;
        m_alpha = m_initialAlpha;
        m_alphaOriginPs = now;
        m_alphaTicks = 0;
        m_alphaFlag = false;
        m_decreaseOriginPs = now + m_decreaseInterval.GetPicoSeconds() + kCheckAfterAlphaPs;
        m_decreaseFlag = true;
        ScheduleDecreaseCheck(now);
        return;
    }
    AdvanceAlpha(now);
    m_alphaFlag = true;
    m_decreaseFlag = true;
    if (!m_decreaseEvent.IsRunning())
    {
        ScheduleDecreaseCheck(now);
    }
}

void
DcqcnSampled::ScheduleDecreaseCheck(int64_t nowPs)
{
    // The next check strictly after now on the grid (a check due at this very instant ran
    // before this CNP: it was scheduled earlier).
    int64_t interval = std::max<int64_t>(1, m_decreaseInterval.GetPicoSeconds());
    int64_t at = m_decreaseOriginPs;
    if (at <= nowPs)
    {
        at += ((nowPs - at) / interval + 1) * interval;
    }
    m_decreaseEvent =
        ns3::Simulator::Schedule(ns3::PicoSeconds(at - nowPs), &DcqcnSampled::OnDecreaseCheck, this);
}

void
DcqcnSampled::OnDecreaseCheck()
{
    if (!m_decreaseFlag)
    {
        return; // no CNP since the last check: the next CNP schedules the next check
    }
    int64_t now = ns3::Simulator::Now().GetPicoSeconds();
    AdvanceAlpha(now);
    if (m_clampTarget || (m_clampAfterTimerIncrease && m_timerIncreasedSinceCut))
    {
        m_target = m_rate;
    }
    double factor = std::max(1.0 - m_alpha / 2.0, 1.0 - m_maxDecrease);
    SetRate(m_rate * factor);
    m_decreaseFlag = false;
    m_timerStage = 0;
    m_byteStage = 0;
    m_bytesSinceStage = 0;
    m_timerIncreasedSinceCut = false;
    m_increaseEvent.Cancel();
    if (m_increaseTimer.IsStrictlyPositive())
    {
        m_increaseEvent =
            ns3::Simulator::Schedule(m_increaseTimer, &DcqcnSampled::OnIncreaseTimer, this);
    }
}

void
DcqcnSampled::OnIncreaseTimer()
{
    ++m_timerStage;
    m_timerIncreasedSinceCut = true;
    Increase();
    if (m_rate < m_lineRate)
    {
        m_increaseEvent =
            ns3::Simulator::Schedule(m_increaseTimer, &DcqcnSampled::OnIncreaseTimer, this);
    }
}

void
DcqcnSampled::OnBytesSent(uint32_t bytes)
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
DcqcnSampled::Increase()
{
    // Timer alone (no byte counter): steps 1..F fast recovery, step F+1 additive, then hyper
    // (the HPCC simulator's stage < F / == F / > F counted before the increment). With a byte
    // counter: the paper's max/min of the two stage counts.
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
DcqcnSampled::SetRate(double rate)
{
    double old = m_rate;
    m_rate = std::min(std::max(rate, m_minRateBps), m_lineRate);
    if (old != m_rate)
    {
        m_rateTrace(old, m_rate);
    }
}

void
DcqcnSampled::Stop()
{
    m_decreaseEvent.Cancel();
    m_increaseEvent.Cancel();
}

std::string
DcqcnSampled::GetName() const
{
    return "dcqcn_sampled";
}

void
DcqcnSampled::DoDispose()
{
    Stop();
    CongestionOps::DoDispose();
}

} // namespace fabric
