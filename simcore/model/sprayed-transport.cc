#include "model/sprayed-transport.h"
#include "common/ecmp-hash.h"

#include "model/rdma-nic.h"

#include <algorithm>
#include <cmath>

namespace fabric
{

NS_OBJECT_ENSURE_REGISTERED(SprayedTransport);

ns3::TypeId
SprayedTransport::GetTypeId()
{
    static ns3::TypeId tid = ns3::TypeId("fabric::SprayedTransport")
                                 .SetParent<Transport>()
                                 .SetGroupName("Fabric")
                                 .AddConstructor<SprayedTransport>();
    return tid;
}

uint32_t
SprayedTransport::FlowIndex(const FlowState& f) const
{
    return static_cast<uint32_t>(&f - m_ctx->flows.data());
}

uint64_t
SprayedTransport::WindowPackets(const FlowState& f) const
{
    // Never more in flight than the receiver can hold out of order.
    return std::min<uint64_t>(f.windowPkts, m_nic->Config().reorderWindowPackets);
}

bool
SprayedTransport::CanSend(const FlowState& f) const
{
    auto it = m_senders.find(FlowIndex(f));
    if (it != m_senders.end() && !it->second.retx.empty())
    {
        return true;
    }
    return f.sndNxt < f.totalPkts && f.sndNxt - f.sndUna < WindowPackets(f);
}

uint64_t
SprayedTransport::NextPsn(FlowState& f, int64_t now, bool& retransmit)
{
    Sender& s = m_senders[FlowIndex(f)];
    if (f.sndUna == f.sndNxt)
    {
        f.lastProgressPs = now; // the RTO clock starts with the first outstanding packet
    }
    while (!s.retx.empty())
    {
        uint64_t psn = s.retx.front();
        s.retx.pop_front();
        if (psn >= f.sndUna && psn < f.sndNxt && s.status[psn - f.sndUna] == QUEUED)
        {
            s.status[psn - f.sndUna] = OUTSTANDING;
            s.sentPs[psn - f.sndUna] = now;
            retransmit = true;
            return psn;
        }
    }
    if (f.sndNxt < f.totalPkts && f.sndNxt - f.sndUna < WindowPackets(f))
    {
        uint64_t psn = f.sndNxt++;
        s.status.push_back(OUTSTANDING);
        s.sentPs.push_back(now);
        retransmit = psn < f.maxSent;
        f.maxSent = std::max(f.maxSent, f.sndNxt);
        return psn;
    }
    // Only stale retransmissions were queued (their packets were SACKed meanwhile): resend the
    // oldest unacknowledged packet, which is harmless and keeps the NIC's contract.
    retransmit = true;
    return f.sndUna;
}

uint16_t
SprayedTransport::SourcePort(const FlowState& f, uint64_t psn) const
{
    // A distinct source port per packet (within the dynamic range), so ECMP spreads them.
    return SprayedSourcePort(f.spec->udpSrcPort, psn);
}

void
SprayedTransport::OnData(FlowState& f, const RocePacket& p, int64_t now)
{
    Receiver& r = m_receivers[p.flow];
    uint64_t window = m_nic->Config().reorderWindowPackets;
    uint64_t psn = p.psn;
    bool inOrder = psn == f.expected;
    if (psn < f.expected)
    {
        SendAck(f, PacketKind::ACK, f.expected, static_cast<uint32_t>(psn + 1)); // duplicate
        return;
    }
    if (psn >= f.expected + window)
    {
        return; // beyond the reorder buffer: dropped here, the sender retransmits it
    }
    size_t idx = static_cast<size_t>(psn - f.expected);
    if (r.have.size() <= idx)
    {
        r.have.resize(idx + 1, 0);
    }
    if (!r.have[idx])
    {
        r.have[idx] = 1;
        while (!r.have.empty() && r.have.front())
        {
            r.have.pop_front();
            ++f.expected;
            Deliver(f, p, f.Payload(f.expected - 1), now);
        }
    }
    bool last = f.expected == f.rxEndPkt;
    if (!inOrder || last || ++f.ackCounter >= m_nic->Config().sackIntervalPackets)
    {
        f.ackCounter = 0;
        SendAck(f, PacketKind::ACK, f.expected, static_cast<uint32_t>(psn + 1));
    }
    if (last)
    {
        m_receivers.erase(p.flow);
    }
}

void
SprayedTransport::OnTrimmed(FlowState& f, const RocePacket& p, int64_t /* now */)
{
    // Ask for exactly that packet again: a NACK naming it (in the SACK slot).
    if (p.psn >= f.expected)
    {
        SendAck(f, PacketKind::NACK, f.expected, static_cast<uint32_t>(p.psn + 1));
    }
}

bool
SprayedTransport::OnAck(FlowState& f, const RocePacket& p, bool nack, int64_t now)
{
    Sender& s = m_senders[FlowIndex(f)];
    if (nack)
    {
        // a trimmed packet's NACK: resend the PSN it names now, once
        uint64_t psn = p.payload > 0 ? p.payload - 1 : f.sndNxt;
        if (psn >= f.sndUna && psn < f.sndNxt && s.status[psn - f.sndUna] == OUTSTANDING)
        {
            s.status[psn - f.sndUna] = QUEUED;
            s.retx.push_back(psn);
        }
        return f.sndUna >= f.totalPkts;
    }
    uint64_t cumulative = p.psn;
    int64_t latestRttPs = -1; // RTT of the packet this ACK reports (its latest transmission)
    if (cumulative > f.sndUna && cumulative <= f.sndNxt)
    {
        latestRttPs = now - s.sentPs[cumulative - 1 - f.sndUna];
        size_t n = static_cast<size_t>(cumulative - f.sndUna);
        s.status.erase(s.status.begin(), s.status.begin() + n);
        s.sentPs.erase(s.sentPs.begin(), s.sentPs.begin() + n);
        f.sndUna = cumulative;
        f.lastProgressPs = now;
    }
    if (p.payload > 0)
    {
        uint64_t sacked = p.payload - 1;
        if (sacked >= f.sndUna && sacked < f.sndNxt)
        {
            s.status[sacked - f.sndUna] = SACKED;
            latestRttPs = now - s.sentPs[sacked - f.sndUna];
            f.lastProgressPs = now;
        }
        s.highestSacked = std::max(s.highestSacked, sacked + 1);
    }
    if (latestRttPs >= 0)
    {
        s.minRttPs = std::min(s.minRttPs, latestRttPs);
        double sample = static_cast<double>(latestRttPs);
        if (s.srttPs < 0)
        {
            s.srttPs = sample;
            s.rttVarPs = sample / 2;
        }
        else
        {
            s.rttVarPs = 0.75 * s.rttVarPs + 0.25 * std::abs(s.srttPs - sample);
            s.srttPs = 0.875 * s.srttPs + 0.125 * sample;
        }
        DetectLosses(f, s, latestRttPs, now);
    }
    return f.sndUna >= f.totalPkts;
}

void
SprayedTransport::DetectLosses(FlowState& f, Sender& s, int64_t latestRttPs, int64_t now)
{
    // Only holes below a SACKed packet can be lost (nothing later has arrived past the others);
    // the scan is bounded by the reorder window.
    int64_t deadlinePs = std::max(latestRttPs + s.minRttPs / 4,
                                  static_cast<int64_t>(s.srttPs + 4 * s.rttVarPs));
    uint64_t end = std::min(s.highestSacked, f.sndNxt);
    for (uint64_t psn = f.sndUna; psn < end; ++psn)
    {
        size_t i = static_cast<size_t>(psn - f.sndUna);
        if (s.status[i] == OUTSTANDING && now - s.sentPs[i] > deadlinePs)
        {
            s.status[i] = QUEUED;
            s.retx.push_back(psn);
        }
    }
}

void
SprayedTransport::OnTimeout(FlowState& f, int64_t /* now */)
{
    ++f.timeouts;
    Sender& s = m_senders[FlowIndex(f)];
    s.retx.clear();
    for (uint64_t psn = f.sndUna; psn < f.sndNxt; ++psn)
    {
        uint8_t& st = s.status[psn - f.sndUna];
        if (st != SACKED)
        {
            st = QUEUED;
            s.retx.push_back(psn);
        }
    }
}

void
SprayedTransport::OnRetire(uint32_t flow)
{
    m_senders.erase(flow);
}

uint64_t
SprayedTransport::QpsPerNic(uint64_t hosts, uint64_t processes) const
{
    return hosts > 0 ? (hosts - 1) * processes * processes : 0; // connected, like RC
}

uint64_t
SprayedTransport::ContextKey(const FlowSpec& spec, uint32_t /* processes */) const
{
    return spec.id;
}

std::string
SprayedTransport::GetName() const
{
    return "sprayed";
}

} // namespace fabric
