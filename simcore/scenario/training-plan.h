/*
 * A training iteration's communication and compute from a model and a parallelism plan
 * (docs/model.md, "Training iterations"): a pure function of the request, in the collective
 * plan's terms (collective-plan.h), so the schedule is tested apart from the scenario reader.
 *
 * Ranks follow Megatron-LM's order: TP fastest, then DP, then PP (rank = t + tp (d + dp s)), so a
 * TP group is tp consecutive ranks (inside one server when tp divides the GPUs per server).
 * Per micro-batch and layer the plan computes forward and backward (2x forward) from the FLOP
 * count, all-reduces the TP group's activations after attention and after the MLP (reduce-scatter
 * + all-gather with sequence parallelism), and on MoE layers dispatches and combines tokens by
 * EP all-to-alls; stages pass activations forward and gradients backward in a 1F1B schedule; DP
 * groups synchronise gradients per bucket (all-reduce, or reduce-scatter then all-gather with the
 * distributed optimizer), during the last backward pass when overlap_grad_reduce. Each
 * communication is PlanCollective's plan of its op on its group, its ranks renumbered to job
 * ranks and its connections to job-wide ones.
 *
 * Compute is a marker: a 0-byte transfer from a rank to itself that waits for what the compute
 * needs (`after`) and then for the compute's duration (`gapNs`), and completes as it starts. A
 * collective's transfers wait, besides the plan's own inputs, for their sender's marker before it;
 * a marker after the collective waits for the transfers that complete the rank's part.
 */
#ifndef FABRIC_TRAINING_PLAN_H
#define FABRIC_TRAINING_PLAN_H

#include "collective-plan.h"

#include <cstdint>
#include <string>
#include <vector>

namespace fabric
{

/** A decoder-only transformer's dimensions (MoE when experts > 1). */
struct TrainingModelSpec
{
    std::string name; ///< the table's name, or "custom"
    uint64_t layers = 1;
    uint64_t hidden = 1;
    uint64_t ffnHidden = 4;
    uint64_t heads = 1;
    uint64_t seqLen = 1;
    uint64_t vocab = 1;
    uint64_t experts = 1;
    uint64_t topK = 1;
    bool gated = false; ///< SwiGLU: three MLP matrices instead of two
};

/** Megatron-LM's parallelism plan. */
struct TrainingParallelSpec
{
    uint32_t tp = 1;
    uint32_t pp = 1;
    uint32_t dp = 1;
    uint32_t ep = 1;
    uint32_t microBatches = 1;
    uint32_t microBatchSize = 1;
    bool distributedOptimizer = false;
    bool sequenceParallel = false;
    bool overlapGradReduce = false;
    uint64_t bucketBytes = 100000000;
};

struct TrainingRequest
{
    TrainingModelSpec model;
    TrainingParallelSpec parallel;
    double tflops = 989;          ///< GPU peak, TFLOP/s
    double mfu = 0.4;             ///< model FLOPs utilisation
    double computeUsPerLayer = 0; ///< > 0: a layer's forward time instead of the FLOP count
    uint32_t bytesPerElement = 2;
    uint32_t iterations = 1;
    std::string tpAlgorithm = "ring";
    std::string dpAlgorithm = "ring";
    uint32_t channels = 1;
    uint64_t chunkBytes = 0;
    /// Per job rank the index of its server (collective-plan.h, CollectiveRequest::serverOf).
    std::vector<uint32_t> serverOf;
    /// Refuse (PlanError at "parallel") a plan of more transfers than this; 0: no limit.
    uint64_t maxTransfers = 0;
    /// Keep each collective inside one server as one stand-in per connection (TrainingPlan::
    /// groups; the flow engine's loads): its transfers are not listed.
    bool groupNvlink = false;
};

/** What a transfer of the plan is to the iteration. */
enum class TrainingKind : uint8_t
{
    COMPUTE = 0, ///< a marker; gapNs > 0 is compute
    TP = 1,
    PP = 2,
    DP = 3,
    EP = 4,
};

/** "compute", "tp", "pp", "dp", "ep" */
const char* TrainingKindName(TrainingKind kind);

/** One communication of the plan (a collective on a group, or one PP send). */
struct TrainingCollective
{
    TrainingKind kind = TrainingKind::TP;
    std::string op;     ///< all_reduce, reduce_scatter, all_gather, all_to_all, send
    uint32_t ranks = 0; ///< group size
    uint64_t bytes = 0; ///< NCCL-tests' size (a send: its bytes)
};

/**
 * A collective inside one server kept as stand-ins (TrainingRequest::groupNvlink): plan
 * transfers first .. first + count - 1 stand for connections 0 .. count - 1 of template tmpl
 * (TrainingPlan::groupTemplates, in the group's local ranks), each carrying every transfer of
 * its connection; each waits for its sender's entry, as its connection's first transfer would.
 */
struct TrainingGroup
{
    uint32_t tmpl = 0;
    uint32_t first = 0;
    uint32_t count = 0;
};

struct TrainingPlan
{
    /// In job ranks; `after` indexes this list; connections are job-wide (a connection is the
    /// same (group, channel, sender, receiver) every time it is used; a rank's markers ride two,
    /// its compute chain's and its gradient chain's).
    TransferPlan transfers;
    std::vector<TrainingKind> kind;   ///< per transfer
    std::vector<uint32_t> collective; ///< per transfer: index in collectives; UINT32_MAX: marker
    std::vector<TrainingCollective> collectives;
    /// Collectives kept as stand-ins, and the plans they stand for (TrainingGroup).
    std::vector<TrainingGroup> groups;
    std::vector<TransferPlan> groupTemplates;
    /// Per iteration, per job rank: the marker that ends the rank's iteration.
    std::vector<std::vector<uint32_t>> iterationEnd;
    uint64_t tokensPerIteration = 0;
    /// One micro-batch on one stage (per rank, ns): forward and backward of all its layers.
    uint64_t stageForwardNs = 0;
    uint64_t stageBackwardNs = 0;
};

/** Job rank of (t, d, s) in Megatron-LM's order. */
uint32_t TrainingRank(const TrainingParallelSpec& p, uint32_t t, uint32_t d, uint32_t s);

/** The TP group (t = 0 .. tp-1) of data index d and stage s, in job ranks. */
std::vector<uint32_t> TpGroup(const TrainingParallelSpec& p, uint32_t d, uint32_t s);

/** The DP group (d = 0 .. dp-1) of TP index t and stage s. */
std::vector<uint32_t> DpGroup(const TrainingParallelSpec& p, uint32_t t, uint32_t s);

/** The pipeline (s = 0 .. pp-1) of TP index t and data index d. */
std::vector<uint32_t> PpGroup(const TrainingParallelSpec& p, uint32_t t, uint32_t d);

/** The EP group of rank (t, d, s): the ep data indices d - d mod ep ... of its TP index and stage.
 */
std::vector<uint32_t> EpGroup(const TrainingParallelSpec& p, uint32_t t, uint32_t d, uint32_t s);

/** FLOPs of one layer's forward pass for one micro-batch on one rank (before tp): attention, MLP.
 */
struct LayerFlops
{
    double attention = 0;
    double mlp = 0;
};

/**
 * Narayanan et al. (SC'21), eq. for a GPT layer, per micro-batch of B sequences of s tokens:
 * QKV and output projections 8 B s h^2, attention scores and values 4 B s^2 h, MLP
 * 2 x matrices x B s h f (x top_k on MoE layers).
 */
LayerFlops ForwardFlops(const TrainingModelSpec& m, uint32_t microBatchSize);

/** The output layer's forward FLOPs per micro-batch (2 B s h V), on the last stage. */
double LogitFlops(const TrainingModelSpec& m, uint32_t microBatchSize);

/** The plan's preconditions (products, divisibility, algorithms); throws PlanError. */
void CheckTraining(const TrainingRequest& req);

/** Plans every iteration; throws PlanError. */
TrainingPlan PlanTraining(const TrainingRequest& req);

} // namespace fabric

#endif
