"""Stale-RUNNING reaper: a run whose worker stopped heartbeating is requeued once or failed."""

import logging
from collections.abc import Callable

from sqlalchemy import update
from sqlalchemy.orm import Session

from app.core.config import get_settings
from app.runs.models import Run, RunStatus
from app.runs.service import stale_runs

log = logging.getLogger(__name__)
MAX_ATTEMPTS = 2


def reap(session: Session, *, enqueue, is_batch: Callable[[Session, str], bool]) -> list[str]:
    """Requeue (attempts < 2) or fail each stale RUNNING run; returns the ids it touched.
    `is_batch(session, run_id)`: whether the run goes to the batch queue (a sweep's point; the
    reconciler, above both, knows)."""
    touched = []
    for run in stale_runs(session, stale_after_s=get_settings().HEARTBEAT_STALE_S):
        guard = (Run.id == run.id, Run.status == RunStatus.RUNNING, Run.heartbeat_at == run.heartbeat_at)
        if run.attempts < MAX_ATTEMPTS:
            result = session.execute(update(Run).where(*guard).values(
                status=RunStatus.PENDING, task_id=None, worker=None))
            session.commit()
            if result.rowcount == 1:
                log.warning("run %s: worker lost, requeued", run.id)
                try:
                    enqueue(run.id, batch=is_batch(session, run.id), threads=run.threads or 1)
                except Exception as exc:  # noqa: BLE001 - stays PENDING: the reconciler retries
                    log.warning("run %s: could not enqueue (%s)", run.id, type(exc).__name__)
        else:
            from app.core.db import utcnow

            result = session.execute(update(Run).where(*guard).values(
                status=RunStatus.FAILED, finished_at=utcnow(),
                error=f"worker lost {run.attempts} times (no heartbeat)"))
            session.commit()
        if result.rowcount == 1:
            touched.append(run.id)
    return touched
