"""Scenario format v1: the Pydantic models are the source of truth (docs/scenario-format.md)."""

import logging
from typing import Any, Literal

from pydantic import Field, ValidationError, model_validator

from app.core import simulator
from app.core.validation import error_at, raise_errors, relocate
from app.scenarios import limits
from app.scenarios.devices import Nic, NicPartial, Switch, SwitchPartial
from app.scenarios.faults import MAX_FAULTS, Fault, Telemetry, Watchdogs, fault_errors
from app.scenarios.topology import Strict, Topology, counts, node_ids
from app.scenarios.traffic import Monitor, TrafficGenerator

HOST_FIELDS = {
    "incast": ("senders", "receiver"), "pairs": ("pairs",), "permutation": ("hosts",),
    "all_to_all": ("hosts",), "perftest": ("src", "dst"), "workload": ("hosts",),
    "pingmesh": ("hosts",), "flows": (), "stride": ("hosts",), "inter_pod_permutation": ("hosts",),
    "collective": ("hosts",), "training": ("hosts",),
}

LIST_FIELDS = ("senders", "hosts")

log = logging.getLogger(__name__)


class Scenario(Strict):
    """One complete simulation: topology, device settings, traffic and monitoring."""

    schema_version: Literal[1]
    name: str = Field("", max_length=limits.MAX_NAME_CHARS)
    description: str = Field("", max_length=5000)
    seed: int = Field(1, ge=0, le=limits.MAX_SEED)
    duration_us: float = Field(10_000, gt=0, le=limits.MAX_DURATION_US)
    warmup_us: float = Field(0, ge=0, description="must be < duration_us")
    topology: Topology
    switch: Switch = Field(default_factory=Switch)
    switch_overrides: dict[str, SwitchPartial] = Field(default_factory=dict)
    nic: Nic = Field(default_factory=Nic)
    nic_overrides: dict[str, NicPartial] = Field(default_factory=dict)
    traffic: list[TrafficGenerator] = Field(default_factory=list, max_length=limits.MAX_GENERATORS)
    monitor: Monitor = Field(default_factory=Monitor)
    faults: list[Fault] = Field(default_factory=list, max_length=MAX_FAULTS)
    watchdogs: Watchdogs = Field(default_factory=Watchdogs)
    telemetry: Telemetry = Field(default_factory=Telemetry)

    @model_validator(mode="after")
    def _cross_checks(self) -> "Scenario":
        """Checks that span several fields (times, sizes after expansion, node references)."""
        errors = _time_errors(self)
        nodes, links = counts(self.topology)
        if nodes > limits.MAX_NODES:
            errors.append(error_at(("topology",), f"expands to {nodes} nodes (at most {limits.MAX_NODES})", nodes))
        elif links > limits.MAX_LINKS:
            errors.append(error_at(("topology",), f"expands to {links} links (at most {limits.MAX_LINKS})", links))
        else:
            errors += _reference_errors(self)
        raise_errors("Scenario", errors)
        return self


def _reference_errors(s: Scenario) -> list:
    """Overrides, generators and faults name nodes that exist (and of the right kind).

    A generated topology's names come from `fabricsim expand`. Without the simulator, or when it
    refuses the topology itself (a buffer too small for 400 ports' headroom), the checks are left
    to `fabricsim validate`, which runs next and names the path (docs/api.md, validation layers).
    """
    try:
        hosts, switches = node_ids(s.topology)
    except simulator.SimulatorUnavailable as exc:
        log.warning("node references not checked: %s", exc)
        return []
    except simulator.SimulatorRejected:
        return []
    host_set, switch_set = set(hosts), set(switches)
    return (_override_errors(s, host_set, switch_set) + _traffic_errors(s, host_set, switch_set)
            + fault_errors(s.faults, s.duration_us, host_set, switch_set))


def _time_errors(s: Scenario) -> list:
    """Warm-up before the end; sample count within the limit."""
    errors = []
    if s.duration_us < 0.001:
        errors.append(error_at(("duration_us",), "must be at least 0.001 us (1 ns)", s.duration_us))
    for i, gen in enumerate(s.traffic):
        if gen.start_us >= s.duration_us:
            errors.append(error_at(("traffic", i, "start_us"),
                                   f"must be >= 0 and < duration_us ({s.duration_us:g})", gen.start_us))
        if gen.kind == "flows":
            errors += _flow_list_time_errors(i, gen, s.duration_us)
        stop = getattr(gen, "stop_us", None)
        if stop is not None and not gen.start_us < stop <= s.duration_us:
            errors.append(error_at(("traffic", i, "stop_us"),
                                   f"must be > start_us ({gen.start_us:g}) and <= duration_us "
                                   f"({s.duration_us:g})", stop))
    if s.warmup_us >= s.duration_us:
        errors.append(error_at(("warmup_us",), f"must be < duration_us ({s.duration_us:g})", s.warmup_us))
    samples = s.duration_us / s.monitor.sample_interval_us
    if samples > limits.MAX_SAMPLES:
        least = s.duration_us / limits.MAX_SAMPLES
        errors.append(error_at(("monitor", "sample_interval_us"),
                               f"must be >= {least:g} (at most {limits.MAX_SAMPLES} samples per series)",
                               s.monitor.sample_interval_us))
    return errors


def _flow_list_time_errors(i: int, gen: Any, duration_us: float) -> list:
    """Each listed flow starts before the end of the run (the first 20 offenders)."""
    late = [j for j, f in enumerate(gen.flows) if gen.start_us + f.start_us >= duration_us][:20]
    return [error_at(("traffic", i, "flows", j, "start_us"),
                     f"plus the generator's start_us must be >= 0 and < duration_us ({duration_us:g})",
                     gen.flows[j].start_us) for j in late]


def deep_merge(base: dict[str, Any], patch: dict[str, Any]) -> dict[str, Any]:
    """`patch` over `base`, recursing into objects (None in patch means unset)."""
    out = dict(base)
    for key, value in patch.items():
        if value is None:
            continue
        if isinstance(value, dict) and isinstance(out.get(key), dict):
            out[key] = deep_merge(out[key], value)
        else:
            out[key] = value
    return out


def _override_errors(s: Scenario, hosts: set[str], switches: set[str]) -> list:
    """Override keys name existing nodes of the right kind; merged settings stay valid."""
    errors = []
    for key, part in s.switch_overrides.items():
        if key not in switches:
            errors.append(error_at(("switch_overrides", key), f"'{key}' is not a switch", key))
            continue
        merged = deep_merge(s.switch.model_dump(), part.model_dump(exclude_none=True))
        try:
            Switch.model_validate(merged)
        except ValidationError as exc:
            errors += relocate(exc, ("switch_overrides", key))
    for key, nic_part in s.nic_overrides.items():
        if key not in hosts:
            errors.append(error_at(("nic_overrides", key), f"'{key}' is not a host", key))
    return errors


def _traffic_errors(s: Scenario, hosts: set[str], switches: set[str]) -> list:
    """Every host (or ToR) a generator names exists; job names (collective, training) are unique."""
    errors = []
    jobs: dict[str, int] = {}
    for i, gen in enumerate(s.traffic):
        if gen.kind in ("collective", "training"):
            job = gen.job or gen.name or f"job{i}"
            if job in jobs:
                errors.append(error_at(("traffic", i, "job"), f"'{job}' is already the job of "
                                       f"traffic[{jobs[job]}]: give each collective its own job", gen.job))
            jobs.setdefault(job, i)
        for field in HOST_FIELDS[gen.kind]:
            seen: set[str] = set()
            for sub, name in _names(getattr(gen, field)):
                if name not in hosts:
                    what = "a switch, not a host" if name in switches else "unknown host"
                    errors.append(error_at(("traffic", i, field) + sub, f"{what} '{name}'", name))
                elif name in seen and field in LIST_FIELDS:
                    errors.append(error_at(("traffic", i, field) + sub, f"duplicate host '{name}'", name))
                seen.add(name)
        if gen.kind == "stride":
            count = len(gen.hosts) if gen.hosts is not None else len(hosts)
            if gen.stride > count - 1:
                errors.append(error_at(("traffic", i, "stride"),
                                       f"must be an integer >= 1 and <= {count - 1} (the number of "
                                       f"hosts - 1)", gen.stride))
        if gen.kind == "flows":
            errors += _flow_list_host_errors(i, gen, hosts, switches)
        if gen.kind == "pairs" and gen.tor_pairs:
            for sub, name in _names(gen.tor_pairs):
                if name not in switches:
                    errors.append(error_at(("traffic", i, "tor_pairs") + sub,
                                           f"unknown switch '{name}'", name))
    return errors


def _flow_list_host_errors(i: int, gen: Any, hosts: set[str], switches: set[str]) -> list:
    """Both ends of every listed flow are hosts (the first 20 offenders)."""
    errors = []
    for j, flow in enumerate(gen.flows):
        for end in ("src", "dst"):
            name = getattr(flow, end)
            if name not in hosts:
                what = "a switch, not a host" if name in switches else "unknown host"
                errors.append(error_at(("traffic", i, "flows", j, end), f"{what} '{name}'", name))
        if len(errors) >= 20:
            break
    return errors


def _names(value: Any) -> list[tuple[tuple[int, ...], str]]:
    """Flatten a node id, a list of ids or a list of id pairs into (sub-path, id)."""
    if value is None:
        return []
    if isinstance(value, str):
        return [((), value)]
    out = []
    for i, item in enumerate(value):
        out += [((i,) + sub, name) for sub, name in _names(item)]
    return out
