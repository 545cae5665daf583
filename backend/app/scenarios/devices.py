"""Switch and NIC settings, with the partial forms used by per-node overrides."""

from typing import Annotated, Literal

from pydantic import Field, StrictBool, model_validator

from app.core.validation import error_at, raise_errors
from app.scenarios import limits
from app.scenarios.topology import Strict

Bytes1G = Annotated[int, Field(ge=0, le=limits.GB)]
Headroom = Literal["auto"] | Annotated[int, Field(ge=0, le=64 * limits.MB)]
# An 802.1p priority written as a JSON object key ("0".."7").
Priority = Literal[tuple(str(p) for p in range(limits.MAX_PRIORITY + 1))]  # type: ignore[valid-type]
# A link rate in Gbit/s written as a JSON object key ("100", "400", "25.78125").
RateKey = Annotated[str, Field(pattern=r"^(0|[1-9][0-9]{0,3})(\.[0-9]{1,9})?$")]
CcPreset = Literal["dcqcn-paper", "nvidia-default", "hpcc-dcqcn"]
CcAlgorithm = Literal["dcqcn", "dcqcn_sampled", "none"]
PfcAlpha = Annotated[float, Field(ge=limits.MIN_PFC_ALPHA, le=limits.MAX_PFC_ALPHA)]


def _rate_key_errors(keys: list[str], field: tuple) -> list:
    """Rate keys name a rate > 0 and <= the largest link rate."""
    return [error_at(field + (k,), f"must be a link rate > 0 and <= {limits.MAX_RATE_GBPS:g} Gbit/s", k)
            for k in keys if not 0 < float(k) <= limits.MAX_RATE_GBPS]


class Ecn(Strict):
    """RED/ECN marking: probability 0 below Kmin, rising to Pmax at Kmax, 1 above."""

    enabled: bool = True
    kmin_bytes: Bytes1G = 100_000
    kmax_bytes: Bytes1G = 400_000
    pmax: float = Field(0.2, ge=0, le=1)

    @model_validator(mode="after")
    def _kmin_le_kmax(self) -> "Ecn":
        """Kmin must not exceed Kmax."""
        if self.kmin_bytes > self.kmax_bytes:
            raise_errors("Ecn", [error_at(
                ("kmin_bytes",), f"must be <= kmax_bytes ({self.kmax_bytes})", self.kmin_bytes)])
        return self


class EcnPartial(Strict):
    """Ecn with every field optional (merged over the switch's ecn)."""

    enabled: bool | None = None
    kmin_bytes: Bytes1G | None = None
    kmax_bytes: Bytes1G | None = None
    pmax: float | None = Field(None, ge=0, le=1)


class Pfc(Strict):
    """Priority flow control with a dynamic (alpha) ingress threshold."""

    enabled: bool = True
    alpha: float = Field(0.0625, ge=limits.MIN_PFC_ALPHA, le=limits.MAX_PFC_ALPHA)
    headroom_bytes: Headroom = "auto"
    xon_offset_bytes: int = Field(4160, ge=0, le=10 * limits.MB)
    pause_mode: Literal["xoff_xon", "quanta"] = "xoff_xon"
    pause_quanta: int = Field(65535, ge=limits.MIN_PAUSE_QUANTA, le=65535)
    alpha_by_rate: dict[RateKey, PfcAlpha] = Field(
        default_factory=dict,
        description="alpha of the ingress ports of a given link rate (Gbit/s); others use alpha")

    @model_validator(mode="after")
    def _rates(self) -> "Pfc":
        """Each key is a valid link rate."""
        raise_errors("Pfc", _rate_key_errors(list(self.alpha_by_rate), ("alpha_by_rate",)))
        return self


class PfcPartial(Strict):
    """Pfc with every field optional."""

    enabled: bool | None = None
    alpha: float | None = Field(None, ge=limits.MIN_PFC_ALPHA, le=limits.MAX_PFC_ALPHA)
    headroom_bytes: Headroom | None = None
    xon_offset_bytes: int | None = Field(None, ge=0, le=10 * limits.MB)
    pause_mode: Literal["xoff_xon", "quanta"] | None = None
    pause_quanta: int | None = Field(None, ge=limits.MIN_PAUSE_QUANTA, le=65535)
    alpha_by_rate: dict[RateKey, PfcAlpha] | None = None


LoadBalancing = Literal["ecmp", "per_packet", "adaptive"]


class Switch(Strict):
    """Switch defaults (every switch unless overridden)."""

    buffer_bytes: int = Field(12_000_000, ge=64 * limits.KIB, le=limits.GB)
    cell_bytes: int = Field(208, ge=64, le=1024)
    pfc: Pfc = Field(default_factory=Pfc)
    ecn: Ecn = Field(default_factory=Ecn)
    ecn_by_priority: dict[Priority, EcnPartial] = Field(default_factory=dict)
    ecn_by_rate: dict[RateKey, EcnPartial] = Field(
        default_factory=dict,
        description="ECN of the egress ports of a given link rate (Gbit/s), merged over ecn; "
        "ecn_by_priority is merged over the result")
    ecmp_seed: int = Field(0, ge=0, le=2**32 - 1)
    data_priority: int = Field(3, ge=0, le=limits.MAX_DATA_PRIORITY)
    ecn_mark_point: Literal["enqueue", "dequeue"] = Field(
        "enqueue",
        description="where the ECN marker looks at the egress queue: on arrival of the frame "
        "(enqueue) or on its departure (dequeue); per switch, all priorities")
    load_balancing: LoadBalancing = Field(
        "ecmp", description="choice among equal-cost next hops: ecmp (5-tuple hash, one path "
        "per QP), per_packet (round robin, packet by packet), adaptive (the next hop whose "
        "egress queue holds the fewest bytes, packet by packet; ties follow the hash)")
    trimming: StrictBool = Field(
        False, description="packet trimming (NDP, Ultra Ethernet): a data frame the buffer "
        "cannot hold is cut to its 64-byte header and forwarded at the control priority instead "
        "of dropped; the receiver asks for that packet again")

    @model_validator(mode="after")
    def _priority_ecn(self) -> "Switch":
        """Each per-priority (and per-rate) ECN, merged over `ecn`, must still have Kmin <= Kmax."""
        errors = _rate_key_errors(list(self.ecn_by_rate), ("ecn_by_rate",))
        base = self.ecn.model_dump()
        for rate, rate_part in [("", None), *self.ecn_by_rate.items()]:
            rate_base = {**base, **(rate_part.model_dump(exclude_none=True) if rate_part else {})}
            if rate and rate_base["kmin_bytes"] > rate_base["kmax_bytes"]:
                errors.append(error_at(("ecn_by_rate", rate, "kmin_bytes"),
                                       f"must be <= kmax_bytes ({rate_base['kmax_bytes']})",
                                       rate_base["kmin_bytes"]))
                continue
            for prio, part in self.ecn_by_priority.items():
                merged = {**rate_base, **part.model_dump(exclude_none=True)}
                if merged["kmin_bytes"] > merged["kmax_bytes"]:
                    loc = ("ecn_by_priority", prio, "kmin_bytes")
                    errors.append(error_at(
                        loc, f"must be <= kmax_bytes ({merged['kmax_bytes']})", merged["kmin_bytes"]))
            if errors:
                break
        raise_errors("Switch", errors)
        return self


class SwitchPartial(Strict):
    """A per-switch override: any subset of `switch`, deep-merged over it."""

    buffer_bytes: int | None = Field(None, ge=64 * limits.KIB, le=limits.GB)
    cell_bytes: int | None = Field(None, ge=64, le=1024)
    pfc: PfcPartial | None = None
    ecn: EcnPartial | None = None
    ecn_by_priority: dict[Priority, EcnPartial] | None = None
    ecn_by_rate: dict[RateKey, EcnPartial] | None = None
    ecmp_seed: int | None = Field(None, ge=0, le=2**32 - 1)
    data_priority: int | None = Field(None, ge=0, le=limits.MAX_DATA_PRIORITY)
    ecn_mark_point: Literal["enqueue", "dequeue"] | None = None
    load_balancing: LoadBalancing | None = None
    trimming: StrictBool | None = None


class Cc(Strict):
    """Congestion control; unset DCQCN parameters come from `preset`."""

    algorithm: CcAlgorithm = Field(
        "dcqcn", description="dcqcn: cut on a CNP at most once per decrease interval, alpha "
        "updated per CNP; dcqcn_sampled: alpha and the cut run on periodic timers that sample a "
        "CNP-arrived flag (the HPCC simulator's and ConnectX firmware's form); none")
    preset: CcPreset = Field(
        "nvidia-default", description="where unset DCQCN parameters (and the notification "
        "point's nic.cnp_mode and nic.cnp_interval_us) come from: nvidia-default (ConnectX "
        "firmware defaults, the NIC a 2026 fabric runs), dcqcn-paper (SIGCOMM'15, 40G-era), "
        "hpcc-dcqcn (the HPCC simulator's benchmark)")
    g: float | None = Field(None, gt=0, le=1)
    alpha_update_us: float | None = Field(None, ge=limits.MIN_CC_TIMER_US, le=limits.MAX_TIMER_US)
    rate_decrease_interval_us: float | None = Field(None, ge=0, le=limits.MAX_TIMER_US)
    rate_increase_timer_us: float | None = Field(None, ge=limits.MIN_CC_TIMER_US,
                                                  le=limits.MAX_TIMER_US)
    byte_counter_bytes: int | None = Field(None, ge=0, le=limits.MAX_BYTE_COUNTER)
    fast_recovery_steps: int | None = Field(None, ge=0, le=100)
    rai_mbps: float | None = Field(None, ge=limits.MIN_CC_RATE_MBPS, le=limits.MAX_RATE_MBPS)
    rhai_mbps: float | None = Field(None, ge=limits.MIN_CC_RATE_MBPS, le=limits.MAX_RATE_MBPS)
    min_rate_mbps: float | None = Field(None, ge=limits.MIN_CC_RATE_MBPS, le=limits.MAX_RATE_MBPS)
    clamp_target_rate: StrictBool | None = Field(
        None, description="Every cut sets the target rate to the current rate (NVIDIA clamp_tgt_rate)"
    )
    clamp_target_after_timer_increase: StrictBool | None = Field(
        None,
        description="With clamp_target_rate off: a cut sets the target to the current rate only if "
        "the increase timer raised the rate since the previous cut (clamp_tgt_rate_after_time_inc)",
    )
    max_decrease: float | None = Field(
        None,
        ge=0,
        le=1,
        description="Largest fraction of the rate one cut may take off (1 - rpg_min_dec_fac/100)",
    )
    alpha_timer: Literal["periodic", "restart_on_cnp"] | None = Field(
        None,
        description="periodic: alpha is updated every alpha_update_us, adding g if a CNP came "
        "in that period (fluid model, NVIDIA dce_tcp_rtt); restart_on_cnp: each CNP adds g at "
        "once and alpha decays only after a full period without CNP",
    )


class CcPartial(Cc):
    """Cc with every field optional."""

    algorithm: CcAlgorithm | None = None
    preset: CcPreset | None = None


Transport = Literal["rc", "xrc", "sprayed", "erd"]
TRANSPORT_DESCRIPTION = (
    "reliability layer: rc (go-back-N, a QP per process pair), xrc (RC on the wire, one send "
    "QP per process and destination host), sprayed (a source port per packet, reorder buffer, "
    "selective ACK and retransmission), erd (ERD: one reliable-datagram QP per process, each "
    "message sprayed over nic.erd.paths source ports, in-order delivery of complete messages, "
    "NACKs from a periodic bitmap scan, a retry queue served before new data)")


class Sprayed(Strict):
    """nic.sprayed: the receiver's reorder buffer and ACK spacing of the sprayed transport."""

    reorder_window_packets: int = Field(
        256, ge=1, le=65536, description="packets the receiver holds out of order; the sender "
        "keeps no more than this in flight")
    sack_interval_packets: int = Field(
        1, ge=1, le=64, description="an ACK (cumulative PSN and one selectively acknowledged "
        "PSN) per this many in-order arrivals; every out-of-order arrival is acknowledged")


class SprayedPartial(Strict):
    reorder_window_packets: int | None = Field(None, ge=1, le=65536)
    sack_interval_packets: int | None = Field(None, ge=1, le=64)


NackInterval = Annotated[float, Field(ge=0.1, le=limits.MAX_TIMER_US)] | Literal["auto"]
NACK_INTERVAL_DOC = ("the receiver's bitmap scan period T in us (0.1..1000000), or \"auto\": "
                     "2.5 x each flow's RTT as measured from its ACKs, at least the idle "
                     "path's (the ERD paper's 2-3 RTT)")


class Erd(Strict):
    """nic.erd: the ERD transport's paths per QP and its receiver's NACK scan period."""

    paths: int = Field(
        4, ge=1, le=16, description="distinct UDP source ports a QP's packets take in turn, so "
        "ECMP spreads each message over up to this many paths")
    nack_interval_us: NackInterval = Field("auto", description=NACK_INTERVAL_DOC)


class ErdPartial(Strict):
    paths: int | None = Field(None, ge=1, le=16)
    nack_interval_us: NackInterval | None = Field(None, description=NACK_INTERVAL_DOC)


QpDepth = Annotated[int, Field(ge=1, le=65536)] | Literal["bdp"]
QP_DEPTH_DOC = ("outstanding WQEs (messages) per QP, 1..65536, or \"bdp\": per flow, "
                "ceil(base RTT x bottleneck rate / message wire bytes) (NTT's QD = RTT x line "
                "rate / frame size), clamped to 65536")


ACK_PRIORITY_DOC = (
    "priority of ACK and NACK frames in the switches: 'control' (strict priority 7, outside the "
    "buffer accounting) or 'data' (the flow's own priority: queued behind its data and charged to "
    "the buffer, as RoCE NICs send ACKs with the QP's traffic class and as the HPCC simulator's "
    "switches queue them). CNPs always use the control priority")


class Nic(Strict):
    """NIC defaults (every host unless overridden)."""

    transport: Transport = Field("rc", description=TRANSPORT_DESCRIPTION)
    mtu_bytes: int = Field(1000, ge=256, le=9000)
    qp_depth: QpDepth = Field(16, description=QP_DEPTH_DOC)
    message_bytes: int = Field(65536, ge=1, le=2**31)
    cc: Cc = Field(default_factory=Cc)
    cnp_interval_us: float | None = Field(
        None, ge=0, le=limits.MAX_TIMER_US, description="notification point: at most one CNP "
        "per QP per this many us. Unset: the congestion-control preset's (nvidia-default 4, "
        "min_time_between_cnps; dcqcn-paper 50; hpcc-dcqcn 50)")
    cnp_mode: Literal["window", "holdoff"] | None = Field(
        None,
        description="notification point: 'window' (DCQCN paper: a frame marked within the "
        "interval after a CNP earns one CNP at the interval's end) or 'holdoff' (marked frames "
        "within the interval are ignored; NVIDIA min_time_between_cnps). Unset: holdoff for "
        "every preset (docs/model.md)")
    ack_interval_packets: int = Field(1, ge=1, le=1024)
    rto_us: float = Field(1000, ge=1, le=10_000_000)
    nack_enabled: bool = True
    ecn_feedback: Literal["cnp", "ack_flag"] = Field(
        "cnp", description="cnp: a CNP packet per marked packet, at most one per cnp_interval_us; "
        "ack_flag: a congestion flag on the ACK of every marked packet, no pacing")
    ack_priority: Literal["control", "data"] = Field(
        "control", description=ACK_PRIORITY_DOC)
    header_bytes: int = Field(62, ge=20, le=256, description="bytes of headers per data frame "
                              "(Ethernet 18 + IPv4 20 + UDP 8 + BTH 12 + ICRC 4 = 62)")
    preamble_ifg_bytes: int = Field(20, ge=0, le=64, description="preamble, SFD and inter-frame "
                                    "gap per frame (20 on Ethernet; 0 on a point-to-point model)")
    processes_per_host: int = Field(
        1, ge=1, le=1024, description="processes per host (p): all_to_all and permutation "
        "open one flow per (sending process, receiving process), p^2 per host pair, splitting "
        "size_bytes evenly; RC needs (N-1) x p^2 QPs per NIC, XRC N x p, ERD p; XRC's send "
        "contexts are shared per (process, destination host), ERD's per process")
    qp_cache_entries: int = Field(
        0, ge=0, le=1_048_576, description="QP contexts the NIC caches (least recently used "
        "evicted); 0 = unlimited")
    qp_cache_miss_ns: float = Field(
        500, ge=0, le=100_000, description="transmit stall while a QP context that missed the "
        "cache is fetched over PCIe")
    sprayed: Sprayed = Field(default_factory=Sprayed)
    erd: Erd = Field(default_factory=Erd)


class NicPartial(Strict):
    """A per-host override: any subset of `nic`, deep-merged over it."""

    transport: Transport | None = None
    mtu_bytes: int | None = Field(None, ge=256, le=9000)
    qp_depth: QpDepth | None = Field(None, description=QP_DEPTH_DOC)
    message_bytes: int | None = Field(None, ge=1, le=2**31)
    cc: CcPartial | None = None
    cnp_interval_us: float | None = Field(None, ge=0, le=limits.MAX_TIMER_US)
    cnp_mode: Literal["window", "holdoff"] | None = None
    ack_interval_packets: int | None = Field(None, ge=1, le=1024)
    rto_us: float | None = Field(None, ge=1, le=10_000_000)
    nack_enabled: bool | None = None
    ecn_feedback: Literal["cnp", "ack_flag"] | None = None
    ack_priority: Literal["control", "data"] | None = Field(None, description=ACK_PRIORITY_DOC)
    header_bytes: int | None = Field(None, ge=20, le=256)
    preamble_ifg_bytes: int | None = Field(None, ge=0, le=64)
    processes_per_host: int | None = Field(None, ge=1, le=1024)
    qp_cache_entries: int | None = Field(None, ge=0, le=1_048_576)
    qp_cache_miss_ns: float | None = Field(None, ge=0, le=100_000)
    sprayed: SprayedPartial | None = None
    erd: ErdPartial | None = None
