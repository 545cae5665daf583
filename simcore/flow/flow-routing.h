/*
 * FlowRouting: the paths the flow engine's flows take, the same the packet model's frames take
 * (docs/model.md, "Switch" and "Multi-plane NICs"): shortest paths over the switches toward each
 * host's attachment switch, per plane, with the equal-cost next hops of a switch in port order
 * (ports in link order, as the packet model's devices add them), chosen by the shared 5-tuple
 * hash (common/ecmp-hash.h) with the switch's seed. Where the packet model spreads a QP's frames
 * (per_packet or adaptive switches, sprayed transports, ERD's source ports, a sprayed QP over
 * the planes of a multi-plane NIC) the route splits the flow evenly over those choices.
 *
 * A route is a list of directed links with the share of the flow's wire rate each carries, the
 * same for its ACKs on the way back, and the node path of its first frame (what telemetry's
 * `path` shows and what the ideal FCT and base RTT are computed on, as in the packet model).
 */
#ifndef FABRIC_FLOW_ROUTING_H
#define FABRIC_FLOW_ROUTING_H

#include "model/fabric-config.h"

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace fabric
{
namespace flow
{

/** One direction of a link: `from`'s egress toward `to`. */
struct DirectedLink
{
    uint32_t from = 0;
    uint32_t to = 0;
    uint32_t linkId = 0;
    double rateBps = 0;
    int64_t delayPs = 0;
};

/** A directed link and the share of a rate it carries. */
struct LinkShare
{
    uint32_t link = 0;
    double share = 0;
};

/** Where a flow's frames and its ACKs go. */
struct FlowRoute
{
    bool valid = false;          ///< false: unroutable (no path), never starts
    std::vector<LinkShare> data; ///< sender to receiver, shares of the data rate (sorted by link)
    std::vector<LinkShare> acks; ///< receiver to sender, shares of the ACK rate (sorted by link)
    std::vector<uint32_t> nodes; ///< the first frame's path, sender to receiver
    /// (rate bit/s, delay ps) of each hop of `nodes`; rates x planes for a QP sprayed over the
    /// planes of a multi-plane NIC (as the packet model's ideal FCT counts them).
    std::vector<std::pair<double, int64_t>> hops;
};

/** How the NIC picks source ports for a QP's frames (its transport, docs/model.md). */
enum class PortSpread : uint8_t
{
    ONE,   ///< rc, xrc: every frame on the QP's port
    SET,   ///< erd: nic.erd.paths ports in turn
    RANDOM ///< sprayed: a port hashed from (QP, PSN) per frame
};

class FlowRouting
{
  public:
    /** Builds the port lists, planes and route tables of the scenario's topology. */
    explicit FlowRouting(const Scenario& scenario);

    uint32_t LinkCount() const { return static_cast<uint32_t>(m_links.size()); }

    const DirectedLink& Link(uint32_t d) const { return m_links[d]; }

    /** "a->b", as the packet model names a port. */
    std::string LinkName(uint32_t d) const;

    /** The directed link from node toward neighbor (its first port toward it), or UINT32_MAX. */
    uint32_t LinkToward(uint32_t node, uint32_t neighbor) const;

    /** Whether the host has more than one port (a multi-plane NIC). */
    bool MultiPort(uint32_t host) const { return PortCount(host) > 1; }

    /** The route of a flow (see the file comment). */
    FlowRoute Route(const FlowSpec& f) const;

    /**
     * A link failure (faults `link_down`, `link_up`; docs/model.md "Faults"): the directed link
     * is down (a NIC stops using its own failed port at once) ...
     */
    void SetDown(uint32_t link, bool down);

    /**
     * ... and, once routing has converged, routed around: the ECMP tables are rebuilt without
     * it (as the packet model's NetworkBuilder::BuildRoutes skips routed-around ports).
     */
    void SetRoutedAround(uint32_t link, bool routedAround);

    /** Rebuilds the host attachments and ECMP tables (after SetRoutedAround). */
    void Rebuild() { BuildRoutes(); }

  private:
    /** Frames in flight at one node: (node, source port or kAnyPort) and their share. */
    struct Walker
    {
        uint32_t node;
        uint32_t port;
        double share;
    };

    uint32_t PortCount(uint32_t node) const { return m_portBegin[node + 1] - m_portBegin[node]; }
    bool IsSwitch(uint32_t node) const { return !m_scenario.topo.nodes[node].isHost; }
    /** The host ports a QP of this source uses, with their shares (planes). */
    std::vector<std::pair<uint32_t, double>> HostPorts(const FlowSpec& f,
                                                       PortSpread spread,
                                                       uint32_t src,
                                                       uint32_t dst) const;
    /** Whether the host port's plane reaches dst. */
    bool PlaneUsable(uint32_t host, uint32_t port, uint32_t dst) const;
    /**
     * Spreads walkers from a host toward dst, hop by hop, adding each directed link's share to
     * `out`; false when some share finds no route.
     */
    bool Walk(std::vector<Walker> from,
              uint32_t src,
              uint32_t dst,
              std::vector<LinkShare>& out) const;
    /** The equal-cost egress ports of switch s toward host dst (empty: none). */
    std::pair<const uint16_t*, uint32_t> NextHops(uint32_t s, uint32_t dst) const;
    /** The single path of a frame with this source port (PSN 0's), or empty. */
    std::vector<uint32_t> NodePath(const FlowSpec& f, uint32_t firstPort, uint16_t udp) const;
    void BuildPorts();
    void BuildPlanes();
    void BuildRoutes();

    const Scenario& m_scenario;
    std::vector<uint32_t> m_portBegin;   ///< per node: its first directed link (n + 1 entries)
    std::vector<DirectedLink> m_links;   ///< by node, then port order
    std::vector<uint32_t> m_switchPlane; ///< per node: its plane (switches), UINT32_MAX else
    /// per plane, per host: the index of its attachment switch among the plane's attachment
    /// switches, and that switch (UINT32_MAX: the plane does not reach the host)
    std::vector<std::vector<uint32_t>> m_attach;
    std::vector<std::vector<uint32_t>> m_attachNode;
    /// per switch, per attachment index of its plane: (offset << 8 | count) into m_hopPorts
    std::vector<std::vector<uint32_t>> m_entries;
    std::vector<std::vector<uint16_t>> m_hopPorts; ///< per switch: distinct next-hop sets
    std::vector<char> m_down;                      ///< per directed link: failed
    std::vector<char> m_routedAround;              ///< per directed link: left out of the routes
};

} // namespace flow
} // namespace fabric

#endif
