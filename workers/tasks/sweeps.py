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
    """Create the points (idempotent) and enqueue their runs slice by slice as they are stored;
    never waits for them."""
    try:
        with get_sessionmaker()() as session:
            sweep = session.get(Sweep, sweep_id)
            if sweep is None:
                return 0
            run_ids = expand_sweep(session, sweep=sweep, dispatch=_fan_out)
    except DB_UNAVAILABLE as exc:
        delay = backoff_s(self.request.retries)
        log.warning("sweep %s: database unavailable (%s); retry in %.1f s", sweep_id,
                    type(exc).__name__, delay)
        raise self.retry(exc=exc, countdown=delay)
    _fan_out(run_ids)  # PENDING runs of points stored by an earlier attempt
    return len(run_ids)


def _fan_out(run_ids: list[str]) -> None:
    """Chunks of points, each one task and one `fabricsim batch` process."""
    if run_ids:
        group(execute_batch.s(part).set(queue=BATCH_QUEUE) for part in chunks(run_ids)).apply_async()
