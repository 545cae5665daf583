/*
 * FlowEngine: the flow-level run of a scenario (docs/model.md, "Flow-level engine"). Flows are
 * fluids: each takes its max-min fair share of the links on its route (MaxMinSolver),
 * recomputed when a flow starts or its data has left; a flow's last byte reaches the receiver
 * its path's latency after its data left the sender (propagation, and one frame's
 * serialization at every hop but the slowest, as the packet model's ideal FCT counts it), so a
 * flow alone on its path completes in exactly its ideal FCT.
 *
 * Flows that wait for flows (a collective's steps, a flow list's `after`) start as the packet
 * model starts them (helper/flow-dependencies.h): at max(their start time, the moment their
 * sender knows the last input completed + gap), a completion being known at once, or one idle
 * ACK path later when the waiting flow's sender sent the input (scenario/dependency-rules.h).
 * NVLink transfers take bytes x 8 / nvlink_gbps and no link.
 *
 * Events at one time are handled together, then the rates solved once. Time is in ps (a
 * double); everything is deterministic: the same scenario gives the same bytes.
 */
#ifndef FABRIC_FLOW_ENGINE_H
#define FABRIC_FLOW_ENGINE_H

#include "flow/flow-routing.h"
#include "flow/max-min-solver.h"
#include "model/fabric-config.h"
#include "scenario/run-limits.h"

#include <cstdint>
#include <cstring>
#include <functional>
#include <memory>
#include <unordered_map>
#include <vector>

namespace fabric
{
namespace flow
{

/** What the engine records of one flow. */
struct FlowOutcome
{
    double startPs = -1;          ///< when it started (-1: never)
    double dataDonePs = -1;       ///< when its last bit left the sender's bottleneck (-1: not yet)
    double completePs = -1;       ///< when its last byte reached the receiver (-1: not yet)
    double lastRateBps = 0;       ///< its wire rate when its data finished
    uint32_t route = UINT32_MAX;  ///< index of its route (RouteOf), UINT32_MAX: none
    uint32_t handle = UINT32_MAX; ///< its solver handle while it sends
    uint32_t version = 0;         ///< bumped at each rate change (stale completion events)
};

class FlowEngine;

/**
 * Runs flows of its own through an engine (a collective's streams, ring-streams.h): it adds
 * them while the engine runs and is told when their data has left and when its timers fire.
 */
class FlowDriver
{
  public:
    virtual ~FlowDriver() = default;
    /** At the start of the run, before any event. */
    virtual void Begin(FlowEngine& engine) = 0;
    virtual void OnTimer(FlowEngine& engine, uint32_t token) = 0;
    /** A flow it added has sent its last bit (Outcome(flow).dataDonePs is now). */
    virtual void OnDataDone(FlowEngine& engine, uint32_t flow) = 0;
};

class FlowEngine
{
  public:
    FlowEngine(const Scenario& scenario, FlowRouting& routing);

    /** The driver of flows beyond the scenario's (none by default); set before Run. */
    void SetDriver(FlowDriver* driver) { m_driver = driver; }

    /** A flow beyond the scenario's (a driver's); returns its index (after ExtraBase()). */
    uint32_t AddFlow(FlowSpec spec);

    /** Starts a flow now (a driver's, from its callbacks). */
    void StartNow(uint32_t flow) { Push(m_nowPs, EventKind::START, flow); }

    /** Calls the driver's OnTimer(token) at atPs. */
    void TimerAt(double atPs, uint32_t token) { Push(atPs, EventKind::TIMER, token); }

    double NowPs() const { return m_nowPs; }

    /**
     * The flow that runs transfer t of Scenario::transfers: the engine runs each transfer as a
     * flow of its own on its connection's path (the connection itself never starts), after the
     * scenario's flows and before the drivers'. As the packet model's connections, a
     * connection posts its transfers in order, each once it is ready and the one before it was
     * posted; a network connection sends them one after the other (a transfer's fluid starts
     * when the one before it there has sent its last bit), an NVLink connection completes each
     * its duration after its post. A transfer's time runs from its post.
     */
    uint32_t TransferFlow(uint32_t t) const { return m_transferBase + t; }

    /** The first flow of the drivers' (after the scenario's and the transfers'). */
    uint32_t ExtraBase() const
    {
        return m_transferBase + static_cast<uint32_t>(m_scenario.transfers.Size());
    }

    /** Every flow: the scenario's, the transfers', then the drivers'. */
    uint32_t FlowCount() const { return static_cast<uint32_t>(m_out.size()); }

    /** A flow's endpoints, port and QP; a transfer's are its connection's (its bytes: Bytes). */
    const FlowSpec& Spec(uint32_t flow) const
    {
        if (flow < m_transferBase)
        {
            return m_scenario.flows[flow];
        }
        return flow < ExtraBase()
                   ? m_scenario.flows[m_scenario.transfers.flow[flow - m_transferBase]]
                   : m_extra[flow - ExtraBase()];
    }

    /** A flow's payload bytes (0: long-lived); a transfer's own. */
    uint64_t Bytes(uint32_t flow) const
    {
        return flow >= m_transferBase && flow < ExtraBase()
                   ? m_scenario.transfers.bytes[flow - m_transferBase]
                   : Spec(flow).sizeBytes;
    }

    /** Latency of the flow's path for the last frame of a transfer of `bytes`, ps. */
    double LatencyForPs(uint32_t flow, uint64_t bytes) const;

    /** Runs to the scenario's duration or a limit; progress at most every 0.5 s of wall time. */
    RunStatus Run(const RunLimits& limits, const std::function<void(const Progress&)>& progress);

    const FlowOutcome& Outcome(uint32_t flow) const { return m_out[flow]; }

    /** Payload bytes of the flow at its receiver when the warm-up ended (0: no warm-up). */
    double DeliveredAtWarmup(uint32_t flow) const
    {
        return flow < m_deliveredAtWarmup.size() ? m_deliveredAtWarmup[flow] : 0.0;
    }

    /** The route of a started network flow (nullptr: none). */
    const FlowRoute* RouteOf(uint32_t flow) const;

    /** A flow's route even if it never started (computed on demand; nullptr: unroutable). */
    const FlowRoute* RouteFor(uint32_t flow);

    /** Payload bytes of the flow at its receiver at time atPs (at or before the end). */
    double Delivered(uint32_t flow, double atPs) const;

    /** Payload bytes the sender put on the wire by atPs. */
    double Sent(uint32_t flow, double atPs) const;

    /** The flow's wire bytes per payload byte (headers, preamble and gap of its frames). */
    double WirePerPayload(uint32_t flow) const;

    /** Latency of the flow's path for its last frame, ps (see the file comment). */
    double LatencyPs(uint32_t flow) const;

    /** The time the last ACK takes back to the sender over the idle path, ps (ceil). */
    int64_t AckReturnPs(uint32_t flow) const;

    /** Where the run ended (the duration, or where a limit stopped it), ps. */
    double EndPs() const { return m_endPs; }

    uint64_t Events() const { return m_events; }

    const MaxMinSolver& Solver() const { return *m_solver; }

    const FlowRouting& Routing() const { return m_routing; }

  private:
    enum class EventKind : uint8_t
    {
        START,
        DATA_DONE,
        COMPLETE,
        WARMUP,
        TIMER,
        LINK ///< a link fault's step (m_linkSteps)
    };

    /** A link fault's step (docs/model.md, "Faults"): down, up, or routes converged. */
    struct LinkStep
    {
        enum Kind : uint8_t
        {
            DOWN,
            UP,
            CONVERGED_WITHOUT,
            CONVERGED_WITH
        } kind;
        uint32_t node;
        uint32_t neighbor;
    };

    /** An event at time T(): handled in (time, seq) order, the order it was pushed in ties. */
    struct Event
    {
        uint64_t key; ///< the time's bits, ordered as the times are (TimeKey)
        uint64_t seq;
        uint32_t flow;
        uint32_t version;
        EventKind kind;

        /** A double's bits as an integer that orders as the double does (no NaN). */
        static uint64_t TimeKey(double t)
        {
            uint64_t b;
            std::memcpy(&b, &t, sizeof b);
            return (b >> 63) != 0 ? ~b : b | (uint64_t(1) << 63);
        }

        double T() const
        {
            uint64_t b = (key >> 63) != 0 ? key & ~(uint64_t(1) << 63) : ~key;
            double t;
            std::memcpy(&t, &b, sizeof t);
            return t;
        }

        bool Before(const Event& o) const { return key != o.key ? key < o.key : seq < o.seq; }
    };

    void Push(double t, EventKind kind, uint32_t flow, uint32_t version = 0);
    /** Takes the first event of m_heap (not empty). */
    Event Pop();
    /** The compute a flow adds after its inputs (the scenario's, or its transfer's), ns. */
    uint64_t GapNs(uint32_t flow) const
    {
        if (flow >= m_transferBase && flow < ExtraBase())
        {
            return m_scenario.transfers.deps.gapNs[flow - m_transferBase];
        }
        return flow < m_scenario.deps.gapNs.size() ? m_scenario.deps.gapNs[flow] : 0;
    }
    /** An NVLink flow's or transfer's duration, ns (0: none). */
    uint64_t LocalNs(uint32_t flow) const;
    void Handle(const Event& e);
    void Start(uint32_t flow);
    void DataDone(uint32_t flow, uint32_t version);
    void Complete(uint32_t flow);
    /** The flow's last byte arrived at atPs (now, or later for an NVLink transfer): its
     * dependents learn it; NVLink transfers among them that are now ready go to m_localReady. */
    void Finish(uint32_t flow, double atPs);
    bool IsLocalTransfer(uint32_t flow) const;
    /** NVLink transfer t is ready at atPs: its connection posts what it may, in order, at once. */
    void ReadyLocal(uint32_t t, double atPs);
    /** NVLink connection c posts what it may, in order (a stand-in: once its group is solved). */
    void PostOn(uint32_t c);
    /** When transfer t was posted (a stand-in: its connection's last post in its group). */
    double PostOf(uint32_t t) const;
    /** Every stand-in of NVLink group g is ready: its transfers' times, and its stand-ins'. */
    void SolveGroup(uint32_t g);
    /** Posts the NVLink transfers in m_localReady, and those they make ready, until none is left.
     */
    void PostLocal();
    /** At the end of Run: the NVLink times set past its end are unset. */
    void ForgetLocalPast(bool atDuration);
    void Release(uint32_t flow);
    /** Transfer t is ready: its connection posts what it may, in order. */
    void ReadyTransfer(uint32_t t);
    /** A network connection starts sending its next posted transfer when it is idle. */
    void SendNext(uint32_t connection);
    /** The network half of Start: the flow's fluid from now on its route. */
    void StartFluid(uint32_t flow);
    void TakeWarmup();
    void Reschedule(const std::vector<uint32_t>& changed);
    void BuildDependents();
    /** Schedules the steps of the scenario's link_down and link_up faults. */
    void ScheduleLinkFaults();
    void ApplyLinkStep(const LinkStep& step);
    /** Moves every sending flow whose route changed to its new route (bits sent kept). */
    void Reroute();
    /** Wire bits of the flow's payload with its frames' headers. */
    double WireBits(uint32_t flow) const;
    /** WireBits, for a transfer from its connection's last size when it is the same. */
    double WireBitsOf(uint32_t flow);
    /** LatencyPs, for a transfer from its connection's last route and size when the same. */
    double LatencyOf(uint32_t flow);
    /** AckReturnPs, for a transfer from its connection's last route when the same. */
    int64_t AckReturnOf(uint32_t flow);
    /** The flow's rate cap from its QP window over the path's base RTT (infinity: none). */
    double WindowCapBps(uint32_t flow, const FlowRoute& r) const;
    /** ACK wire bits per data wire bit of the flow. */
    double AckShare(uint32_t flow) const;
    /** Bytes of overhead per frame on the wire (headers, preamble, gap, ERD's extra). */
    uint32_t FrameOverhead(uint32_t flow) const { return m_frameOverhead[Spec(flow).src]; }
    /** The connection carrying transfer flow `flow`, or UINT32_MAX (not a transfer). */
    uint32_t ConnectionOf(uint32_t flow) const
    {
        return flow >= m_transferBase && flow < ExtraBase()
                   ? m_scenario.transfers.flow[flow - m_transferBase]
                   : UINT32_MAX;
    }

    const Scenario& m_scenario;
    FlowRouting& m_routing;
    std::vector<LinkStep> m_linkSteps;
    std::vector<uint32_t> m_stalled; ///< flows with no route after a failure, waiting for one
    std::unordered_map<uint32_t, double> m_stalledBits; ///< and the bits they had sent
    std::unique_ptr<MaxMinSolver> m_solver;
    std::vector<FlowOutcome> m_out;
    std::vector<double> m_deliveredAtWarmup; ///< per flow, once the warm-up ended (else empty)
    std::vector<FlowRoute> m_routes;
    std::unordered_map<uint64_t, uint32_t> m_routeIndex; ///< (src, dst, port) -> m_routes
    /// per node: its NIC's transport (NicTransport) and frame overhead (FrameOverhead)
    std::vector<uint8_t> m_transport;
    std::vector<uint32_t> m_frameOverhead;
    /// What every transfer of a connection shares (one spec, so one route key): per connection
    /// its route (m_routeIndex's, UINT32_MAX: not looked up since the index was last cleared),
    /// and its ACK share and window cap on route capRoute (UINT32_MAX: none computed yet).
    struct ConnectionPath
    {
        uint32_t route = UINT32_MAX;
        uint32_t capRoute = UINT32_MAX;
        double ackShare = 0;
        double windowCapBps = 0;
        /// the wire bits of its last transfer size asked (UINT64_MAX: none), and the latency of
        /// its last (route, size) asked (UINT32_MAX: none): transfers of a size repeat
        uint64_t wireBytes = UINT64_MAX;
        double wireBits = 0;
        uint32_t latencyRoute = UINT32_MAX;
        uint64_t latencyBytes = 0;
        double latencyPs = 0;
        /// the ACK return of its last route asked (UINT32_MAX: none)
        uint32_t ackReturnRoute = UINT32_MAX;
        int64_t ackReturnPs = 0;
    };
    std::vector<ConnectionPath> m_connPath;
    std::vector<uint32_t> m_handleFlow; ///< solver handle -> flow
    /// the pending events, a 4-ary min-heap by Event::Before (shallower than a binary one:
    /// fewer levels to sift through at each of the run's pushes and pops)
    std::vector<Event> m_heap;
    uint64_t m_seq = 0;
    uint64_t m_events = 0;
    double m_nowPs = 0;
    double m_endPs = 0;
    // dependencies (FlowDependencyTracker's rules)
    /// per flow (the scenario's and the transfers'): how many inputs it still waits for, and
    /// when they let it start (the latest known so far; its gap added once the last is known)
    std::vector<uint32_t> m_pending;
    std::vector<double> m_readyPs;
    std::vector<uint32_t> m_depBegin;
    std::vector<uint32_t> m_dependents;
    uint32_t m_transferBase = 0; ///< TransferFlow(0)
    // connections carrying transfers (per scenario flow; empty without transfers)
    static constexpr uint8_t kTransferReady = 1;   ///< its inputs are known (+ its gap)
    static constexpr uint8_t kTransferLocal = 2;   ///< it rides NVLink
    static constexpr uint8_t kTransferStandIn = 4; ///< it stands in for an NvlinkGroup's connection
    static constexpr uint8_t kTransferSolved = 8;  ///< a stand-in whose group has its times
    std::vector<uint8_t> m_transferState;          ///< per transfer: kTransfer* bits
    std::vector<uint32_t> m_connPost;              ///< per connection: its next transfer to post
    std::vector<uint32_t> m_connSend;   ///< per connection: its next posted transfer to send
    std::vector<uint8_t> m_connBusy;    ///< per network connection: a transfer is sending
    std::vector<uint32_t> m_localReady; ///< NVLink transfers whose inputs are all known
    std::vector<uint32_t> m_groupReady; ///< per NvlinkGroup: its stand-ins ready
    /// per transfer (a stand-in's): the last post of the transfers it stands for
    std::vector<double> m_standInLastPostPs;
    /// SolveGroup's scratch: per plan transfer its completion; per connection its last post,
    /// first post and last completion
    std::vector<double> m_groupDone, m_groupPost, m_groupFirst, m_groupLast;
    std::vector<uint32_t> m_changed;
    std::vector<FlowSpec> m_extra; ///< the drivers' flows
    FlowDriver* m_driver = nullptr;
};

} // namespace flow
} // namespace fabric

#endif
