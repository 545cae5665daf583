#include "model/dcqcn.h"

#include "ns3/boolean.h"
#include "ns3/double.h"
#include "ns3/simulator.h"

#include <algorithm>
#include <cmath>

namespace fabric
{

NS_OBJECT_ENSURE_REGISTERED(Dcqcn);

ns3::TypeId
Dcqcn::GetTypeId()
{
    using namespace ns3;
    static TypeId tid = AddSharedAttributes(
        TypeId("fabric::Dcqcn")
            .SetParent<CongestionOps>()
            .SetGroupName("Fabric")
            .AddConstructor<Dcqcn>()
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
            .AddAttribute("InitialAlpha", "Alpha at start", DoubleValue(1.0),
                          MakeDoubleAccessor(&Dcqcn::m_initialAlpha),
                          MakeDoubleChecker<double>(0, 1)),
        {55, 10000000, 5, 40e6, 100e6, true, false});
    return tid;
}

Dcqcn::Dcqcn()
{
    m_alphaPeriod = ns3::MicroSeconds(55);
    m_decreaseInterval = ns3::MicroSeconds(50);
    m_increaseTimer = ns3::MicroSeconds(55);
}

void
Dcqcn::Init(double lineRateBps)
{
    ResetRates(lineRateBps);
    m_cnpSinceTick = false;
    m_timerIncreasedSinceCut = false;
    m_alphaRefPs = ns3::Simulator::Now().GetPicoSeconds();
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
    m_lastCutPs = ns3::Simulator::Now().GetPicoSeconds();
    CutRate(alpha);
}

void
Dcqcn::Stop()
{
    StopIncrease();
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
    Stop();
    CongestionOps::DoDispose();
}

} // namespace fabric
