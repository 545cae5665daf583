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
from app.core.db import get_sessionmaker
from app.core.queue import BATCH_QUEUE, celery_app
from app.runs.models import FINAL_STATES, Run
from app.runs.service import fail_run
from app.tunings import driver
from app.tunings.models import Tuning
from workers.batchrun import chunks, execute_runs
from workers.dbretry import DB_RETRY_TASK_OPTIONS

log = logging.getLogger(__name__)
STEP_POLL_S = 1.0          # the chain's cadence (its heartbeat); finished chunks wake it sooner
WAKE_AFTER_S = 0.25        # a wake waits this long, so the chunks ending together share a step
WAKE_KEY_TTL_S = 30        # a wake flag outlives no lost message by more than this
_redis = None


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
            if token is None:
                _wake_taken(tuning_id)  # results committed from now on need another wake
            outcome = driver.step(session, tuning_id, redispatch=redispatch)
        for part in chunks(outcome.dispatch):
            evaluate.apply_async((tuning_id, part), queue=BATCH_QUEUE)
    finally:
        # the chain outlives a failed step (database hiccup): it is the tuning's heartbeat
        if token is not None and not outcome.final:
            step.apply_async((tuning_id, token), queue="celery", countdown=STEP_POLL_S)
    return "final" if outcome.final else f"dispatched {len(outcome.dispatch)}"


@celery_app.task(name="tunings.evaluate", bind=True, acks_late=True, reject_on_worker_lost=True,
                 **DB_RETRY_TASK_OPTIONS)
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
        wake(tuning_id)
        return 0
    outcome = execute_runs(run_ids, task_id=self.request.id or "local",
                           worker=f"{self.request.hostname} pid={os.getpid()}")
    if outcome.deferred:  # the client's concurrency quota is full: these wait their turn
        evaluate.apply_async((tuning_id, outcome.deferred), queue=BATCH_QUEUE,
                             countdown=get_settings().QUOTA_DEFER_S)
    wake(tuning_id)
    return len(outcome.done)


def _wake_key(tuning_id: str) -> str:
    return f"fabrictwin:tuning-wake:{tuning_id}"


def _client():
    global _redis
    if _redis is None:
        import redis

        _redis = redis.Redis.from_url(celery_app.conf.broker_url, socket_timeout=5,
                                      socket_connect_timeout=5)
    return _redis


def wake(tuning_id: str) -> None:
    """Ask for one step soon, unless a wake is already queued and not yet started: that one will
    read what the caller committed. So a tuning steps at most once per wake however many chunks
    end (with 3,300 points in chunks of 16, one step per chunk was a third of a worker's time),
    and never misses a result: the step clears the flag before it reads the database."""
    try:
        queued = not _client().set(_wake_key(tuning_id), "1", nx=True, ex=WAKE_KEY_TTL_S)
    except Exception as exc:  # noqa: BLE001 - without the flag, wake anyway: a step is idempotent
        log.warning("tuning wake flag unavailable (%s); waking anyway", type(exc).__name__)
        queued = False
    if not queued:
        step.apply_async((tuning_id,), queue="celery", countdown=WAKE_AFTER_S)


def _wake_taken(tuning_id: str) -> None:
    try:
        _client().delete(_wake_key(tuning_id))
    except Exception as exc:  # noqa: BLE001 - the flag expires on its own; the chain still polls
        log.warning("tuning wake flag not cleared (%s)", type(exc).__name__)


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
