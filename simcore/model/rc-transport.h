/*
 * RC (reliable connection) and XRC: PSN order, cumulative ACK every ack_interval_packets,
 * one NACK per gap, go-back-N on NACK and on retransmission timeout. A receiver drops every
 * frame out of order (no reorder buffer): one loss costs about one bandwidth-delay product.
 * XRC has RC's wire behaviour; it only shares send contexts: one per (destination host,
 * process) instead of one per (process, remote process).
 */
#ifndef FABRIC_RC_TRANSPORT_H
#define FABRIC_RC_TRANSPORT_H

#include "model/transport.h"

namespace fabric
{

class RcTransport : public Transport
{
  public:
    static ns3::TypeId GetTypeId();

    /** The go-back-N window test, inline so the NIC's per-packet loop needs no virtual call. */
    static bool CanSendRc(const FlowState& f)
    {
        return f.sndNxt < f.totalPkts && f.sndNxt - f.sndUna < f.windowPkts;
    }

    bool CanSend(const FlowState& f) const override;
    uint64_t NextPsn(FlowState& f, int64_t now, bool& retransmit) override;
    uint16_t SourcePort(const FlowState& f, uint64_t psn) const override;
    void OnData(FlowState& f, const RocePacket& p, int64_t now) override;
    bool OnAck(FlowState& f, const RocePacket& p, bool nack, int64_t now) override;
    void OnTimeout(FlowState& f, int64_t now) override;
    void OnTrimmed(FlowState& f, const RocePacket& p, int64_t now) override;
    uint64_t QpsPerNic(uint64_t hosts, uint64_t processes) const override;
    uint64_t ContextKey(const FlowSpec& spec, uint32_t processes) const override;
    std::string GetName() const override;
};

class XrcTransport : public RcTransport
{
  public:
    static ns3::TypeId GetTypeId();

    uint64_t QpsPerNic(uint64_t hosts, uint64_t processes) const override;
    uint64_t ContextKey(const FlowSpec& spec, uint32_t processes) const override;
    std::string GetName() const override;
};

} // namespace fabric

#endif
