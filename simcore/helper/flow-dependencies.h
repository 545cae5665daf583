/*
 * FlowDependencyTracker: starts the flows that wait for flows (Scenario::deps: a flow list's
 * `after`, a collective's steps) and carries a collective's NVLink steps (FlowSpec::local),
 * which send no packet. A waiting flow starts at max(its start time, the latest moment its
 * sender learns of the completions it waits for + its gap): a completion at the sender's own
 * host at once, one of a flow the same host sent when that flow's last ACK gets back (the
 * completion's acknowledgement, Acknowledged), any other at once. An NVLink step completes its
 * JobFlow::localNs after it starts. Built only when the scenario has either, so other runs
 * neither connect a trace nor keep a table.
 *
 * A collective's transfers (Scenario::transfers) ride persistent connections: a transfer is
 * ready by the same rules (its inputs known at its sender, + its gap), and is posted on its
 * connection once it is ready and the transfer before it there was posted (in order): a network
 * connection's NIC queues it on the QP (RdmaNic::PostMessage), an NVLink connection completes
 * it JobFlow::localNs later (a marker: at once). Its completion at the receiver (the NIC's
 * MessageComplete) is what its dependents and the job's results (FabricContext's
 * transferStartPs / transferCompletePs) see.
 *
 * A ring program's transfers (Transfers::rings) follow the same rules, by the same functions,
 * with their inputs and dependents derived from the ring's shape (flow-dependencies-rings.cc):
 * state is kept per connection (what waits, what is ready, the posted messages' times) and
 * per step (FabricContext::ringSteps), never per transfer.
 */
#ifndef FABRIC_FLOW_DEPENDENCIES_H
#define FABRIC_FLOW_DEPENDENCIES_H

#include "model/fabric-config.h"
#include "model/fabric-context.h"
#include "scenario/dependency-rules.h"

#include <cstdint>
#include <vector>

namespace fabric
{

class RdmaNic;

class FlowDependencyTracker
{
  public:
    /** Whether a scenario needs one (some flow waits, or it has collective transfers). */
    static bool Needed(const Scenario& scenario);

    /** Flows the start order leaves to the tracker (waiting, NVLink, or a connection). */
    static bool Held(const Scenario& scenario, uint32_t flow);

    /**
     * Whether waiting learns of input's completion through the input's acknowledgement: the
     * waiting flow's sender sent input over the network (a connection's window, a rank's
     * iteration waiting for what it sent to arrive). Such a dependency reaches the sender at
     * least one path's propagation after the completion, so a parallel run may put the two
     * hosts in different partitions (helper/partitioner.cc).
     */
    static bool Acknowledged(const FlowSpec& input, const FlowSpec& waiting)
    {
        return LearnsByAck(input, waiting);
    }

    /**
     * ackReturnPs: per flow, the time its last ACK takes from the receiver back to the sender
     * over the idle path (propagation and the ACK's serialization per hop); read for the flows
     * some flow waits for through Acknowledged.
     */
    FlowDependencyTracker(const Scenario& scenario, FabricContext& ctx,
                          const std::vector<RdmaNic*>& nics, std::vector<int64_t> ackReturnPs);

    /** At time 0: connects to every NIC's FlowComplete and releases held flows that wait for
     *  nothing (an iteration's first NVLink steps). */
    void Start();

  private:
    void OnComplete(uint32_t flow);
    /** An input of flow is known at flow's sender, flow ready at readyPs at the earliest. */
    void Satisfy(uint32_t flow, int64_t readyPs);
    /** An acknowledged completion reached flow's sender (an event of that node). */
    void Acknowledge(uint32_t flow);
    void Release(uint32_t flow);
    void Launch(uint32_t flow);
    void FinishLocal(uint32_t flow);

    // Collectives' transfers on their connections.
    void OnTransferComplete(uint32_t transfer);
    void SatisfyTransfer(uint32_t transfer, int64_t readyPs);
    void AcknowledgeTransfer(uint32_t transfer);
    void ReleaseTransfer(uint32_t transfer);
    /** At the connection's sender: the transfer is ready; posts what may be posted in order. */
    void ReadyTransfer(uint32_t transfer);
    void FinishLocalTransfer(uint32_t transfer);

    // Ring programs (flow-dependencies-rings.cc): transfer indices from Transfers::Size() on.
    struct RingTransfer
    {
        uint32_t ring = 0;
        uint32_t connection = 0; ///< channel x ranks + position
        uint32_t message = 0;    ///< iteration x steps + step
        uint32_t iteration = 0;
        uint32_t step = 0;
    };
    struct RingWait
    {
        uint32_t message = 0;
        uint32_t pending = 0;
        int64_t readyPs = 0;
    };
    /** A ring connection's state (touched only by its sender's partition, but startPs). */
    struct RingConnection
    {
        uint32_t nextPost = 0;
        std::vector<uint32_t> ready;  ///< ready messages past nextPost
        std::vector<RingWait> waits;  ///< messages some of whose inputs are known
        std::vector<int64_t> startPs; ///< posted messages' post times, by message mod size
    };
    struct RingRun
    {
        std::vector<RingConnection> connections;
        std::size_t firstSlot = 0; ///< its first step slot in FabricContext::ringSteps
    };

    bool IsRing(uint32_t transfer) const { return transfer >= m_scenario.transfers.Size(); }
    RingTransfer DecodeRing(uint32_t transfer) const;
    uint32_t RingInputs(const RingProgram& r, const RingTransfer& x) const;
    uint64_t GapNs(uint32_t transfer) const;
    uint32_t RingFlow(uint32_t transfer) const;
    /** The ring transfers waiting for x, in transfer order (one per input they list it as). */
    void RingDependents(const RingTransfer& x, std::vector<uint32_t>& out) const;
    void StartRings();
    void SatisfyRing(uint32_t transfer, int64_t readyPs);
    void ReadyRing(uint32_t transfer);
    void CompleteRing(uint32_t transfer, int64_t now);
    std::size_t RecordSlot() const;

    const Scenario& m_scenario;
    FabricContext& m_ctx;
    const std::vector<RdmaNic*>& m_nics;
    std::vector<int64_t> m_ackReturnPs;
    std::vector<uint32_t> m_pending;    ///< per flow: flows it still waits for
    std::vector<int64_t> m_readyPs;     ///< per flow: latest completion + gap so far
    std::vector<uint32_t> m_depBegin;   ///< per flow: offsets into m_dependents
    std::vector<uint32_t> m_dependents; ///< the flows waiting for it

    std::vector<uint32_t> m_tPending;    ///< per transfer: transfers it still waits for
    std::vector<int64_t> m_tReadyPs;     ///< per transfer: latest input known + gap so far
    std::vector<uint8_t> m_tReady;       ///< per transfer: ready, waiting its turn to post
    std::vector<uint32_t> m_tDepBegin;   ///< per transfer: offsets into m_tDependents
    std::vector<uint32_t> m_tDependents; ///< the transfers waiting for it
    std::vector<uint32_t> m_nextPost;    ///< per flow: its next transfer to post
    std::vector<RingRun> m_rings;        ///< per ring program
    std::size_t m_ringSlots = 0;         ///< ring steps, every ring's (FabricContext::ringSteps)
};

} // namespace fabric

#endif
