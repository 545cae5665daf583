/*
 * The reliability layer of an RDMA NIC (nic.transport), swappable by TypeId like the congestion
 * control: which PSN a QP sends next, what the receiver does with a DATA frame (acknowledge,
 * reorder, deliver), what an ACK or NACK does to the sender and what a retransmission timeout
 * does. The NIC keeps everything the transports share: round-robin over QPs, rate pacing, the
 * DCQCN notification point, PFC, the QP-context cache.
 */
#ifndef FABRIC_TRANSPORT_H
#define FABRIC_TRANSPORT_H

#include "model/fabric-context.h"
#include "model/roce-packet.h"

#include "ns3/object.h"

#include <cstdint>
#include <string>

namespace fabric
{

class RdmaNic;

class Transport : public ns3::Object
{
  public:
    static ns3::TypeId GetTypeId();

    /** Maps the scenario's nic.transport ("rc", "xrc", "sprayed", "erd") to a TypeId name. */
    static std::string TypeIdNameFor(const std::string& transport);

    void Attach(RdmaNic* nic, FabricContext* ctx);

    /** The QP has a packet it may send now (window and retransmissions considered). */
    virtual bool CanSend(const FlowState& f) const = 0;
    /**
     * Picks the PSN of the next DATA frame of the QP and advances the sender state.
     * retransmit: whether that PSN was sent before.
     */
    virtual uint64_t NextPsn(FlowState& f, int64_t now, bool& retransmit) = 0;
    /** The UDP source port of a DATA frame (ECMP entropy): one per QP unless sprayed. */
    virtual uint16_t SourcePort(const FlowState& f, uint64_t psn) const = 0;
    /** Receiver: a DATA frame arrived (after the NIC's ECN handling). */
    virtual void OnData(FlowState& f, const RocePacket& p, int64_t now) = 0;
    /** Sender: an ACK or NACK arrived. Returns true when every packet is acknowledged. */
    virtual bool OnAck(FlowState& f, const RocePacket& p, bool nack, int64_t now) = 0;
    /** Sender: no progress for an RTO with packets outstanding. */
    virtual void OnTimeout(FlowState& f, int64_t now) = 0;
    /**
     * Receiver: the header of DATA frame p.psn arrived, its payload cut by a switch
     * (switch.trimming). Default: nothing (the transport's loss recovery finds the gap).
     */
    virtual void OnTrimmed(FlowState& f, const RocePacket& p, int64_t now);
    /** Sender: the QP finished or the NIC is disposed (free per-QP state). */
    virtual void OnRetire(uint32_t flow);
    /** Header bytes a DATA frame carries beyond nic.header_bytes (ERD's RD headers and EETH). */
    virtual uint32_t ExtraHeaderBytes() const;

    /**
     * QP contexts a NIC needs to reach every process of every other host: hosts N, processes
     * per host p (docs/model.md, "Transports").
     */
    virtual uint64_t QpsPerNic(uint64_t hosts, uint64_t processes) const = 0;
    /** The QP context a send of this flow needs (the key of the NIC's QP-context cache). */
    virtual uint64_t ContextKey(const FlowSpec& spec, uint32_t processes) const = 0;
    virtual std::string GetName() const = 0;

  protected:
    void DoDispose() override;
    /** Counts payload delivered in order to the host, completes the flow at its last byte. */
    void Deliver(FlowState& f, const RocePacket& p, uint32_t payload, int64_t now);
    /** Delivery reached f.rxMarkPkt: completes the flow, or a connection's messages. */
    __attribute__((noinline, cold)) void ReachedMark(FlowState& f, int64_t now);
    /** Queues an ACK/NACK toward the sender of f; sack: a selectively acknowledged PSN + 1. */
    void SendAck(FlowState& f, PacketKind kind, uint64_t cumulative, uint32_t sack = 0);

    RdmaNic* m_nic = nullptr;
    FabricContext* m_ctx = nullptr;
};

} // namespace fabric

#endif
