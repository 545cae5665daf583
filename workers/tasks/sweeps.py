"""Sweep tasks: expand a sweep into snapshots and runs, then fan the runs out as a group."""

from celery import group

from app.core.db import get_sessionmaker
from app.sweeps.models import Sweep
from app.sweeps.service import expand_sweep
from workers.celery_app import celery_app
from workers.tasks.runs import execute


@celery_app.task(name="sweeps.expand", acks_late=True)
def expand(sweep_id: str) -> int:
    """Create the points (idempotent) and enqueue their runs; never waits for them."""
    with get_sessionmaker()() as session:
        sweep = session.get(Sweep, sweep_id)
        if sweep is None:
            return 0
        run_ids = expand_sweep(session, sweep=sweep)
    if run_ids:
        group(execute.s(run_id).set(queue="sim") for run_id in run_ids).apply_async()
    return len(run_ids)
