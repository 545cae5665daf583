/*
 * NetworkBuilder: builds and owns the simulated network of one run. It owns the devices (NICs,
 * switches, DCI accelerators) and their links, the ECMP route tables and the host attachment
 * tables they read, one set per plane (rebuilt when a failed link is routed around), and the flows' static setup
 * (MTU, packet count, QP depth, window, base RTT, ideal FCT: the FlowState fields it writes,
 * once, before the run). Everything else reads the network through its const queries.
 */
#ifndef FABRIC_NETWORK_BUILDER_H
#define FABRIC_NETWORK_BUILDER_H

#include "model/fabric-context.h"
#include "model/fabric-switch.h"
#include "model/fault-schedule.h"
#include "model/rdma-nic.h"
#include "scenario/path-timing.h"

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace fabric
{

class NetworkBuilder
{
  public:
    NetworkBuilder(const Scenario& scenario, FabricContext& ctx);

    /** Devices and links, routes, accelerators, then each flow's static setup (in that order). */
    void Build();
    /** ECMP tables toward every host attachment switch, skipping routed-around ports. */
    void BuildRoutes();
    /** What the fault schedule acts on (its route rebuild calls BuildRoutes). */
    FaultTargets Targets();
    /** Disposes the devices (at the end of the run's life, after the simulator is destroyed). */
    void Dispose();

    std::size_t NodeCount() const { return m_devices.size(); }
    /** The device of node i: a FabricSwitch or an RdmaNic (nullptr if out of range). */
    FabricDevice* Device(uint32_t node) const;
    FabricSwitch* Switch(uint32_t node) const;
    RdmaNic* Nic(uint32_t node) const;
    /** Per node: the switch (nullptr for hosts) and the NIC (nullptr for switches). */
    const std::vector<FabricSwitch*>& Switches() const { return m_switches; }
    const std::vector<RdmaNic*>& Nics() const { return m_nics; }
    /** Per node: the switch a host hangs off (UINT32_MAX for switches and unattached hosts). */
    const std::vector<uint32_t>& HostAttachNode() const { return m_planes.front().attachNode; }
    /** Flow indices by (start, id): the order the run starts them in. */
    const std::vector<uint32_t>& StartOrder() const { return m_startOrder; }
    /** "a->b" name of a node's egress toward a neighbor. */
    std::string PortName(uint32_t node, uint32_t neighbor) const;
    /** Hops (rate bit/s, delay ps) a flow's packets take, following ECMP; empty if unroutable. */
    std::vector<std::pair<double, int64_t>> PathOf(const FlowSpec& f) const;
    /** Node indices a flow's packets visit, src first, dst last; empty if unroutable. */
    std::vector<uint32_t> NodePathOf(const FlowSpec& f) const;

  private:
    void BuildDevices();
    /** Splits the switches into planes (sets joined by switch links) and hands each
     *  multi-port NIC its ports' planes. */
    void AssignPlanes();
    void BuildFlows();
    /** topology.accelerator: whether node is an accelerated DCI edge. */
    bool IsAcceleratorEdge(uint32_t node) const;
    /** Hands each accelerated edge its long-haul port, buffer and timer (after the routes). */
    void AttachAccelerators();

    const Scenario& m_scenario;
    FabricContext& m_ctx;
    std::vector<ns3::Ptr<FabricDevice>> m_devices; ///< per node
    std::vector<FabricSwitch*> m_switches;         ///< per node (nullptr for hosts)
    std::vector<RdmaNic*> m_nics;                  ///< per node (nullptr for switches)
    /** The host attachment tables of one plane (the switches of a plane read its tables). */
    struct PlaneRoutes
    {
        std::vector<uint32_t> attach;     ///< per node: attachment index in the plane
        std::vector<uint32_t> attachNode; ///< per node: the plane's switch a host hangs off
        std::vector<uint32_t> port;       ///< per node: that switch's port toward it
        std::vector<HostRoute> hostRoutes; ///< the three above together, for the switches
    };
    std::vector<PlaneRoutes> m_planes{1}; ///< one per plane (multi_plane), else one
    std::vector<uint32_t> m_switchPlane;  ///< per node: a switch's plane
    std::vector<uint32_t> m_startOrder;            ///< flow indices by (start, id)
};

} // namespace fabric

#endif
