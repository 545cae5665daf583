"""Run tasks: execute one simulation; reap stale runs."""

import json
import logging
import shutil
import os
from pathlib import Path

from app.core.config import get_settings
from app.core.db import get_sessionmaker
from app.runs import execution
from workers.celery_app import celery_app
from workers.simprocess import command, run_simulator

log = logging.getLogger(__name__)


def _prepare(claim: execution.Claim, runs_dir: Path) -> Path:
    """A fresh per-run directory holding scenario.json (the run's seed applied)."""
    workdir = runs_dir / claim.run_id
    shutil.rmtree(workdir, ignore_errors=True)
    workdir.mkdir(parents=True)
    document = dict(claim.document, seed=claim.seed)
    (workdir / "scenario.json").write_text(json.dumps(document, indent=1))
    return workdir


@celery_app.task(name="runs.execute", bind=True, acks_late=True, reject_on_worker_lost=True)
def execute(self, run_id: str) -> str:
    """Claim the run, simulate it with limits, stream progress, store the result."""
    return execute_run(run_id, task_id=self.request.id or run_id,
                       worker=f"{self.request.hostname} pid={os.getpid()}")


def execute_run(run_id: str, *, task_id: str, worker: str) -> str:
    """One run in this process (also used by tasks that execute several runs in a row)."""
    settings = get_settings()
    sessions = get_sessionmaker()
    with sessions() as session:
        claim = execution.claim_run(session, run_id=run_id, task_id=task_id,
                                    worker=worker, stale_after_s=settings.HEARTBEAT_STALE_S)
    if claim is None:
        return "skipped"
    workdir = _prepare(claim, Path(settings.RUNS_DIR))
    argv = command(Path(settings.FABRICSIM_BIN), workdir, settings.RUN_MAX_WALL_S,
                   settings.RUN_MAX_MEMORY_MB)

    def tick(line):
        with sessions() as session:
            return execution.record_progress(session, claim=claim, line=line)

    try:
        outcome = run_simulator(argv, workdir, hard_wall_s=settings.RUN_MAX_WALL_S + 30,
                                tick_s=settings.PROGRESS_WRITE_INTERVAL_S, on_tick=tick)
    except OSError as exc:
        with sessions() as session:
            execution.finish_failure(session, claim=claim, error=f"cannot start fabricsim: {exc}")
        return "failed"
    return _finish(sessions, claim, workdir, outcome)


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


@celery_app.task(name="runs.reap")
def reap() -> list[str]:
    """Requeue or fail RUNNING runs whose heartbeat went stale (for celery beat deployments)."""
    from app.core.queue import enqueue_run
    from app.runs.reaper import reap as reap_runs

    with get_sessionmaker()() as session:
        return reap_runs(session, enqueue=enqueue_run)
