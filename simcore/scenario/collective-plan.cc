/*
 * The public side of the collective planner (collective-plan.h): the checks every algorithm
 * shares, iterations and connection windows around an algorithm's channels. The algorithms
 * are classes of their own (collective-algorithm.h), one file each.
 */
#include "collective-plan.h"

#include "collective-algorithm.h"
#include "scenario-contract.h"

#include <algorithm>

namespace fabric
{

namespace
{

using collective::CollectiveAlgorithm;

/** An algorithm's channels, iteration after iteration, on windowed connections. */
class Planner : public collective::PlanBuilder
{
  public:
    Planner(const CollectiveRequest& req, const CollectiveAlgorithm& algorithm)
        : PlanBuilder(req),
          m_algorithm(algorithm)
    {
    }

    TransferPlan Run()
    {
        // PlanBuilder::Add wires each transfer to the iteration before and to its
        // connection's window as it is added
        for (uint32_t it = 0; it < m_req.iterations; ++it)
        {
            m_iteration = it;
            m_prevTouch.swap(m_touch);
            m_touch.assign(m_n, {});
            for (uint32_t c = 0; c < m_req.channels; ++c)
            {
                m_algorithm.PlanChannel(*this, c);
            }
        }
        return std::move(m_out);
    }

  private:
    const CollectiveAlgorithm& m_algorithm;
};

} // namespace

std::vector<std::string>
AlgorithmsFor(const std::string& op)
{
    for (const CollectiveOp& c : kCollectiveOps) // generated from the scenario models
    {
        if (op == c.op)
        {
            return c.algorithms;
        }
    }
    return {};
}

double
BusFactor(const std::string& op, uint32_t ranks)
{
    double n = ranks;
    if (op == "all_reduce")
    {
        return 2 * (n - 1) / n;
    }
    if (op == "broadcast")
    {
        return 1;
    }
    return (n - 1) / n;
}

bool
Streamable(const CollectiveRequest& req)
{
    const CollectiveAlgorithm* a = collective::FindCollectiveAlgorithm(req.algorithm);
    return a && a->Streamable(req);
}

uint32_t
UniformConnectionWindow(uint64_t bytes)
{
    // PlanBuilder::Add's window on equal transfers: in flight w x bytes with the w - 1 before it
    uint64_t b = std::max<uint64_t>(1, bytes);
    uint64_t w = std::max<uint64_t>(2, (kConnectionWindowBytes + b - 1) / b);
    return static_cast<uint32_t>(std::min<uint64_t>(w, UINT32_MAX));
}

double
PlannedTransfers(const CollectiveRequest& req)
{
    const CollectiveAlgorithm* a = collective::FindCollectiveAlgorithm(req.algorithm);
    double perChannel = a ? a->TransfersPerChannel(req) : 0;
    return perChannel * req.channels * req.iterations;
}

void
CheckCollective(const CollectiveRequest& req)
{
    uint32_t n = static_cast<uint32_t>(req.serverOf.size());
    if (n < 2)
    {
        throw PlanError("hosts",
                        "a collective needs at least 2 ranks (got " + std::to_string(n) + ")");
    }
    std::vector<std::string> allowed = AlgorithmsFor(req.op);
    const CollectiveAlgorithm* algorithm = collective::FindCollectiveAlgorithm(req.algorithm);
    if (!algorithm || std::find(allowed.begin(), allowed.end(), req.algorithm) == allowed.end())
    {
        std::string list;
        for (const auto& a : allowed)
        {
            list += (list.empty() ? "" : ", ") + ("\"" + a + "\"");
        }
        throw PlanError("algorithm", "\"" + req.algorithm + "\" does not run " + req.op +
                                         " (allowed for " + req.op + ": " + list + ")");
    }
    algorithm->Check(req);
    // Every transfer carries at least one byte: the message must cover the finest split.
    uint64_t parts = static_cast<uint64_t>(req.channels) * algorithm->MessageParts(req);
    if (req.messageBytes < parts)
    {
        throw PlanError("message_bytes", "must be at least " + std::to_string(parts) +
                                             " bytes for " + std::to_string(n) + " ranks x " +
                                             std::to_string(req.channels) + " channels with " +
                                             req.algorithm + " (got " +
                                             std::to_string(req.messageBytes) + ")");
    }
}

TransferPlan
PlanCollective(const CollectiveRequest& req)
{
    CheckCollective(req);
    return Planner(req, *collective::FindCollectiveAlgorithm(req.algorithm)).Run();
}

} // namespace fabric
