"""Faults (timed events that break or change the fabric) and the PFC watchdogs.

Source: Guo et al., "RDMA over Commodity Ethernet at Scale" (SIGCOMM 2016), sections 4 and 6:
the NIC PFC storm, the slow-receiver symptom, the switch buffer (alpha) misconfiguration, PFC
deadlock during link failures, and the watchdogs on servers and ToR switches.
The C++ reader (simcore/scenario/fault-config.cc) checks the same rules.
"""

from typing import Annotated, Literal

from pydantic import Field, model_validator

from app.core.validation import error_at, raise_errors
from app.scenarios import limits
from app.scenarios.devices import Ecn, Nic, Pfc
from app.scenarios.topology import NodeId, Strict
from app.scenarios.traffic import PortName

MAX_FAULTS = limits.MAX_FAULTS
MAX_TIMER_US = limits.MAX_FAULT_TIMER_US

# The parameters a `set` fault may change: (document path of the static setting, its model and
# field). Their ranges are the static field's (Field(ge=, le=)), read from the model, not copied.
SET_PARAMS: dict[str, tuple[str, type, str]] = {
    "pfc.alpha": ("switch.pfc.alpha", Pfc, "alpha"),
    "ecn.kmin_bytes": ("switch.ecn.kmin_bytes", Ecn, "kmin_bytes"),
    "ecn.kmax_bytes": ("switch.ecn.kmax_bytes", Ecn, "kmax_bytes"),
    "ecn.pmax": ("switch.ecn.pmax", Ecn, "pmax"),
    "rto_us": ("nic.rto_us", Nic, "rto_us"),
    "cnp_interval_us": ("nic.cnp_interval_us", Nic, "cnp_interval_us"),
}
SWITCH_PARAMS = tuple(k for k, (path, _, _) in SET_PARAMS.items() if path.startswith("switch."))
NIC_PARAMS = tuple(k for k, (path, _, _) in SET_PARAMS.items() if path.startswith("nic."))


def field_bounds(model: type, name: str) -> tuple[float, float]:
    """(ge, le) of a numeric model field, as its Field(...) declares them."""
    lo = hi = None
    for item in model.model_fields[name].metadata:
        lo = getattr(item, "ge", lo)
        hi = getattr(item, "le", hi)
    if lo is None or hi is None:
        raise ValueError(f"{model.__name__}.{name} has no closed range")
    return lo, hi


SET_PARAM_BOUNDS = {name: field_bounds(model, field) for name, (_, model, field) in SET_PARAMS.items()}


class FaultBase(Strict):
    """Fields common to every fault: when it starts and (optionally) ends."""

    name: str = Field("", max_length=limits.MAX_NAME_CHARS)
    start_us: float = Field(ge=0, description="must be < duration_us")
    end_us: float | None = Field(None, gt=0, description="must be > start_us and <= duration_us; "
                                                          "absent: lasts to the end of the run")


class Loss(FaultBase):
    """Frames lost on a link: at random (seeded, per frame) or every n-th frame."""

    kind: Literal["loss"]
    link: PortName = Field(description='"a->b": the direction a to b (and back with "both")')
    direction: Literal["one", "both"] = "both"
    rate: float | None = Field(None, gt=0, le=1, description="probability a frame is lost")
    every_n: int | None = Field(None, ge=1, le=2**31 - 1, description="lose every n-th frame")
    frames: Literal["data", "all"] = Field("data", description='"all" includes ACK, NACK, CNP')

    @model_validator(mode="after")
    def _one_pattern(self) -> "Loss":
        """Exactly one of rate and every_n."""
        if (self.rate is None) == (self.every_n is None):
            raise_errors("Loss", [error_at(("rate",), "give exactly one of rate and every_n",
                                           self.rate)])
        return self


class LinkDown(FaultBase):
    """The link stops carrying frames (both directions); it comes back at end_us if given."""

    kind: Literal["link_down"]
    link: PortName = Field(description='either direction names the link')
    convergence_us: float = Field(0, ge=0, le=MAX_TIMER_US,
                                  description="delay before ECMP stops (or restarts) using it")


class LinkUp(FaultBase):
    """A link taken down by an earlier link_down (without end_us) comes back."""

    kind: Literal["link_up"]
    link: PortName
    convergence_us: float = Field(0, ge=0, le=MAX_TIMER_US)


class PfcStorm(FaultBase):
    """A NIC that keeps sending PFC pause frames toward its ToR (the paper's NIC bug)."""

    kind: Literal["pfc_storm"]
    host: NodeId
    priority: int | None = Field(None, ge=0, le=limits.MAX_DATA_PRIORITY, description="default: switch.data_priority")
    interval_us: float | None = Field(None, gt=0, le=MAX_TIMER_US,
                                      description="between pause frames; default: half of "
                                                  "65535 quanta at the link rate")


class SlowReceiver(FaultBase):
    """A NIC whose receive pipeline drains slower than the link; it pauses its ToR."""

    kind: Literal["slow_receiver"]
    host: NodeId
    drain_gbps: float = Field(gt=0, le=limits.MAX_RATE_GBPS)
    buffer_bytes: int = Field(131072, ge=8192, le=64 * limits.MIB,
                              description="receive buffer: XOFF at 1/2, XON at 1/4")


class SetParam(FaultBase):
    """A parameter override at start_us (restored at end_us if given): replays a change."""

    kind: Literal["set"]
    nodes: Literal["switches", "hosts"] | Annotated[list[NodeId], Field(min_length=1,
                                                                         max_length=limits.MAX_SET_NODES)]
    param: Literal[tuple(SET_PARAMS)]  # type: ignore[valid-type]
    value: float = Field(ge=0, le=1e12)

    @model_validator(mode="after")
    def _value_in_range(self) -> "SetParam":
        """The same ranges as the static settings (SET_PARAM_BOUNDS, read from their models)."""
        lo, hi = SET_PARAM_BOUNDS[self.param]
        if not lo <= self.value <= hi:
            raise_errors("SetParam", [error_at(("value",), f"must be >= {lo:g} and <= {hi:g} "
                                                          f"for {self.param}", self.value)])
        return self


Fault = Annotated[Loss | LinkDown | LinkUp | PfcStorm | SlowReceiver | SetParam,
                  Field(discriminator="kind")]


class SwitchWatchdog(Strict):
    """PFC watchdog of switch egress ports: a queue paused continuously for detect_us is
    'stormed': it ignores pauses and drops what it holds and gets, until restore_us without a
    pause from that neighbour."""

    enabled: bool = False
    detect_us: float = Field(200, gt=0, le=MAX_TIMER_US)
    restore_us: float = Field(1000, gt=0, le=MAX_TIMER_US)
    ports: Literal["servers", "all"] = Field(
        "servers", description='"servers": ports facing hosts (the paper\'s ToR watchdog); '
                               '"all": switch-to-switch ports too (breaks PFC deadlocks)')


class NicWatchdog(Strict):
    """NIC watchdog: a NIC asserting pause for longer than detect_us is stopped from pausing."""

    enabled: bool = False
    detect_us: float = Field(200, gt=0, le=MAX_TIMER_US)


class Watchdogs(Strict):
    """The PFC storm watchdogs and the PFC deadlock report."""

    switch: SwitchWatchdog = Field(default_factory=SwitchWatchdog)
    nic: NicWatchdog = Field(default_factory=NicWatchdog)
    deadlock_report_us: float = Field(1000, gt=0, le=MAX_TIMER_US,
                                      description="report a cycle of egress queues mutually "
                                                  "paused for longer than this")


class Telemetry(Strict):
    """What operators read from switches and NICs (Guo et al. 2016, section 5.2)."""

    port_counters: bool = Field(False, description="per port and priority: frames and bytes sent, "
                                                   "pauses, pause time; drops per port by reason")
    flow_paths: bool = Field(False, description="each flow's path in the result: the nodes its "
                                                "first packet crossed (one path per flow with "
                                                "per-flow ECMP)")


def fault_errors(faults: list, duration_us: float, hosts: set[str], switches: set[str]) -> list:
    """Times within the run and node references of the right kind."""
    errors = []
    for i, f in enumerate(faults):
        if f.start_us >= duration_us:
            errors.append(error_at(("faults", i, "start_us"),
                                   f"must be >= 0 and < duration_us ({duration_us:g})", f.start_us))
        if f.end_us is not None and not f.start_us < f.end_us <= duration_us:
            errors.append(error_at(("faults", i, "end_us"),
                                   f"must be > start_us ({f.start_us:g}) and <= duration_us "
                                   f"({duration_us:g})", f.end_us))
        if f.kind == "link_up" and f.end_us is not None:
            errors.append(error_at(("faults", i, "end_us"), "not allowed for link_up", f.end_us))
        if f.kind in ("loss", "link_down", "link_up"):
            for name in f.link.split("->"):
                if name not in hosts and name not in switches:
                    errors.append(error_at(("faults", i, "link"), f"unknown node '{name}'", f.link))
                    break
        elif f.kind in ("pfc_storm", "slow_receiver") and f.host not in hosts:
            what = "a switch, not a host" if f.host in switches else "unknown host"
            errors.append(error_at(("faults", i, "host"), f"{what} '{f.host}'", f.host))
        elif f.kind == "set":
            errors += _set_errors(i, f, hosts, switches)
    return errors


def _set_errors(i: int, f: SetParam, hosts: set[str], switches: set[str]) -> list:
    """Switch parameters on switches, NIC parameters on hosts."""
    on_switches = f.param in SWITCH_PARAMS
    if isinstance(f.nodes, str):
        if (f.nodes == "switches") != on_switches:
            return [error_at(("faults", i, "nodes"), f"{f.param} is a "
                             f"{'switch' if on_switches else 'NIC'} parameter", f.nodes)]
        return []
    wanted = switches if on_switches else hosts
    for j, name in enumerate(f.nodes):
        if name not in wanted:
            return [error_at(("faults", i, "nodes", j), f"'{name}' is not a "
                             f"{'switch' if on_switches else 'host'} ({f.param})", name)]
    return []
