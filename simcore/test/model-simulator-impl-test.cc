/*
 * FabricSimulatorImpl, the engine's event loop: a run gives the same result and event count as
 * on ns-3's DefaultSimulatorImpl (PFC, ECN, DCQCN and a link failure included), FabricRun uses
 * it, and Schedule/Cancel/Remove/IsExpired/GetDelayLeft/contexts/Stop/ScheduleDestroy answer
 * exactly as ns-3's own implementation does.
 */
#include "model-test-util.h"
#include "model/fabric-simulator-impl.h"

#include "ns3/core-module.h"

#include <gtest/gtest.h>

#include <cstdlib>
#include <string>
#include <vector>

using namespace fabric;
using namespace fabric::test;

namespace
{

void
UseSimulator(const char* impl)
{
    if (impl)
    {
        setenv("FABRICSIM_SIMULATOR", impl, 1);
    }
    else
    {
        unsetenv("FABRICSIM_SIMULATOR");
    }
}

/** A leaf-spine incast with PFC, ECN, DCQCN and a spine link failing at 60 us. */
std::string
RunIncast(const char* impl, std::string* implName = nullptr, uint32_t threads = 1)
{
    UseSimulator(impl);
    Scenario s = TwoLeafFabric(2, 100);
    s.seed = 5;
    s.durationNs = 250000;
    SetCc(s, "dcqcn", true);
    for (auto& c : s.switchCfg)
    {
        c.bufferBytes = 300000;
        for (auto& e : c.ecn)
        {
            e.kminBytes = 5000;
            e.kmaxBytes = 100000;
            e.pmax = 0.05;
        }
    }
    for (uint32_t h : {0u, 1u, 2u})
    {
        AddFlow(s, h, 3, 400000, h * 2000).window = 200;
    }
    FaultSpec down;
    down.kind = FaultKind::LINK_DOWN;
    down.link = {4, 6}; // leaf0 - spine0
    down.startNs = 60000;
    s.faults.push_back(down);
    FabricRunner r(s);
    if (implName)
    {
        *implName = ns3::Simulator::GetImplementation()->GetInstanceTypeId().GetName();
    }
    RunLimits limits;
    limits.threads = threads;
    r.Run(limits, nullptr);
    auto res = r.Results();
    res["events"] = r.Events();
    UseSimulator(nullptr);
    return res.dump();
}

/** What a script of engine calls observes, for one SimulatorImplementationType. */
std::vector<std::string>
Observe(const std::string& impl)
{
    using namespace ns3;
    Simulator::Destroy();
    GlobalValue::Bind("SimulatorImplementationType", StringValue(impl));
    std::vector<std::string> log;
    auto note = [&log](const std::string& what) {
        log.push_back(what + " t=" + std::to_string(Simulator::Now().GetTimeStep()) +
                      " ctx=" + std::to_string(Simulator::GetContext()));
    };
    auto yes = [](bool b) { return std::string(b ? "1" : "0"); };
    EventId a;
    EventId b;
    EventId c;
    EventId d;
    EventId late;
    a = Simulator::Schedule(NanoSeconds(10), [&] {
        note("a expired(a)=" + yes(Simulator::IsExpired(a)) + " expired(b)=" +
             yes(Simulator::IsExpired(b)) + " left(late)=" +
             std::to_string(Simulator::GetDelayLeft(late).GetTimeStep()));
    });
    b = Simulator::Schedule(NanoSeconds(10), [&] { note("b"); });
    c = Simulator::Schedule(NanoSeconds(20), [&] { note("c (cancelled)"); });
    d = Simulator::Schedule(NanoSeconds(25), [&] { note("d (removed)"); });
    late = Simulator::Schedule(NanoSeconds(60), [&] { note("late"); });
    Simulator::Cancel(c);
    Simulator::Remove(d);
    Simulator::ScheduleWithContext(7, NanoSeconds(15), [&] {
        note("with context");
        Simulator::ScheduleNow([&] { note("now, same context"); });
        Simulator::Schedule(NanoSeconds(1), [&] { note("later, same context"); });
    });
    Simulator::Schedule(NanoSeconds(40), [&] {
        note("stop");
        Simulator::Stop();
    });
    EventId kept = Simulator::ScheduleDestroy([&] { note("destroy kept"); });
    EventId dropped = Simulator::ScheduleDestroy([&] { note("destroy cancelled"); });
    Simulator::Cancel(dropped);
    Simulator::Stop(NanoSeconds(100));
    Simulator::Run();
    note("first run returned, events=" + std::to_string(Simulator::GetEventCount()) +
         " finished=" + yes(Simulator::IsFinished()) + " expired(a)=" +
         yes(Simulator::IsExpired(a)) + " expired(c)=" + yes(Simulator::IsExpired(c)) +
         " expired(late)=" + yes(Simulator::IsExpired(late)) +
         " expired(kept)=" + yes(Simulator::IsExpired(kept)) +
         " expired(dropped)=" + yes(Simulator::IsExpired(dropped)));
    Simulator::Run();
    note("second run returned, events=" + std::to_string(Simulator::GetEventCount()) +
         " finished=" + yes(Simulator::IsFinished()));
    Simulator::Destroy();
    return log;
}

} // namespace

TEST(ModelSimulatorImpl, RunsUseItRepeatablyOnAnyThreadCountAndNs3LoopsStillRunTheModel)
{
    std::string name;
    std::string fabric = RunIncast(nullptr, &name);
    EXPECT_EQ(name, "fabric::FabricSimulatorImpl");
    EXPECT_NE(fabric.find("\"pfc_pauses_sent\""), std::string::npos);
    EXPECT_NE(fabric.find("\"link_down\""), std::string::npos);
    EXPECT_EQ(fabric, RunIncast(nullptr));
    EXPECT_EQ(fabric, RunIncast(nullptr, nullptr, 2));
    // ns-3's own loop, and the generic loop over another scheduler, order events of the same
    // picosecond by ns-3's uids (docs/model.md, "Engine"): not the same bytes, the same model.
    std::string def = RunIncast("ns3::DefaultSimulatorImpl", &name);
    EXPECT_EQ(name, "ns3::DefaultSimulatorImpl");
    setenv("FABRICSIM_SCHEDULER", "ns3::MapScheduler", 1);
    std::string map = RunIncast(nullptr);
    unsetenv("FABRICSIM_SCHEDULER");
    auto f = nlohmann::json::parse(fabric);
    for (const std::string& other : {def, map})
    {
        auto o = nlohmann::json::parse(other);
        EXPECT_TRUE(o["summary"]["conservation"]["balanced"].get<bool>());
        EXPECT_EQ(o["summary"]["flows_completed"], f["summary"]["flows_completed"]);
        EXPECT_NEAR(o["summary"]["fct_us"]["mean"].get<double>(),
                    f["summary"]["fct_us"]["mean"].get<double>(),
                    0.3 * f["summary"]["fct_us"]["mean"].get<double>());
    }
}

TEST(ModelSimulatorImpl, EngineCallsAnswerAsNs3DefaultSimulatorImpl)
{
    FabricSimulatorImpl::GetTypeId();
    std::vector<std::string> def = Observe("ns3::DefaultSimulatorImpl");
    std::vector<std::string> fabric = Observe("fabric::FabricSimulatorImpl");
    ASSERT_GE(def.size(), 9u);
    EXPECT_EQ(fabric, def);
    ns3::GlobalValue::Bind("SimulatorImplementationType",
                           ns3::StringValue("ns3::DefaultSimulatorImpl"));
}
