/*
 * The traffic generator being read (traffic-generator.cc): its reader, index, common fields
 * (priority, start_us, qps) and the flows it opens, one connection or one process pair at a
 * time, and what every generator shares (UDP source ports, the flow size cap, host names).
 * Split from traffic-generator.cc to keep each file to one responsibility; included by it and by
 * flow-list-generator.cc.
 */
#ifndef FABRIC_GENERATOR_CONTEXT_H
#define FABRIC_GENERATOR_CONTEXT_H

#include "json-reader.h"
#include "scenario-error.h"
#include "scenario-contract.h"
#include "model/fabric-config.h"
#include "traffic-generator.h"

#include <cmath>
#include <string>
#include <vector>

namespace fabric
{

constexpr uint16_t kFirstUdpPort = 49152;
constexpr uint32_t kUdpPortSpan = 16384;

/** The window a QP of this NIC gets: its qp_depth, or kWindowBdp (resolved per flow by the
 *  model when the network is built). */
inline uint32_t
QpWindow(const NicConfig& nic)
{
    return nic.qpDepthBdp ? kWindowBdp : nic.qpDepth;
}

/** The node index of the host named by v (a string); "unknown host" or "is a switch" at path. */
inline uint32_t
ResolveHost(const nlohmann::json& v, const std::string& path, const Topology& topo)
{
    std::string id = ReadString(v, path, kMaxNodeIdChars);
    auto it = topo.index.find(id);
    if (it == topo.index.end())
    {
        throw ScenarioError(path, "unknown host \"" + id + "\"");
    }
    if (!topo.nodes[it->second].isHost)
    {
        throw ScenarioError(path, "\"" + id + "\" is a switch, not a host");
    }
    return it->second;
}

/** A list of distinct hosts at key; absent = every host of the fabric (unless required). */
class GeneratorContext;
std::vector<uint32_t> HostList(GeneratorContext& g, const std::string& key, bool required,
                               std::size_t minItems);

/**
 * What flows wait for and which job they belong to, by generation index (before GenerateTraffic
 * sorts the flows by start time). Filled only by the generators that use them (a flow list's
 * `after`, the collective generator), so traffic without them carries nothing.
 */
struct FlowRelations
{
    std::vector<std::vector<uint32_t>> after; ///< shorter than the flow list: the rest wait for none
    std::vector<uint64_t> gapNs;              ///< same length as after
    std::vector<JobSpec> jobs;
    std::vector<JobFlow> jobFlows; ///< shorter than the flow list: the rest are no job's
    /// Collectives' transfers (EmitPlan: each plan's connection by connection, in plan order on
    /// each), each on a connection (a flow by generation index); the rows of the transfers each
    /// waits for (row indices).
    std::vector<uint32_t> transferFlow;
    std::vector<uint64_t> transferBytes;
    std::vector<JobFlow> transferJob;
    std::vector<uint32_t> transferAfterBegin; ///< transfers + 1 offsets (empty: none yet)
    std::vector<uint32_t> transferAfter;
    std::vector<uint64_t> transferGapNs;
    std::vector<StreamedCollective> streamed;
    /// Rings the packet model runs without their transfers listed (flows by generation index).
    std::vector<RingProgram> rings;
    /// NVLink collectives kept as stand-ins (their proxies: rows of the transfers above).
    std::vector<NvlinkTemplate> nvlinkTemplates;
    std::vector<NvlinkGroup> nvlinkGroups;
    /// Connections of the streamed collectives, not in the flow list: later flows are numbered
    /// (UDP ports, processes) as if they were.
    uint64_t streamedTransfers = 0;

    void SetAfter(std::size_t flow, std::vector<uint32_t> on, uint64_t gap)
    {
        if (after.size() <= flow)
        {
            after.resize(flow + 1);
            gapNs.resize(flow + 1, 0);
        }
        after[flow] = std::move(on);
        gapNs[flow] = gap;
    }

    void SetJob(std::size_t flow, const JobFlow& jf)
    {
        if (jobFlows.size() <= flow)
        {
            jobFlows.resize(flow + 1);
        }
        jobFlows[flow] = jf;
    }

    bool Empty() const
    {
        return after.empty() && jobFlows.empty() && jobs.empty() && transferFlow.empty() &&
               rings.empty();
    }
};

/** The generator being read: its reader, index, common fields and flow output. */
class GeneratorContext
{
  public:
    GeneratorContext(const TrafficContext& ctx,
                     ObjectReader& r,
                     uint32_t index,
                     std::vector<FlowSpec>& flows,
                     uint64_t& expected,
                     FlowRelations* relations = nullptr)
        : m_ctx(ctx),
          m_r(r),
          m_index(index),
          m_flows(flows),
          m_expected(expected),
          m_relations(relations)
    {
        r.String("name", "", kMaxNameChars);
        m_priority = static_cast<uint8_t>(
            r.Int("priority", ctx.dataPriority, Range::Of(schema::kGeneratorPriority)));
        Range startRange = Range::Of(schema::kGeneratorStartUs);
        startRange.max = ctx.durationUs;
        startRange.maxOpen = true;
        const nlohmann::json* start = r.Raw("start_us");
        if (start && !startRange.Contains(start->is_number() ? start->get<double>() : -1.0))
        {
            if (!start->is_number())
            {
                throw ScenarioError(r.FieldPath("start_us"), "must be a number");
            }
            throw ScenarioError(r.FieldPath("start_us"), "must be >= 0 and < duration_us (" +
                                                             FormatNumber(ctx.durationUs) + ")");
        }
        m_startUs = start ? start->get<double>() : 0.0;
        r.Record("start_us", m_startUs);
        m_qps = static_cast<uint32_t>(r.Int("qps", static_cast<int64_t>(schema::kGeneratorQps.def),
                                            Range::Of(schema::kGeneratorQps)));
    }

    ObjectReader& Reader() { return m_r; }

    const Topology& Topo() const { return *m_ctx.topo; }

    const NicConfig& Nic(uint32_t host) const { return (*m_ctx.nicCfg)[host]; }

    double StartUs() const { return m_startUs; }

    uint32_t Qps() const { return m_qps; }

    uint8_t Priority() const { return m_priority; }

    uint64_t StartNs() const { return static_cast<uint64_t>(std::llround(m_startUs * 1000.0)); }

    const TrafficContext& Ctx() const { return m_ctx; }

    uint32_t Index() const { return m_index; }

    /** Counts connections before generating them; throws when the total passes the limit. */
    void Expect(double connections)
    {
        double total = static_cast<double>(m_expected) + connections * m_qps;
        if (total > static_cast<double>(kMaxFlows))
        {
            throw ScenarioError(m_r.GetPath(), "brings the number of flows (QPs) to " +
                                                   FormatNumber(std::ceil(total)) +
                                                   ", more than the limit of " +
                                                   std::to_string(kMaxFlows));
        }
        m_expected = static_cast<uint64_t>(std::ceil(total));
    }

    /** One connection of qps QPs. */
    void Connect(uint32_t src,
                 uint32_t dst,
                 uint64_t sizeBytes,
                 uint64_t startNs,
                 uint64_t messageBytes,
                 uint32_t window,
                 bool probe = false)
    {
        for (uint32_t q = 0; q < m_qps; ++q)
        {
            std::size_t n = FlowNumber();
            FlowSpec& f = NewFlow(src, dst, sizeBytes);
            f.startNs = startNs;
            f.messageBytes = messageBytes;
            f.window = window;
            f.udpSrcPort = static_cast<uint16_t>(kFirstUdpPort + (n % kUdpPortSpan));
            // Outside ConnectProcesses a flow's sending process is its id mod p, as before.
            f.srcProcess = m_inProcessPair ? m_srcProcess : static_cast<uint32_t>(n % Processes(src));
            f.probe = probe;
        }
    }

    /**
     * One flow of the generator (its priority, sender NIC's message size and QP depth) on the
     * given UDP source port; returns its generation index.
     */
    uint32_t AddFlow(uint32_t src, uint32_t dst, uint64_t sizeBytes, uint16_t udpSrcPort)
    {
        FlowSpec& f = NewFlow(src, dst, sizeBytes);
        f.startNs = StartNs();
        f.messageBytes = Nic(src).messageBytes;
        f.window = QpWindow(Nic(src));
        f.udpSrcPort = udpSrcPort;
        return static_cast<uint32_t>(m_flows.size() - 1);
    }

    std::vector<FlowSpec>& Flows() { return m_flows; }

    /**
     * The number the next flow would have in the packet model's flow list: the flows so far,
     * and the transfers of collectives kept as streams (the UDP ports and processes follow it).
     */
    std::size_t FlowNumber() const
    {
        return m_flows.size() +
               static_cast<std::size_t>(m_relations ? m_relations->streamedTransfers : 0);
    }

    /** Where dependencies and jobs go (the collective generator's). */
    FlowRelations& Relations() { return *m_relations; }

    /** A connection with the sender NIC's message size and QP depth. */
    void Connect(uint32_t src, uint32_t dst, uint64_t sizeBytes)
    {
        Connect(src, dst, sizeBytes, StartNs(), Nic(src).messageBytes, QpWindow(Nic(src)));
    }

    /** p of the host's NIC (nic.processes_per_host). */
    uint32_t Processes(uint32_t host) const { return Nic(host).processesPerHost; }

    /** Flows (before qps) that ConnectProcesses opens between two hosts. */
    double ProcessPairs(uint32_t src, uint32_t dst) const
    {
        return static_cast<double>(Processes(src)) * Processes(dst);
    }

    /**
     * A host pair's traffic as every sending process to every receiving process
     * (docs/model.md, "Processes per host"): p_src x p_dst flows, each the transport's QP or a
     * share of one, splitting sizeBytes evenly (the first sizeBytes mod pairs carry one byte
     * more, so the pair's bytes, the offered load, do not depend on p). With fewer bytes than
     * process pairs only the first sizeBytes pairs send (one byte each). p = 1: one flow.
     */
    void ConnectProcesses(uint32_t src, uint32_t dst, uint64_t sizeBytes)
    {
        uint32_t ps = Processes(src);
        uint32_t pd = Processes(dst);
        uint64_t pairs = static_cast<uint64_t>(ps) * pd;
        uint64_t share = sizeBytes / pairs;
        uint64_t extra = sizeBytes % pairs;
        m_inProcessPair = true;
        for (uint64_t k = 0; k < pairs; ++k)
        {
            uint64_t bytes = share + (k < extra ? 1 : 0);
            if (sizeBytes > 0 && bytes == 0)
            {
                break; // a 0-byte flow would be long-lived
            }
            m_srcProcess = static_cast<uint32_t>(k / pd);
            Connect(src, dst, bytes);
        }
        m_inProcessPair = false;
    }

    /** A flow size (every generator's size fields are traffic.py's Size, as Incast's). */
    uint64_t SizeBytes(const std::string& key, uint64_t def = 0)
    {
        return static_cast<uint64_t>(
            m_r.Int(key, static_cast<int64_t>(def), Range::Of(schema::kIncastSizeBytes)));
    }

    /** A stream of the generator's fixed stream numbers (purpose 0..7). */
    int64_t Stream(int purpose) const
    {
        return kTrafficStreamBase + static_cast<int64_t>(m_index) * 8 + purpose;
    }

  private:
    /** Appends a flow of this generator (endpoints, size, priority); throws past kMaxFlows. */
    FlowSpec& NewFlow(uint32_t src, uint32_t dst, uint64_t sizeBytes)
    {
        if (m_flows.size() >= kMaxFlows)
        {
            throw ScenarioError(m_r.GetPath(), "brings the number of flows (QPs) over the limit of " +
                                                   std::to_string(kMaxFlows));
        }
        FlowSpec& f = m_flows.emplace_back();
        f.src = src;
        f.dst = dst;
        f.generator = m_index;
        f.priority = m_priority;
        f.sizeBytes = sizeBytes;
        return f;
    }

    const TrafficContext& m_ctx;
    ObjectReader& m_r;
    uint32_t m_index;
    std::vector<FlowSpec>& m_flows;
    uint64_t& m_expected;
    FlowRelations* m_relations;
    uint8_t m_priority = 3;
    double m_startUs = 0;
    uint32_t m_qps = 1;
    bool m_inProcessPair = false; ///< inside ConnectProcesses: m_srcProcess names the process
    uint32_t m_srcProcess = 0;
};

} // namespace fabric

#endif
