"""Sweep tasks: expand a sweep into snapshots and runs, then fan the runs out on the batch queue
in chunks (workers/batchrun.py). A screening sweep's flow-level chunks run in `screen`, which
promotes the best points to packet level once the last flow-level answer is stored."""

import os
from functools import partial

from celery import group

from app.core.config import get_settings
from app.core.db import get_sessionmaker
from app.core.queue import BATCH_QUEUE, celery_app
from app.sweeps.models import Sweep
from app.sweeps.screening import promote
from app.sweeps.service import expand_sweep
from workers.dbretry import DB_RETRY_TASK_OPTIONS
from workers.batchrun import chunks, execute_runs
from workers.tasks.runs import execute_batch


@celery_app.task(name="sweeps.expand", acks_late=True, **DB_RETRY_TASK_OPTIONS)
def expand(sweep_id: str) -> int:
    """Create the points (idempotent) and enqueue their runs slice by slice as they are stored;
    never waits for them. A database outage retries the task (it resumes where it stopped)."""
    with get_sessionmaker()() as session:
        sweep = session.get(Sweep, sweep_id)
        if sweep is None:
            return 0
        screened = bool(sweep.screening)
        fan_out = partial(_fan_out_screened, sweep_id) if screened else _fan_out
        run_ids = expand_sweep(session, sweep=sweep, dispatch=fan_out)
    fan_out(run_ids)  # PENDING runs of points stored by an earlier attempt
    if screened:
        _promote(sweep_id)  # every point's flow-level run may already exist (reused)
    return len(run_ids)


def _fan_out(run_ids: list[str]) -> None:
    """Chunks of points, each one task and one `fabricsim batch` process."""
    if run_ids:
        group(execute_batch.s(part).set(queue=BATCH_QUEUE) for part in chunks(run_ids)).apply_async()


def _fan_out_screened(sweep_id: str, run_ids: list[str]) -> None:
    """A screening sweep's flow-level chunks: each ends by trying the promotion."""
    if run_ids:
        group(screen.s(sweep_id, part).set(queue=BATCH_QUEUE) for part in chunks(run_ids)).apply_async()


def _promote(sweep_id: str) -> int:
    """The packet-level runs of the best points, once the flow stage has ended."""
    with get_sessionmaker()() as session:
        new = promote(session, sweep_id=sweep_id)
    _fan_out(new)
    return len(new)


@celery_app.task(name="sweeps.screen", bind=True, acks_late=True, reject_on_worker_lost=True,
                 **DB_RETRY_TASK_OPTIONS)
def screen(self, sweep_id: str, run_ids: list[str]) -> int:
    """A chunk of a screening sweep's flow-level runs, then the promotion if it was the last (the
    reconciler promotes too, should this message be lost after the runs were stored)."""
    outcome = execute_runs(run_ids, task_id=self.request.id or "local",
                           worker=f"{self.request.hostname} pid={os.getpid()}")
    if outcome.deferred:  # the client's concurrency quota is full: these wait their turn
        screen.apply_async((sweep_id, outcome.deferred), queue=BATCH_QUEUE,
                           countdown=get_settings().QUOTA_DEFER_S)
    return _promote(sweep_id)
