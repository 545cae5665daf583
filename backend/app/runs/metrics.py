"""The metrics of a run, declared once: what compare, sweeps and tunings read from a result.

Each metric has its sense (maximised or minimised), a label and unit for people, and where it is
read from. Job metrics are read from each job of the result's `jobs` (by name) and, as the run's
flat value, from its first job of the kinds the metric applies to. The frontend's copy
(frontend/src/lib/api/metrics.gen.ts) is generated from this table by scripts/gen-contracts.sh.
"""

from dataclasses import dataclass
from typing import Any, Literal

Goal = Literal["max", "min"]


@dataclass(frozen=True)
class Metric:
    """One metric: `column`: a column of runs (sweeps and the runs list read it there)."""

    name: str
    goal: Goal
    label: str
    unit: str
    description: str
    column: bool = True
    # a job's metric: its path inside a result job, and the job kinds that have it (None: every
    # job; "collective" jobs carry no `kind`)
    job_path: tuple[str, ...] | None = None
    job_kinds: tuple[str, ...] | None = None


METRICS: tuple[Metric, ...] = (
    Metric("throughput_gbps", "max", "Throughput", "Gbit/s", "goodput of every flow after the warm-up"),
    Metric("fct_p50_us", "min", "FCT p50", "us", "median flow completion time"),
    Metric("fct_p99_us", "min", "FCT p99", "us", "99th-percentile flow completion time"),
    Metric("slowdown_p99", "min", "Slowdown p99", "", "99th-percentile FCT over its ideal"),
    Metric("max_queue_bytes", "min", "Max queue", "bytes", "largest egress queue after the warm-up"),
    Metric(
        "queue_p99_bytes",
        "min",
        "Queue p99",
        "bytes",
        "largest 99th-percentile queue of any port (tunings only)",
        column=False,
    ),
    Metric("ecn_marked_packets", "min", "ECN-marked packets", "", "packets marked CE"),
    Metric("cnps_sent", "min", "CNPs sent", "", "congestion notification packets"),
    Metric("pfc_pauses_sent", "min", "PFC pauses sent", "", "PAUSE frames sent"),
    Metric("drops_total", "min", "Drops", "", "packets dropped, every reason"),
    Metric(
        "jct_us", "min", "Job completion time", "us", "a job's first start to last completion", job_path=("jct_us",)
    ),
    Metric(
        "busbw_gbps",
        "max",
        "Bus bandwidth",
        "Gbit/s",
        "a collective job's NCCL-tests busbw",
        job_path=("busbw_gbps",),
        job_kinds=("collective",),
    ),
    Metric(
        "iteration_us",
        "min",
        "Iteration time",
        "us",
        "a training job's mean iteration time",
        job_path=("training", "mean_iteration_us"),
        job_kinds=("training",),
    ),
    Metric(
        "tokens_per_s",
        "max",
        "Tokens per second",
        "tokens/s",
        "a training job's tokens per second of simulated time",
        job_path=("training", "tokens_per_s"),
        job_kinds=("training",),
    ),
    Metric(
        "exposed_dp_us",
        "min",
        "Exposed DP time",
        "us",
        "a training job's data-parallel communication not hidden behind compute, per iteration",
        job_path=("training", "exposed_us", "dp"),
        job_kinds=("training",),
    ),
    Metric(
        "exposed_tp_us",
        "min",
        "Exposed TP time",
        "us",
        "a training job's tensor-parallel communication not hidden behind compute, per iteration",
        job_path=("training", "exposed_us", "tp"),
        job_kinds=("training",),
    ),
)

BY_NAME = {m.name: m for m in METRICS}
GOALS: dict[str, Goal] = {m.name: m.goal for m in METRICS}
COLUMN_METRICS = tuple(m.name for m in METRICS if m.column)
JOB_METRICS = tuple(m.name for m in METRICS if m.job_path is not None)
# the kinds of job a scenario's traffic runs (a job of the result): generator kind -> job kind
JOB_GENERATORS = ("collective", "training")


def _job_kind(job: dict[str, Any]) -> str:
    return job.get("kind") or "collective"


def job_value(job: dict[str, Any], metric: str) -> float | None:
    """A job metric of one result job (None when the job's kind has none or it did not finish)."""
    spec = BY_NAME[metric]
    if spec.job_path is None or (spec.job_kinds is not None and _job_kind(job) not in spec.job_kinds):
        return None
    value: Any = job
    for key in spec.job_path:
        value = value.get(key) if isinstance(value, dict) else None
    return None if value is None else float(value)


def jobs_values(jobs: list[dict[str, Any]] | None) -> dict[str, dict[str, float | None]]:
    """Every job's metrics by job name (the metrics its kind has)."""
    out = {}
    for job in jobs or []:
        out[job["name"]] = {
            m: job_value(job, m)
            for m in JOB_METRICS
            if BY_NAME[m].job_kinds is None or _job_kind(job) in BY_NAME[m].job_kinds
        }
    return out


def first_job_values(jobs: list[dict[str, Any]] | None) -> dict[str, float | None]:
    """Each job metric's flat value: the first job's of the kinds it applies to (jct_us:
    result.jobs[0]; busbw_gbps: the first collective job; the training metrics: the first
    training job)."""
    out: dict[str, float | None] = {}
    for name in JOB_METRICS:
        kinds = BY_NAME[name].job_kinds
        first = next((j for j in jobs or [] if kinds is None or _job_kind(j) in kinds), None)
        out[name] = None if first is None else job_value(first, name)
    return out
