#include "training-plan.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <map>
#include <tuple>

namespace fabric
{

namespace
{

/** Gradients left over after a full bucket, below this, join it rather than form their own. */
constexpr uint64_t kMinBucketRemainder = 1048576;

/** A collective's plan on n local ranks, and the transfers that complete each rank's part. */
struct CachedPlan
{
    TransferPlan transfers;
    std::vector<std::vector<uint32_t>> terminal; ///< per local rank: plan indices
    uint32_t connections = 0;                    ///< the plan's (channel, sender, receiver)
    /// Its index in TrainingPlan::groupTemplates once kept as stand-ins (UINT32_MAX: not yet),
    /// and whether it may be: each rank's terminal transfers are the last of their connections
    /// (so a stand-in's completion is what its rank's next step waits for).
    uint32_t tmpl = UINT32_MAX;
    bool groupable = false;
    /// Kept as stand-ins (StandIns, once): per connection its first transfer and its bytes.
    std::vector<Transfer> standInFirst;
    std::vector<uint64_t> standInBytes;
};

/**
 * A collective that recurs unchanged (one op and size on one group, with one connection key,
 * such as a TP group's all-reduce at every layer): its plan and job-wide connections, found the
 * first time and kept, so each recurrence neither builds the plan's key nor looks up its pairs.
 */
struct Recurring
{
    CachedPlan* plan = nullptr;       ///< nullptr: not yet found
    uint64_t bytes = 0;               ///< the size it was found for
    std::vector<uint32_t> connection; ///< per plan connection: the job-wide connection
};

/** A TP group's recurring collectives (Builder::Tensor): its ranks, key, and each op's. */
struct TensorGroup
{
    std::vector<uint32_t> ranks;
    std::string key;
    std::array<Recurring, 2> ops; ///< all_reduce, or reduce_scatter then all_gather
};

/** Whether every terminal transfer is the last one on its connection (CachedPlan::groupable). */
bool
TerminalsEndConnections(const CachedPlan& cp)
{
    std::vector<uint32_t> last(cp.connections, UINT32_MAX);
    for (uint32_t i = 0; i < cp.transfers.size(); ++i)
    {
        last[cp.transfers[i].connection] = i;
    }
    for (const std::vector<uint32_t>& ts : cp.terminal)
    {
        for (uint32_t t : ts)
        {
            if (last[cp.transfers[t].connection] != t)
            {
                return false;
            }
        }
    }
    return true;
}

/**
 * Per local rank, its last incoming transfer of every channel (the highest step): when they have
 * arrived the rank holds its result. A rank that receives nothing ends with its last sends.
 */
std::vector<std::vector<uint32_t>>
Terminal(const TransferPlan& plan, uint32_t n)
{
    std::vector<std::vector<uint32_t>> out(n);
    std::vector<std::map<uint32_t, uint32_t>> lastStep(n); // channel -> step
    for (const Transfer& t : plan)
    {
        auto [it, fresh] = lastStep[t.dst].emplace(t.channel, t.step);
        if (!fresh)
        {
            it->second = std::max(it->second, t.step);
        }
    }
    for (uint32_t i = 0; i < plan.size(); ++i)
    {
        const Transfer& t = plan[i];
        if (lastStep[t.dst].at(t.channel) == t.step)
        {
            out[t.dst].push_back(i);
        }
    }
    for (uint32_t r = 0; r < n; ++r)
    {
        if (!out[r].empty())
        {
            continue;
        }
        for (uint32_t i = 0; i < plan.size(); ++i)
        {
            if (plan[i].src == r)
            {
                out[r].push_back(i);
            }
        }
    }
    return out;
}

uint64_t
Ns(double flops, double flopsPerNs)
{
    return static_cast<uint64_t>(std::llround(flops / flopsPerNs));
}

/** A gradient bucket of a stage: its bytes, the DP group it syncs over, when each rank has it. */
struct Bucket
{
    uint64_t bytes = 0;
    bool expert = false;                ///< over the expert-data-parallel group
    std::map<uint32_t, uint32_t> ready; ///< job rank -> marker
};

/** One forward or backward pass of a micro-batch on a stage. */
struct Op
{
    bool forward = true;
    uint32_t microBatch = 0;
};

/** 1F1B (Narayanan et al., SC'21): p - s - 1 warm-up forwards, then one forward one backward. */
std::vector<Op>
OneFOneB(uint32_t m, uint32_t p, uint32_t s)
{
    uint32_t warm = std::min(p - s - 1, m);
    std::vector<Op> ops;
    for (uint32_t i = 0; i < warm; ++i)
    {
        ops.push_back({true, i});
    }
    for (uint32_t i = 0; i < m - warm; ++i)
    {
        ops.push_back({true, warm + i});
        ops.push_back({false, i});
    }
    for (uint32_t i = m - warm; i < m; ++i)
    {
        ops.push_back({false, i});
    }
    return ops;
}

class Builder
{
  public:
    explicit Builder(const TrainingRequest& req)
        : m_req(req),
          m_p(req.parallel),
          m_m(req.model)
    {
        uint32_t n = m_p.tp * m_p.pp * m_p.dp;
        m_front.resize(n);
        m_dpFront.resize(n);
        m_tensorGroups.resize(static_cast<std::size_t>(m_p.dp) * m_p.pp);
        for (std::vector<uint32_t>& c : m_sendConnection)
        {
            c.assign(n, UINT32_MAX);
        }
        m_plan.tokensPerIteration =
            static_cast<uint64_t>(m_p.dp) * m_p.microBatches * m_p.microBatchSize * m_m.seqLen;
        LayerFlops f = ForwardFlops(m_m, m_p.microBatchSize);
        double perNs = req.tflops * 1e3 * req.mfu * m_p.tp; // FLOP per ns of the TP group
        if (req.computeUsPerLayer > 0)
        {
            double total = req.computeUsPerLayer * 1000.0;
            double share = f.attention / (f.attention + f.mlp);
            m_attnNs = static_cast<uint64_t>(std::llround(total * share));
            m_mlpNs = static_cast<uint64_t>(std::llround(total)) - m_attnNs;
        }
        else
        {
            m_attnNs = Ns(f.attention, perNs);
            m_mlpNs = Ns(f.mlp, perNs);
            m_logitNs = Ns(LogitFlops(m_m, m_p.microBatchSize), perNs);
        }
        uint64_t layersPerStage = m_m.layers / m_p.pp;
        m_plan.stageForwardNs = layersPerStage * (m_attnNs + m_mlpNs);
        m_plan.stageBackwardNs = 2 * m_plan.stageForwardNs;
        m_act = static_cast<uint64_t>(m_p.microBatchSize) * m_m.seqLen * m_m.hidden *
                req.bytesPerElement;
    }

    TrainingPlan Build()
    {
        uint32_t n = static_cast<uint32_t>(m_front.size());
        ReserveEstimate();
        for (uint32_t r = 0; r < n; ++r)
        {
            m_front[r] = {Marker(r, {}, 0)}; // the job's start
        }
        for (uint32_t k = 0; k < m_req.iterations; ++k)
        {
            m_iteration = k;
            for (uint32_t r = 0; r < n; ++r)
            {
                m_dpFront[r] = m_front[r];
            }
            Pipeline();
            Gradients();
            std::vector<uint32_t> ends(n);
            for (uint32_t r = 0; r < n; ++r)
            {
                std::vector<uint32_t> after = m_front[r];
                after.insert(after.end(), m_dpFront[r].begin(), m_dpFront[r].end());
                std::sort(after.begin(), after.end());
                after.erase(std::unique(after.begin(), after.end()), after.end());
                ends[r] = Marker(r, after, 0);
                m_front[r] = {ends[r]};
            }
            m_plan.iterationEnd.push_back(std::move(ends));
        }
        return std::move(m_plan);
    }

  private:
    /** A collective of `bytes` with the job's channels and chunks (its ranks' servers to add). */
    CollectiveRequest RequestFor(const std::string& op,
                                 const std::string& algorithm,
                                 uint64_t bytes) const
    {
        CollectiveRequest c;
        c.op = op;
        c.algorithm = algorithm;
        c.messageBytes = bytes;
        c.channels = m_req.channels;
        c.chunkBytes = m_req.chunkBytes;
        return c;
    }

    /** Transfers of one collective of `bytes` on group (job ranks), as PlanCollective makes. */
    double CollectiveTransfers(const std::string& op,
                               const std::string& algorithm,
                               const std::vector<uint32_t>& group,
                               uint64_t bytes) const
    {
        if (group.size() < 2 || bytes == 0)
        {
            return 0;
        }
        CollectiveRequest c = RequestFor(op, algorithm, bytes);
        for (uint32_t r : group)
        {
            c.serverOf.push_back(m_req.serverOf[r]);
        }
        // the collective's transfers, and a marker per rank that collapses its front
        return PlannedTransfers(c) + static_cast<double>(group.size());
    }

    /**
     * Reserves the plan's lists for about as many transfers as it will hold, so a plan of a
     * million transfers is not copied as it grows (room reserved and never used costs address
     * space, not memory). An estimate from the schedule's shape: every collective's transfers,
     * a marker per rank for each compute, collective and send (a collapse that finds one
     * predecessor makes none), each bucket as large as bucket_bytes.
     */
    void ReserveEstimate()
    {
        const TrainingParallelSpec& p = m_p;
        double n = static_cast<double>(m_front.size());
        double cells = static_cast<double>(p.dp / p.ep);
        double cellRanks = static_cast<double>(p.ep) * p.tp;
        double layers = static_cast<double>(m_m.layers / p.pp);
        double tensor = 0; // one Tensor() of a cell
        if (p.tp > 1)
        {
            std::vector<uint32_t> g = TpGroup(p, 0, 0);
            tensor = p.sequenceParallel
                         ? CollectiveTransfers("reduce_scatter", m_req.tpAlgorithm, g, m_act) +
                               CollectiveTransfers("all_gather", m_req.tpAlgorithm, g, m_act)
                         : CollectiveTransfers("all_reduce", m_req.tpAlgorithm, g, m_act);
            tensor *= p.ep;
        }
        double experts = 0; // one Experts() of a cell
        if (Moe())
        {
            experts = p.tp * CollectiveTransfers("all_to_all", "direct", EpGroup(p, 0, 0, 0),
                                                 m_act * m_m.topK / p.tp);
        }
        // per layer and pass: 2 Tensor, (MoE) 2 Experts, 2 computes forward or 3 and a
        // bucket's marker backward; per pass a send and its marker per rank, the logits
        double perLayer = 2 * tensor + 2 * experts + 4 * cellRanks;
        double passes = 2.0 * p.pp * cells * p.microBatches;
        double pipeline = passes * (layers * perLayer + 3 * cellRanks);
        // gradients: per stage and TP index, each bucket's collectives over the DP group
        auto [dense, expert] = LayerGradBytes();
        double stageGrad =
            static_cast<double>(layers) * static_cast<double>(dense + expert) +
            static_cast<double>(m_m.vocab * m_m.hidden * m_req.bytesPerElement / p.tp);
        double buckets =
            std::ceil(stageGrad / static_cast<double>(p.bucketBytes)) + (Moe() ? 1 : 0);
        double sync = 0;
        if (p.dp > 1)
        {
            std::vector<uint32_t> g = DpGroup(p, 0, 0);
            auto bucket = static_cast<uint64_t>(
                std::max(1.0, std::min(static_cast<double>(p.bucketBytes), stageGrad)));
            sync = p.distributedOptimizer
                       ? CollectiveTransfers("reduce_scatter", m_req.dpAlgorithm, g, bucket) +
                             CollectiveTransfers("all_gather", m_req.dpAlgorithm, g, bucket)
                       : CollectiveTransfers("all_reduce", m_req.dpAlgorithm, g, bucket);
            sync *= buckets * p.pp * p.tp * (Moe() ? 2 : 1);
        }
        double transfers = n + m_req.iterations * (pipeline + sync + 2 * n);
        if (m_req.maxTransfers > 0)
        {
            transfers = std::min(transfers, static_cast<double>(m_req.maxTransfers));
        }
        if (!(transfers > 0) || transfers > 1e9)
        {
            return;
        }
        auto count = static_cast<std::size_t>(transfers);
        m_plan.transfers.Reserve(count, 3 * count);
        m_plan.kind.reserve(count);
        m_plan.collective.reserve(count);
    }

    /** Appends t (waiting for nothing yet: AddInput on m_plan.transfers follows). */
    uint32_t Add(Transfer t, TrainingKind kind, uint32_t collective)
    {
        if (m_req.maxTransfers > 0 && m_plan.transfers.size() >= m_req.maxTransfers)
        {
            throw PlanError("parallel",
                            "the plan brings the number of transfers over the limit of " +
                                std::to_string(m_req.maxTransfers) +
                                ": fewer layers, micro-batches, iterations or ranks");
        }
        t.iteration = m_iteration;
        m_plan.kind.push_back(kind);
        m_plan.collective.push_back(collective);
        return m_plan.transfers.Add(t);
    }

    /**
     * A 0-byte transfer of rank to itself: after `after`, then gapNs of compute. A connection
     * posts its transfers in plan order, so a rank's markers ride two: its compute chain's
     * (m_front) and its gradient chain's (dp: m_dpFront), each marker after the one before it on
     * its chain; a bucket's marker thus never waits behind a later layer's compute, nor one
     * layer's compute behind a bucket still syncing.
     */
    uint32_t Marker(uint32_t rank,
                    const std::vector<uint32_t>& after,
                    uint64_t gapNs,
                    bool dp = false)
    {
        Transfer t;
        t.src = rank;
        t.dst = rank;
        t.connection = m_markerConnection[dp ? 1 : 0];
        t.gapNs = gapNs;
        uint32_t index = Add(t, TrainingKind::COMPUTE, UINT32_MAX);
        m_plan.transfers.AddInputs(after.begin(), after.end());
        return index;
    }

    /**
     * One marker for a rank's several predecessors (so a collective's transfers wait on one), on
     * the rank's marker connection of `front` (m_front's or m_dpFront's).
     */
    uint32_t Collapse(std::vector<uint32_t>& front, uint32_t rank)
    {
        if (front.size() != 1)
        {
            front = {Marker(rank, front, 0, &front == &m_dpFront[rank])};
        }
        return front[0];
    }

    uint32_t Connections(const std::string& key, uint32_t count)
    {
        auto [it, fresh] = m_connBase.emplace(key, m_nextConnection);
        if (fresh)
        {
            m_nextConnection += count;
        }
        return it->second;
    }

    CachedPlan& PlanOf(const std::string& op,
                       const std::string& algorithm,
                       const std::vector<uint32_t>& group,
                       uint64_t bytes,
                       TrainingKind kind)
    {
        CollectiveRequest c = RequestFor(op, algorithm, bytes);
        std::map<uint32_t, uint32_t> local;
        std::string key = op + "|" + algorithm + "|" + std::to_string(bytes) + "|";
        for (uint32_t r : group)
        {
            auto [it, fresh] =
                local.emplace(m_req.serverOf[r], static_cast<uint32_t>(local.size()));
            c.serverOf.push_back(it->second);
            key += std::to_string(it->second) + ",";
        }
        auto found = m_cache.find(key);
        if (found != m_cache.end())
        {
            return found->second;
        }
        CachedPlan cp;
        try
        {
            cp.transfers = PlanCollective(c);
        }
        catch (const PlanError& e)
        {
            std::string field = kind == TrainingKind::DP ? "dp_algorithm" : "tp_algorithm";
            throw PlanError(field, std::string("the ") + TrainingKindName(kind) + " " + op +
                                       " on " + std::to_string(group.size()) +
                                       " ranks: " + e.what());
        }
        cp.terminal = Terminal(cp.transfers, static_cast<uint32_t>(group.size()));
        for (const Transfer& t : cp.transfers)
        {
            cp.connections = std::max(cp.connections, t.connection + 1);
        }
        cp.groupable = TerminalsEndConnections(cp);
        return m_cache.emplace(key, std::move(cp)).first->second;
    }

    /**
     * A collective on group (job ranks) after each rank's front in `fronts`; replaces every front
     * with the transfers that complete the rank's part.
     */
    void Collective(TrainingKind kind,
                    const std::string& op,
                    const std::string& algorithm,
                    const std::vector<uint32_t>& group,
                    uint64_t bytes,
                    const std::string& connKey,
                    std::vector<std::vector<uint32_t>>& fronts,
                    Recurring* recurring = nullptr)
    {
        if (group.size() < 2 || bytes == 0)
        {
            return;
        }
        bool known = recurring && recurring->plan && recurring->bytes == bytes;
        CachedPlan& cp = known ? *recurring->plan : PlanOf(op, algorithm, group, bytes, kind);
        std::vector<uint32_t> entry(group.size());
        for (uint32_t i = 0; i < group.size(); ++i)
        {
            entry[i] = Collapse(fronts[group[i]], group[i]);
        }
        uint32_t coll = static_cast<uint32_t>(m_plan.collectives.size());
        m_plan.collectives.push_back({kind, op, static_cast<uint32_t>(group.size()), bytes});
        uint32_t base = static_cast<uint32_t>(m_plan.transfers.size());
        // one connection per (group, channel, sender, receiver) for all the group's
        // collectives, so every layer reuses the same QPs
        std::vector<uint32_t> found;
        if (!known)
        {
            found.assign(cp.connections, UINT32_MAX);
            auto& pairs = m_pairConnection[connKey];
            for (const Transfer& t : cp.transfers)
            {
                if (found[t.connection] == UINT32_MAX)
                {
                    auto [it, fresh] = pairs.emplace(
                        std::make_tuple(t.channel, group[t.src], group[t.dst]), m_nextConnection);
                    if (fresh)
                    {
                        ++m_nextConnection;
                    }
                    found[t.connection] = it->second;
                }
            }
            if (recurring)
            {
                recurring->plan = &cp;
                recurring->bytes = bytes;
                recurring->connection = std::move(found);
            }
        }
        const std::vector<uint32_t>& connection = recurring ? recurring->connection : found;
        if (m_req.groupNvlink && cp.groupable && InOneServer(group))
        {
            StandIns(cp, kind, coll, group, connection, entry, fronts);
            return;
        }
        for (std::size_t i = 0; i < cp.transfers.size(); ++i)
        {
            const Transfer& t = cp.transfers[i];
            Transfer u;
            u.src = group[t.src];
            u.dst = group[t.dst];
            u.bytes = t.bytes;
            u.step = t.step;
            u.channel = t.channel;
            u.connection = connection[t.connection];
            Add(u, kind, coll);
            for (uint32_t a : cp.transfers.After(i))
            {
                m_plan.transfers.AddInput(base + a);
            }
            m_plan.transfers.AddInput(entry[t.src]);
        }
        for (uint32_t i = 0; i < group.size(); ++i)
        {
            // a rank is done when its part arrived and it had started (an all-to-all's blocks
            // into a rank wait only for their senders)
            std::vector<uint32_t>& f = fronts[group[i]];
            f = {entry[i]};
            for (uint32_t a : cp.terminal[i])
            {
                f.push_back(base + a);
            }
        }
    }

    /** Whether every rank of the group is in one server (its collectives ride NVLink). */
    bool InOneServer(const std::vector<uint32_t>& group) const
    {
        for (uint32_t r : group)
        {
            if (m_req.serverOf[r] != m_req.serverOf[group[0]])
            {
                return false;
            }
        }
        return true;
    }

    /**
     * The collective as one stand-in per connection of its plan (TrainingGroup): stand-in k
     * carries every transfer of connection k, waits for its sender's entry, and completes when
     * the connection's last transfer would; a rank's front is then its entry and the stand-ins
     * of the connections its terminal transfers ride.
     */
    void StandIns(CachedPlan& cp,
                  TrainingKind kind,
                  uint32_t coll,
                  const std::vector<uint32_t>& group,
                  const std::vector<uint32_t>& connection,
                  const std::vector<uint32_t>& entry,
                  std::vector<std::vector<uint32_t>>& fronts)
    {
        if (cp.tmpl == UINT32_MAX)
        {
            cp.tmpl = static_cast<uint32_t>(m_plan.groupTemplates.size());
            m_plan.groupTemplates.push_back(cp.transfers);
        }
        if (cp.standInFirst.empty())
        {
            cp.standInFirst.resize(cp.connections);
            cp.standInBytes.assign(cp.connections, 0);
            std::vector<bool> seen(cp.connections, false);
            for (const Transfer& t : cp.transfers)
            {
                if (!seen[t.connection])
                {
                    seen[t.connection] = true;
                    cp.standInFirst[t.connection] = t;
                }
                cp.standInBytes[t.connection] += t.bytes;
            }
        }
        const std::vector<Transfer>& first = cp.standInFirst;
        const std::vector<uint64_t>& bytes = cp.standInBytes;
        auto base = static_cast<uint32_t>(m_plan.transfers.size());
        m_plan.groups.push_back({cp.tmpl, base, cp.connections});
        for (uint32_t k = 0; k < cp.connections; ++k)
        {
            const Transfer& t = first[k];
            Transfer u;
            u.src = group[t.src];
            u.dst = group[t.dst];
            u.bytes = bytes[k];
            u.step = t.step;
            u.channel = t.channel;
            u.connection = connection[k];
            Add(u, kind, coll);
            m_plan.transfers.AddInput(entry[t.src]);
        }
        for (uint32_t i = 0; i < group.size(); ++i)
        {
            std::vector<uint32_t>& f = fronts[group[i]];
            f = {entry[i]};
            for (uint32_t a : cp.terminal[i])
            {
                uint32_t standIn = base + cp.transfers[a].connection;
                if (std::find(f.begin() + 1, f.end(), standIn) == f.end())
                {
                    f.push_back(standIn);
                }
            }
        }
    }

    /** One point-to-point send between pipeline stages; returns its index. */
    uint32_t Send(uint32_t src, uint32_t dst, uint64_t bytes, bool forward)
    {
        uint32_t entry = Collapse(m_front[src], src);
        uint32_t coll = static_cast<uint32_t>(m_plan.collectives.size());
        m_plan.collectives.push_back({TrainingKind::PP, "send", 2, bytes});
        Transfer t;
        t.src = src;
        t.dst = dst;
        t.bytes = bytes;
        uint32_t& connection = m_sendConnection[forward ? 0 : 1][src];
        if (connection == UINT32_MAX)
        {
            connection = Connections((forward ? "pf|" : "pb|") + std::to_string(src), 1);
        }
        t.connection = connection;
        uint32_t index = Add(t, TrainingKind::PP, coll);
        m_plan.transfers.AddInput(entry);
        return index;
    }

    /** The ranks of a cell: stage s, EP group e (its ep data indices), every TP index. */
    std::vector<uint32_t> CellRanks(uint32_t s, uint32_t e) const
    {
        std::vector<uint32_t> out;
        for (uint32_t d = e * m_p.ep; d < (e + 1) * m_p.ep; ++d)
        {
            for (uint32_t t = 0; t < m_p.tp; ++t)
            {
                out.push_back(TrainingRank(m_p, t, d, s));
            }
        }
        return out;
    }

    /** Compute on every rank of the cell: one marker per rank after its front. */
    void Compute(const std::vector<uint32_t>& ranks, uint64_t ns)
    {
        for (uint32_t r : ranks)
        {
            m_front[r] = {Marker(r, m_front[r], ns)};
        }
    }

    /** The TP communication at one point of a layer (activations or their gradients). */
    void Tensor(uint32_t s, uint32_t e)
    {
        if (m_p.tp < 2)
        {
            return;
        }
        for (uint32_t d = e * m_p.ep; d < (e + 1) * m_p.ep; ++d)
        {
            TensorGroup& g = m_tensorGroups[d + static_cast<std::size_t>(m_p.dp) * s];
            if (g.ranks.empty())
            {
                g.ranks = TpGroup(m_p, d, s);
                g.key = "tp|" + std::to_string(d) + "," + std::to_string(s);
            }
            if (m_p.sequenceParallel)
            {
                Collective(TrainingKind::TP, "reduce_scatter", m_req.tpAlgorithm, g.ranks, m_act,
                           g.key, m_front, &g.ops[0]);
                Collective(TrainingKind::TP, "all_gather", m_req.tpAlgorithm, g.ranks, m_act, g.key,
                           m_front, &g.ops[1]);
            }
            else
            {
                Collective(TrainingKind::TP, "all_reduce", m_req.tpAlgorithm, g.ranks, m_act, g.key,
                           m_front, &g.ops[0]);
            }
        }
    }

    /** One EP all-to-all (dispatch or combine) of the cell's tokens. */
    void Experts(uint32_t s, uint32_t e)
    {
        uint64_t bytes = m_act * m_m.topK / m_p.tp;
        for (uint32_t t = 0; t < m_p.tp; ++t)
        {
            std::vector<uint32_t> group = EpGroup(m_p, t, e * m_p.ep, s);
            std::string key =
                "ep|" + std::to_string(t) + "," + std::to_string(e) + "," + std::to_string(s);
            Collective(TrainingKind::EP, "all_to_all", "direct", group, bytes, key, m_front);
        }
    }

    bool Moe() const { return m_m.experts > 1 && m_p.ep > 1; }

    /** Gradient bytes of one layer per rank: dense (attention, dense MLP) and expert. */
    std::pair<uint64_t, uint64_t> LayerGradBytes() const
    {
        uint64_t h = m_m.hidden;
        uint64_t mlp = (m_m.gated ? 3 : 2) * h * m_m.ffnHidden;
        uint64_t dense = 4 * h * h + (m_m.experts > 1 ? 0 : mlp);
        uint64_t expert = m_m.experts > 1 ? mlp * (m_m.experts / m_p.ep) : 0;
        return {dense * m_req.bytesPerElement / m_p.tp, expert * m_req.bytesPerElement / m_p.tp};
    }

    /** Adds gradient bytes that became ready at the cell ranks' fronts; flushes full buckets. */
    void GradientsReady(
        uint32_t s, const std::vector<uint32_t>& ranks, uint64_t dense, uint64_t expert, bool last)
    {
        bool overlap = m_p.overlapGradReduce;
        Pending& p = m_pending[s];
        p.dense += dense;
        p.expert += expert;
        auto flush = [&](uint64_t& bytes, bool isExpert)
        {
            while (bytes > 0 && (bytes >= m_p.bucketBytes || last))
            {
                uint64_t take = std::min(bytes, m_p.bucketBytes);
                if (bytes - take < kMinBucketRemainder)
                {
                    take = bytes; // a sliver left over joins this bucket (a collective needs
                                  // at least a byte per rank and channel)
                }
                Bucket& b = StageBucket(s, isExpert, p);
                b.bytes = take;
                for (uint32_t r : ranks)
                {
                    b.ready[r] = Collapse(m_front[r], r);
                }
                bytes -= take;
            }
        };
        if (overlap || last)
        {
            flush(p.dense, false);
            flush(p.expert, true);
        }
    }

    struct Pending
    {
        uint64_t dense = 0;
        uint64_t expert = 0;
        uint32_t nextBucket = 0; ///< per EP-cell: which bucket of the stage the next flush fills
    };

    Bucket& StageBucket(uint32_t s, bool expert, Pending& p)
    {
        std::vector<Bucket>& list = m_buckets[s];
        // every cell of a stage makes the same buckets in the same order: the first cell
        // creates them, the others fill in their ranks' ready markers
        if (p.nextBucket == list.size())
        {
            list.emplace_back();
            list.back().expert = expert;
        }
        return list[p.nextBucket++];
    }

    void Pass(uint32_t s, uint32_t e, const Op& op, const std::map<uint32_t, uint32_t>* received)
    {
        std::vector<uint32_t> ranks = CellRanks(s, e);
        uint64_t layers = m_m.layers / m_p.pp;
        bool lastStage = s + 1 == m_p.pp;
        bool lastBackward = !op.forward && op.microBatch + 1 == m_p.microBatches;
        auto [denseGrad, expertGrad] = LayerGradBytes();
        uint64_t vocabGrad = m_m.vocab * m_m.hidden * m_req.bytesPerElement / m_p.tp;
        // the pass waits for the stage's input (activations or their gradients)
        if (received)
        {
            for (uint32_t r : ranks)
            {
                m_front[r].push_back(received->at(r));
            }
        }
        if (lastBackward)
        {
            m_pending[s] = Pending(); // each cell fills the stage's buckets anew
        }
        auto compute = [&](uint64_t ns)
        {
            Compute(ranks, ns);
        };
        if (op.forward)
        {
            for (uint64_t l = 0; l < layers; ++l)
            {
                compute(m_attnNs);
                Tensor(s, e);
                if (Moe())
                {
                    Experts(s, e);
                    compute(m_mlpNs);
                    Experts(s, e);
                }
                else
                {
                    compute(m_mlpNs);
                }
                Tensor(s, e);
            }
            if (lastStage && m_logitNs > 0)
            {
                compute(m_logitNs);
            }
            return;
        }
        if (lastStage && m_logitNs > 0)
        {
            compute(2 * m_logitNs);
        }
        if (lastBackward && lastStage)
        {
            GradientsReady(s, ranks, vocabGrad, 0, false);
        }
        for (uint64_t l = 0; l < layers; ++l)
        {
            Tensor(s, e);
            if (Moe())
            {
                Experts(s, e);
                compute(2 * m_mlpNs);
                Experts(s, e);
            }
            else
            {
                compute(2 * m_mlpNs);
            }
            Tensor(s, e);
            compute(2 * m_attnNs);
            if (lastBackward)
            {
                bool end = l + 1 == layers;
                uint64_t embedding = end && s == 0 ? vocabGrad : 0;
                GradientsReady(s, ranks, denseGrad + embedding, expertGrad, end);
            }
        }
    }

    /** Every stage's 1F1B schedule, in an order in which each pass's input already exists. */
    void Pipeline()
    {
        uint32_t cells = m_p.dp / m_p.ep;
        m_buckets.assign(m_p.pp, {});
        m_pending.assign(m_p.pp, Pending());
        std::vector<std::vector<Op>> ops(m_p.pp);
        std::vector<std::vector<std::size_t>> next(m_p.pp, std::vector<std::size_t>(cells, 0));
        // sends arriving at stage s for micro-batch i: (s, i) -> receiving rank -> transfer
        std::vector<std::map<uint32_t, std::map<uint32_t, uint32_t>>> fwdIn(m_p.pp), bwdIn(m_p.pp);
        for (uint32_t s = 0; s < m_p.pp; ++s)
        {
            ops[s] = OneFOneB(m_p.microBatches, m_p.pp, s);
        }
        uint64_t perSend = m_act / m_p.tp;
        bool progress = true;
        while (progress)
        {
            progress = false;
            for (uint32_t s = 0; s < m_p.pp; ++s)
            {
                for (uint32_t e = 0; e < cells; ++e)
                {
                    while (next[s][e] < ops[s].size())
                    {
                        const Op& op = ops[s][next[s][e]];
                        bool needs = op.forward ? s > 0 : s + 1 < m_p.pp;
                        auto& inbox = op.forward ? fwdIn[s] : bwdIn[s];
                        std::map<uint32_t, uint32_t> received;
                        if (needs)
                        {
                            auto it = inbox.find(op.microBatch);
                            std::vector<uint32_t> ranks = CellRanks(s, e);
                            if (it == inbox.end() || it->second.count(ranks[0]) == 0)
                            {
                                break;
                            }
                            for (uint32_t r : ranks)
                            {
                                received[r] = it->second.at(r);
                            }
                        }
                        Pass(s, e, op, needs ? &received : nullptr);
                        // send the output on (forward: to the next stage; backward: the previous)
                        bool sends = op.forward ? s + 1 < m_p.pp : s > 0;
                        if (sends)
                        {
                            uint32_t to = op.forward ? s + 1 : s - 1;
                            auto& box = (op.forward ? fwdIn[to] : bwdIn[to])[op.microBatch];
                            for (uint32_t d = e * m_p.ep; d < (e + 1) * m_p.ep; ++d)
                            {
                                for (uint32_t t = 0; t < m_p.tp; ++t)
                                {
                                    uint32_t src = TrainingRank(m_p, t, d, s);
                                    uint32_t dst = TrainingRank(m_p, t, d, to);
                                    box[dst] = Send(src, dst, perSend, op.forward);
                                }
                            }
                        }
                        ++next[s][e];
                        progress = true;
                    }
                }
            }
        }
        for (uint32_t s = 0; s < m_p.pp; ++s)
        {
            for (uint32_t e = 0; e < cells; ++e)
            {
                if (next[s][e] < ops[s].size())
                {
                    throw PlanError("parallel", "the 1F1B schedule did not complete"); // a bug
                }
            }
        }
    }

    /** Every stage's gradient buckets over their DP groups, one after another on each rank. */
    void Gradients()
    {
        uint32_t edp = m_p.dp / m_p.ep;
        for (uint32_t s = 0; s < m_p.pp; ++s)
        {
            for (uint32_t t = 0; t < m_p.tp; ++t)
            {
                std::vector<std::vector<uint32_t>> groups;
                std::vector<std::string> keys;
                groups.push_back(DpGroup(m_p, t, s));
                keys.push_back("dp|" + std::to_string(t) + "," + std::to_string(s));
                for (uint32_t k = 0; k < m_p.ep && edp > 1 && m_m.experts > 1; ++k)
                {
                    std::vector<uint32_t> g;
                    for (uint32_t j = 0; j < edp; ++j)
                    {
                        g.push_back(TrainingRank(m_p, t, k + j * m_p.ep, s));
                    }
                    groups.push_back(std::move(g));
                    keys.push_back("edp|" + std::to_string(t) + "," + std::to_string(k) + "," +
                                   std::to_string(s));
                }
                Sync(s, groups, keys);
            }
        }
    }

    void Sync(uint32_t s,
              const std::vector<std::vector<uint32_t>>& groups,
              const std::vector<std::string>& keys)
    {
        std::vector<std::string> ops;
        if (m_p.distributedOptimizer)
        {
            ops = {"reduce_scatter", "all_gather"};
        }
        else
        {
            ops = {"all_reduce"};
        }
        for (const std::string& op : ops)
        {
            for (const Bucket& b : m_buckets[s])
            {
                std::size_t first = b.expert ? 1 : 0;
                std::size_t last = b.expert ? groups.size() : 1;
                for (std::size_t gi = first; gi < last; ++gi)
                {
                    const std::vector<uint32_t>& g = groups[gi];
                    for (uint32_t r : g)
                    {
                        // reduce when this rank's gradients of the bucket exist
                        auto it = b.ready.find(r);
                        if (op != "all_gather" && it != b.ready.end())
                        {
                            m_dpFront[r].push_back(it->second);
                        }
                    }
                    Collective(TrainingKind::DP, op, m_req.dpAlgorithm, g, b.bytes, keys[gi],
                               m_dpFront);
                }
            }
        }
    }

    const TrainingRequest& m_req;
    const TrainingParallelSpec& m_p;
    const TrainingModelSpec& m_m;
    TrainingPlan m_plan;
    uint32_t m_iteration = 0;
    uint64_t m_attnNs = 0;
    uint64_t m_mlpNs = 0;
    uint64_t m_logitNs = 0;
    uint64_t m_act = 0; ///< one micro-batch's activations, bytes (B s h x bytes per element)
    std::vector<std::vector<uint32_t>> m_front;   ///< per rank: what its compute waits for
    std::vector<std::vector<uint32_t>> m_dpFront; ///< per rank: what its next DP bucket waits for
    std::vector<std::vector<Bucket>> m_buckets;   ///< per stage, in the order they fill
    std::vector<Pending> m_pending;               ///< per stage
    std::map<std::string, CachedPlan> m_cache;
    std::map<std::string, uint32_t> m_connBase;
    uint32_t m_nextConnection = 0;
    /// per TP group (d + dp x s): its recurring collectives (Tensor)
    std::vector<TensorGroup> m_tensorGroups;
    /// per rank: the connection of its forward and its backward sends (UINT32_MAX: none yet)
    std::array<std::vector<uint32_t>, 2> m_sendConnection;
    /// per group key: (channel, sender, receiver) -> job-wide connection
    std::map<std::string, std::map<std::tuple<uint32_t, uint32_t, uint32_t>, uint32_t>>
        m_pairConnection;
    /// a rank's markers (local connections, so their ids name no UDP port): compute chain, DP
    /// chain; kept apart from the network connections' ids, which start at 0 as a collective's
    std::array<uint32_t, 2> m_markerConnection{UINT32_MAX - 1, UINT32_MAX};
};

} // namespace

const char*
TrainingKindName(TrainingKind kind)
{
    switch (kind)
    {
    case TrainingKind::COMPUTE:
        return "compute";
    case TrainingKind::TP:
        return "tp";
    case TrainingKind::PP:
        return "pp";
    case TrainingKind::DP:
        return "dp";
    case TrainingKind::EP:
        return "ep";
    }
    return "compute";
}

uint32_t
TrainingRank(const TrainingParallelSpec& p, uint32_t t, uint32_t d, uint32_t s)
{
    return t + p.tp * (d + p.dp * s);
}

std::vector<uint32_t>
TpGroup(const TrainingParallelSpec& p, uint32_t d, uint32_t s)
{
    std::vector<uint32_t> g;
    for (uint32_t t = 0; t < p.tp; ++t)
    {
        g.push_back(TrainingRank(p, t, d, s));
    }
    return g;
}

std::vector<uint32_t>
DpGroup(const TrainingParallelSpec& p, uint32_t t, uint32_t s)
{
    std::vector<uint32_t> g;
    for (uint32_t d = 0; d < p.dp; ++d)
    {
        g.push_back(TrainingRank(p, t, d, s));
    }
    return g;
}

std::vector<uint32_t>
PpGroup(const TrainingParallelSpec& p, uint32_t t, uint32_t d)
{
    std::vector<uint32_t> g;
    for (uint32_t s = 0; s < p.pp; ++s)
    {
        g.push_back(TrainingRank(p, t, d, s));
    }
    return g;
}

std::vector<uint32_t>
EpGroup(const TrainingParallelSpec& p, uint32_t t, uint32_t d, uint32_t s)
{
    std::vector<uint32_t> g;
    uint32_t first = d - d % p.ep;
    for (uint32_t k = 0; k < p.ep; ++k)
    {
        g.push_back(TrainingRank(p, t, first + k, s));
    }
    return g;
}

LayerFlops
ForwardFlops(const TrainingModelSpec& m, uint32_t microBatchSize)
{
    double b = microBatchSize;
    double s = static_cast<double>(m.seqLen);
    double h = static_cast<double>(m.hidden);
    double f = static_cast<double>(m.ffnHidden);
    LayerFlops out;
    out.attention = 8 * b * s * h * h + 4 * b * s * s * h;
    out.mlp =
        2.0 * (m.gated ? 3 : 2) * b * s * h * f * static_cast<double>(m.experts > 1 ? m.topK : 1);
    return out;
}

double
LogitFlops(const TrainingModelSpec& m, uint32_t microBatchSize)
{
    return 2.0 * microBatchSize * static_cast<double>(m.seqLen) * static_cast<double>(m.hidden) *
           static_cast<double>(m.vocab);
}

void
CheckTraining(const TrainingRequest& req)
{
    const TrainingParallelSpec& p = req.parallel;
    const TrainingModelSpec& m = req.model;
    uint64_t product = static_cast<uint64_t>(p.tp) * p.pp * p.dp;
    if (product != req.serverOf.size())
    {
        throw PlanError("parallel", "tp x pp x dp = " + std::to_string(p.tp) + " x " +
                                        std::to_string(p.pp) + " x " + std::to_string(p.dp) +
                                        " = " + std::to_string(product) + ", but the job has " +
                                        std::to_string(req.serverOf.size()) + " ranks");
    }
    if (m.layers % p.pp)
    {
        throw PlanError("parallel.pp",
                        "must divide the model's layers (" + std::to_string(m.layers) + ")");
    }
    if (m.heads % p.tp)
    {
        throw PlanError("parallel.tp",
                        "must divide the model's heads (" + std::to_string(m.heads) + ")");
    }
    if (p.dp % p.ep)
    {
        throw PlanError("parallel.ep", "must divide dp (" + std::to_string(p.dp) + ")");
    }
    if (p.ep > 1 && m.experts % p.ep)
    {
        throw PlanError("parallel.ep",
                        "must divide the model's experts (" + std::to_string(m.experts) + ")");
    }
    if (m.topK > m.experts)
    {
        throw PlanError("model.top_k", "must be <= experts (" + std::to_string(m.experts) + ")");
    }
    auto runs = [](const std::string& op, const std::string& alg)
    {
        std::vector<std::string> a = AlgorithmsFor(op);
        return std::find(a.begin(), a.end(), alg) != a.end();
    };
    for (const auto& [field, alg, split] :
         {std::tuple<const char*, std::string, bool>{"tp_algorithm", req.tpAlgorithm,
                                                     p.sequenceParallel},
          std::tuple<const char*, std::string, bool>{"dp_algorithm", req.dpAlgorithm,
                                                     p.distributedOptimizer}})
    {
        if (!runs("all_reduce", alg) || (split && !runs("reduce_scatter", alg)))
        {
            throw PlanError(field, "\"" + alg + "\" does not run " +
                                       (split ? "reduce_scatter and all_gather" : "all_reduce"));
        }
    }
}

TrainingPlan
PlanTraining(const TrainingRequest& req)
{
    CheckTraining(req);
    return Builder(req).Build();
}

} // namespace fabric
