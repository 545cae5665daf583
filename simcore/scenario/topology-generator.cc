#include "topology-generator.h"

#include "json-reader.h"
#include "scenario-contract.h"

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

/** Appends nodes and links, keeping the id -> index map. */
class TopologyBuilder
{
  public:
    uint32_t AddNode(const std::string& id, bool isHost, int tier, const std::string& group)
    {
        NodeSpec n;
        n.id = id;
        n.isHost = isHost;
        n.tier = tier;
        n.group = group;
        uint32_t index = static_cast<uint32_t>(m_topo.nodes.size());
        m_topo.nodes.push_back(n);
        m_topo.index[id] = index;
        return index;
    }

    void AddLink(uint32_t a, uint32_t b, double rateGbps, double delayUs)
    {
        LinkSpec l;
        l.id = static_cast<uint32_t>(m_topo.links.size());
        l.a = a;
        l.b = b;
        l.rateGbps = rateGbps;
        l.delayUs = delayUs;
        m_topo.links.push_back(l);
    }

    Topology& Topo() { return m_topo; }

    void CountStats()
    {
        double hosts = 0;
        for (const auto& n : m_topo.nodes)
        {
            hosts += n.isHost ? 1 : 0;
        }
        m_topo.stats["hosts"] = hosts;
        m_topo.stats["switches"] = static_cast<double>(m_topo.nodes.size()) - hosts;
        m_topo.stats["links"] = static_cast<double>(m_topo.links.size());
    }

  private:
    Topology m_topo;
};

/** Adds one leaf-spine; returns the spine node indices. */
std::vector<uint32_t>
AddLeafSpine(TopologyBuilder& b,
             const LeafSpineParams& p,
             const std::string& prefix,
             const std::string& group)
{
    std::vector<uint32_t> hosts;
    std::vector<uint32_t> leaves;
    std::vector<uint32_t> spines;
    for (int64_t i = 0; i < p.leaves * p.hostsPerLeaf; ++i)
    {
        std::string leafId = prefix + "leaf" + std::to_string(i / p.hostsPerLeaf);
        hosts.push_back(b.AddNode(prefix + "h" + std::to_string(i), true, 0, leafId));
    }
    for (int64_t i = 0; i < p.leaves; ++i)
    {
        leaves.push_back(b.AddNode(prefix + "leaf" + std::to_string(i), false, 1, group));
    }
    for (int64_t j = 0; j < p.spines; ++j)
    {
        spines.push_back(b.AddNode(prefix + "spine" + std::to_string(j), false, 2, group));
    }
    for (std::size_t i = 0; i < hosts.size(); ++i)
    {
        b.AddLink(hosts[i], leaves[i / p.hostsPerLeaf], p.hostRateGbps, p.linkDelayUs);
    }
    for (uint32_t leaf : leaves)
    {
        for (uint32_t spine : spines)
        {
            b.AddLink(leaf, spine, p.fabricRateGbps, p.linkDelayUs);
        }
    }
    return spines;
}

double
LeafSpineOversubscription(const LeafSpineParams& p)
{
    return static_cast<double>(p.hostsPerLeaf) * p.hostRateGbps /
           (static_cast<double>(p.spines) * p.fabricRateGbps);
}

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
    p.hostsPerLeaf = r.Int("hosts_per_leaf", p.hostsPerLeaf, Range::Of(schema::kLeafSpineSiteHostsPerLeaf));
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
    p.torsPerPodset = r.Int("tors_per_podset", p.torsPerPodset, Range::Of(schema::kThreeTierTorsPerPodset));
    p.leafsPerPodset = r.Int("leafs_per_podset", p.leafsPerPodset, Range::Of(schema::kThreeTierLeafsPerPodset));
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
    { return r.Int(key, static_cast<int64_t>(f.def), Range::Of(f)); };
    auto number = [&r](const char* key, const NumberField& f)
    { return r.Number(key, f.def, Range::Of(f)); };
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
        a.retransmitTimeoutUs =
            r.Number("retransmit_timeout_us", 0, Range::Of(schema::kDciAcceleratorRetransmitTimeoutUs));
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
CheckHostLinks(const Topology& topo, const std::vector<uint32_t>& degree, const std::string& nodesPath)
{
    std::vector<uint32_t> plane(topo.nodes.size());
    for (std::size_t i = 0; i < plane.size(); ++i)
    {
        plane[i] = static_cast<uint32_t>(i);
    }
    std::function<uint32_t(uint32_t)> find = [&](uint32_t x)
    { return plane[x] == x ? x : plane[x] = find(plane[x]); };
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
                throw ScenarioError(path, "host \"" + id + "\" has " + std::to_string(degree[h]) +
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
                                "host \"" + topo.nodes[i].id + "\" must have exactly one link (has 0)");
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

Topology
GenerateLeafSpine(const LeafSpineParams& p)
{
    TopologyBuilder b;
    AddLeafSpine(b, p, "", "");
    b.CountStats();
    b.Topo().stats["oversubscription"] = LeafSpineOversubscription(p);
    return b.Topo();
}

Topology
GenerateFatTree(const FatTreeParams& p)
{
    TopologyBuilder b;
    int64_t k = p.k;
    int64_t half = k / 2;
    std::vector<uint32_t> hosts;
    std::vector<uint32_t> edges;
    std::vector<uint32_t> aggs;
    std::vector<uint32_t> cores;
    for (int64_t i = 0; i < k * k * k / 4; ++i)
    {
        int64_t edge = i / half;
        std::string edgeId =
            "edge" + std::to_string(edge / half) + "_" + std::to_string(edge % half);
        hosts.push_back(b.AddNode("h" + std::to_string(i), true, 0, edgeId));
    }
    for (int64_t pod = 0; pod < k; ++pod)
    {
        for (int64_t i = 0; i < half; ++i)
        {
            edges.push_back(b.AddNode("edge" + std::to_string(pod) + "_" + std::to_string(i), false,
                                      1, "pod" + std::to_string(pod)));
        }
    }
    for (int64_t pod = 0; pod < k; ++pod)
    {
        for (int64_t i = 0; i < half; ++i)
        {
            aggs.push_back(b.AddNode("agg" + std::to_string(pod) + "_" + std::to_string(i), false,
                                     2, "pod" + std::to_string(pod)));
        }
    }
    for (int64_t i = 0; i < half * half; ++i)
    {
        cores.push_back(b.AddNode("core" + std::to_string(i), false, 3, "core"));
    }
    for (std::size_t i = 0; i < hosts.size(); ++i)
    {
        b.AddLink(hosts[i], edges[i / half], p.hostRateGbps, p.linkDelayUs);
    }
    for (int64_t pod = 0; pod < k; ++pod)
    {
        for (int64_t e = 0; e < half; ++e)
        {
            for (int64_t a = 0; a < half; ++a)
            {
                b.AddLink(edges[pod * half + e], aggs[pod * half + a], p.fabricRateGbps,
                          p.linkDelayUs);
            }
        }
    }
    for (int64_t pod = 0; pod < k; ++pod)
    {
        for (int64_t a = 0; a < half; ++a)
        {
            for (int64_t c = 0; c < half; ++c)
            {
                b.AddLink(aggs[pod * half + a], cores[a * half + c], p.fabricRateGbps,
                          p.linkDelayUs);
            }
        }
    }
    b.CountStats();
    b.Topo().stats["oversubscription"] = p.hostRateGbps / p.fabricRateGbps;
    return b.Topo();
}

Topology
GenerateThreeTier(const ThreeTierParams& p)
{
    TopologyBuilder b;
    int64_t perPlane = p.spines / p.leafsPerPodset;
    std::vector<uint32_t> tors;
    std::vector<uint32_t> leafs;
    std::vector<uint32_t> spines;
    std::vector<uint32_t> hosts;
    for (int64_t i = 0; i < p.podsets * p.torsPerPodset * p.hostsPerTor; ++i)
    {
        int64_t tor = i / p.hostsPerTor;
        std::string torId = "tor" + std::to_string(tor / p.torsPerPodset) + "_" +
                            std::to_string(tor % p.torsPerPodset);
        hosts.push_back(b.AddNode("h" + std::to_string(i), true, 0, torId));
    }
    for (int64_t ps = 0; ps < p.podsets; ++ps)
    {
        for (int64_t i = 0; i < p.torsPerPodset; ++i)
        {
            tors.push_back(b.AddNode("tor" + std::to_string(ps) + "_" + std::to_string(i), false, 1,
                                     "podset" + std::to_string(ps)));
        }
    }
    for (int64_t ps = 0; ps < p.podsets; ++ps)
    {
        for (int64_t j = 0; j < p.leafsPerPodset; ++j)
        {
            leafs.push_back(b.AddNode("leaf" + std::to_string(ps) + "_" + std::to_string(j), false,
                                      2, "podset" + std::to_string(ps)));
        }
    }
    for (int64_t s = 0; s < p.spines; ++s)
    {
        spines.push_back(b.AddNode("spine" + std::to_string(s), false, 3,
                                   "plane" + std::to_string(s / perPlane)));
    }
    for (std::size_t i = 0; i < hosts.size(); ++i)
    {
        b.AddLink(hosts[i], tors[i / p.hostsPerTor], p.hostRateGbps, p.linkDelayUs);
    }
    for (int64_t ps = 0; ps < p.podsets; ++ps)
    {
        for (int64_t t = 0; t < p.torsPerPodset; ++t)
        {
            for (int64_t j = 0; j < p.leafsPerPodset; ++j)
            {
                b.AddLink(tors[ps * p.torsPerPodset + t], leafs[ps * p.leafsPerPodset + j],
                          p.torUplinkGbps, p.linkDelayUs);
            }
        }
    }
    for (int64_t ps = 0; ps < p.podsets; ++ps)
    {
        for (int64_t j = 0; j < p.leafsPerPodset; ++j)
        {
            for (int64_t s = 0; s < perPlane; ++s)
            {
                b.AddLink(leafs[ps * p.leafsPerPodset + j], spines[j * perPlane + s],
                          p.leafUplinkGbps, p.linkDelayUs);
            }
        }
    }
    b.CountStats();
    double torOver = static_cast<double>(p.hostsPerTor) * p.hostRateGbps /
                     (static_cast<double>(p.leafsPerPodset) * p.torUplinkGbps);
    double leafOver = static_cast<double>(p.torsPerPodset) * p.torUplinkGbps /
                      (static_cast<double>(perPlane) * p.leafUplinkGbps);
    b.Topo().stats["tor_oversubscription"] = torOver;
    b.Topo().stats["leaf_oversubscription"] = leafOver;
    b.Topo().stats["oversubscription"] = torOver * leafOver;
    return b.Topo();
}

TopologyBuild
GenerateDci(const DciParams& p)
{
    TopologyBuilder b;
    TopologyBuild build;
    std::vector<uint32_t> edges;
    for (const char* site : {"a", "b"})
    {
        std::string prefix = std::string(site) + "-";
        std::vector<uint32_t> spines = AddLeafSpine(b, p.site, prefix, site);
        uint32_t edge = b.AddNode(prefix + "dci", false, 4, site);
        for (uint32_t spine : spines)
        {
            b.AddLink(spine, edge, p.site.fabricRateGbps, p.site.linkDelayUs);
        }
        edges.push_back(edge);
        build.bufferBytes.emplace_back(edge, p.dciBufferBytes);
    }
    double delayUs = p.lengthKm * kFibreUsPerKm;
    b.AddLink(edges[0], edges[1], p.dciRateGbps, delayUs);
    build.dciAccelerator = p.accelerator;
    build.dciAccelerator.edges = {edges[0], edges[1]};
    build.dciBufferAuto = p.dciBufferAuto;
    b.CountStats();
    b.Topo().stats["oversubscription"] = LeafSpineOversubscription(p.site);
    b.Topo().stats["length_km"] = p.lengthKm;
    b.Topo().stats["long_haul_delay_us"] = delayUs;
    build.topo = b.Topo();
    return build;
}

namespace
{

/**
 * rail_optimized (planes 0: no prefix) and multi_plane (planes >= 1: every host has one port
 * per plane, plane k a rail-optimized leaf-spine of its own, ids prefixed "p{k}-"). Nodes: hosts,
 * then the leaves plane by plane, then the spines plane by plane; links: plane by plane, the
 * host links first, so a host's k-th link (its NIC's port k) is on plane k.
 */
Topology
GenerateRailPlanes(const RailOptimizedParams& p, int64_t planes)
{
    TopologyBuilder b;
    const bool multi = planes > 0;
    planes = std::max<int64_t>(planes, 1);
    const int64_t servers = p.units * p.serversPerUnit;
    std::vector<uint32_t> hosts;
    std::vector<uint32_t> leaves; ///< plane x unit x rail
    std::vector<uint32_t> spines; ///< plane x spine
    auto prefix = [multi](int64_t plane)
    { return multi ? "p" + std::to_string(plane) + "-" : std::string(); };
    auto leafId = [&prefix](int64_t plane, int64_t unit, int64_t rail)
    { return prefix(plane) + "leaf" + std::to_string(unit) + "_" + std::to_string(rail); };
    for (int64_t s = 0; s < servers; ++s)
    {
        for (int64_t rail = 0; rail < p.nicsPerServer; ++rail)
        {
            int64_t i = s * p.nicsPerServer + rail;
            uint32_t h = b.AddNode("h" + std::to_string(i), true, 0,
                                   leafId(0, s / p.serversPerUnit, rail));
            b.Topo().nodes[h].server = "srv" + std::to_string(s);
            b.Topo().nodes[h].rail = static_cast<int>(rail);
            hosts.push_back(h);
        }
    }
    for (int64_t k = 0; k < planes; ++k)
    {
        for (int64_t u = 0; u < p.units; ++u)
        {
            for (int64_t rail = 0; rail < p.nicsPerServer; ++rail)
            {
                leaves.push_back(
                    b.AddNode(leafId(k, u, rail), false, 1, "su" + std::to_string(u)));
            }
        }
    }
    for (int64_t k = 0; k < planes; ++k)
    {
        for (int64_t j = 0; j < p.spines; ++j)
        {
            spines.push_back(
                b.AddNode(prefix(k) + "spine" + std::to_string(j), false, 2, prefix(k) + "spines"));
        }
    }
    const std::size_t leavesPerPlane = static_cast<std::size_t>(p.units * p.nicsPerServer);
    for (int64_t k = 0; k < planes; ++k)
    {
        const uint32_t* planeLeaves = &leaves[static_cast<std::size_t>(k) * leavesPerPlane];
        for (std::size_t i = 0; i < hosts.size(); ++i)
        {
            int64_t s = static_cast<int64_t>(i) / p.nicsPerServer;
            int64_t rail = static_cast<int64_t>(i) % p.nicsPerServer;
            b.AddLink(hosts[i], planeLeaves[(s / p.serversPerUnit) * p.nicsPerServer + rail],
                      p.hostRateGbps, p.linkDelayUs);
        }
        for (std::size_t l = 0; l < leavesPerPlane; ++l)
        {
            for (int64_t j = 0; j < p.spines; ++j)
            {
                b.AddLink(planeLeaves[l], spines[static_cast<std::size_t>(k * p.spines + j)],
                          p.fabricRateGbps, p.linkDelayUs);
            }
        }
    }
    b.CountStats();
    Topology& t = b.Topo();
    t.stats["servers"] = static_cast<double>(servers);
    t.stats["rails"] = static_cast<double>(p.nicsPerServer);
    t.stats["oversubscription"] = static_cast<double>(p.serversPerUnit) * p.hostRateGbps /
                                  (static_cast<double>(p.spines) * p.fabricRateGbps);
    t.stats["nvlink_gbps"] = p.nvlinkGbps;
    if (multi)
    {
        t.stats["planes"] = static_cast<double>(planes);
        t.stats["nic_rate_gbps"] = static_cast<double>(planes) * p.hostRateGbps;
    }
    return t;
}

} // namespace

Topology
GenerateRailOptimized(const RailOptimizedParams& p)
{
    return GenerateRailPlanes(p, 0);
}

Topology
GenerateMultiPlane(const RailOptimizedParams& p, int64_t planes)
{
    return GenerateRailPlanes(p, planes);
}

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

std::vector<std::vector<uint32_t>>
Adjacency(const Topology& topo)
{
    std::vector<std::vector<uint32_t>> adj(topo.nodes.size());
    for (const auto& l : topo.links)
    {
        adj[l.a].push_back(l.b);
        adj[l.b].push_back(l.a);
    }
    return adj;
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

std::vector<uint32_t>
HostAttachments(const Topology& topo)
{
    std::vector<uint32_t> att(topo.nodes.size(), kNoNode);
    for (const auto& l : topo.links)
    {
        // A multi-plane host has a link per plane: it hangs off its first (plane 0's leaf).
        if (topo.nodes[l.a].isHost && att[l.a] == kNoNode)
        {
            att[l.a] = l.b;
        }
        if (topo.nodes[l.b].isHost && att[l.b] == kNoNode)
        {
            att[l.b] = l.a;
        }
    }
    return att;
}

std::vector<uint32_t>
HostIndices(const Topology& topo)
{
    std::vector<uint32_t> hosts;
    for (std::size_t i = 0; i < topo.nodes.size(); ++i)
    {
        if (topo.nodes[i].isHost)
        {
            hosts.push_back(static_cast<uint32_t>(i));
        }
    }
    return hosts;
}

} // namespace fabric
