/*
 * MaxMinSolver: max-min fair rates of the flows sharing directed links, kept up to date as
 * flows come and go (docs/model.md, "Flow-level engine").
 *
 * A flow uses each link of its route with a weight (the share of its wire rate that crosses
 * it: 1 on a single path, 1/k on each of k paths it is sprayed over), and each link of its
 * ACKs' route with the ACKs' share of its rate; it may have a rate cap of its own (a QP window
 * over the path's RTT). The data rates are the weighted max-min fair allocation (progressive
 * filling: every unfrozen flow's rate rises together; when a link is full its flows freeze)
 * of each link's capacity less the ACKs crossing it. ACKs ride the control priority in the
 * packet model, so they take their share first: the ACK load comes from the rates being
 * solved for, so the solve repeats, each pass with the ACK load of the rates of the pass
 * before (the first: the rates before the change), until no rate moves by more than 1e-6 of
 * itself (the error shrinks by the ACKs' share of a link, 2-8 %, per pass, so the rates are
 * then within 1e-7 of the fixed point; 8 passes at most).
 *
 * Incremental: a change (a flow added or removed) marks its links dirty. Solve() recomputes
 * only the flows whose rate can change: those using a dirty link for data, and, transitively,
 * those sharing a link (for data) with a flow whose data or ACKs cross a link of the set. A
 * flow outside that closure shares no link with a flow whose rate moves, so every constraint
 * of it keeps its value and progressive filling would give it the same rate: recomputing the
 * closure gives the allocation a solve from scratch gives.
 *
 * The short way: most changes move no other flow at all, and then the closure (all the flows
 * of a loaded fabric, through the ACKs) need not be re-filled. A flow leaves without moving
 * anyone when no other flow is held at a link it frees: its data's links are not full (less
 * than 1e-4 of their capacity free) or carry only slower flows, its ACKs' links are not full.
 * A flow arrives without moving anyone when it fits in the room its links have: none full,
 * its rate the least of its cap and each link's room over its weight there, no faster flow on
 * a link where the room is the limit (max-min would take from it), its ACKs leaving their
 * links not full. Each flow then keeps a link where it is held, so the allocation is still the
 * max-min one. Solve takes the short way when every change since the last is a departure of
 * that kind and at most one is an arrival of that kind, in time linear in their paths. And a
 * flow that starts as another leaves, on the same links with the same weights and cap (a
 * connection's next transfer after the one that has just sent its last bit), takes its place
 * and its rate: flows under the same constraints are interchangeable in the max-min
 * allocation, so no other flow moves. Solve takes that way when every change since the last
 * pairs up so.
 *
 * It also integrates each flow's bits sent and each link's bits carried (data and ACKs) over
 * time, for the results.
 */
#ifndef FABRIC_FLOW_MAX_MIN_SOLVER_H
#define FABRIC_FLOW_MAX_MIN_SOLVER_H

#include "flow/flow-routing.h"
#include "flow/share-queue.h"

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <utility>
#include <vector>

namespace fabric
{
namespace flow
{

class MaxMinSolver
{
  public:
    /**
     * \param capacityBps per directed link, its capacity in wire bit/s
     * \param accountFromPs links count the bits they carry from this time on (the warm-up)
     */
    MaxMinSolver(std::vector<double> capacityBps, double accountFromPs);

    /**
     * Adds a flow at nowPs with rate 0 (until the next Solve); returns its handle.
     * \param ackShare the ACKs' wire bits per data wire bit (0: none)
     * \param capBps the flow's own rate limit (infinity: none)
     * \param sentBits what it sent before (a flow moved to another route keeps its count)
     */
    uint32_t Add(double nowPs,
                 const std::vector<LinkShare>& data,
                 const std::vector<LinkShare>& acks,
                 double ackShare,
                 double capBps,
                 double sentBits = 0);

    /** A link's capacity from nowPs on (a failed link: 0); its flows are solved again. */
    void SetCapacity(double nowPs, uint32_t link, double capacityBps);

    /** Removes a flow at nowPs (its handle may be reused). */
    void Remove(double nowPs, uint32_t handle);

    /**
     * Recomputes the rates that a change since the last call can move (see the file comment);
     * the handles whose rate changed are in `changed` (cleared first), in handle order.
     */
    void Solve(double nowPs, std::vector<uint32_t>& changed);

    /** A flow's data rate, wire bit/s. */
    double Rate(uint32_t handle) const { return m_flows[handle].rate; }

    /** Wire bits a flow has sent by nowPs (nowPs at or after its last rate change). */
    double SentBits(uint32_t handle, double nowPs) const;

    /** Wire bits a link carried after accountFromPs until endPs (data and ACKs). */
    double CarriedBits(uint32_t link, double endPs) const;

    /** Links with wire bits carried, in link order (for the results). */
    uint32_t LinkCount() const { return static_cast<uint32_t>(m_links.size()); }

    /** Number of flows whose rate was computed, summed over every Solve (work done). */
    uint64_t FlowsSolved() const { return m_flowsSolved; }

    /** Passes of progressive filling, summed over every Solve. */
    uint64_t Passes() const { return m_passes; }

    /**
     * Whether Solve may take the short way when a change moves no other flow (on by default;
     * off, every change recomputes its closure: the tests compare the two).
     */
    void SetShortcuts(bool on) { m_fastPath = on; }

    /**
     * Whether Fill takes each flow's rate as the least of its constraints when no link of the
     * closure carries two flows' data (on by default; off, it fills progressively: the tests
     * compare the two).
     */
    void SetAloneWay(bool on) { m_aloneWay = on; }

  private:
    /** At most this many passes of progressive filling per solve (ACK load of the pass before). */
    static constexpr int kMaxAckPasses = 8;
    /**
     * ... until no rate moves by more than this share of itself. A pass that moves no rate by
     * more than d leaves each within d q / (1 - q) of the fixed point (q, the ACKs' share of a
     * link, is at most 8 %): under 1e-7 of itself, past the 5 significant digits results print.
     */
    static constexpr double kAckTolerance = 1e-6;
    /**
     * A link counts as full (a flow may be held at it) when less than this share of its
     * capacity is free: far above what the ACK passes leave unallocated on a full link (under
     * 1e-7).
     */
    static constexpr double kFullShare = 1e-4;
    /** Collect lists the closure by a scan, not a sort, when it holds more than 1/kScanShare. */
    static constexpr std::size_t kScanShare = 16;
    /** SortCaps sorts by counting when the caps take at most this many values. */
    static constexpr std::size_t kCapValues = 16;

    struct Use
    {
        uint32_t link;
        double weight;
        uint32_t slot; ///< position in the link's user list
    };

    struct Flow
    {
        std::vector<Use> data;
        std::vector<Use> acks;
        double cap = 0;
        double rate = 0;
        double lastPs = 0;
        double sentBits = 0;
        bool alive = false;
        bool fresh = false; ///< added since the last solve (no rate of its own yet)
        // solve scratch
        uint32_t mark = 0;  ///< the solve (m_epoch) whose closure holds it
        uint32_t local = 0; ///< its index in that closure
    };

    struct Link
    {
        double capacity = 0;
        std::vector<uint32_t> users;     ///< flows with data on it
        std::vector<double> userWeights; ///< their weight on it (aligned with users)
        std::vector<uint32_t> ackUsers;  ///< flows with ACKs on it
        std::vector<double> ackWeights;  ///< their ACK weight on it (aligned with ackUsers)
        double load = 0;                 ///< wire bit/s now (data and ACKs)
        double lastPs = 0;
        double carriedBits = 0;
        bool dirty = false;
        // solve scratch
        uint32_t mark = 0;  ///< the solve (m_epoch) whose closure holds it
        uint32_t local = 0; ///< its index in that closure
    };

    /** A flow that left since the last solve: what it used (in m_departedUses), its rate. */
    struct Departure
    {
        uint32_t begin;   ///< its data uses (link, weight) from here
        uint32_t dataEnd; ///< its ACK uses from here
        uint32_t end;
        double cap;
        double rate;
        bool fresh;         ///< it came and went since the last solve (its rate is no guide)
        bool taken = false; ///< TakesPlaces: a new flow took its place
    };

    /** Counts a link's bits up to nowPs at its current load. */
    void Account(Link& l, double nowPs);
    /** Moves a flow's sent bits up to nowPs at its current rate. */
    void Advance(Flow& f, double nowPs);
    void Detach(uint32_t handle, std::vector<Use>& uses, bool ack);
    /** Whether less than kFullShare of the link's capacity is free (a flow may be held at it). */
    bool Full(const Link& l) const;
    /** Whether the flow can leave (Remove) without another flow's rate moving. */
    bool LeavesOthers(uint32_t handle) const;
    /**
     * The short way (file comment): when the changes since the last solve are departures that
     * move no one and at most one arrival that fits in its links' room, sets the arrival's
     * rate, puts it in `changed`, and returns true.
     */
    bool FitsAlone(double nowPs, std::vector<uint32_t>& changed);
    /**
     * The other short way: when every new flow takes the place of one that left since the last
     * solve (the same links, weights and cap), gives each its rate, puts it in `changed`, and
     * returns true.
     */
    bool TakesPlaces(double nowPs, std::vector<uint32_t>& changed);
    /** Whether flow f uses the same links with the same weights and cap as departure d. */
    bool SamePlace(const Flow& f, const Departure& d) const;
    /** The closure of flows whose rate can change (file comment), into m_closure/m_closureLinks. */
    void Collect();
    /** The closure's flows and links as flat arrays of closure indices, for Fill's passes. */
    void Flatten();
    /** Sorts m_caps into the order the filling reaches them. */
    void SortCaps();
    /** Progressive filling of the closure's flows, with the ACK load of the rates in m_value. */
    void Fill();
    /**
     * For a closure whose links carry one flow's data at most (m_alone): the rates before the
     * change into m_value, without Flatten; returns whether ACKs cross the closure's links.
     */
    bool StartAlone();
    /** Fill's rates for such a closure, each flow's least constraint, read from the links. */
    void FillAlone();

    std::vector<Flow> m_flows;
    std::vector<uint32_t> m_free;
    std::vector<Link> m_links;
    std::vector<uint32_t> m_dirty;
    std::vector<uint32_t> m_added;  ///< flows added since the last solve
    bool m_capacityChanged = false; ///< a link's capacity changed since the last solve
    bool m_departuresMove = false;  ///< a flow left since then moving others (LeavesOthers)

    std::vector<Departure> m_departed;
    std::vector<std::pair<uint32_t, double>> m_departedUses;
    std::vector<uint32_t> m_arrivals;                         ///< TakesPlaces' scratch
    std::vector<std::pair<uint32_t, uint32_t>> m_byFirstLink; ///< TakesPlaces' scratch
    std::vector<uint32_t> m_placeOf;                          ///< TakesPlaces' scratch
    bool m_fastPath = true;                                   ///< SetShortcuts
    bool m_aloneWay = true;                                   ///< SetAloneWay
    double m_accountFromPs;
    uint32_t m_epoch = 0;
    std::vector<uint32_t> m_closure;      ///< flow handles, in handle order
    std::vector<uint32_t> m_closureLinks; ///< link indices, in link order
    uint64_t m_flowsSolved = 0;
    uint64_t m_passes = 0;
    // Flatten's arrays, reused from solve to solve (closure indices: flow i is m_closure[i],
    // link j is m_closureLinks[j]). Each keeps the order of the lists it copies, so every sum
    // adds the same terms in the same order as over the lists themselves.
    std::vector<uint32_t> m_useBegin;  ///< per flow: its data uses in m_useLink/m_useWeight
    std::vector<uint32_t> m_useLink;   ///< the link of each data use
    std::vector<double> m_useWeight;   ///< its weight
    std::vector<uint32_t> m_userBegin; ///< per link: its data users in m_userFlow
    std::vector<uint32_t> m_userFlow;  ///< the flows with data on it (all in the closure)
    std::vector<uint32_t> m_ackBegin;  ///< per link: its ACK streams in m_ackValue/m_ackWeight
    std::vector<uint32_t> m_ackValue;  ///< where each ACK stream's data rate is in m_value
    std::vector<double> m_ackWeight;   ///< its ACK weight
    /// the closure's rates of the pass before (its first n entries, flow i at i), then the rates
    /// of the flows outside it whose ACKs cross its links (fixed during the solve)
    std::vector<double> m_value;
    std::vector<std::pair<double, uint32_t>> m_caps; ///< (cap, flow) of capped flows, ascending
    // Fill's per-pass state
    std::vector<double> m_next;       ///< per flow: its rate from this pass
    std::vector<uint8_t> m_frozen;    ///< per flow: its rate is set
    std::vector<double> m_remaining;  ///< per link: capacity left to its unfrozen flows
    std::vector<double> m_weights;    ///< per link: the weights of its unfrozen flows
    std::vector<uint32_t> m_round;    ///< per link: the round that last touched it
    std::vector<uint32_t> m_touched;  ///< links touched in this round
    std::vector<double> m_weightsAll; ///< per link: every closure flow's weight on it
    std::vector<double> m_capacity;   ///< per link: its capacity
    bool m_alone = false;             ///< no link of the closure carries two data uses (Collect)
    ShareQueue m_queue;               ///< the links by share
    std::vector<uint8_t> m_pending;   ///< per link: its share rose above its key (Fill)
    std::vector<double> m_share;      ///< per link: that share
    std::vector<uint32_t> m_pendingList;
    std::vector<uint32_t> m_ownLink; ///< per flow: its least link carrying no other flow's data
    std::vector<double> m_ownShare;  ///< that link's share
    std::vector<std::pair<double, uint32_t>> m_capsSorted; ///< SortCaps' scratch
    std::vector<uint32_t> m_stack;                         ///< Collect's links to visit
};

inline void
MaxMinSolver::Account(Link& l, double nowPs)
{
    double from = std::max(l.lastPs, m_accountFromPs);
    if (nowPs > from && l.load > 0)
    {
        l.carriedBits += l.load * (nowPs - from) * 1e-12;
    }
    l.lastPs = std::max(l.lastPs, nowPs);
}

inline void
MaxMinSolver::Advance(Flow& f, double nowPs)
{
    if (nowPs > f.lastPs)
    {
        f.sentBits += f.rate * (nowPs - f.lastPs) * 1e-12;
        f.lastPs = nowPs;
    }
}

} // namespace flow
} // namespace fabric

#endif
