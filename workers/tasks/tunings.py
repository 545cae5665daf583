"""Tuning tasks: a chain of `step` tasks drives each tuning (ask -> store -> dispatch -> tell);
`evaluate` executes a chunk of runs in one task and one `fabricsim batch` process (fewer broker
round trips, commits and process starts than one task per run) and wakes the tuning up; `kick` (re)starts a chain, on creation and on worker start, so a
tuning resumes after a restart from what the database holds."""

import logging
import os
import uuid

from celery.signals import worker_ready
from sqlalchemy import select, update

from app.core.config import get_settings
from app.core.db import DB_UNAVAILABLE, get_sessionmaker
from app.runs.models import FINAL_STATES, Run
from app.runs.service import fail_run
from app.tunings import driver
from app.tunings.models import Tuning
from workers.batchrun import chunks, execute_runs
from workers.celery_app import BATCH_QUEUE, celery_app
from workers.dbretry import backoff_s

log = logging.getLogger(__name__)
STEP_POLL_S = 1.0          # the chain's cadence; finished chunks wake the tuning at once


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
    """Execute a chunk of runs in one `fabricsim batch` process (workers/batchrun.py), then
    wake the tuning (one-shot step). Runs of a cancelled tuning are failed, not simulated."""
    sessions = get_sessionmaker()
    with sessions() as session:
        tuning = session.get(Tuning, tuning_id)
        cancelled = tuning is not None and tuning.cancelled
        if cancelled:
            for run_id in run_ids:
                fail_run(session, run_id=run_id, error="tuning cancelled before this run started")
    if cancelled:
        step.apply_async((tuning_id,), queue="celery")
        return 0
    try:
        outcome = execute_runs(run_ids, task_id=self.request.id or "local",
                               worker=f"{self.request.hostname} pid={os.getpid()}")
    except DB_UNAVAILABLE as exc:
        raise self.retry(exc=exc, countdown=backoff_s(self.request.retries))
    if outcome.deferred:  # the client's concurrency quota is full: these wait their turn
        evaluate.apply_async((tuning_id, outcome.deferred), queue=BATCH_QUEUE,
                             countdown=get_settings().QUOTA_DEFER_S)
    step.apply_async((tuning_id,), queue="celery")
    return len(outcome.done)


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
