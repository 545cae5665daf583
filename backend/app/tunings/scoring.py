"""A tuning evaluation's score from its runs (the driver's and the screening's second stage's
one scoring): objectives over scenarios and seeds, feasibility, losses, the metrics the page
shows."""

from typing import Any

from app.runs.models import Run, RunStatus
from app.tunings import objectives as O
from app.tunings.models import TuningEvaluation
from app.tunings.schemas import TuningCreate
from app.tunings.spec import losses_of
from app.tunings.strategies import PENALTY

SCALAR_METRICS = tuple(O.SINGLE_METRICS)


def score(
    spec: TuningCreate,
    objectives: list[O.Objective],
    constraints: list[O.Constraint],
    row: TuningEvaluation,
    runs: list[Run],
    per_run: list[dict[str, Any]],
) -> None:
    """The objectives over scenarios and seeds from each run's metrics, feasibility, losses."""
    bad = next((run for run in runs if run.status != RunStatus.SUCCEEDED), None)
    if bad is not None:
        row.status, row.error, row.feasible = RunStatus.FAILED, f"run {bad.id} {bad.status}: {bad.error}", False
        row.losses = [PENALTY] * len(objectives)
        return
    seeds = len(spec.seeds)
    grid = [per_run[i : i + seeds] for i in range(0, len(per_run), seeds)]
    estimates = [O.aggregate(o, grid, spec.aggregate) for o in objectives]
    missing = [o.label for o, e in zip(objectives, estimates) if e is None]
    row.feasible = O.feasible(constraints, grid) and not missing
    row.objectives = None if missing else [{"mean": m, "ci": ci} for m, ci in estimates]
    row.losses = losses_of(objectives, None if missing else estimates, row.feasible)
    row.metrics = {**_mean_metrics(per_run), **_mean_terms(objectives[0], per_run)}
    row.run_metrics = [{k: m.get(k) for k in SCALAR_METRICS} | _job_metrics(m) for m in per_run]
    row.wall_s = float(sum(run.wall_s or 0 for run in runs))
    row.status = "DONE"
    if missing:
        row.error = f"no value for {', '.join(missing)} (no completed flow?)"


def _mean_terms(objective: O.Objective, per_run: list[dict[str, Any]]) -> dict[str, float]:
    """The first objective's score split into its parts (composite objectives), as `term_*`
    means over runs: what the page shows beside a pick's score."""
    parts = [t for t in (O.terms(objective, m) for m in per_run) if t is not None]
    if not parts:
        return {}
    return {f"term_{k}": sum(p[k] for p in parts) / len(parts) for k in parts[0]}


def _job_metrics(metrics: dict[str, Any]) -> dict[str, float | None]:
    """Every job's metrics (those its kind has: app/runs/metrics.py), flat, keyed as an objective
    naming the job is labelled ("jct_us of ring", "iteration_us of llama")."""
    return {
        f"{metric} of {job}": value
        for job, v in (metrics.get("jobs") or {}).items()
        for metric, value in v.items()
        if metric in O.JOB_METRICS
    }


def _mean_metrics(per_run: list[dict[str, Any]]) -> dict[str, float | None]:
    out: dict[str, float | None] = {}
    names = list(SCALAR_METRICS) + [k for m in per_run for k in _job_metrics(m) if k not in SCALAR_METRICS]
    flat = [m | _job_metrics(m) for m in per_run]
    for name in dict.fromkeys(names):
        values = [m.get(name) for m in flat if m.get(name) is not None]
        out[name] = sum(values) / len(values) if values else None
    return out
