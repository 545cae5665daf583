#include "training-generator.h"

#include "training-plan.h"
#include "training-summary.h"

#include <algorithm>
#include <map>
#include <memory>

namespace fabric
{

using nlohmann::json;
using nlohmann::ordered_json;

namespace
{

TrainingModelSpec
ReadModel(ObjectReader& r)
{
    const json* v = r.Raw("model");
    if (!v)
    {
        throw ScenarioError(r.FieldPath("model"), "field required");
    }
    std::vector<std::string> names;
    for (const TrainingModelValues& m : kTrainingModels)
    {
        names.emplace_back(m.name);
    }
    TrainingModelSpec spec;
    if (v->is_string())
    {
        std::string name = v->get<std::string>();
        for (const TrainingModelValues& m : kTrainingModels)
        {
            if (name == m.name)
            {
                spec.name = name;
                spec.layers = m.layers;
                spec.hidden = m.hidden;
                spec.ffnHidden = m.ffnHidden;
                spec.heads = m.heads;
                spec.seqLen = m.seqLen;
                spec.vocab = m.vocab;
                spec.experts = m.experts;
                spec.topK = m.topK;
                spec.gated = m.gated;
                r.Record("model", name);
                return spec;
            }
        }
    }
    if (!v->is_object())
    {
        std::string list;
        for (const std::string& n : names)
        {
            list += (list.empty() ? "\"" : ", \"") + n + "\"";
        }
        throw ScenarioError(r.FieldPath("model"), "must be one of " + list +
                                                      ", or an object of the "
                                                      "model's dimensions");
    }
    ordered_json out;
    ObjectReader m(*v, r.FieldPath("model"), r.Out() ? &out : nullptr);
    auto req = [&](const char* key, const NumberField& f)
    {
        return static_cast<uint64_t>(m.RequiredInt(key, Range::Of(f)));
    };
    spec.name = "custom";
    spec.layers = req("layers", schema::kTrainingModelLayers);
    spec.hidden = req("hidden", schema::kTrainingModelHidden);
    spec.ffnHidden =
        static_cast<uint64_t>(m.Int("ffn_hidden", static_cast<int64_t>(4 * spec.hidden),
                                    Range::Of(schema::kTrainingModelFfnHidden)));
    spec.heads = req("heads", schema::kTrainingModelHeads);
    spec.seqLen = req("seq_len", schema::kTrainingModelSeqLen);
    spec.vocab = req("vocab", schema::kTrainingModelVocab);
    spec.experts =
        static_cast<uint64_t>(m.Int("experts", 1, Range::Of(schema::kTrainingModelExperts)));
    spec.topK = static_cast<uint64_t>(m.Int("top_k", 1, Range::Of(schema::kTrainingModelTopK)));
    spec.gated = m.Bool("gated", false);
    m.Finish();
    r.Record("model", out);
    return spec;
}

TrainingParallelSpec
ReadParallel(ObjectReader& r)
{
    static const json kEmpty = json::object();
    const json* v = r.Raw("parallel");
    ordered_json out;
    ObjectReader p(v ? *v : kEmpty, r.FieldPath("parallel"), r.Out() ? &out : nullptr);
    auto count = [&](const char* key, const NumberField& f)
    {
        return static_cast<uint32_t>(p.Int(key, static_cast<int64_t>(f.def), Range::Of(f)));
    };
    TrainingParallelSpec s;
    s.tp = count("tp", schema::kTrainingParallelTp);
    s.pp = count("pp", schema::kTrainingParallelPp);
    s.dp = count("dp", schema::kTrainingParallelDp);
    s.ep = count("ep", schema::kTrainingParallelEp);
    s.microBatches = count("micro_batches", schema::kTrainingParallelMicroBatches);
    s.microBatchSize = count("micro_batch_size", schema::kTrainingParallelMicroBatchSize);
    s.distributedOptimizer = p.Bool("distributed_optimizer", false);
    s.sequenceParallel = p.Bool("sequence_parallel", false);
    s.overlapGradReduce = p.Bool("overlap_grad_reduce", false);
    s.bucketBytes = static_cast<uint64_t>(
        p.Int("bucket_bytes", static_cast<int64_t>(schema::kTrainingParallelBucketBytes.def),
              Range::Of(schema::kTrainingParallelBucketBytes)));
    p.Finish();
    r.Record("parallel", out);
    return s;
}

void
ReadGpu(ObjectReader& r, TrainingRequest& req)
{
    static const json kEmpty = json::object();
    const json* v = r.Raw("gpu");
    ordered_json out;
    ObjectReader gpu(v ? *v : kEmpty, r.FieldPath("gpu"), r.Out() ? &out : nullptr);
    req.tflops =
        gpu.Number("tflops", schema::kTrainingGpuTflops.def, Range::Of(schema::kTrainingGpuTflops));
    req.mfu = gpu.Number("mfu", schema::kTrainingGpuMfu.def, Range::Of(schema::kTrainingGpuMfu));
    gpu.Finish();
    r.Record("gpu", out);
}

} // namespace

void
GenerateTraining(GeneratorContext& g, ServerPool& pool)
{
    ObjectReader& r = g.Reader();
    const Topology& topo = g.Topo();
    if (g.Qps() != 1)
    {
        throw ScenarioError(r.FieldPath("qps"),
                            "must be 1 for a training job (channels sets its parallel QPs)");
    }
    std::vector<uint32_t> ranks = ReadJobRanks(g, pool, "a training job", 1);
    TrainingRequest req;
    req.model = ReadModel(r);
    req.parallel = ReadParallel(r);
    ReadGpu(r, req);
    if (r.Has("compute_us_per_layer"))
    {
        req.computeUsPerLayer =
            r.Number("compute_us_per_layer", 0, Range::Of(schema::kTrainingComputeUsPerLayer));
    }
    std::vector<std::string> precisions;
    for (const TrainingPrecision& p : kTrainingPrecisions)
    {
        precisions.emplace_back(p.name);
    }
    std::string precision = r.Enum("precision", "bf16", precisions);
    for (const TrainingPrecision& p : kTrainingPrecisions)
    {
        if (precision == p.name)
        {
            req.bytesPerElement = p.bytes;
        }
    }
    req.iterations =
        static_cast<uint32_t>(r.Int("iterations", 1, Range::Of(schema::kTrainingIterations)));
    std::vector<std::string> allReduce = AlgorithmsFor("all_reduce");
    req.tpAlgorithm = r.Enum("tp_algorithm", "ring", allReduce);
    req.dpAlgorithm = r.Enum("dp_algorithm", "ring", allReduce);
    req.channels =
        static_cast<uint32_t>(r.Int("channels", 1, Range::Of(schema::kTrainingChannels)));
    req.chunkBytes =
        static_cast<uint64_t>(r.Int("chunk_bytes", 0, Range::Of(schema::kTrainingChunkBytes)));
    double nvlinkGbps = ReadNvlinkGbps(g);
    std::string job = ReadJobName(g);
    r.Finish();

    std::vector<uint32_t> serverOf = ServerIndex(topo, pool);
    for (uint32_t h : ranks)
    {
        req.serverOf.push_back(serverOf[h]);
    }
    req.maxTransfers = kMaxTransfers;
    req.groupNvlink = g.Ctx().nvlinkGroups;
    TrainingPlan plan;
    try
    {
        plan = PlanTraining(req);
    }
    catch (const PlanError& e)
    {
        throw ScenarioError(r.FieldPath(e.Field()), e.what());
    }

    FlowRelations& rel = g.Relations();
    JobSpec spec;
    spec.name = job;
    spec.generator = g.Index();
    spec.op = "training";
    spec.algorithm = req.dpAlgorithm;
    spec.ranks = ranks;
    std::vector<uint32_t> distinct = req.serverOf;
    std::sort(distinct.begin(), distinct.end());
    spec.servers =
        static_cast<uint32_t>(std::unique(distinct.begin(), distinct.end()) - distinct.begin());
    spec.messageBytes = 0;
    spec.busFactor = 1;
    spec.iterations = req.iterations;
    spec.channels = req.channels;
    std::map<uint32_t, uint32_t> perServer;
    for (uint32_t sv : req.serverOf)
    {
        if (pool.hosts[sv].size() > 1)
        {
            spec.ranksPerServer = std::max(spec.ranksPerServer, ++perServer[sv]);
        }
    }
    spec.nvlinkGbps = spec.ranksPerServer > 1 ? nvlinkGbps : 0;
    uint32_t jobIndex = static_cast<uint32_t>(rel.jobs.size());
    rel.jobs.push_back(spec);

    JobRanks where;
    where.hosts = ranks;
    where.nvlinkGbps = nvlinkGbps;
    for (uint32_t sv : req.serverOf)
    {
        // two GPUs of one server (not a host that is a server of its own) talk over NVLink
        where.nvlinkServer.push_back(pool.hosts[sv].size() > 1 ? sv : UINT32_MAX);
    }
    // a training transfer's step is its index in the plan (training-summary.h): the scenario
    // numbers transfers by connection, so the job's results find each one by it
    for (uint32_t i = 0; i < plan.transfers.size(); ++i)
    {
        plan.transfers[i].step = i;
    }
    std::vector<uint32_t> rowOf = EmitPlan(g, jobIndex, where, plan.transfers);
    // the collectives kept as stand-ins: their plans with NVLink times, their stand-ins' rows
    auto tmplBase = static_cast<uint32_t>(rel.nvlinkTemplates.size());
    for (const TransferPlan& t : plan.groupTemplates)
    {
        NvlinkTemplate x;
        x.inputBegin.push_back(0);
        for (uint32_t i = 0; i < t.size(); ++i)
        {
            x.connections = std::max(x.connections, t[i].connection + 1);
            x.connection.push_back(t[i].connection);
            x.localNs.push_back(NvlinkNs(t[i].bytes, nvlinkGbps));
            for (uint32_t a : t.After(i))
            {
                x.inputs.push_back(a);
            }
            x.inputBegin.push_back(static_cast<uint32_t>(x.inputs.size()));
        }
        x.carried.assign(x.connections, 0);
        for (uint32_t c : x.connection)
        {
            ++x.carried[c];
        }
        rel.nvlinkTemplates.push_back(std::move(x));
    }
    for (const TrainingGroup& grp : plan.groups)
    {
        NvlinkGroup x;
        x.tmpl = tmplBase + grp.tmpl;
        for (uint32_t k = 0; k < grp.count; ++k)
        {
            x.proxy.push_back(rowOf[grp.first + k]);
        }
        rel.nvlinkGroups.push_back(std::move(x));
    }
    // what the results need of the plan, once EmitPlan has read its transfers
    rel.jobs[jobIndex].training = std::make_shared<const TrainingJob>(
        TrainingJob::Of(std::move(plan), req.model.name, req.parallel, req.iterations));
}

} // namespace fabric
