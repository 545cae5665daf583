"""Objectives and constraints over a run's result, and their aggregation over scenarios and seeds.

`derive_metrics(result, document)` condenses one simulator result into the flat numbers every
objective reads (stored with the evaluation, so an objective can be recomputed without the raw
result). Definitions, with the choices ByteTuning's slides leave open, are in docs/tuning.md.
"""

import math
import re
from dataclasses import dataclass
from typing import Any, Literal

from app.runs import metrics as M

Goal = M.Goal
HEADER_BYTES = 82  # per-frame overhead the simulator counts on the wire (payload 1000 -> 1082)
DEFAULT_MTU = 1000
SINGLE_METRICS: dict[str, Goal] = M.GOALS  # every declared metric, with its sense
COMPOSITE = ("bytetuning_throughput", "bytetuning_latency")
JOB_METRICS = M.JOB_METRICS  # a job's: an objective may name the job
HOST_ID = re.compile(r"^h\d+$")


@dataclass(frozen=True)
class Objective:
    """What one objective maximises or minimises."""

    kind: str                    # a COMPOSITE name or "metric"
    metric: str | None = None    # for kind == "metric"
    goal: Goal = "max"
    beta: float = 0.5
    gamma: float = 1.0
    job: str | None = None       # a job metric of this job (None: the first job that has it)

    @property
    def label(self) -> str:
        """Short name for tables and axes."""
        if self.kind == "metric" and self.metric:
            return f"{self.metric} of {self.job}" if self.job else self.metric
        return self.kind


@dataclass(frozen=True)
class Constraint:
    """metric op value, e.g. drops_total <= 0."""

    metric: str
    op: Literal["<=", "<", ">=", ">"]
    value: float
    job: str | None = None

    def holds(self, metrics: dict[str, Any]) -> bool:
        """A missing metric fails the constraint (nothing to show it holds)."""
        x = metric_of(metrics, self.metric, self.job)
        if x is None:
            return False
        return {"<=": x <= self.value, "<": x < self.value, ">=": x >= self.value,
                ">": x > self.value}[self.op]


class JobNameError(ValueError):
    """An objective or constraint names a job a scenario does not have: `where` locates the
    field (("objectives", 0, "job")), `message` lists the scenario's jobs."""

    def __init__(self, where: tuple[str | int, ...], message: str) -> None:
        super().__init__(message)
        self.where = where
        self.message = message


def job_names(document: dict[str, Any]) -> list[str]:
    """The scenario's jobs (collective and training generators), in traffic order, named as the
    simulator names them: `job`, else the generator's `name`, else "job<index in traffic>"."""
    names = []
    for i, gen in enumerate(document.get("traffic") or []):
        if isinstance(gen, dict) and gen.get("kind") in M.JOB_GENERATORS:
            names.append(gen.get("job") or gen.get("name") or f"job{i}")
    return names


def check_job_names(named: list[tuple[tuple[str | int, ...], str]],
                    documents: list[tuple[str, dict[str, Any]]]) -> None:
    """Every (field, job) names a collective job of every scenario (label, document); else a
    JobNameError naming the field, the scenario and the jobs it has."""
    for where, job in named:
        for label, document in documents:
            jobs = job_names(document)
            if job not in jobs:
                have = ", ".join(f'"{j}"' for j in jobs) if jobs else "none: it has no collective or training generator"
                raise JobNameError(where, f'"{job}" is not a job of scenario {label} (its jobs: {have})')


def metric_of(metrics: dict[str, Any], metric: str, job: str | None = None) -> Any:
    """A metric of one run's metrics; with `job`, that collective job's (None when absent)."""
    if job is None:
        return metrics.get(metric)
    return ((metrics.get("jobs") or {}).get(job) or {}).get(metric)


def _host_rate_gbps(document: dict[str, Any], host: str) -> float:
    """Line rate of a host's access link, from the scenario's topology."""
    topo = document.get("topology") or {}
    if topo.get("kind") == "explicit":
        for link in topo.get("links", []):
            if host in (link.get("a"), link.get("b")):
                return float(link["rate_gbps"])
    if topo.get("kind") == "dci":
        sites = topo.get("sites") or [{}]
        return float(sites[0].get("host_rate_gbps", 100))
    return float(topo.get("host_rate_gbps", 100))


def _mtu(document: dict[str, Any]) -> int:
    return int((document.get("nic") or {}).get("mtu_bytes", DEFAULT_MTU))


def derive_metrics(result: dict[str, Any], document: dict[str, Any]) -> dict[str, Any]:
    """Flat metrics plus the per-switch and per-flow terms the ByteTuning objectives need."""
    summary = result.get("summary") or {}
    flows = result.get("flows") or []
    hosts = {f["src"] for f in flows} | {f["dst"] for f in flows}
    queues = summary.get("queues") or []
    q_min = float(_mtu(document) + HEADER_BYTES)
    switches: dict[str, dict[str, float]] = {}
    for link in summary.get("link_utilization") or []:
        src = link["link"].split("->")[0]
        if src not in hosts and not HOST_ID.match(src):
            entry = switches.setdefault(src, {"util": 0.0, "queue": 0.0})
            entry["util"] = max(entry["util"], float(link.get("utilization") or 0.0))
    for queue in queues:
        src = queue["queue"].split("->")[0]
        if src in switches:
            switches[src]["queue"] = max(switches[src]["queue"], float(queue.get("p99_bytes") or 0))
    fair: dict[str, int] = {}
    for flow in flows:
        fair[flow["dst"]] = fair.get(flow["dst"], 0) + 1
    efficiency = _mtu(document) / (_mtu(document) + HEADER_BYTES)
    flow_terms = []
    for flow in flows:
        ceiling = _host_rate_gbps(document, flow["dst"]) * efficiency / fair[flow["dst"]]
        at_dst = [float(q.get("p99_bytes") or 0) for q in queues
                  if q["queue"].endswith("->" + flow["dst"])]
        flow_terms.append({"tput": float(flow.get("goodput_gbps") or 0.0), "tput_max": ceiling,
                           "queue": max(at_dst, default=0.0)})
    fct, slowdown = summary.get("fct_us") or {}, summary.get("slowdown") or {}
    return {
        # the first job's that has each (app/runs/metrics.py): null without one, so the objective
        # is missing
        **M.first_job_values(result.get("jobs")),
        # every job's, by name, for objectives and constraints that name one
        "jobs": M.jobs_values(result.get("jobs")),
        "throughput_gbps": summary.get("throughput_gbps"),
        "fct_p50_us": fct.get("p50"), "fct_p99_us": fct.get("p99"),
        "slowdown_p99": slowdown.get("p99"),
        "drops_total": (summary.get("drops") or {}).get("total"),
        "pfc_pauses_sent": summary.get("pfc_pauses_sent"),
        "max_queue_bytes": summary.get("max_queue_bytes"),
        "queue_p99_bytes": max((float(q.get("p99_bytes") or 0) for q in queues), default=0.0),
        "ecn_marked_packets": summary.get("ecn_marked_packets"),
        "cnps_sent": summary.get("cnps_sent"),
        "q_min_bytes": q_min,
        "switches": [{"id": k, **v} for k, v in sorted(switches.items())],
        "flows": flow_terms,
    }


def _queue_term(q_min: float, q_now: float) -> float:
    """Q_min / Q_now with a queue below one packet scoring 1 (no division by an empty queue)."""
    return q_min / max(q_now, q_min)


def throughput_sensitive(metrics: dict[str, Any], beta: float) -> float:
    """sum over switches of [beta x util + (1 - beta) x Q_min / Q_now]."""
    q_min = metrics["q_min_bytes"]
    return sum(beta * min(1.0, s["util"]) + (1 - beta) * _queue_term(q_min, s["queue"])
               for s in metrics["switches"])


def latency_sensitive(metrics: dict[str, Any], beta: float, gamma: float) -> float:
    """Per-flow form over (1 + gamma x sum of squared deviations of normalised throughput)."""
    flows = metrics["flows"]
    if not flows:
        return 0.0
    q_min = metrics["q_min_bytes"]
    shares = [f["tput"] / f["tput_max"] if f["tput_max"] > 0 else 0.0 for f in flows]
    numerator = sum(beta * min(1.0, x) + (1 - beta) * _queue_term(q_min, f["queue"])
                    for x, f in zip(shares, flows))
    mean = sum(shares) / len(shares)
    return numerator / (1.0 + gamma * sum((x - mean) ** 2 for x in shares))


FORMULAS = {
    "bytetuning_throughput": "sum over switches of [beta x min(1, util) + (1 - beta) x Q_min / max(Q_p99, Q_min)]",
    "bytetuning_latency": "sum over flows of [beta x min(1, x_f) + (1 - beta) x Q_min / max(Q_f, Q_min)] "
                          "/ (1 + gamma x sum over flows of (x_f - mean x)^2), x_f = goodput / fair share",
}


def terms(objective: Objective, metrics: dict[str, Any]) -> dict[str, float] | None:
    """A composite score split into its parts: `throughput_part` (the beta-weighted utilisation or
    goodput share), `queue_part` (the (1 - beta)-weighted empty-queue reward) and, for the
    latency form, `fairness_penalty` (gamma x the spread of the shares), so that
    score = (throughput_part + queue_part) / (1 + fairness_penalty). None for a single metric."""
    beta, q_min = objective.beta, metrics.get("q_min_bytes")
    if objective.kind == "bytetuning_throughput":
        sw = metrics["switches"]
        return {"throughput_part": sum(beta * min(1.0, s["util"]) for s in sw),
                "queue_part": sum((1 - beta) * _queue_term(q_min, s["queue"]) for s in sw),
                "fairness_penalty": 0.0}
    if objective.kind == "bytetuning_latency":
        flows = metrics["flows"]
        shares = [f["tput"] / f["tput_max"] if f["tput_max"] > 0 else 0.0 for f in flows]
        mean = sum(shares) / len(shares) if shares else 0.0
        return {"throughput_part": sum(beta * min(1.0, x) for x in shares),
                "queue_part": sum((1 - beta) * _queue_term(q_min, f["queue"]) for f in flows),
                "fairness_penalty": objective.gamma * sum((x - mean) ** 2 for x in shares)}
    return None


def value(objective: Objective, metrics: dict[str, Any]) -> float | None:
    """The objective on one run's metrics; None when the metric is absent (no completed flow)."""
    if objective.kind == "bytetuning_throughput":
        return throughput_sensitive(metrics, objective.beta)
    if objective.kind == "bytetuning_latency":
        return latency_sensitive(metrics, objective.beta, objective.gamma)
    x = metric_of(metrics, objective.metric or "", objective.job)
    return None if x is None else float(x)


# Two-sided 95% Student t quantiles for 1..30 degrees of freedom; 1.96 beyond.
_T95 = (12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228, 2.201, 2.179,
        2.160, 2.145, 2.131, 2.120, 2.110, 2.101, 2.093, 2.086, 2.080, 2.074, 2.069, 2.064,
        2.060, 2.056, 2.052, 2.048, 2.045, 2.042)


def mean_ci(samples: list[float]) -> tuple[float, float]:
    """(mean, half-width of the 95% confidence interval); 0 half-width for a single sample."""
    n = len(samples)
    mean = sum(samples) / n
    if n < 2:
        return mean, 0.0
    sd = math.sqrt(sum((x - mean) ** 2 for x in samples) / (n - 1))
    t = _T95[n - 2] if n - 1 <= len(_T95) else 1.96
    return mean, t * sd / math.sqrt(n)


def aggregate(objective: Objective, per_scenario_seed: list[list[dict[str, Any]]],
              how: Literal["mean", "worst"]) -> tuple[float, float] | None:
    """Objective over scenarios (rows) x seeds (columns): per seed, the mean or worst over
    scenarios; then the mean over seeds with its 95% CI. None when any value is missing."""
    seeds = len(per_scenario_seed[0])
    per_seed = []
    for k in range(seeds):
        values = [value(objective, row[k]) for row in per_scenario_seed]
        if any(v is None for v in values):
            return None
        if how == "mean":
            per_seed.append(sum(values) / len(values))
        else:
            per_seed.append(min(values) if objective.goal == "max" else max(values))
    return mean_ci(per_seed)


def feasible(constraints: list[Constraint], per_scenario_seed: list[list[dict[str, Any]]]) -> bool:
    """Every constraint holds on every scenario and seed (a pick must be safe everywhere)."""
    return all(c.holds(m) for row in per_scenario_seed for m in row for c in constraints)


def better(a: tuple[float, float], b: tuple[float, float], goal: Goal) -> bool:
    """a is better than b only when their 95% intervals do not overlap."""
    if goal == "max":
        return a[0] - a[1] > b[0] + b[1]
    return a[0] + a[1] < b[0] - b[1]


def dominates(a: tuple[float, ...], b: tuple[float, ...], goals: tuple[Goal, ...]) -> bool:
    """a is no worse on every objective and strictly better on one."""
    signs = [1 if g == "max" else -1 for g in goals]
    no_worse = all(s * x >= s * y for s, x, y in zip(signs, a, b))
    return no_worse and any(s * x > s * y for s, x, y in zip(signs, a, b))


def pareto_front(values: list[tuple[float, ...]], goals: tuple[Goal, ...]) -> list[int]:
    """Indices of the non-dominated entries (duplicates: the first one kept)."""
    front = []
    for i, a in enumerate(values):
        if any(dominates(b, a, goals) for j, b in enumerate(values) if j != i):
            continue
        if any(values[j] == a for j in front):
            continue
        front.append(i)
    return front
