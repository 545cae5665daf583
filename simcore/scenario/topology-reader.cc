#include "topology-reader.h"

#include "json-reader.h"
#include "scenario-contract.h"
#include "topology-queries.h"

#include <deque>
#include <functional>
#include <map>

namespace fabric
{

using nlohmann::json;
using nlohmann::ordered_json;

namespace
{

const char* kTopologyPath = "topology";

void
CheckCounts(double nodes, double links)
{
    if (nodes > static_cast<double>(kMaxNodes))
    {
        throw ScenarioError(kTopologyPath, "expands to " + FormatNumber(nodes) +
                                               " nodes, more than the limit of " +
                                               std::to_string(kMaxNodes));
    }
    if (links > static_cast<double>(kMaxLinks))
    {
        throw ScenarioError(kTopologyPath, "expands to " + FormatNumber(links) +
                                               " links, more than the limit of " +
                                               std::to_string(kMaxLinks));
    }
}

Range
RateRange()
{
    return Range::Closed(kMinRateGbps, kMaxRateGbps, "Gbit/s");
}

/** Every generator's link_delay_us (topology.py declares them alike). */
Range
DelayRange()
{
    return Range::Of(schema::kLeafSpineLinkDelayUs);
}

LeafSpineParams
ReadLeafSpine(ObjectReader& r)
{
    LeafSpineParams p;
    p.leaves = r.Int("leaves", p.leaves, Range::Of(schema::kLeafSpineSiteLeaves));
    p.spines = r.Int("spines", p.spines, Range::Of(schema::kLeafSpineSiteSpines));
    p.hostsPerLeaf =
        r.Int("hosts_per_leaf", p.hostsPerLeaf, Range::Of(schema::kLeafSpineSiteHostsPerLeaf));
    p.hostRateGbps = r.Number("host_rate_gbps", p.hostRateGbps, RateRange());
    p.fabricRateGbps = r.Number("fabric_rate_gbps", p.fabricRateGbps, RateRange());
    p.linkDelayUs = r.Number("link_delay_us", p.linkDelayUs, DelayRange());
    return p;
}

TopologyBuild
BuildLeafSpine(ObjectReader& r)
{
    LeafSpineParams p = ReadLeafSpine(r);
    r.Finish();
    CheckCounts(counts::LeafSpineNodes(p), counts::LeafSpineLinks(p));
    return {GenerateLeafSpine(p), {}};
}

TopologyBuild
BuildFatTree(ObjectReader& r)
{
    FatTreeParams p;
    p.k = r.Int("k", p.k, Range::Of(schema::kFatTreeK));
    if (p.k % 2 != 0)
    {
        throw ScenarioError(r.FieldPath("k"), "must be an even integer >= 2 and <= 64");
    }
    p.hostRateGbps = r.Number("host_rate_gbps", p.hostRateGbps, RateRange());
    p.fabricRateGbps = r.Number("fabric_rate_gbps", p.fabricRateGbps, RateRange());
    p.linkDelayUs = r.Number("link_delay_us", p.linkDelayUs, DelayRange());
    r.Finish();
    CheckCounts(counts::FatTreeNodes(p), counts::FatTreeLinks(p));
    return {GenerateFatTree(p), {}};
}

TopologyBuild
BuildThreeTier(ObjectReader& r)
{
    ThreeTierParams p;
    p.podsets = r.Int("podsets", p.podsets, Range::Of(schema::kThreeTierPodsets));
    p.torsPerPodset =
        r.Int("tors_per_podset", p.torsPerPodset, Range::Of(schema::kThreeTierTorsPerPodset));
    p.leafsPerPodset =
        r.Int("leafs_per_podset", p.leafsPerPodset, Range::Of(schema::kThreeTierLeafsPerPodset));
    p.spines = r.Int("spines", p.spines, Range::Of(schema::kThreeTierSpines));
    if (p.spines % p.leafsPerPodset != 0)
    {
        throw ScenarioError(r.FieldPath("spines"), "must be a multiple of leafs_per_podset (" +
                                                       std::to_string(p.leafsPerPodset) + ")");
    }
    p.hostsPerTor = r.Int("hosts_per_tor", p.hostsPerTor, Range::Of(schema::kThreeTierHostsPerTor));
    p.hostRateGbps = r.Number("host_rate_gbps", p.hostRateGbps, RateRange());
    p.torUplinkGbps = r.Number("tor_uplink_gbps", p.hostRateGbps, RateRange());
    p.leafUplinkGbps = r.Number("leaf_uplink_gbps", p.hostRateGbps, RateRange());
    p.linkDelayUs = r.Number("link_delay_us", p.linkDelayUs, DelayRange());
    r.Finish();
    CheckCounts(counts::ThreeTierNodes(p), counts::ThreeTierLinks(p));
    return {GenerateThreeTier(p), {}};
}

/** The rail fields of rail_optimized and multi_plane (ranges and defaults: the contract). */
template <typename Fields>
RailOptimizedParams
ReadRailFields(ObjectReader& r)
{
    auto integer = [&r](const char* key, const NumberField& f)
    {
        return r.Int(key, static_cast<int64_t>(f.def), Range::Of(f));
    };
    auto number = [&r](const char* key, const NumberField& f)
    {
        return r.Number(key, f.def, Range::Of(f));
    };
    RailOptimizedParams p;
    p.units = integer("units", Fields::kUnits);
    p.serversPerUnit = integer("servers_per_unit", Fields::kServersPerUnit);
    p.nicsPerServer = integer("nics_per_server", Fields::kNicsPerServer);
    p.spines = integer("spines", Fields::kSpines);
    p.hostRateGbps = number("host_rate_gbps", Fields::kHostRateGbps);
    p.fabricRateGbps = number("fabric_rate_gbps", Fields::kFabricRateGbps);
    p.linkDelayUs = number("link_delay_us", Fields::kLinkDelayUs);
    p.nvlinkGbps = number("nvlink_gbps", Fields::kNvlinkGbps);
    return p;
}

struct RailFields
{
    static constexpr const NumberField& kUnits = schema::kRailOptimizedUnits;
    static constexpr const NumberField& kServersPerUnit = schema::kRailOptimizedServersPerUnit;
    static constexpr const NumberField& kNicsPerServer = schema::kRailOptimizedNicsPerServer;
    static constexpr const NumberField& kSpines = schema::kRailOptimizedSpines;
    static constexpr const NumberField& kHostRateGbps = schema::kRailOptimizedHostRateGbps;
    static constexpr const NumberField& kFabricRateGbps = schema::kRailOptimizedFabricRateGbps;
    static constexpr const NumberField& kLinkDelayUs = schema::kRailOptimizedLinkDelayUs;
    static constexpr const NumberField& kNvlinkGbps = schema::kRailOptimizedNvlinkGbps;
};

struct MultiPlaneFields
{
    static constexpr const NumberField& kUnits = schema::kMultiPlaneUnits;
    static constexpr const NumberField& kServersPerUnit = schema::kMultiPlaneServersPerUnit;
    static constexpr const NumberField& kNicsPerServer = schema::kMultiPlaneNicsPerServer;
    static constexpr const NumberField& kSpines = schema::kMultiPlaneSpines;
    static constexpr const NumberField& kHostRateGbps = schema::kMultiPlaneHostRateGbps;
    static constexpr const NumberField& kFabricRateGbps = schema::kMultiPlaneFabricRateGbps;
    static constexpr const NumberField& kLinkDelayUs = schema::kMultiPlaneLinkDelayUs;
    static constexpr const NumberField& kNvlinkGbps = schema::kMultiPlaneNvlinkGbps;
};

TopologyBuild
BuildRailOptimized(ObjectReader& r)
{
    RailOptimizedParams p = ReadRailFields<RailFields>(r);
    r.Finish();
    CheckCounts(counts::RailOptimizedNodes(p), counts::RailOptimizedLinks(p));
    return {GenerateRailOptimized(p), {}};
}

TopologyBuild
BuildMultiPlane(ObjectReader& r)
{
    const NumberField& planesField = schema::kMultiPlanePlanes;
    int64_t planes = r.Int("planes", static_cast<int64_t>(planesField.def), Range::Of(planesField));
    RailOptimizedParams p = ReadRailFields<MultiPlaneFields>(r);
    r.Finish();
    struct
    {
        int64_t planes, units, serversPerUnit, nicsPerServer, spines;
    } shape{planes, p.units, p.serversPerUnit, p.nicsPerServer, p.spines};
    CheckCounts(counts::MultiPlaneNodes(shape), counts::MultiPlaneLinks(shape));
    return {GenerateMultiPlane(p, planes), {}};
}

/** topology.accelerator of a dci (the default timeout: 2 x the long-haul RTT + 100 us). */
DciAcceleratorConfig
ReadDciAccelerator(ObjectReader& parent, double longHaulDelayUs)
{
    DciAcceleratorConfig a;
    const json* raw = parent.Raw("accelerator");
    ordered_json* out = parent.Out();
    ordered_json accOut;
    static const json kAbsent = json::object();
    ObjectReader r(raw ? *raw : kAbsent, parent.FieldPath("accelerator"), out ? &accOut : nullptr);
    a.enabled = r.Bool("enabled", a.enabled);
    a.bufferBytes = static_cast<uint64_t>(r.Int("buffer_bytes", static_cast<int64_t>(a.bufferBytes),
                                                Range::Of(schema::kDciAcceleratorBufferBytes)));
    const json* rto = r.Raw("retransmit_timeout_us");
    if (rto && !rto->is_null())
    {
        a.retransmitTimeoutUs = r.Number("retransmit_timeout_us", 0,
                                         Range::Of(schema::kDciAcceleratorRetransmitTimeoutUs));
    }
    else
    {
        a.retransmitTimeoutUs = 4 * longHaulDelayUs + 100;
        r.Record("retransmit_timeout_us", nullptr);
    }
    r.Finish();
    parent.Record("accelerator", accOut);
    return a;
}

TopologyBuild
BuildDci(ObjectReader& r)
{
    DciParams p;
    const json* site = r.Raw("site");
    ordered_json* out = r.Out();
    ordered_json siteOut;
    if (site)
    {
        ObjectReader sr(*site, r.FieldPath("site"), out ? &siteOut : nullptr);
        p.site = ReadLeafSpine(sr);
        sr.Finish();
    }
    else
    {
        ObjectReader sr(json::object(), r.FieldPath("site"), out ? &siteOut : nullptr);
        p.site = ReadLeafSpine(sr);
    }
    r.Record("site", siteOut);
    p.lengthKm = r.Number("length_km", p.lengthKm, Range::Of(schema::kDciLengthKm));
    p.dciRateGbps = r.Number("dci_rate_gbps", p.dciRateGbps, RateRange());
    p.dciBufferAuto = !r.Has("dci_buffer_bytes");
    p.dciBufferBytes =
        static_cast<uint64_t>(r.Int("dci_buffer_bytes", static_cast<int64_t>(p.dciBufferBytes),
                                    Range::Of(schema::kDciDciBufferBytes)));
    p.accelerator = ReadDciAccelerator(r, p.lengthKm * kFibreUsPerKm);
    r.Finish();
    CheckCounts(counts::DciNodes(p), counts::DciLinks(p));
    return GenerateDci(p);
}

bool
ValidNodeId(const std::string& id)
{
    if (id.empty() || id.size() > kMaxNodeIdChars)
    {
        return false;
    }
    for (char c : id)
    {
        bool ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
                  c == '_' || c == '.' || c == ':' || c == '-';
        if (!ok)
        {
            return false;
        }
    }
    return true;
}

uint32_t
ReadNodeRef(const json* v, const std::string& path, const Topology& topo)
{
    if (!v)
    {
        throw ScenarioError(path, "field required");
    }
    std::string id = ReadString(*v, path, kMaxNodeIdChars);
    auto it = topo.index.find(id);
    if (it == topo.index.end())
    {
        throw ScenarioError(path, "unknown node \"" + id + "\"");
    }
    return it->second;
}

/**
 * A host has exactly one link, or one link into each of several planes (a multi-plane NIC, one
 * port per plane; a plane is a set of switches joined by switch-switch links): every link to
 * a switch, no two into one plane. Error at topology.nodes[i].id.
 */
void
CheckHostLinks(const Topology& topo,
               const std::vector<uint32_t>& degree,
               const std::string& nodesPath)
{
    std::vector<uint32_t> plane(topo.nodes.size());
    for (std::size_t i = 0; i < plane.size(); ++i)
    {
        plane[i] = static_cast<uint32_t>(i);
    }
    std::function<uint32_t(uint32_t)> find = [&](uint32_t x)
    {
        return plane[x] == x ? x : plane[x] = find(plane[x]);
    };
    for (const auto& l : topo.links)
    {
        if (!topo.nodes[l.a].isHost && !topo.nodes[l.b].isHost)
        {
            plane[find(l.a)] = find(l.b);
        }
    }
    std::map<uint32_t, std::map<uint32_t, uint32_t>> seen; // host -> plane -> its switch there
    for (const auto& l : topo.links)
    {
        for (auto [h, other] : {std::pair{l.a, l.b}, std::pair{l.b, l.a}})
        {
            if (!topo.nodes[h].isHost || degree[h] <= 1)
            {
                continue;
            }
            std::string path = JoinPath(IndexPath(nodesPath, h), "id");
            const std::string& id = topo.nodes[h].id;
            if (topo.nodes[other].isHost)
            {
                throw ScenarioError(
                    path, "host \"" + id + "\" has " + std::to_string(degree[h]) +
                              " links: a host has one link, or one to a switch of each plane");
            }
            auto [it, fresh] = seen[h].emplace(find(other), other);
            if (!fresh)
            {
                throw ScenarioError(path, "host \"" + id + "\" has two links into one plane (\"" +
                                              topo.nodes[it->second].id + "\" and \"" +
                                              topo.nodes[other].id +
                                              "\" are joined by switches): a host has one link, "
                                              "or one to a switch of each plane");
            }
        }
    }
    for (std::size_t i = 0; i < topo.nodes.size(); ++i)
    {
        if (topo.nodes[i].isHost && degree[i] == 0)
        {
            throw ScenarioError(JoinPath(IndexPath(nodesPath, i), "id"),
                                "host \"" + topo.nodes[i].id +
                                    "\" must have exactly one link (has 0)");
        }
    }
}

TopologyBuild
BuildExplicit(ObjectReader& r)
{
    TopologyBuilder b;
    ordered_json* out = r.Out();
    const json* nodes = r.Raw("nodes");
    if (!nodes)
    {
        throw ScenarioError(r.FieldPath("nodes"), "field required");
    }
    std::string nodesPath = r.FieldPath("nodes");
    RequireArray(*nodes, nodesPath, 1, kMaxNodes);
    ordered_json nodesOut = ordered_json::array();
    std::map<std::string, int64_t> railsSeen; ///< server -> hosts so far (the next rail)
    for (std::size_t i = 0; i < nodes->size(); ++i)
    {
        std::string path = IndexPath(nodesPath, i);
        ordered_json itemOut;
        ObjectReader nr((*nodes)[i], path, out ? &itemOut : nullptr);
        const json* idValue = nr.Raw("id");
        if (!idValue)
        {
            throw ScenarioError(nr.FieldPath("id"), "field required");
        }
        std::string id = ReadString(*idValue, nr.FieldPath("id"), kMaxNodeIdChars);
        if (!ValidNodeId(id))
        {
            throw ScenarioError(nr.FieldPath("id"), std::string("must match ") + kNodeIdPattern +
                                                        " (got \"" + id + "\")");
        }
        if (b.Topo().index.count(id))
        {
            throw ScenarioError(nr.FieldPath("id"), "duplicate node id \"" + id + "\"");
        }
        nr.Record("id", id);
        std::string kind = nr.Enum("kind", "", schema::kExplicitNodeKind.options);
        int tier = static_cast<int>(nr.Int("tier", 0, Range::Of(schema::kExplicitNodeTier)));
        uint32_t index = b.AddNode(id, kind == "host", tier, "");
        const json* server = nr.Raw("server");
        if (server && !server->is_null())
        {
            std::string sid = ReadString(*server, nr.FieldPath("server"), kMaxNodeIdChars);
            if (!ValidNodeId(sid))
            {
                throw ScenarioError(nr.FieldPath("server"), std::string("must match ") +
                                                                kNodeIdPattern + " (got \"" + sid +
                                                                "\")");
            }
            if (kind != "host")
            {
                throw ScenarioError(nr.FieldPath("server"),
                                    "only a host (a NIC) belongs to a server");
            }
            NodeSpec& n = b.Topo().nodes[index];
            n.server = sid;
            n.rail = static_cast<int>(railsSeen[sid]++);
            nr.Record("server", sid);
        }
        const json* x = nr.Raw("x");
        const json* y = nr.Raw("y");
        if (x || y)
        {
            NodeSpec& n = b.Topo().nodes[index];
            n.hasXY = true;
            n.x = x ? ReadNumber(*x, nr.FieldPath("x"), Range()) : 0.0;
            n.y = y ? ReadNumber(*y, nr.FieldPath("y"), Range()) : 0.0;
            nr.Record("x", n.x);
            nr.Record("y", n.y);
        }
        nr.Finish();
        nodesOut.push_back(itemOut);
    }
    r.Record("nodes", nodesOut);

    const json* links = r.Raw("links");
    std::string linksPath = r.FieldPath("links");
    static const json kNoLinks = json::array();
    RequireArray(links ? *links : kNoLinks, linksPath, 0, kMaxLinks);
    ordered_json linksOut = ordered_json::array();
    std::vector<uint32_t> degree(b.Topo().nodes.size(), 0);
    for (std::size_t i = 0; links && i < links->size(); ++i)
    {
        std::string path = IndexPath(linksPath, i);
        ordered_json itemOut;
        ObjectReader lr((*links)[i], path, out ? &itemOut : nullptr);
        uint32_t a = ReadNodeRef(lr.Raw("a"), lr.FieldPath("a"), b.Topo());
        uint32_t c = ReadNodeRef(lr.Raw("b"), lr.FieldPath("b"), b.Topo());
        lr.Record("a", b.Topo().nodes[a].id);
        lr.Record("b", b.Topo().nodes[c].id);
        if (a == c)
        {
            throw ScenarioError(lr.FieldPath("b"), "must differ from a (no self-links)");
        }
        const json* rate = lr.Raw("rate_gbps");
        if (!rate)
        {
            throw ScenarioError(lr.FieldPath("rate_gbps"), "field required");
        }
        double rateGbps = ReadNumber(*rate, lr.FieldPath("rate_gbps"), RateRange());
        lr.Record("rate_gbps", rateGbps);
        bool hasDelay = lr.Has("delay_us");
        bool hasLength = lr.Has("length_km");
        if (hasDelay == hasLength)
        {
            throw ScenarioError(lr.FieldPath("delay_us"),
                                "give exactly one of delay_us and length_km");
        }
        double delayUs = 0;
        if (hasDelay)
        {
            delayUs = lr.Number("delay_us", 0, Range::Of(schema::kExplicitLinkDelayUs));
            lr.Raw("length_km");
        }
        else
        {
            double km = lr.Number("length_km", 0, Range::Of(schema::kExplicitLinkLengthKm));
            lr.Raw("delay_us");
            delayUs = km * kFibreUsPerKm;
        }
        lr.Finish();
        b.AddLink(a, c, rateGbps, delayUs);
        ++degree[a];
        ++degree[c];
        linksOut.push_back(itemOut);
    }
    r.Record("links", linksOut);
    r.Finish();

    Topology& topo = b.Topo();
    CheckHostLinks(topo, degree, nodesPath);
    for (const auto& l : topo.links)
    {
        // A host hangs off the other end of its first link (a multi-plane NIC's plane 0).
        if (topo.nodes[l.a].isHost && topo.nodes[l.a].group.empty())
        {
            topo.nodes[l.a].group = topo.nodes[l.b].id;
        }
        if (topo.nodes[l.b].isHost && topo.nodes[l.b].group.empty())
        {
            topo.nodes[l.b].group = topo.nodes[l.a].id;
        }
    }
    b.CountStats();
    return {topo, {}};
}

} // namespace

TopologyBuild
BuildTopology(const json& value, ordered_json* out)
{
    ObjectReader r(value, kTopologyPath, out);
    std::string kind = r.Enum("kind", "", kTopologyKinds);
    TopologyBuild build;
    if (kind == "leaf_spine")
    {
        build = BuildLeafSpine(r);
    }
    else if (kind == "fat_tree")
    {
        build = BuildFatTree(r);
    }
    else if (kind == "three_tier")
    {
        build = BuildThreeTier(r);
    }
    else if (kind == "dci")
    {
        build = BuildDci(r);
    }
    else if (kind == "rail_optimized")
    {
        build = BuildRailOptimized(r);
    }
    else if (kind == "multi_plane")
    {
        build = BuildMultiPlane(r);
    }
    else
    {
        build = BuildExplicit(r);
    }
    CheckConnected(build.topo);
    return build;
}

void
CheckConnected(const Topology& topo)
{
    if (topo.nodes.empty())
    {
        throw ScenarioError(kTopologyPath, "has no nodes");
    }
    std::vector<std::vector<uint32_t>> adj = Adjacency(topo);
    std::vector<bool> seen(topo.nodes.size(), false);
    std::deque<uint32_t> queue{0};
    seen[0] = true;
    while (!queue.empty())
    {
        uint32_t n = queue.front();
        queue.pop_front();
        for (uint32_t m : adj[n])
        {
            if (!seen[m])
            {
                seen[m] = true;
                queue.push_back(m);
            }
        }
    }
    for (std::size_t i = 0; i < seen.size(); ++i)
    {
        if (!seen[i])
        {
            throw ScenarioError(kTopologyPath, "disconnected (node \"" + topo.nodes[i].id +
                                                   "\" unreachable from \"" + topo.nodes[0].id +
                                                   "\")");
        }
    }
}

} // namespace fabric
