"""docs/presets.md sections 2 and 13, labs 2 and 5: RC over distance (NTT, seeds/002), queue
depth = BDP and the RDMA WAN accelerator."""

import math

from validation.figures.core import case, figure, thr

LINE = 100 * 4096 / 4178  # goodput ceiling at 100G with MTU 4096: 98.04 Gbit/s


def rtt_us(km: float, mtu: int = 4096) -> float:
    """Base RTT a-h0 -> b-h0: 7 hops of 100G, 6 us of site links and 5 us/km, each way."""
    return 2 * (5 * km + 6) + 7 * (mtu + 82 + 86) * 8 / 100e3


def whole_rtts(km: float, rounds: int | None = None) -> dict:
    """A window-limited stream delivers one burst per RTT: warm up one RTT, measure whole RTTs
    (as backend/tests/test_presets_physics.py measures the other distances)."""
    rtt = rtt_us(km)
    rounds = rounds or max(2, math.ceil(4000 / rtt))
    duration = round(rtt * (rounds + 1), 3)
    return {"warmup_us": round(rtt, 3), "duration_us": duration,
            "monitor.sample_interval_us": duration / 1000}


# -- section 2: dci-100km-perftest -------------------------------------------------------------

P = "dci-100km-perftest"
BIG = {"topology.dci_buffer_bytes": 300_000_000}  # 1000 km: 125 MB of PFC headroom per edge
SECTION2 = {
    "10km": case("dci.10km", P, patch={"topology.length_km": 10, **whole_rtts(10)}),
    "100km": case("dci.preset", P),
    "1000km": case("dci.1000km", P, patch={"topology.length_km": 1000, **BIG,
                                          **whole_rtts(1000)}),
    "100km-qd2991": case("dci.qd2991", P, patch={"traffic.0.tx_depth": 2991, **whole_rtts(100)}),
    "10km-qd2991": case("dci.10km-qd2991", P, patch={"topology.length_km": 10,
                                                     "traffic.0.tx_depth": 2991,
                                                     **whole_rtts(10)}),
}
for row, c in SECTION2.items():
    figure(f"dci.{row}.goodput", c, thr, 2 if "qd2991" in row else 3, "Gbit/s after warm-up")

# lab 2: the preset with tx_depth 2991 as the student runs it (the preset's own window), and
# the preset measured from 1500 us instead of 1000 us (the window no longer holds whole RTTs)
figure("dci.lab.qd2991", case("dci.lab-qd2991", P, traffic__0__tx_depth=2991), thr, 1)
figure("dci.lab.warmup1500_pct", (case("dci.warmup1500", P, warmup_us=1500), SECTION2["100km"]),
       lambda late, preset: 100 * abs(thr(late) / thr(preset) - 1), 0,
       "how far the figure moves, %")


# -- section 13: ntt-dci-distance (the preset's comparison) ------------------------------------

N = "ntt-dci-distance"
MESSAGES = (256, 512, 1024, 2048, 4096, 8192, 16384, 32768, 65536)
WAYS = ("qd92", "bdp", "accel")


def ntt_point(km: int, message: int, way: str) -> dict:
    """One point of the preset's comparison, with its linked warm-up and duration."""
    return {"nic.qp_depth": "bdp" if way == "bdp" else 92,
            "topology.accelerator.enabled": way == "accel",
            "topology.length_km": km, "traffic.0.message_bytes": message,
            "warmup_us": 10 * km + 14.39, "duration_us": 50 * km + 71.95}


def ntt_hand(km: int, message: int, way: str) -> float:
    """The hand figure of section 13 (only to choose the stated digits: 3 significant)."""
    window = math.ceil(92 * message / 4096) * 4096 * 8
    if way == "qd92":
        return min(LINE, window / (rtt_us(km) * 1e3))
    if way == "accel":
        return min(LINE, window / (7.023 * 1e3))
    wire = message + math.ceil(message / 4096) * 82
    if rtt_us(km) * 100e3 / 8 / wire > 65536:
        return 65536 * message * 8 / (rtt_us(km) * 1e3)
    return min(LINE, 100 * message / wire)


def digits3(value: float) -> int:
    """Three significant figures; the line rate (98.04) as 98."""
    return 0 if value > 97.5 else max(0, 2 - math.floor(math.log10(value)))


NTT = {}
for km in (10, 100, 1000):
    for message in MESSAGES:
        for way in WAYS:
            c = case(f"ntt.{km}km.{message}.{way}", N, patch=ntt_point(km, message, way))
            NTT[km, message, way] = c
            figure(f"ntt.{km}km.{message}.{way}", c, thr, digits3(ntt_hand(km, message, way)),
                   "Gbit/s")
for message in MESSAGES:
    figure(f"ntt.100km.{message}.gain", (NTT[100, message, "accel"], NTT[100, message, "qd92"]),
           lambda accel, plain: thr(accel) / thr(plain), 0, "accelerator / QD 92 at 100 km")
figure("ntt.preset.goodput", NTT[100, 4096, "qd92"], thr, 3, "the preset as it is")


def edge(r: dict, name: str = "a-dci") -> dict:
    return r["dci_accelerator"]["edges"][name]


# lab 5, section 5: the lab's 512-byte stream with an accelerator buffer of 1 MB
figure("ntt.lab.buffer1mb", case("ntt.lab-buffer1mb", N, patch={
    **ntt_point(100, 512, "accel"), "topology.accelerator.buffer_bytes": 1_000_000}), thr, 1)


# -- simcore/test/model-dci-distance-test.cc's scenarios (section 13 "Tests", lab 5) -----------

def dci_doc(km: float, qp_depth, message: int, mtu: int, duration: float, warmup: float) -> dict:
    """The C++ test's DciDoc: a perftest stream a-h0 -> b-h0, no CC, an RTO far above the RTT."""
    return {
        "schema_version": 1, "seed": 1, "duration_us": duration, "warmup_us": warmup,
        "topology": {"kind": "dci", "site": {"leaves": 1, "spines": 1, "hosts_per_leaf": 1,
                                             "link_delay_us": 1},
                     "length_km": km, "dci_buffer_bytes": 300_000_000},
        "nic": {"mtu_bytes": mtu, "rto_us": 1_000_000, "qp_depth": qp_depth,
                "cc": {"algorithm": "none"}},
        "traffic": [{"kind": "perftest", "src": "a-h0", "dst": "b-h0",
                     "message_bytes": message}],
        "monitor": {"sample_interval_us": duration / 20}}


def window_doc(km: float, qp_depth, message: int, mtu: int, rtt: float, rounds: int) -> dict:
    return dci_doc(km, qp_depth, message, mtu, rtt * (rounds + 1), rtt)


R100 = rtt_us(100)
figure("ntt.test.bdp_line", case("ntt.test-bdp", scenario=lambda: window_doc(
    100, "bdp", 4096, 4096, R100, 3)), thr, 2, "bdp at 100 km, 4096-byte messages")

SMALL_RTT = rtt_us(100, 512)
SMALL_PLAIN = case("ntt.test-512-plain", scenario=lambda: window_doc(100, 16, 512, 512,
                                                                     SMALL_RTT, 4))
SMALL_ACCEL = case("ntt.test-512-accel", topology__accelerator={"enabled": True},
                   scenario=lambda: window_doc(100, 16, 512, 512, SMALL_RTT, 4))
figure("ntt.test.mtu512", SMALL_PLAIN, thr, 4, "MTU 512, QD 16, 100 km, Gbit/s")
figure("ntt.test.mtu512_accel", SMALL_ACCEL, thr, 2)
figure("ntt.test.mtu512_gain", (SMALL_ACCEL, SMALL_PLAIN), lambda a, p: thr(a) / thr(p), 0)

for mb in (1, 4, 8):
    figure(f"ntt.test.buffer{mb}mb",
           case(f"ntt.test-buffer{mb}mb", topology__accelerator={
               "enabled": True, "buffer_bytes": mb * 1_000_000},
               scenario=lambda: dci_doc(100, 92, 4096, 4096, 20 * R100, 10 * R100)),
           thr, 2 if mb == 1 else 1, f"{mb} MB accelerator buffer, Gbit/s")


def loss_doc() -> dict:
    doc = dci_doc(100, 92, 4096, 4096, 20000, 0)
    doc["traffic"][0]["iterations"] = 4000  # 16 MB
    doc["faults"] = [{"kind": "loss", "start_us": 0, "link": "a-dci->b-dci", "direction": "one",
                      "rate": 0.001}]
    doc["topology"]["accelerator"] = {"enabled": True}
    return doc


LOSS = case("ntt.test-loss", scenario=loss_doc)
figure("ntt.loss.lost", LOSS, lambda r: r["summary"]["counters"]["whole_run"]["drops"]["link_loss"],
       0, "frames the long link lost")
figure("ntt.loss.sender_retx", LOSS, lambda r: r["summary"]["retransmitted_packets"], 0)
figure("ntt.loss.edge_resent", LOSS, lambda r: edge(r)["retransmitted_packets"], 0)
figure("ntt.loss.resent_per_lost", LOSS, lambda r: edge(r)["retransmitted_packets"]
       / r["summary"]["counters"]["whole_run"]["drops"]["link_loss"], 0)
