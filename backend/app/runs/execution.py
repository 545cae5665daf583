"""Database side of executing a run: claim, heartbeat/progress, finish. Every write is guarded
by the claim (task id + attempt), so a lost or cancelled execution can never overwrite the row."""

import hashlib
import json
from dataclasses import dataclass
from typing import Any

from sqlalchemy import func, select, update
from sqlalchemy.orm import Session

from app.core.db import utcnow
from app.runs.metrics import first_job_values, jobs_values
from app.runs.models import FINAL_STATES, Run, RunResult, RunStatus
from app.runs.reaper import MAX_ATTEMPTS


@dataclass(frozen=True)
class Claim:
    """What a worker holds while it executes a run."""

    run_id: str
    task_id: str
    attempt: int
    seed: int
    document: dict[str, Any]
    threads: int = 1
    engine: str = "packet"


def _guard(claim: Claim) -> tuple:
    """WHERE clause: still RUNNING under this claim."""
    return (Run.id == claim.run_id, Run.status == RunStatus.RUNNING, Run.task_id == claim.task_id,
            Run.attempts == claim.attempt)


class OverConcurrency(Exception):
    """The run's client already has its quota of executions running: try again later."""


def _client_executions(session: Session, run: Run, worker: str) -> int:
    """Executions of the run's client running elsewhere: distinct worker processes holding a
    RUNNING run of that client, other than `worker`. A chunk of a sweep or tuning is claimed at
    once but simulated one run after another by one process, so it is one execution, as a single
    run is; counting its claimed rows instead made a chunk of 16 fill a quota of 4 and wait
    QUOTA_DEFER_S for the rest. Counted under a per-client lock (PostgreSQL advisory transaction
    lock) so two workers cannot both take the last slot."""
    if session.get_bind().dialect.name == "postgresql":
        session.execute(select(func.pg_advisory_xact_lock(func.hashtext(run.client))))
    return session.scalar(select(func.count(func.distinct(Run.worker))).where(
        Run.client == run.client, Run.status == RunStatus.RUNNING, Run.id != run.id,
        Run.worker != worker[:200])) or 0


def claim_run(session: Session, *, run_id: str, task_id: str, worker: str,
              stale_after_s: float, max_running: int = 0) -> Claim | None:
    """Take the run for this task, or None when it is final or held by a live execution.
    OverConcurrency when its client already has `max_running` executions elsewhere (0: no
    limit; see _client_executions).

    A RUNNING row with our own task id means this message was redelivered after the worker
    died (acks_late + reject_on_worker_lost): take it over, once. The same holds for a
    RUNNING row whose heartbeat went stale.
    """
    run = session.get(Run, run_id)
    if run is None or run.status in FINAL_STATES:
        return None
    if run.status == RunStatus.RUNNING:
        stale = run.heartbeat_at is None or (utcnow() - _aware(run.heartbeat_at)).total_seconds() > stale_after_s
        if run.task_id != task_id and not stale:
            return None
        if run.attempts >= MAX_ATTEMPTS:
            _fail_lost(session, run)
            return None
    if max_running > 0 and run.client is not None and _client_executions(session, run, worker) >= max_running:
        session.rollback()
        raise OverConcurrency(run.client)
    now, seen_status, attempt = utcnow(), run.status, run.attempts + 1
    scenario_id, seed, threads, engine = run.scenario_id, run.seed, run.threads or 1, run.engine or "packet"
    result = session.execute(update(Run).where(
        Run.id == run_id, Run.status == seen_status, Run.attempts == attempt - 1).values(
        status=RunStatus.RUNNING, attempts=attempt, task_id=task_id, worker=worker[:200],
        started_at=now, heartbeat_at=now, finished_at=None, error=None, progress=0.0),
        execution_options={"synchronize_session": False})
    session.commit()
    if result.rowcount != 1:
        return None
    from app.scenarios.models import ScenarioRow

    document = session.get(ScenarioRow, scenario_id).document
    return Claim(run_id, task_id, attempt, seed, document, threads, engine)


def _aware(moment):
    """SQLite returns naive datetimes (stored as UTC)."""
    from datetime import timezone

    return moment if moment.tzinfo else moment.replace(tzinfo=timezone.utc)


def _fail_lost(session: Session, run: Run) -> None:
    """A run whose workers died MAX_ATTEMPTS times ends FAILED."""
    session.execute(update(Run).where(Run.id == run.id, Run.status == RunStatus.RUNNING).values(
        status=RunStatus.FAILED, finished_at=utcnow(),
        error=f"worker lost during {run.attempts} attempts"))
    session.commit()


def record_progress(session: Session, *, claim: Claim, line: dict[str, Any] | None) -> bool:
    """Heartbeat plus the latest progress line; False when the claim is gone (cancelled)."""
    values: dict[str, Any] = {"heartbeat_at": utcnow()}
    if line:
        sim, total = int(line.get("sim_time_ns", 0)), int(line.get("duration_ns", 0))
        values.update(sim_time_ns=sim, duration_ns=total, events=int(line.get("events", 0)),
                      wall_s=float(line.get("wall_s", 0.0)),
                      progress=min(1.0, sim / total) if total else 0.0)
    result = session.execute(update(Run).where(*_guard(claim)).values(**values))
    session.commit()
    return result.rowcount == 1


def job_metrics(jobs: list[dict[str, Any]] | None) -> dict[str, Any]:
    """Each job metric's flat value (app/runs/metrics.py: JCT and busbw of result.jobs[0], the
    training metrics of the first training job), and every job's by name (`job_metrics`); null
    without a job."""
    return {**first_job_values(jobs), "job_metrics": jobs_values(jobs) or None}


def metrics_of(summary: dict[str, Any], jobs: list[dict[str, Any]] | None = None) -> dict[str, Any]:
    """The summary columns of a result (and its first job's, from its `jobs` list)."""
    fct, slowdown = summary.get("fct_us") or {}, summary.get("slowdown") or {}
    return {**job_metrics(jobs),
        "throughput_gbps": summary.get("throughput_gbps"), "fct_p50_us": fct.get("p50"),
        "fct_p99_us": fct.get("p99"), "slowdown_p99": slowdown.get("p99"),
        "max_queue_bytes": summary.get("max_queue_bytes"),
        "ecn_marked_packets": summary.get("ecn_marked_packets"),
        "cnps_sent": summary.get("cnps_sent"), "pfc_pauses_sent": summary.get("pfc_pauses_sent"),
        "drops_total": (summary.get("drops") or {}).get("total"),
    }


def _success_values(result_text: str) -> dict[str, Any]:
    """Column values of a SUCCEEDED run from its result."""
    result = json.loads(result_text)
    info = result.get("run_info", {})
    parallel = result.get("perf", {}).get("parallel") or {}
    return dict(
        status=RunStatus.SUCCEEDED, finished_at=utcnow(), heartbeat_at=utcnow(), progress=1.0,
        sim_time_ns=int(info.get("sim_time_ns", 0)), duration_ns=int(info.get("duration_ns", 0)),
        events=int(info.get("events", 0)), wall_s=float(result.get("perf", {}).get("wall_s", 0)),
        partitions=int(parallel.get("partitions", 1)),
        summary=result.get("summary"), **metrics_of(result.get("summary", {}), result.get("jobs")))


def finish_success(session: Session, *, claim: Claim, result_text: str) -> bool:
    """Store the result (upsert by run id) and mark SUCCEEDED in one transaction."""
    updated = session.execute(update(Run).where(*_guard(claim)).values(
        **_success_values(result_text)))
    if updated.rowcount != 1:
        session.rollback()
        return False
    session.merge(RunResult(run_id=claim.run_id, result_json=result_text,
                            sha256=hashlib.sha256(result_text.encode()).hexdigest()))
    session.commit()
    return True


def finish_failure(session: Session, *, claim: Claim, error: str) -> bool:
    """Mark FAILED with the simulator's one-line reason."""
    updated = session.execute(update(Run).where(*_guard(claim)).values(
        status=RunStatus.FAILED, finished_at=utcnow(), error=error[:2000]))
    session.commit()
    return updated.rowcount == 1


def heartbeat_many(session: Session, *, claims: list[Claim]) -> set[str]:
    """Heartbeat of several runs executing in one batch; returns the ids still held."""
    held: set[str] = set()
    now = utcnow()
    for claim in claims:
        if session.execute(update(Run).where(*_guard(claim)).values(heartbeat_at=now)).rowcount == 1:
            held.add(claim.run_id)
    session.commit()
    return held


def finish_many(session: Session, *, outcomes: list[tuple[Claim, str | None, str]]) -> int:
    """Store a batch's outcomes in one transaction: (claim, result text or None, error).
    A run whose claim is gone (cancelled, superseded) is left as it is; returns how many were
    stored. One commit instead of one per run is most of what batching saves on the database."""
    stored = 0
    for claim, result_text, error in outcomes:
        if result_text is None:
            stored += session.execute(update(Run).where(*_guard(claim)).values(
                status=RunStatus.FAILED, finished_at=utcnow(), error=error[:2000])).rowcount
            continue
        updated = session.execute(update(Run).where(*_guard(claim)).values(
            **_success_values(result_text)))
        if updated.rowcount == 1:
            session.merge(RunResult(run_id=claim.run_id, result_json=result_text,
                                    sha256=hashlib.sha256(result_text.encode()).hexdigest()))
            stored += 1
    session.commit()
    return stored
