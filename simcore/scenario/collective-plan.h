/*
 * The step structure of a collective (docs/model.md, "Collectives"): which rank sends how many
 * bytes to which rank, in which step, and which transfers each one waits for. A pure function
 * of the request, so the algorithms are tested apart from the scenario reader; the collective
 * traffic generator (collective-generator.cc) turns the transfers into flows.
 *
 * Algorithms (NCCL's and MPI's; definitions in docs/model.md with their sources):
 *  - ring: reduce-scatter then all-gather around a ring, 2(n-1) steps of S/n (all_reduce),
 *    n-1 steps (all_gather, reduce_scatter), a pipelined chain from rank 0 (broadcast);
 *  - tree: two complementary binary trees (NCCL's double binary tree), each carrying half the
 *    data, reduce to the root then broadcast back, pipelined in chunks (all_reduce, broadcast);
 *  - halving_doubling: recursive halving then doubling with partners n/2, n/4, ... apart
 *    (power-of-two rank counts);
 *  - direct: every rank sends its block to every other rank at once (all_to_all: NCCL posts
 *    them as one group of point-to-point sends; the fabric decides how they share links);
 *  - hierarchical: ring reduce-scatter inside each server, ring all-reduce across servers among
 *    the GPUs of one local index, ring all-gather inside each server (all_reduce).
 * A transfer waits only for the data it forwards (its inputs arrived at its sender); channels
 * are independent copies over separate QPs, each moving 1/channels of the data.
 * Each algorithm is a class in a file of its own (collective-ring.cc, ...; the list and the
 * class in collective-algorithm.h); collective-plan.cc holds what they share.
 */
#ifndef FABRIC_COLLECTIVE_PLAN_H
#define FABRIC_COLLECTIVE_PLAN_H

#include <cstddef>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

namespace fabric
{

struct CollectiveRequest
{
    std::string op;        ///< all_reduce, all_gather, reduce_scatter, all_to_all, broadcast
    std::string algorithm; ///< ring, tree, halving_doubling, direct, hierarchical
    /// Per rank (in rank order) the index of its server; ranks of one server are GPUs that
    /// talk over NVLink. Ranks without a server have servers of their own.
    std::vector<uint32_t> serverOf;
    uint64_t messageBytes = 0;
    uint32_t channels = 1;
    uint64_t chunkBytes = 0; ///< 0: ring sends each block whole; tree and broadcast use 1 MiB
    uint32_t iterations = 1;
    uint64_t computeNs = 0; ///< between a rank's iterations
};

/** One point-to-point transfer of the plan. */
struct Transfer
{
    uint32_t src = 0; ///< rank
    uint32_t dst = 0; ///< rank
    uint64_t bytes = 0;
    uint32_t iteration = 0;
    uint32_t step = 0;
    uint32_t channel = 0;
    uint32_t connection = 0; ///< same (channel, src, dst) pair = same connection (QP path)
    uint64_t gapNs = 0;      ///< computeNs for an iteration's first transfers
};

/** The transfers one transfer of a TransferPlan waits for (plan indices): a read-only view. */
class TransferInputs
{
  public:
    TransferInputs(const uint32_t* begin, const uint32_t* end)
        : m_begin(begin),
          m_end(end)
    {
    }

    const uint32_t* begin() const { return m_begin; }
    const uint32_t* end() const { return m_end; }
    std::size_t size() const { return static_cast<std::size_t>(m_end - m_begin); }
    bool empty() const { return m_begin == m_end; }
    uint32_t operator[](std::size_t i) const { return m_begin[i]; }

  private:
    const uint32_t* m_begin;
    const uint32_t* m_end;
};

/**
 * A plan's transfers in plan order and what each waits for. The inputs of all transfers lie in
 * one list, sliced per transfer, so a plan of a million transfers (a training job's) makes no
 * allocation per transfer; inputs are appended to the transfer added last.
 */
class TransferPlan
{
  public:
    std::size_t size() const { return m_transfers.size(); }
    bool empty() const { return m_transfers.empty(); }
    const Transfer& operator[](std::size_t i) const { return m_transfers[i]; }
    Transfer& operator[](std::size_t i) { return m_transfers[i]; }
    std::vector<Transfer>::const_iterator begin() const { return m_transfers.begin(); }
    std::vector<Transfer>::const_iterator end() const { return m_transfers.end(); }

    /** What transfer i waits for, in the order they were added. */
    TransferInputs After(std::size_t i) const
    {
        const uint32_t* base = m_inputs.data();
        return {base + m_begin[i], base + m_begin[i + 1]};
    }

    /** Inputs of all transfers together. */
    std::size_t InputCount() const { return m_inputs.size(); }

    /** Appends a transfer that waits for nothing yet; returns its index. */
    uint32_t Add(const Transfer& t)
    {
        m_transfers.push_back(t);
        m_begin.push_back(m_begin.back());
        return static_cast<uint32_t>(m_transfers.size() - 1);
    }

    /** The last transfer added also waits for transfer a. */
    void AddInput(uint32_t a)
    {
        m_inputs.push_back(a);
        ++m_begin.back();
    }

    /** The last transfer added also waits for every transfer of [first, last). */
    template <typename It>
    void AddInputs(It first, It last)
    {
        std::size_t before = m_inputs.size();
        m_inputs.insert(m_inputs.end(), first, last);
        m_begin.back() += static_cast<uint32_t>(m_inputs.size() - before);
    }

    /** Room for this many transfers and inputs in all (no growth by doubling below them). */
    void Reserve(std::size_t transfers, std::size_t inputs)
    {
        m_transfers.reserve(transfers);
        m_begin.reserve(transfers + 1);
        m_inputs.reserve(inputs);
    }

  private:
    std::vector<Transfer> m_transfers;
    std::vector<uint32_t> m_inputs;
    std::vector<uint32_t> m_begin{0}; ///< transfer i's inputs: [m_begin[i], m_begin[i + 1])
};

/** A request the algorithm cannot carry out; what() names the problem, field names the field. */
class PlanError : public std::runtime_error
{
  public:
    PlanError(std::string field, const std::string& what)
        : std::runtime_error(what),
          m_field(std::move(field))
    {
    }

    const std::string& Field() const { return m_field; }

  private:
    std::string m_field;
};

/** The algorithms an op accepts (for the error message and the contract). */
std::vector<std::string> AlgorithmsFor(const std::string& op);

/** NCCL-tests' bus bandwidth factor: 2(n-1)/n all_reduce, (n-1)/n gather/scatter/all-to-all, 1. */
double BusFactor(const std::string& op, uint32_t ranks);

/** The default chunk (1 MiB) of tree and broadcast when chunkBytes is 0. */
constexpr uint64_t kDefaultPipelineChunk = 1048576;

/**
 * Whether the plan's transfers on every connection follow one another back to back, each
 * step forwarding the block that arrived in the step before (a ring all_reduce, all_gather or
 * reduce_scatter sending each block whole): the flow engine may run such a connection as one
 * stream of its steps' bytes (docs/model.md, "Flow-level engine").
 */
bool Streamable(const CollectiveRequest& req);

/** Steps of a streamable ring: 2(n-1) for all_reduce, n-1 for all_gather and reduce_scatter. */
uint32_t RingSteps(const CollectiveRequest& req);

/** The bytes each step of a streamable ring moves per channel (ceil(ceil(S/C)/n)). */
uint64_t RingBlockBytes(const CollectiveRequest& req);

/**
 * The ring of a channel as PlanCollective visits it: position p sends to p + 1 (ranks). Its
 * connection index in the plan is channel x n + p (each iteration reuses them).
 */
std::vector<uint32_t> RingOrderOf(const CollectiveRequest& req, uint32_t channel);

/** The request's preconditions (ranks, algorithm for the op, sizes); throws PlanError. */
void CheckCollective(const CollectiveRequest& req);

/** Plans the whole collective, every iteration; throws PlanError. */
TransferPlan PlanCollective(const CollectiveRequest& req);

/**
 * Bytes a connection keeps in flight: a transfer also waits for the transfer w places before
 * it on its connection, w the smallest >= 2 that puts this many bytes in flight with it.
 */
constexpr uint64_t kConnectionWindowBytes = 2097152;

/** That w on a connection whose transfers all carry bytes (a ring program's window). */
uint32_t UniformConnectionWindow(uint64_t bytes);

/** How many transfers PlanCollective would make (for the flow limit, before planning). */
double PlannedTransfers(const CollectiveRequest& req);

} // namespace fabric

#endif
