/*
 * RingStreams: ring collectives run as streams (docs/model.md, "Flow-level engine"), so the
 * work grows with the ring's connections, not with its 2(n-1) steps: a 65,536-rank ring
 * all-reduce has 2^33 transfers but 65,536 connections.
 *
 * Each iteration starts every network connection (channel, position) as one flow of all its
 * steps' bytes; the flows share the fabric max-min fair like any other. When the last has
 * sent its data, each connection's step time s_p is one block at that flow's mean rate and
 * d_p = s_p + its path's latency (NVLink: d_p = the transfer's time, s_p = 0), and the
 * iteration ends the ring's makespan (ring-makespan.h) after its start: the steps following one
 * another on each connection, each waiting for the block it forwards. The next iteration
 * starts compute_us (and one ACK's way back) after that.
 *
 * The approximations, measured in docs/validation-flow.md: a connection's steps queue one
 * behind the other at one rate (the packet model, and the flow engine's transfer-by-transfer
 * run, give each step its own QP, which share the connection's path), the rate is the
 * stream's mean over its life (rates that change during the iteration, as other jobs come and
 * go, are averaged), and an iteration ends for every rank at once.
 */
#ifndef FABRIC_FLOW_RING_STREAMS_H
#define FABRIC_FLOW_RING_STREAMS_H

#include "flow/flow-engine.h"
#include "scenario/traffic-generator.h"

#include <nlohmann/json.hpp>

#include <cstdint>
#include <vector>

namespace fabric
{
namespace flow
{

class RingStreams : public FlowDriver
{
  public:
    RingStreams(const Scenario& scenario, std::vector<StreamedCollective> jobs);

    void Begin(FlowEngine& engine) override;
    void OnTimer(FlowEngine& engine, uint32_t token) override;
    void OnDataDone(FlowEngine& engine, uint32_t flow) override;

    /** Whether the scenario's job index runs as streams. */
    bool Streams(uint32_t job) const;

    /** The job's entry of the result's "jobs" (the shared header, iterations, links). */
    nlohmann::ordered_json JobEntry(uint32_t job, const FlowEngine& engine) const;

    /** Connections (flows) the streamed jobs stand for, and those of completed jobs (the
     *  summary's flows_total and flows_completed, as the packet model counts them). */
    uint64_t Transfers() const;
    uint64_t TransfersCompleted() const;

    /** The generator index of every streamed job (for the result's caveats). */
    std::vector<uint32_t> Generators() const;

  private:
    /** One ring position of a channel: its connection. */
    struct Hop
    {
        uint32_t src = 0;   ///< host
        uint32_t dst = 0;   ///< host
        bool local = false; ///< NVLink: two GPUs of one server
        uint16_t udpSrcPort = 0;
    };

    struct Iteration
    {
        double startPs = -1;
        double endPs = -1;
    };

    struct Job
    {
        StreamedCollective spec;
        uint32_t steps = 0; ///< K
        uint64_t block = 0; ///< bytes per step and channel
        std::vector<std::vector<Hop>> channels;
        std::vector<Iteration> iterations;
        uint32_t current = 0;           ///< the iteration running
        std::vector<uint32_t> flows;    ///< its network streams, this iteration (engine ids)
        std::vector<uint32_t> allFlows; ///< every stream it started
        uint32_t pending = 0;           ///< of them, still sending
    };

    void StartIteration(FlowEngine& engine, uint32_t job);
    void FinishIteration(FlowEngine& engine, uint32_t job);

    const Scenario& m_scenario;
    std::vector<Job> m_jobs;
    std::vector<uint32_t> m_flowJob; ///< per engine flow past the scenario's: its job
};

} // namespace flow
} // namespace fabric

#endif
