"""Run tasks: execute one simulation; reconcile stranded runs.

Database outages: claiming retries the task (Celery's autoretry with backoff and a cap,
workers/dbretry.py; the old message is acknowledged only after the new one is published); progress
writes are skipped (the simulation goes on); storing the outcome retries in place, since the result
file is already on disk.
"""

import json
import logging
import os
import shutil
from pathlib import Path

from app.core.config import get_settings
from app.core.db import DB_UNAVAILABLE, get_sessionmaker
from app.core.queue import BATCH_QUEUE, SIM_QUEUE, celery_app
from app.runs import execution
from workers import slots
from workers.dbretry import DB_RETRY_TASK_OPTIONS, with_db_retry
from workers.simprocess import command, run_simulator

log = logging.getLogger(__name__)


def _prepare(claim: execution.Claim, runs_dir: Path) -> Path:
    """A fresh per-run directory holding scenario.json (the run's seed applied)."""
    workdir = (runs_dir / claim.run_id).resolve()
    if workdir.parent != runs_dir.resolve():  # ids are server-made; never trust one blindly
        raise ValueError(f"run id {claim.run_id!r} is not a plain name")
    shutil.rmtree(workdir, ignore_errors=True)
    workdir.mkdir(parents=True)
    document = dict(claim.document, seed=claim.seed)
    (workdir / "scenario.json").write_text(json.dumps(document, indent=1))
    return workdir


@celery_app.task(name="runs.execute", bind=True, acks_late=True, reject_on_worker_lost=True,
                 **DB_RETRY_TASK_OPTIONS)
def execute(self, run_id: str, threads: int = 1) -> str:
    """Claim the run, simulate it with limits, stream progress, store the result. `threads`:
    the run's simulator threads (app.core.queue.enqueue_run sends the row's), the slots it holds.

    A database outage at claim raises out of here and Celery retries the task."""
    try:
        return execute_run(run_id, task_id=self.request.id or run_id,
                           worker=f"{self.request.hostname} pid={os.getpid()}", threads=threads)
    except execution.OverConcurrency:
        # The client already runs its quota of runs: leave the slot to others, try again later
        # (a new message, so waiting for a quota never counts against the database-retry cap).
        queue = (self.request.delivery_info or {}).get("routing_key") or SIM_QUEUE
        execute.apply_async((run_id,), {"threads": threads}, queue=queue,
                            countdown=get_settings().QUOTA_DEFER_S)
        return "deferred"


def execute_run(run_id: str, *, task_id: str, worker: str, threads: int = 1) -> str:
    """One run in this process, holding one of the machine's slots per simulator thread
    (workers/slots.py; taken before the claim, so that a run waiting for slots stays PENDING and
    needs no heartbeat); raises execution.OverConcurrency or a database error at claim."""
    settings = get_settings()
    with slots.hold(threads, *slots.slots_of(settings)):
        return _execute_claimed(run_id, task_id=task_id, worker=worker)


def _execute_claimed(run_id: str, *, task_id: str, worker: str) -> str:
    """Claim the run, simulate it, store the outcome (the caller holds the slots)."""
    settings = get_settings()
    sessions = get_sessionmaker()
    with sessions() as session:
        claim = execution.claim_run(session, run_id=run_id, task_id=task_id,
                                    worker=worker, stale_after_s=settings.HEARTBEAT_STALE_S,
                                    max_running=settings.QUOTA_CONCURRENT_RUNS)
    if claim is None:
        return "skipped"
    workdir = _prepare(claim, Path(settings.RUNS_DIR))
    argv = command(Path(settings.FABRICSIM_BIN), workdir, settings.RUN_MAX_WALL_S,
                   settings.RUN_MAX_MEMORY_MB, claim.threads, claim.engine)

    def tick(line):
        try:
            with sessions() as session:
                return execution.record_progress(session, claim=claim, line=line)
        except DB_UNAVAILABLE as exc:
            # Keep simulating: a missed heartbeat is harmless, the result is stored later.
            log.warning("run %s: database unavailable (%s); progress not stored", claim.run_id,
                        type(exc).__name__)
            return True

    try:
        outcome = run_simulator(argv, workdir, hard_wall_s=settings.RUN_MAX_WALL_S + 30,
                                tick_s=settings.PROGRESS_WRITE_INTERVAL_S, on_tick=tick,
                                nice=settings.SIM_NICE)
    except OSError as exc:
        with_db_retry(lambda: _fail(sessions, claim, f"cannot start fabricsim: {exc}"),
                      what=f"run {run_id}")
        return "failed"
    return with_db_retry(lambda: _finish(sessions, claim, workdir, outcome),
                         what=f"run {run_id}: storing the outcome")


def _fail(sessions, claim: execution.Claim, error: str) -> bool:
    with sessions() as session:
        return execution.finish_failure(session, claim=claim, error=error)


def _finish(sessions, claim: execution.Claim, workdir: Path, outcome) -> str:
    """Store SUCCEEDED with the result, or FAILED with the reason."""
    with sessions() as session:
        if outcome.killed_reason == "cancelled":
            return "cancelled"
        if outcome.returncode == 0:
            text = (workdir / "result.json").read_text()
            return "succeeded" if execution.finish_success(session, claim=claim,
                                                          result_text=text) else "superseded"
        kinds = {2: "invalid scenario", 3: "limit reached", 1: "simulator error"}
        kind = kinds.get(outcome.returncode, f"exit {outcome.returncode}")
        reason = outcome.error or outcome.killed_reason or "no message"
        execution.finish_failure(session, claim=claim, error=f"{kind}: {reason}")
        return "failed"


@celery_app.task(name="runs.execute_batch", bind=True, acks_late=True,
                 reject_on_worker_lost=True, **DB_RETRY_TASK_OPTIONS)
def execute_batch(self, run_ids: list[str]) -> int:
    """Several runs (sweep points) in one task and one `fabricsim batch` process; a database
    outage at claim retries the task."""
    from workers.batchrun import execute_runs

    outcome = execute_runs(run_ids, task_id=self.request.id or "local",
                           worker=f"{self.request.hostname} pid={os.getpid()}")
    if outcome.deferred:  # the client's concurrency quota is full: these wait their turn
        execute_batch.apply_async((outcome.deferred,), queue=BATCH_QUEUE,
                                  countdown=get_settings().QUOTA_DEFER_S)
    return len(outcome.done)


@celery_app.task(name="runs.reap")
def reap() -> dict:
    """One reconciler pass (the API runs it periodically; this task is for celery beat too)."""
    from dataclasses import asdict

    from app.sweeps.reconciler import reconcile_once

    return asdict(reconcile_once())
