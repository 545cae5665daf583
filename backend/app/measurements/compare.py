"""Measured against simulated, point by point, and what the model leaves out that may explain a
difference of more than THRESHOLD (docs/real-fabric.md, "Measured against simulated")."""

from dataclasses import dataclass
from typing import Any

from app.measurements.perftest import LATENCY_ROUND_TRIPS

THRESHOLD = 0.10            # |simulated / measured - 1| above this is marked
SMALL_MESSAGE_BYTES = 65536  # below 64 KiB NCCL's protocols and latencies dominate

REASONS = {
    "small_message": "below 64 KiB, NCCL's LL and LL128 protocols and its kernel launch and "
                     "proxy latencies set the time; the model moves the bytes over RDMA and "
                     "leaves those out",
    "rank_count": "the measurement ran a different number of ranks than the simulated job",
    "above_ideal": "the measured bus bandwidth is above the most the scenario's algorithm can "
                   "reach on its fabric: in-network reduction (NVLS, SHARP) or another NCCL "
                   "algorithm than the scenario's",
    "host_limits": "the model leaves out GPU memory, PCIe and NIC processing limits, which "
                   "cap real bandwidth below the links'",
    "not_completed": "the simulated operation did not complete within the run's duration",
    "data_errors": "the measurement reported wrong data (#wrong > 0) at this size",
    "noisy_measurement": "out of place and in place differ by more than 10 % in the "
                         "measurement itself",
    "nic_latency": "the model's latency is the links' propagation and serialization only: the "
                   "NIC's doorbell, WQE fetch and PCIe round trips and the switch pipeline are "
                   "left out",
    "channels": "NCCL runs several channels (rings or trees) over each NIC at once; with fewer "
                "channels the scenario's collective leaves links idle between its steps",
    "link_delays": "the scenario's link delays may be longer than the real cables (1 us is 200 m "
                   "of fibre), and every step of the collective waits for them",
    "one_message_window": "a message smaller than an MTU: the NIC's message rate, not the "
                          "link, limits real bandwidth",
}


@dataclass
class Point:
    size_bytes: int
    measured: float | None
    simulated: float | None
    measured_in_place: float | None = None
    wrong: int | None = None
    completed: bool = True
    ideal: float | None = None
    measured_p99: float | None = None
    measured_p999: float | None = None


def ratio(point: Point) -> float | None:
    if point.measured in (None, 0) or point.simulated is None:
        return None
    return point.simulated / point.measured


def differs(point: Point) -> bool:
    r = ratio(point)
    return r is not None and abs(r - 1) > THRESHOLD


def nccl_reasons(point: Point, measured_ranks: int | None,
                 simulated_ranks: int | None) -> list[str]:
    """The reasons that apply to a point that differs (or that did not complete)."""
    out = []
    if not point.completed:
        out.append("not_completed")
    if not differs(point):
        return out
    r = ratio(point) or 0
    if point.size_bytes < SMALL_MESSAGE_BYTES:
        out.append("small_message")
    if measured_ranks and simulated_ranks and measured_ranks != simulated_ranks:
        out.append("rank_count")
    if r < 1 and point.ideal is not None and point.measured is not None \
            and point.measured > point.ideal * (1 + THRESHOLD):
        out.append("above_ideal")
    if r > 1 and point.size_bytes >= SMALL_MESSAGE_BYTES:
        out.append("host_limits")
    if r < 1:
        out += ["channels", "link_delays"]
    if point.wrong:
        out.append("data_errors")
    if point.measured and point.measured_in_place and \
            abs(point.measured_in_place / point.measured - 1) > THRESHOLD:
        out.append("noisy_measurement")
    return out


def perftest_reasons(point: Point, kind: str, mtu: int | None) -> list[str]:
    out = [] if point.completed else ["not_completed"]
    if not differs(point):
        return out
    r = ratio(point) or 0
    if kind == "lat":
        if r < 1:
            out.append("nic_latency")
        return out
    if r > 1:
        out.append("host_limits")
        if mtu and point.size_bytes < mtu:
            out.append("one_message_window")
    return out


def perftest_simulated(kind: str, tool: str,
                       flow: dict[str, Any] | None) -> tuple[float | None, bool]:
    """(value, completed) of the perftest flow: its goodput (bw), or, for a latency test (one
    message simulated), the message's round trip (its sender_fct_us: the ACK of its last byte
    is back) times the share of a round trip the tool prints (perftest_parameters.c
    rtt_factor: half for write and send, all of it for read)."""
    if flow is None:
        return None, False
    if kind == "bw":
        return flow.get("goodput_gbps"), flow.get("fct_us") is not None
    fct = flow.get("sender_fct_us")
    if fct is None:
        return None, False
    return fct * LATENCY_ROUND_TRIPS[tool], True
