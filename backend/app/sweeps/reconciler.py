"""The reconciler: no PENDING or RUNNING run is ever stranded, whatever the broker lost.

It lives with the sweeps, above the runs it reconciles: it knows which runs are sweep points (they
go to the batch queue) and requeues sweeps, and the runs package knows nothing of sweeps.

One pass (every REAPER_INTERVAL_S in the API process, in every deployment):
1. the stale-RUNNING reaper (app/runs/reaper.py): a run whose worker stopped heartbeating is
   requeued once or failed;
2. PENDING runs older than PENDING_GRACE_S whose `runs.execute` message is neither queued nor held
   unacknowledged by a worker are enqueued again (Redis restarted without persistence; a task
   acknowledged during a database outage);
3. likewise sweeps not yet expanded whose `sweeps.expand` message is gone;
4. screening sweeps whose flow-level stage has ended and whose best points have no packet-level
   runs yet get them (app/sweeps/screening.py; the worker that stored the last flow-level answer
   normally does it at once).

Enqueueing twice is harmless: claiming a run is a guarded UPDATE, so a second message finds the
run taken or final and is skipped. With several API processes a PostgreSQL advisory lock lets one
pass run at a time.
"""

import contextlib
import logging
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from datetime import timedelta

from sqlalchemy import or_, select, text
from sqlalchemy.engine import Engine
from sqlalchemy.orm import Session

from app.core.config import get_settings
from app.core.db import utcnow
from app.runs.models import Run, RunStatus
from app.runs.reaper import reap
from app.sweeps.models import Sweep, SweepPoint
from app.sweeps.screening import awaiting_promotion, promote

log = logging.getLogger(__name__)
ADVISORY_LOCK_KEY = 0x46547265636F6E  # "FTrecon"


@dataclass
class Pass:
    """What one pass did."""

    reaped: list[str] = field(default_factory=list)
    promoted_runs: list[str] = field(default_factory=list)
    requeued_runs: list[str] = field(default_factory=list)
    requeued_sweeps: list[str] = field(default_factory=list)
    skipped: str = ""


@contextlib.contextmanager
def exclusive(engine: Engine) -> Iterator[bool]:
    """True when this process may run the pass: a PostgreSQL advisory lock; SQLite has one API."""
    if engine.dialect.name != "postgresql":
        yield True
        return
    with engine.connect() as connection:
        got = connection.execute(text("SELECT pg_try_advisory_lock(:k)"),
                                 {"k": ADVISORY_LOCK_KEY}).scalar()
        try:
            yield bool(got)
        finally:
            if got:
                connection.execute(text("SELECT pg_advisory_unlock(:k)"), {"k": ADVISORY_LOCK_KEY})
            connection.commit()


def _is_point(session: Session, run_id: str) -> bool:
    """A sweep's point: its run goes to the batch queue."""
    return session.scalar(select(SweepPoint.id).where(
        or_(SweepPoint.run_id == run_id, SweepPoint.packet_run_id == run_id)).limit(1)) is not None


def _orphan_candidates(session: Session, grace_s: float) -> tuple[list[tuple[str, bool, int]], list[str]]:
    """PENDING runs (id, is a sweep point, threads) and unexpanded sweeps older than the grace
    period."""
    cutoff = utcnow() - timedelta(seconds=grace_s)
    point = select(SweepPoint.id).where(
        or_(SweepPoint.run_id == Run.id, SweepPoint.packet_run_id == Run.id)).exists()
    runs = session.execute(select(Run.id, point, Run.threads).where(
        Run.status == RunStatus.PENDING, Run.created_at < cutoff)).all()
    sweeps = session.scalars(select(Sweep.id).where(
        Sweep.expanded.is_(False), Sweep.cancelled.is_(False), Sweep.created_at < cutoff)).all()
    return [(r[0], bool(r[1]), r[2] or 1) for r in runs], list(sweeps)


def reconcile(session: Session, *, enqueue_run: Callable[..., object],
              enqueue_sweep: Callable[[str], object],
              held: Callable[[], set[tuple[str, str]]]) -> Pass:
    """One pass; `held()` lists the (task, argument) pairs the broker still has."""
    settings = get_settings()
    done = Pass(reaped=reap(session, enqueue=enqueue_run, is_batch=_is_point))
    for sweep_id in awaiting_promotion(session):
        for run_id in promote(session, sweep_id=sweep_id):
            enqueue_run(run_id, batch=True)
            done.promoted_runs.append(run_id)
    runs, sweeps = _orphan_candidates(session, settings.PENDING_GRACE_S)
    if not runs and not sweeps:
        return done
    try:
        in_broker = held()
    except Exception as exc:  # noqa: BLE001 - broker down: nothing is lost, try next pass
        done.skipped = f"broker unreachable: {type(exc).__name__}"
        return done
    for run_id, is_point, threads in runs:
        if ("runs.execute", run_id) in in_broker:
            continue
        if session.scalar(select(Run.status).where(Run.id == run_id)) != RunStatus.PENDING:
            continue  # claimed meanwhile
        enqueue_run(run_id, batch=is_point, threads=threads)
        done.requeued_runs.append(run_id)
    for sweep_id in sweeps:
        if ("sweeps.expand", sweep_id) not in in_broker:
            enqueue_sweep(sweep_id)
            done.requeued_sweeps.append(sweep_id)
    if done.requeued_runs or done.requeued_sweeps:
        log.warning("reconciler: %d PENDING runs and %d sweeps had no broker message: requeued",
                    len(done.requeued_runs), len(done.requeued_sweeps))
    return done


def reconcile_once() -> Pass:
    """One locked pass with the process's database and broker (the API loop and `runs.reap`)."""
    from app.core.db import get_engine, get_sessionmaker
    from app.core.queue import enqueue_run, enqueue_sweep, held_messages

    with exclusive(get_engine()) as mine:
        if not mine:
            return Pass(skipped="another process holds the reconciler lock")
        with get_sessionmaker()() as session:
            return reconcile(session, enqueue_run=enqueue_run, enqueue_sweep=enqueue_sweep,
                             held=held_messages)
