/*
 * When the last step of a ring completes, each connection carrying its steps one after
 * another (docs/model.md, "Flow-level engine", streams). Ring position p's connection sends
 * step k once step k-1 has arrived from position p-1 and its own step k-1 has left: with s_p
 * the time step k's bytes take to leave (its block at the connection's rate; 0 for NVLink,
 * whose transfers do not queue behind one another) and d_p = s_p + the hop's latency (NVLink:
 * its transfer time), the completion C(k, p) = max(C(k-1, p-1) + d_p, C(k-1, p) + s_p), with
 * C(0, p) = d_p: a max-plus recursion whose value after K steps is the heaviest path through
 * it, advancing round the ring (d) or staying on a connection (s).
 *
 * RingMakespanPs evaluates max_p C(K-1, p) in closed form: a path that starts at position q
 * and advances a times collects d over those a + 1 positions and stays K - 1 - a times, best
 * on the slowest connection it passed, so the answer is the maximum over q < n and a < K of
 * sum(d_q..d_{q+a}) + (K - 1 - a) max(s_q..s_{q+a}). For each q the running maximum of s takes
 * few distinct values (the distinct rates of a ring's connections); per value, a range-maximum
 * table of D[j] - j s (D the prefix sums of d) answers each segment in O(1): O((n + K) log(n +
 * K)) per distinct value, against O(n K) for the recursion (2^33 steps for 65,536 ranks).
 */
#ifndef FABRIC_FLOW_RING_MAKESPAN_H
#define FABRIC_FLOW_RING_MAKESPAN_H

#include <cstdint>
#include <vector>

namespace fabric
{
namespace flow
{

/** max_p C(K-1, p) of the recursion above, in closed form (d, s per position, ps). */
double RingMakespanPs(const std::vector<double>& d, const std::vector<double>& s, uint64_t steps);

/** The same by running the recursion step by step: O(n K), for tests and small rings. */
double RingMakespanByRecursionPs(const std::vector<double>& d,
                                 const std::vector<double>& s,
                                 uint64_t steps);

} // namespace flow
} // namespace fabric

#endif
