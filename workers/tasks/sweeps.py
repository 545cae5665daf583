"""Sweep tasks: expand a sweep into snapshots and runs, then fan the runs out on the batch queue
in chunks (workers/batchrun.py)."""

from celery import group

from app.core.db import get_sessionmaker
from app.core.queue import BATCH_QUEUE, celery_app
from app.sweeps.models import Sweep
from app.sweeps.service import expand_sweep
from workers.dbretry import DB_RETRY_TASK_OPTIONS
from workers.batchrun import chunks
from workers.tasks.runs import execute_batch


@celery_app.task(name="sweeps.expand", acks_late=True, **DB_RETRY_TASK_OPTIONS)
def expand(sweep_id: str) -> int:
    """Create the points (idempotent) and enqueue their runs slice by slice as they are stored;
    never waits for them. A database outage retries the task (it resumes where it stopped)."""
    with get_sessionmaker()() as session:
        sweep = session.get(Sweep, sweep_id)
        if sweep is None:
            return 0
        run_ids = expand_sweep(session, sweep=sweep, dispatch=_fan_out)
    _fan_out(run_ids)  # PENDING runs of points stored by an earlier attempt
    return len(run_ids)


def _fan_out(run_ids: list[str]) -> None:
    """Chunks of points, each one task and one `fabricsim batch` process."""
    if run_ids:
        group(execute_batch.s(part).set(queue=BATCH_QUEUE) for part in chunks(run_ids)).apply_async()
