#include "model/dcqcn-sampled.h"

#include "ns3/boolean.h"
#include "ns3/double.h"
#include "ns3/simulator.h"

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
    static TypeId tid = AddSharedAttributes(
        TypeId("fabric::DcqcnSampled")
            .SetParent<CongestionOps>()
            .SetGroupName("Fabric")
            .AddConstructor<DcqcnSampled>()
            .AddAttribute("AlphaUpdatePeriod",
                          "Alpha period: alpha = (1-g) alpha + g if a CNP arrived in it, else "
                          "(1-g) alpha",
                          TimeValue(MicroSeconds(1)), MakeTimeAccessor(&DcqcnSampled::m_alphaPeriod),
                          MakeTimeChecker())
            .AddAttribute("RateDecreaseInterval",
                          "Period of the rate decrease check (cut if a CNP arrived since the last)",
                          TimeValue(MicroSeconds(4)),
                          MakeTimeAccessor(&DcqcnSampled::m_decreaseInterval), MakeTimeChecker())
            .AddAttribute("InitialAlpha", "Alpha set by the first CNP", DoubleValue(1.0),
                          MakeDoubleAccessor(&DcqcnSampled::m_initialAlpha),
                          MakeDoubleChecker<double>(0, 1)),
        {300, 0, 1, 20e6, 1e9, false, true});
    return tid;
}

DcqcnSampled::DcqcnSampled()
{
    m_alphaPeriod = ns3::MicroSeconds(1);
    m_decreaseInterval = ns3::MicroSeconds(4);
    m_increaseTimer = ns3::MicroSeconds(300);
}

void
DcqcnSampled::Init(double lineRateBps)
{
    ResetRates(lineRateBps);
    m_seenCnp = false;
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
    m_decreaseFlag = false;
    CutRate(m_alpha);
}

void
DcqcnSampled::Stop()
{
    m_decreaseEvent.Cancel();
    StopIncrease();
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
