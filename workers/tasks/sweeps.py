"""Sweep tasks: expand a sweep into snapshots and runs, then fan the runs out on the batch queue
in chunks (workers/batchrun.py)."""

import logging

from celery import group

from app.core.db import DB_UNAVAILABLE, get_sessionmaker
from app.sweeps.models import Sweep
from app.sweeps.service import expand_sweep
from workers.celery_app import BATCH_QUEUE, celery_app
from workers.dbretry import backoff_s
from workers.batchrun import chunks
from workers.tasks.runs import execute_batch

log = logging.getLogger(__name__)


@celery_app.task(name="sweeps.expand", bind=True, acks_late=True, max_retries=None)
def expand(self, sweep_id: str) -> int:
    """Create the points (idempotent) and enqueue their runs; never waits for them."""
    try:
        with get_sessionmaker()() as session:
            sweep = session.get(Sweep, sweep_id)
            if sweep is None:
                return 0
            run_ids = expand_sweep(session, sweep=sweep)
    except DB_UNAVAILABLE as exc:
        delay = backoff_s(self.request.retries)
        log.warning("sweep %s: database unavailable (%s); retry in %.1f s", sweep_id,
                    type(exc).__name__, delay)
        raise self.retry(exc=exc, countdown=delay)
    if run_ids:  # chunks of points, each one task and one `fabricsim batch` process
        group(execute_batch.s(part).set(queue=BATCH_QUEUE) for part in chunks(run_ids)).apply_async()
    return len(run_ids)
