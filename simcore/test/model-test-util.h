/*
 * Helpers for the model tests: build resolved Scenario structs directly.
 */
#ifndef FABRIC_MODEL_TEST_UTIL_H
#define FABRIC_MODEL_TEST_UTIL_H

#include "helper/fabric-run.h"
#include "helper/fabric-runner.h"
#include "model/fabric-config.h"

#include <string>
#include <vector>

namespace fabric
{
namespace test
{

inline uint32_t
AddNode(Scenario& s, const std::string& id, bool host)
{
    NodeSpec n;
    n.id = id;
    n.isHost = host;
    n.tier = host ? 0 : 1;
    uint32_t idx = static_cast<uint32_t>(s.topo.nodes.size());
    s.topo.nodes.push_back(n);
    s.topo.index[id] = idx;
    s.switchCfg.resize(s.topo.nodes.size());
    s.nicCfg.resize(s.topo.nodes.size());
    return idx;
}

inline void
AddLink(Scenario& s, uint32_t a, uint32_t b, double rateGbps, double delayUs)
{
    LinkSpec l;
    l.id = static_cast<uint32_t>(s.topo.links.size());
    l.a = a;
    l.b = b;
    l.rateGbps = rateGbps;
    l.delayUs = delayUs;
    s.topo.links.push_back(l);
}

inline FlowSpec&
AddFlow(Scenario& s, uint32_t src, uint32_t dst, uint64_t size = 0, uint64_t startNs = 0)
{
    FlowSpec f;
    f.id = static_cast<uint32_t>(s.flows.size());
    f.src = src;
    f.dst = dst;
    f.sizeBytes = size;
    f.startNs = startNs;
    f.udpSrcPort = static_cast<uint16_t>(49152 + f.id);
    f.window = 64;
    f.messageBytes = 65536;
    s.flows.push_back(f);
    return s.flows.back();
}

/** Sets every NIC's CC algorithm and every switch's ECN on/off. */
inline void
SetCc(Scenario& s, const std::string& algo, bool ecn)
{
    for (auto& n : s.nicCfg)
    {
        n.cc.algorithm = algo;
    }
    for (auto& sw : s.switchCfg)
    {
        for (auto& e : sw.ecn)
        {
            e.enabled = ecn;
        }
    }
}

/** n hosts h0..h(n-1) on one switch "sw". Returns the switch index; hosts are 0..n-1. */
/// A loss fault on the link from `node` to `neighbor`, in that direction only: every `period`-th
/// DATA frame `node` sends there is lost (control frames pass).
inline void
AddPeriodicDataLoss(Scenario& s, uint32_t node, uint32_t neighbor, uint64_t period)
{
    FaultSpec loss;
    loss.kind = FaultKind::LOSS;
    loss.link = {node, neighbor};
    loss.bothDirections = false;
    loss.everyN = period;
    loss.dataOnly = true;
    s.faults.push_back(loss);
}

inline uint32_t
Star(Scenario& s, int n, double rateGbps, double delayUs)
{
    for (int i = 0; i < n; ++i)
    {
        AddNode(s, "h" + std::to_string(i), true);
    }
    uint32_t sw = AddNode(s, "sw", false);
    for (int i = 0; i < n; ++i)
    {
        AddLink(s, static_cast<uint32_t>(i), sw, rateGbps, delayUs);
    }
    return sw;
}

/** Jain's fairness index. */
inline double
Jain(const std::vector<double>& x)
{
    double sum = 0;
    double sq = 0;
    for (double v : x)
    {
        sum += v;
        sq += v * v;
    }
    return sq > 0 ? sum * sum / (x.size() * sq) : 0;
}

/** Two leaves and `spines` spines: hosts 0,1 on leaf0 (node 4), hosts 2,3 on leaf1 (node 5),
 *  spines from node 6; 100G host links, 1 us everywhere, cc none, 300 us. leaf0's uplink to the
 *  first spine runs at slowFirstUplinkGbps when that is set. */
inline Scenario
TwoLeafFabric(int spines, double uplinkGbps, double slowFirstUplinkGbps = 0)
{
    Scenario s;
    s.durationNs = 300000;
    for (int i = 0; i < 4; ++i)
    {
        AddNode(s, "h" + std::to_string(i), true);
    }
    uint32_t l0 = AddNode(s, "leaf0", false);
    uint32_t l1 = AddNode(s, "leaf1", false);
    for (uint32_t h = 0; h < 4; ++h)
    {
        AddLink(s, h, h < 2 ? l0 : l1, 100, 1);
    }
    for (int k = 0; k < spines; ++k)
    {
        uint32_t sp = AddNode(s, "spine" + std::to_string(k), false);
        double up = (k == 0 && slowFirstUplinkGbps > 0) ? slowFirstUplinkGbps : uplinkGbps;
        AddLink(s, l0, sp, up, 1);
        AddLink(s, l1, sp, uplinkGbps, 1);
    }
    SetCc(s, "none", false);
    return s;
}

/** Wire bytes (after warm-up) leaf0 of a TwoLeafFabric started toward each spine. */
inline std::vector<double>
UplinkBytes(FabricRunner& r, int spines)
{
    FabricSwitch* leaf = r.Fabric().Switch(4);
    std::vector<double> bytes;
    for (int k = 0; k < spines; ++k)
    {
        bytes.push_back(static_cast<double>(
            leaf->GetPort(leaf->PortToward(static_cast<uint32_t>(6 + k))).txWireBytesWarm));
    }
    return bytes;
}

} // namespace test
} // namespace fabric

#endif
