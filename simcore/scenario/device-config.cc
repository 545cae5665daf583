#include "device-config.h"

#include "json-reader.h"
#include "scenario-contract.h"

#include <cstdlib>
#include <stdexcept>

namespace fabric
{

using nlohmann::json;
using nlohmann::ordered_json;

namespace
{

/** A link rate written as an object key ("100", "25.78125"): Gbit/s in (0, kMaxRateGbps]. */
double
ParseRateKey(const std::string& key, const std::string& path)
{
    bool ok = !key.empty() && key.size() <= 14 && key.front() != '.' && key.back() != '.' &&
              !(key.size() > 1 && key[0] == '0' && key[1] != '.');
    int dots = 0;
    for (char c : key)
    {
        dots += c == '.';
        ok = ok && ((c >= '0' && c <= '9') || c == '.');
    }
    double v = ok && dots <= 1 ? std::strtod(key.c_str(), nullptr) : 0.0;
    if (!(v > 0 && v <= kMaxRateGbps))
    {
        throw ScenarioError(path, "must be a link rate > 0 and <= " + FormatNumber(kMaxRateGbps) +
                                      " Gbit/s written as a number (\"100\")");
    }
    return v;
}

ordered_json*
Child(ordered_json* out, const std::string& key)
{
    return out ? &(*out)[key] : nullptr;
}

const json&
OrEmpty(const json* v)
{
    static const json kEmpty = json::object();
    return v ? *v : kEmpty;
}

EcnConfig
ReadEcn(const json& value, const std::string& path, ordered_json* out)
{
    ObjectReader r(value, path, out);
    EcnConfig e;
    e.enabled = r.Bool("enabled", e.enabled);
    e.kminBytes = static_cast<uint64_t>(
        r.Int("kmin_bytes", static_cast<int64_t>(e.kminBytes), Range::Of(kSwitchEcnKminBytes)));
    e.kmaxBytes = static_cast<uint64_t>(
        r.Int("kmax_bytes", static_cast<int64_t>(e.kmaxBytes), Range::Of(kSwitchEcnKmaxBytes)));
    e.pmax = r.Number("pmax", e.pmax, Range::Of(kSwitchEcnPmax));
    r.Finish();
    if (e.kminBytes > e.kmaxBytes)
    {
        throw ScenarioError(r.FieldPath("kmin_bytes"), "must be <= " + r.FieldPath("kmax_bytes") +
                                                           " (" + std::to_string(e.kmaxBytes) +
                                                           ")");
    }
    return e;
}

PfcConfig
ReadPfc(const json& value, const std::string& path, ordered_json* out)
{
    ObjectReader r(value, path, out);
    PfcConfig p;
    p.enabled = r.Bool("enabled", p.enabled);
    p.alpha = r.Number("alpha", p.alpha, Range::Of(kSwitchPfcAlpha));
    const json* headroom = r.Raw("headroom_bytes");
    if (!headroom || (headroom->is_string() && headroom->get<std::string>() == "auto"))
    {
        p.headroomAuto = true;
        r.Record("headroom_bytes", "auto");
    }
    else if (headroom->is_number())
    {
        p.headroomAuto = false;
        p.headroomBytes = static_cast<uint64_t>(
            ReadInt(*headroom, r.FieldPath("headroom_bytes"), Range::Of(kSwitchPfcHeadroomBytes)));
        r.Record("headroom_bytes", p.headroomBytes);
    }
    else
    {
        throw ScenarioError(r.FieldPath("headroom_bytes"),
                            "must be \"auto\" or " +
                                Range::Of(kSwitchPfcHeadroomBytes).Describe(true).substr(8));
    }
    p.xonOffsetBytes =
        static_cast<uint64_t>(r.Int("xon_offset_bytes", static_cast<int64_t>(p.xonOffsetBytes),
                                    Range::Of(kSwitchPfcXonOffsetBytes)));
    std::string mode = r.Enum("pause_mode", kSwitchPfcPauseMode.def, kSwitchPfcPauseMode.options);
    p.pauseMode = mode == "quanta" ? PauseMode::QUANTA : PauseMode::XOFF_XON;
    p.pauseQuanta = static_cast<uint32_t>(
        r.Int("pause_quanta", p.pauseQuanta, Range::Of(kSwitchPfcPauseQuanta)));
    const json* byRate = r.Raw("alpha_by_rate");
    ordered_json byRateOut = ordered_json::object();
    if (byRate)
    {
        std::string byPath = r.FieldPath("alpha_by_rate");
        RequireObject(*byRate, byPath);
        for (auto it = byRate->begin(); it != byRate->end(); ++it)
        {
            std::string itemPath = JoinPath(byPath, it.key());
            double rate = ParseRateKey(it.key(), itemPath);
            double alpha = ReadNumber(it.value(), itemPath, Range::Of(kSwitchPfcAlpha));
            p.alphaByRate.emplace_back(rate, alpha);
            byRateOut[it.key()] = alpha;
        }
    }
    r.Record("alpha_by_rate", byRateOut);
    r.Finish();
    return p;
}

CcConfig
ReadCc(const json& value, const std::string& path, ordered_json* out)
{
    ObjectReader r(value, path, out);
    std::string algorithm = r.Enum("algorithm", kNicCcAlgorithm.def, kNicCcAlgorithm.options);
    std::string preset =
        r.Enum("preset", kNicCcPreset.def, kNicCcPreset.options);
    CcConfig c = DcqcnPreset(preset);
    c.algorithm = algorithm;
    c.g = r.Number("g", c.g, Range::Of(kNicCcG));
    c.alphaUpdateUs = r.Number("alpha_update_us", c.alphaUpdateUs,
                               Range::Of(kNicCcAlphaUpdateUs));
    c.rateDecreaseIntervalUs = r.Number("rate_decrease_interval_us", c.rateDecreaseIntervalUs,
                                        Range::Of(kNicCcRateDecreaseIntervalUs));
    c.rateIncreaseTimerUs = r.Number("rate_increase_timer_us", c.rateIncreaseTimerUs,
                                     Range::Of(kNicCcRateIncreaseTimerUs));
    c.byteCounterBytes =
        static_cast<uint64_t>(r.Int("byte_counter_bytes", static_cast<int64_t>(c.byteCounterBytes),
                                    Range::Of(kNicCcByteCounterBytes)));
    c.fastRecoverySteps = static_cast<uint32_t>(
        r.Int("fast_recovery_steps", c.fastRecoverySteps, Range::Of(kNicCcFastRecoverySteps)));
    c.raiMbps = r.Number("rai_mbps", c.raiMbps, Range::Of(kNicCcRaiMbps));
    c.rhaiMbps = r.Number("rhai_mbps", c.rhaiMbps, Range::Of(kNicCcRhaiMbps));
    c.minRateMbps = r.Number("min_rate_mbps", c.minRateMbps, Range::Of(kNicCcMinRateMbps));
    c.clampTargetRate = r.Bool("clamp_target_rate", c.clampTargetRate);
    c.clampTargetAfterTimerIncrease =
        r.Bool("clamp_target_after_timer_increase", c.clampTargetAfterTimerIncrease);
    c.maxDecrease = r.Number("max_decrease", c.maxDecrease, Range::Of(kNicCcMaxDecrease));
    c.alphaTimer = r.Enum("alpha_timer", c.alphaTimer, kNicCcAlphaTimer.options);
    r.Finish();
    return c;
}

} // namespace

CcConfig
DcqcnPreset(const std::string& name)
{
    // The values and their sources: backend/app/scenarios/cc_presets.py (kCcPresets is generated
    // from it, docs/presets.md "Congestion-control presets" tabulates them).
    for (const CcPresetValues& p : kCcPresets)
    {
        if (name != p.name)
        {
            continue;
        }
        CcConfig c;
        c.g = p.g;
        c.alphaUpdateUs = p.alphaUpdateUs;
        c.rateDecreaseIntervalUs = p.rateDecreaseIntervalUs;
        c.rateIncreaseTimerUs = p.rateIncreaseTimerUs;
        c.byteCounterBytes = static_cast<uint64_t>(p.byteCounterBytes);
        c.fastRecoverySteps = static_cast<uint32_t>(p.fastRecoverySteps);
        c.raiMbps = p.raiMbps;
        c.rhaiMbps = p.rhaiMbps;
        c.minRateMbps = p.minRateMbps;
        c.clampTargetRate = p.clampTargetRate;
        c.clampTargetAfterTimerIncrease = p.clampTargetAfterTimerIncrease;
        c.maxDecrease = p.maxDecrease;
        c.alphaTimer = p.alphaTimer;
        c.presetCnpIntervalUs = p.presetCnpIntervalUs;
        c.presetCnpMode = p.presetCnpMode;
        return c;
    }
    throw std::out_of_range("unknown DCQCN preset " + name);
}

SwitchConfig
ReadSwitchConfig(const json& value, const std::string& path, ordered_json* out)
{
    ObjectReader r(value, path, out);
    SwitchConfig s;
    s.bufferBytes = static_cast<uint64_t>(r.Int("buffer_bytes", static_cast<int64_t>(s.bufferBytes),
                                                Range::Of(kSwitchBufferBytes)));
    s.cellBytes =
        static_cast<uint32_t>(r.Int("cell_bytes", s.cellBytes, Range::Of(kSwitchCellBytes)));
    s.pfc = ReadPfc(OrEmpty(r.Raw("pfc")), r.FieldPath("pfc"), Child(out, "pfc"));
    const json& ecnRaw = OrEmpty(r.Raw("ecn"));
    EcnConfig ecn = ReadEcn(ecnRaw, r.FieldPath("ecn"), Child(out, "ecn"));
    s.ecn.fill(ecn);
    const json& byPriority = OrEmpty(r.Raw("ecn_by_priority"));
    std::string byPath = r.FieldPath("ecn_by_priority");
    RequireObject(byPriority, byPath);
    ordered_json byOut = ordered_json::object();
    for (auto it = byPriority.begin(); it != byPriority.end(); ++it)
    {
        const std::string& key = it.key();
        std::string itemPath = JoinPath(byPath, key);
        if (key.size() != 1 || key[0] < '0' || key[0] > '7')
        {
            throw ScenarioError(itemPath, "priority keys must be \"0\" .. \"7\"");
        }
        RequireObject(it.value(), itemPath);
        ordered_json itemOut;
        s.ecn[key[0] - '0'] = ReadEcn(DeepMerge(ecnRaw, it.value()), itemPath, &itemOut);
        byOut[key] = it.value();
    }
    r.Record("ecn_by_priority", byOut);
    // Per egress-port rate: ecn, then the rate's entry, then the priority's entry on top.
    const json* byRate = r.Raw("ecn_by_rate");
    ordered_json byRateOut = ordered_json::object();
    if (byRate)
    {
        std::string ratePath = r.FieldPath("ecn_by_rate");
        RequireObject(*byRate, ratePath);
        for (auto it = byRate->begin(); it != byRate->end(); ++it)
        {
            std::string itemPath = JoinPath(ratePath, it.key());
            double rate = ParseRateKey(it.key(), itemPath);
            RequireObject(it.value(), itemPath);
            json rateBase = DeepMerge(ecnRaw, it.value());
            std::array<EcnConfig, 8> perPrio;
            perPrio.fill(ReadEcn(rateBase, itemPath, nullptr));
            for (auto p = byPriority.begin(); p != byPriority.end(); ++p)
            {
                perPrio[p.key()[0] - '0'] =
                    ReadEcn(DeepMerge(rateBase, p.value()), JoinPath(byPath, p.key()), nullptr);
            }
            s.ecnByRate.emplace_back(rate, perPrio);
            byRateOut[it.key()] = it.value();
        }
    }
    r.Record("ecn_by_rate", byRateOut);
    // Where the marker looks at the queue: on arrival (enqueue, the queue the frame joins) or on
    // departure (dequeue, the queue it leaves behind). One setting per switch, all priorities.
    s.ecnMarkOnDequeue = r.Enum("ecn_mark_point", kSwitchEcnMarkPoint.def, kSwitchEcnMarkPoint.options) == "dequeue";
    s.ecmpSeed = static_cast<uint32_t>(r.Int("ecmp_seed", 0, Range::Of(kSwitchEcmpSeed)));
    s.dataPriority =
        static_cast<uint8_t>(r.Int("data_priority", s.dataPriority, Range::Of(kSwitchDataPriority)));
    std::string lb = r.Enum("load_balancing", kSwitchLoadBalancing.def, kSwitchLoadBalancing.options);
    s.loadBalancing = lb == "per_packet" ? LoadBalancing::PER_PACKET
                      : lb == "adaptive" ? LoadBalancing::ADAPTIVE
                                         : LoadBalancing::ECMP;
    if (r.Has("trimming")) // read only when given: other documents normalize as before
    {
        s.trimming = r.Bool("trimming", false);
    }
    r.Finish();
    return s;
}

/** nic.sprayed: the reorder buffer and ACK spacing of the sprayed transport. */
static void
ReadSprayed(const json& value, const std::string& path, ordered_json* out, NicConfig& n)
{
    ObjectReader r(value, path, out);
    n.reorderWindowPackets = static_cast<uint32_t>(
        r.Int("reorder_window_packets", n.reorderWindowPackets,
              Range::Of(kNicSprayedReorderWindowPackets)));
    n.sackIntervalPackets = static_cast<uint32_t>(
        r.Int("sack_interval_packets", n.sackIntervalPackets,
              Range::Of(kNicSprayedSackIntervalPackets)));
    r.Finish();
}

/** nic.erd: the ERD transport's paths per QP and its receiver's NACK scan period. */
static void
ReadErd(const json& value, const std::string& path, ordered_json* out, NicConfig& n)
{
    ObjectReader r(value, path, out);
    n.erdPaths = static_cast<uint32_t>(r.Int("paths", n.erdPaths, Range::Of(kNicErdPaths)));
    const json* interval = r.Raw("nack_interval_us");
    if (!interval || interval->is_string())
    {
        if (interval && interval->get<std::string>() != "auto")
        {
            throw ScenarioError(r.FieldPath("nack_interval_us"),
                                "must be a number 0.1 .. 1000000 us or \"auto\"");
        }
        n.erdNackIntervalUs = 0; // auto: 2.5 x each flow's base RTT
        r.Record("nack_interval_us", "auto");
    }
    else
    {
        n.erdNackIntervalUs =
            r.Number("nack_interval_us", 0, Range::Of(kNicErdNackIntervalUs));
    }
    r.Finish();
}

NicConfig
ReadNicConfig(const json& value, const std::string& path, ordered_json* out)
{
    ObjectReader r(value, path, out);
    NicConfig n;
    n.transport = r.Enum("transport", n.transport, kNicTransport.options);
    n.mtuBytes =
        static_cast<uint32_t>(r.Int("mtu_bytes", n.mtuBytes, Range::Of(kNicMtuBytes)));
    const json* qpDepth = r.Raw("qp_depth");
    if (qpDepth && qpDepth->is_string())
    {
        if (qpDepth->get<std::string>() != "bdp")
        {
            throw ScenarioError(r.FieldPath("qp_depth"),
                                "must be an integer 1 .. 65536 or \"bdp\"");
        }
        n.qpDepthBdp = true;
        r.Record("qp_depth", "bdp");
    }
    else
    {
        n.qpDepth = static_cast<uint32_t>(r.Int("qp_depth", n.qpDepth, Range::Of(kNicQpDepth)));
    }
    n.messageBytes =
        static_cast<uint64_t>(r.Int("message_bytes", static_cast<int64_t>(n.messageBytes),
                                    Range::Of(kNicMessageBytes)));
    n.cc = ReadCc(OrEmpty(r.Raw("cc")), r.FieldPath("cc"), Child(out, "cc"));
    n.cnpIntervalUs =
        r.Number("cnp_interval_us", n.cc.presetCnpIntervalUs, Range::Of(kNicCnpIntervalUs));
    n.cnpMode = r.Enum("cnp_mode", n.cc.presetCnpMode, kNicCnpMode.options);
    n.ackIntervalPackets = static_cast<uint32_t>(
        r.Int("ack_interval_packets", n.ackIntervalPackets, Range::Of(kNicAckIntervalPackets)));
    n.rtoUs = r.Number("rto_us", n.rtoUs, Range::Of(kNicRtoUs));
    n.nackEnabled = r.Bool("nack_enabled", n.nackEnabled);
    n.ackFlagFeedback = r.Enum("ecn_feedback", kNicEcnFeedback.def, kNicEcnFeedback.options) == "ack_flag";
    n.ackDataPriority = r.Enum("ack_priority", kNicAckPriority.def, kNicAckPriority.options) == "data";
    n.headerBytes = static_cast<uint32_t>(
        r.Int("header_bytes", n.headerBytes, Range::Of(kNicHeaderBytes)));
    n.preambleIfgBytes = static_cast<uint32_t>(
        r.Int("preamble_ifg_bytes", n.preambleIfgBytes, Range::Of(kNicPreambleIfgBytes)));
    n.processesPerHost = static_cast<uint32_t>(
        r.Int("processes_per_host", n.processesPerHost, Range::Of(kNicProcessesPerHost)));
    n.qpCacheEntries = static_cast<uint32_t>(
        r.Int("qp_cache_entries", n.qpCacheEntries, Range::Of(kNicQpCacheEntries)));
    n.qpCacheMissNs = r.Number("qp_cache_miss_ns", n.qpCacheMissNs, Range::Of(kNicQpCacheMissNs));
    ReadSprayed(OrEmpty(r.Raw("sprayed")), r.FieldPath("sprayed"), Child(out, "sprayed"), n);
    ReadErd(OrEmpty(r.Raw("erd")), r.FieldPath("erd"), Child(out, "erd"), n);
    r.Finish();
    return n;
}

uint32_t
MixEcmpSeed(uint32_t seed, uint32_t nodeIndex)
{
    // splitmix64 finalizer over (seed, index): neighbouring switches get unrelated seeds.
    uint64_t z = (static_cast<uint64_t>(seed) << 32) ^ nodeIndex;
    z += 0x9e3779b97f4a7c15ULL;
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    z ^= z >> 31;
    return static_cast<uint32_t>(z ^ (z >> 32));
}

void
ResolveDeviceConfigs(const Topology& topo,
                     const json* switchJson,
                     const json* switchOverrides,
                     const json* nicJson,
                     const json* nicOverrides,
                     const std::vector<std::pair<uint32_t, uint64_t>>& generatorBuffers,
                     std::vector<SwitchConfig>& switchCfg,
                     std::vector<NicConfig>& nicCfg,
                     ordered_json* out)
{
    const json& switchBase = OrEmpty(switchJson);
    const json& nicBase = OrEmpty(nicJson);
    SwitchConfig sw = ReadSwitchConfig(switchBase, "switch", Child(out, "switch"));
    NicConfig nic = ReadNicConfig(nicBase, "nic", Child(out, "nic"));

    std::size_t n = topo.nodes.size();
    switchCfg.assign(n, sw);
    nicCfg.assign(n, nic);
    std::vector<bool> seedOverridden(n, false);
    std::vector<bool> bufferOverridden(n, false);

    const json& swOver = OrEmpty(switchOverrides);
    RequireObject(swOver, "switch_overrides");
    for (auto it = swOver.begin(); it != swOver.end(); ++it)
    {
        std::string path = JoinPath("switch_overrides", it.key());
        auto found = topo.index.find(it.key());
        if (found == topo.index.end())
        {
            throw ScenarioError(path, "unknown switch \"" + it.key() + "\"");
        }
        if (topo.nodes[found->second].isHost)
        {
            throw ScenarioError(path, "\"" + it.key() + "\" is a host, not a switch");
        }
        RequireObject(it.value(), path);
        uint32_t idx = found->second;
        switchCfg[idx] = ReadSwitchConfig(DeepMerge(switchBase, it.value()), path);
        seedOverridden[idx] = it.value().contains("ecmp_seed");
        bufferOverridden[idx] = it.value().contains("buffer_bytes");
    }
    if (out)
    {
        (*out)["switch_overrides"] = ordered_json::parse(swOver.dump());
    }

    const json& nicOver = OrEmpty(nicOverrides);
    RequireObject(nicOver, "nic_overrides");
    for (auto it = nicOver.begin(); it != nicOver.end(); ++it)
    {
        std::string path = JoinPath("nic_overrides", it.key());
        auto found = topo.index.find(it.key());
        if (found == topo.index.end())
        {
            throw ScenarioError(path, "unknown host \"" + it.key() + "\"");
        }
        if (!topo.nodes[found->second].isHost)
        {
            throw ScenarioError(path, "\"" + it.key() + "\" is a switch, not a host");
        }
        RequireObject(it.value(), path);
        nicCfg[found->second] = ReadNicConfig(DeepMerge(nicBase, it.value()), path);
    }
    if (out)
    {
        (*out)["nic_overrides"] = ordered_json::parse(nicOver.dump());
    }

    for (const auto& [node, bytes] : generatorBuffers)
    {
        if (!bufferOverridden[node])
        {
            switchCfg[node].bufferBytes = bytes;
        }
    }
    for (std::size_t i = 0; i < n; ++i)
    {
        if (!topo.nodes[i].isHost && !seedOverridden[i])
        {
            switchCfg[i].ecmpSeed = MixEcmpSeed(switchCfg[i].ecmpSeed, static_cast<uint32_t>(i));
        }
    }
}

} // namespace fabric
