#include "model/erd-transport.h"
#include "common/ecmp-hash.h"

#include "model/rdma-nic.h"

#include "ns3/simulator.h"

#include <algorithm>

namespace fabric
{

NS_OBJECT_ENSURE_REGISTERED(ErdTransport);

namespace
{
constexpr double kAutoNackIntervalRtts = 2.5; ///< the paper's "2 to 3 RTTs"
constexpr int64_t kMinNackIntervalPs = 100000; ///< 0.1 us: a scan per event at most so often
} // namespace

ns3::TypeId
ErdTransport::GetTypeId()
{
    static ns3::TypeId tid = ns3::TypeId("fabric::ErdTransport")
                                 .SetParent<Transport>()
                                 .SetGroupName("Fabric")
                                 .AddConstructor<ErdTransport>();
    return tid;
}

uint32_t
ErdTransport::FlowIndex(const FlowState& f) const
{
    return static_cast<uint32_t>(&f - m_ctx->flows.data());
}

uint64_t
ErdTransport::PacketsPerMessage(const FlowState& f) const
{
    uint64_t bytes = std::max<uint64_t>(1, f.spec->messageBytes);
    return std::max<uint64_t>(1, (bytes + f.mtu - 1) / f.mtu);
}

int64_t
ErdTransport::NackIntervalPs(const FlowState& f) const
{
    double us = m_nic->Config().erdNackIntervalUs;
    // auto: 2.5 RTTs of the path as measured (queueing included, the paper's RTT Detector),
    // never less than the idle path's: a fixed multiple of the base RTT would take packets
    // queued behind an incast for lost.
    double rttPs = std::max(static_cast<double>(f.baseRttPs), f.smoothedRttPs);
    int64_t ps = us > 0 ? static_cast<int64_t>(us * 1e6 + 0.5)
                        : static_cast<int64_t>(kAutoNackIntervalRtts * rttPs);
    return std::max(ps, kMinNackIntervalPs);
}

uint16_t
ErdTransport::PathPort(uint16_t base, uint32_t k)
{
    return ErdPathPort(base, k);
}

bool
ErdTransport::CanSend(const FlowState& f) const
{
    auto it = m_senders.find(FlowIndex(f));
    if (it != m_senders.end() && !it->second.retry.empty())
    {
        return true;
    }
    return f.sndNxt < f.totalPkts && f.sndNxt - f.sndUna < f.windowPkts;
}

uint64_t
ErdTransport::NextPsn(FlowState& f, int64_t now, bool& retransmit)
{
    Sender& s = m_senders[FlowIndex(f)];
    if (f.sndUna == f.sndNxt)
    {
        f.lastProgressPs = now; // the RTO clock starts with the first unacknowledged packet
    }
    // The retry queue first: it holds only PSNs in [sndUna, sndNxt) (OnAck drops the rest).
    if (!s.retry.empty())
    {
        uint64_t psn = s.retry.front();
        s.retry.pop_front();
        size_t i = static_cast<size_t>(psn - f.sndUna);
        s.queued[i] = RESENT;
        s.sentPs[i] = now;
        retransmit = true;
        m_lastWasRetry = true;
        return psn;
    }
    uint64_t psn = f.sndNxt++;
    s.sentPs.push_back(now);
    s.queued.push_back(0);
    retransmit = psn < f.maxSent;
    f.maxSent = std::max(f.maxSent, f.sndNxt);
    m_lastWasRetry = retransmit;
    return psn;
}

uint16_t
ErdTransport::SourcePort(const FlowState& f, uint64_t psn) const
{
    uint32_t paths = std::max<uint32_t>(1, m_nic->Config().erdPaths);
    // Packets of a QP take the paths in turn; a retransmission takes the next one, away from
    // the path that lost it.
    uint32_t k = static_cast<uint32_t>((psn + (m_lastWasRetry ? 1 : 0)) % paths);
    return PathPort(f.spec->udpSrcPort, k);
}

uint32_t
ErdTransport::ExtraHeaderBytes() const
{
    return kErdExtraHeaderBytes;
}

void
ErdTransport::OnData(FlowState& f, const RocePacket& p, int64_t now)
{
    uint64_t psn = p.psn;
    if (psn < f.expected)
    {
        // Its message was delivered: a late copy. Repeat the ACK (the last one may be lost).
        ++f.erd.duplicates;
        SendAck(f, PacketKind::ACK, f.expected);
        return;
    }
    Receiver& r = m_receivers[p.flow];
    size_t idx = static_cast<size_t>(psn - f.expected);
    if (r.have.size() <= idx)
    {
        r.have.resize(idx + 1, 0);
    }
    if (r.have[idx])
    {
        ++f.erd.duplicates;
        return;
    }
    r.have[idx] = 1;
    ++r.held;
    r.arrivedSinceScan = true;
    if (psn + 1 < r.highest)
    {
        ++f.erd.outOfOrder;
    }
    r.highest = std::max(r.highest, psn + 1);
    f.erd.maxReorderPackets = std::max(f.erd.maxReorderPackets, r.held);
    while (r.leading < r.have.size() && r.have[r.leading])
    {
        ++r.leading;
    }
    if (DeliverCompleteMessages(f, r, p, now))
    {
        // The ACK names the packet whose arrival completed the delivery (PSN + 1): the sender
        // takes its RTT from that packet, which arrived just now, not from a packet that may
        // have waited behind a hole.
        SendAck(f, PacketKind::ACK, f.expected, static_cast<uint32_t>(psn + 1));
    }
    if (f.expected >= f.rxEndPkt)
    {
        m_receivers.erase(p.flow); // every message delivered: the scan chain ends
        return;
    }
    if (!r.scanPending)
    {
        r.scanPending = true;
        ns3::Simulator::Schedule(ns3::PicoSeconds(NackIntervalPs(f)), &ErdTransport::Scan, this,
                                 p.flow);
    }
}

bool
ErdTransport::DeliverCompleteMessages(FlowState& f, Receiver& r, const RocePacket& p, int64_t now)
{
    uint64_t perMessage = PacketsPerMessage(f);
    bool any = false;
    while (f.expected < f.rxEndPkt)
    {
        // The head message (Msg_ID = expected / perMessage) ends at the next boundary, or
        // where a connection's message ends.
        uint64_t end = std::min(f.MessageEndAfter(f.expected),
                                (f.expected / perMessage + 1) * perMessage);
        uint64_t n = end - f.expected;
        if (r.leading < n)
        {
            break;
        }
        r.have.erase(r.have.begin(), r.have.begin() + static_cast<std::ptrdiff_t>(n));
        r.leading -= n;
        r.held -= n;
        for (uint64_t i = 0; i < n; ++i)
        {
            ++f.expected;
            Deliver(f, p, f.Payload(f.expected - 1), now);
        }
        any = true;
    }
    return any;
}

void
ErdTransport::Scan(uint32_t flow)
{
    auto it = m_receivers.find(flow);
    if (it == m_receivers.end())
    {
        return;
    }
    Receiver& r = it->second;
    FlowState& f = m_ctx->flows[flow];
    r.scanPending = false;
    // Packets below the highest seen at the previous scan, still missing: overtaken at least T
    // ago, taken for lost. Each run of them is one NACK (first PSN, count).
    uint64_t lateEnd = r.highestAtScan > f.expected ? r.highestAtScan - f.expected : 0;
    uint64_t runStart = 0;
    uint64_t runLength = 0;
    auto flush = [&]() {
        if (runLength > 0)
        {
            ++f.erd.nacksSent;
            f.erd.packetsNacked += runLength;
            SendAck(f, PacketKind::NACK, f.expected + runStart,
                    static_cast<uint32_t>(std::min<uint64_t>(runLength, UINT32_MAX)));
            runLength = 0;
        }
    };
    for (uint64_t i = 0; i < lateEnd; ++i)
    {
        bool missing = i >= r.have.size() || !r.have[i];
        if (missing && runLength == 0)
        {
            runStart = i;
        }
        if (missing)
        {
            ++runLength;
        }
        else
        {
            flush();
        }
    }
    flush();
    if (!r.arrivedSinceScan && r.highest < f.rxEndPkt)
    {
        // Silence for a whole T: the tail after the highest packet seen may be lost. The
        // sender resends only what it sent at least T ago.
        ++f.erd.nacksSent;
        uint64_t tail = std::min<uint64_t>(f.rxEndPkt - r.highest, UINT32_MAX);
        SendAck(f, PacketKind::NACK, r.highest, static_cast<uint32_t>(tail));
    }
    r.highestAtScan = r.highest;
    r.arrivedSinceScan = false;
    r.scanPending = true;
    ns3::Simulator::Schedule(ns3::PicoSeconds(NackIntervalPs(f)), &ErdTransport::Scan, this, flow);
}

void
ErdTransport::QueueRetry(Sender& s, const FlowState& f, uint64_t psn)
{
    size_t i = static_cast<size_t>(psn - f.sndUna);
    if (!(s.queued[i] & QUEUED))
    {
        s.queued[i] |= QUEUED;
        s.retry.push_back(psn);
    }
}

bool
ErdTransport::OnAck(FlowState& f, const RocePacket& p, bool nack, int64_t now)
{
    Sender& s = m_senders[FlowIndex(f)];
    if (!nack)
    {
        uint64_t cumulative = p.psn;
        if (cumulative > f.sndUna && cumulative <= f.sndNxt)
        {
            size_t n = static_cast<size_t>(cumulative - f.sndUna);
            uint64_t trigger = p.payload > 0 ? p.payload - 1 : UINT64_MAX;
            if (trigger >= f.sndUna && trigger < cumulative &&
                !(s.queued[trigger - f.sndUna] & RESENT))
            {
                // An RTT sample from the packet whose arrival completed the delivery (Karn:
                // never from a resent one), smoothed as RFC 6298's SRTT.
                double sample = static_cast<double>(now - s.sentPs[trigger - f.sndUna]);
                f.smoothedRttPs = f.smoothedRttPs > 0 ? 0.875 * f.smoothedRttPs + 0.125 * sample
                                                      : sample;
            }
            s.sentPs.erase(s.sentPs.begin(), s.sentPs.begin() + static_cast<std::ptrdiff_t>(n));
            s.queued.erase(s.queued.begin(), s.queued.begin() + static_cast<std::ptrdiff_t>(n));
            f.sndUna = cumulative;
            f.lastProgressPs = now;
            s.retry.erase(std::remove_if(s.retry.begin(), s.retry.end(),
                                         [&](uint64_t psn) { return psn < cumulative; }),
                          s.retry.end());
        }
        return f.sndUna >= f.totalPkts;
    }
    // A NACK names a run [psn, psn + count). A copy younger than T may still be in flight.
    f.lastProgressPs = now; // the receiver is alive and says what it misses
    int64_t minAgePs = NackIntervalPs(f);
    uint64_t first = std::max<uint64_t>(p.psn, f.sndUna);
    uint64_t end = std::min<uint64_t>(static_cast<uint64_t>(p.psn) + p.payload, f.sndNxt);
    for (uint64_t psn = first; psn < end; ++psn)
    {
        if (now - s.sentPs[psn - f.sndUna] >= minAgePs)
        {
            QueueRetry(s, f, psn);
        }
    }
    return f.sndUna >= f.totalPkts;
}

void
ErdTransport::OnTimeout(FlowState& f, int64_t /* now */)
{
    ++f.timeouts;
    if (f.sndNxt > f.sndUna)
    {
        QueueRetry(m_senders[FlowIndex(f)], f, f.sndNxt - 1); // the tail probe
    }
}

void
ErdTransport::OnRetire(uint32_t flow)
{
    m_senders.erase(flow);
}

uint64_t
ErdTransport::QpsPerNic(uint64_t /* hosts */, uint64_t processes) const
{
    return processes; // one RD QP per process reaches every process of every host
}

uint64_t
ErdTransport::ContextKey(const FlowSpec& spec, uint32_t processes) const
{
    return processes > 0 ? spec.srcProcess % processes : 0; // the sending process's one QP
}

std::string
ErdTransport::GetName() const
{
    return "erd";
}

} // namespace fabric
