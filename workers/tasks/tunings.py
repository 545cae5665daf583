"""Tuning tasks: a chain of `step` tasks drives each tuning (ask -> store -> dispatch -> tell);
`evaluate` executes a chunk of runs in one task (fewer broker round trips than one task per
run) and wakes the tuning up; `kick` (re)starts a chain, on creation and on worker start, so a
tuning resumes after a restart from what the database holds."""

import logging
import math
import os
import uuid

from celery.signals import worker_ready
from sqlalchemy import select, update

from app.core.db import get_sessionmaker
from app.runs.models import FINAL_STATES, Run
from app.runs.service import fail_run
from app.tunings import driver
from app.tunings.models import Tuning
from workers.celery_app import BATCH_QUEUE, celery_app
from workers.tasks.runs import execute_run

log = logging.getLogger(__name__)
STEP_POLL_S = 1.0          # the chain's cadence; finished chunks wake the tuning at once
MAX_RUNS_PER_TASK = 16


def chunks(run_ids: list[str], workers_hint: int = 4) -> list[list[str]]:
    """Split a batch so that several workers share it, at most MAX_RUNS_PER_TASK per task."""
    size = max(1, min(MAX_RUNS_PER_TASK, math.ceil(len(run_ids) / workers_hint)))
    return [run_ids[i:i + size] for i in range(0, len(run_ids), size)]


@celery_app.task(name="tunings.kick")
def kick(tuning_id: str) -> str:
    """Start a new step chain (an older chain sees another token and stops)."""
    token = uuid.uuid4().hex
    with get_sessionmaker()() as session:
        moved = session.execute(update(Tuning).where(
            Tuning.id == tuning_id, Tuning.status.not_in(FINAL_STATES)).values(chain_token=token))
        session.commit()
    if moved.rowcount != 1:
        return "final"
    step.apply_async((tuning_id, token, True), queue="celery")
    return token


@celery_app.task(name="tunings.step", acks_late=True)
def step(tuning_id: str, token: str | None = None, redispatch: bool = False) -> str:
    """One step; a chain step (token given) schedules the next one until the tuning ends."""
    outcome = driver.StepOutcome()
    try:
        with get_sessionmaker()() as session:
            if token is not None:
                row = session.get(Tuning, tuning_id)
                if row is None or row.chain_token != token:
                    return "stale chain"
            outcome = driver.step(session, tuning_id, redispatch=redispatch)
        for part in chunks(outcome.dispatch):
            evaluate.apply_async((tuning_id, part), queue=BATCH_QUEUE)
    finally:
        # the chain outlives a failed step (database hiccup): it is the tuning's heartbeat
        if token is not None and not outcome.final:
            step.apply_async((tuning_id, token), queue="celery", countdown=STEP_POLL_S)
    return "final" if outcome.final else f"dispatched {len(outcome.dispatch)}"


@celery_app.task(name="tunings.evaluate", bind=True, acks_late=True, reject_on_worker_lost=True,
                 max_retries=None)
def evaluate(self, tuning_id: str, run_ids: list[str]) -> int:
    """Execute runs one after another in this process, then wake the tuning (one-shot step)."""
    sessions = get_sessionmaker()
    worker = f"{self.request.hostname} pid={os.getpid()}"
    done = 0
    for run_id in run_ids:
        with sessions() as session:
            tuning = session.get(Tuning, tuning_id)
            if tuning is not None and tuning.cancelled:
                fail_run(session, run_id=run_id, error="tuning cancelled before this run started")
                continue
        execute_run(run_id, task_id=f"{self.request.id or 'local'}:{run_id}"[:64], worker=worker,
                    retry=self.retry, retries=self.request.retries)
        done += 1
    step.apply_async((tuning_id,), queue="celery")
    return done


@worker_ready.connect
def _resume(**_kwargs) -> None:
    """A worker (re)started: restart the chain of every unfinished tuning."""
    try:
        with get_sessionmaker()() as session:
            ids = list(session.scalars(select(Tuning.id).where(
                Tuning.status.not_in(FINAL_STATES))).all())
    except Exception as exc:  # noqa: BLE001 - a worker must start even if the DB is not there yet
        log.warning("tunings not resumed: %s", exc)
        return
    for tuning_id in ids:
        kick.apply_async((tuning_id,), queue="celery")
