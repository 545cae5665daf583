"""Runs: create (with result caching), cancel, read results."""

import json
from datetime import timedelta
from functools import lru_cache
from typing import Any

from sqlalchemy import select, update
from sqlalchemy.orm import Session

from app.core.db import newest_first_page, utcnow
from app.runs.models import FINAL_STATES, Run, RunResult, RunStatus
from app.runs.schemas import METRIC_NAMES, RunMetrics, RunPublic
from app.scenarios.service import new_id


def to_public(run: Run, cached: bool = False) -> RunPublic:
    """Row -> RunPublic."""
    metrics = None
    if run.status == RunStatus.SUCCEEDED:
        metrics = RunMetrics(**{name: getattr(run, name) for name in METRIC_NAMES}, jobs=run.job_metrics)
    return RunPublic(
        id=run.id, scenario_id=run.scenario_id, seed=run.seed, status=run.status,
        progress=run.progress, sim_time_ns=run.sim_time_ns, duration_ns=run.duration_ns,
        events=run.events, wall_s=run.wall_s, attempts=run.attempts, error=run.error,
        created_at=run.created_at, started_at=run.started_at, finished_at=run.finished_at,
        cached=cached, threads=run.threads or 1, partitions=run.partitions,
        engine=run.engine or "packet", summary=metrics)


def reusable_run(session: Session, *, scenario_id: str, seed: int, engine: str = "packet") -> Run | None:
    """A run of this scenario+seed on this engine that succeeded, else one still pending or running."""
    for states in ((RunStatus.SUCCEEDED,), (RunStatus.PENDING, RunStatus.RUNNING)):
        run = session.scalars(select(Run).where(
            Run.scenario_id == scenario_id, Run.seed == seed, Run.engine == engine,
            Run.status.in_(states))
            .order_by(Run.created_at.desc()).limit(1)).first()
        if run is not None:
            return run
    return None


def reusable_runs_by_content(session: Session, sim_hashes: set[str], seeds: list[int],
                             engine: str = "packet") -> dict[tuple[str, int], Run]:
    """Per (sim_hash, seed), the run of `engine` to reuse for any scenario snapshot that simulates
    the same: the newest that succeeded, else the newest in flight; many points in one query."""
    from app.scenarios.models import ScenarioRow

    if not sim_hashes:
        return {}
    found = session.execute(
        select(Run, ScenarioRow.sim_hash).join(ScenarioRow, ScenarioRow.id == Run.scenario_id)
        .where(ScenarioRow.sim_hash.in_(sim_hashes), Run.seed.in_(set(seeds)), Run.engine == engine,
               Run.status.in_((RunStatus.SUCCEEDED, RunStatus.PENDING, RunStatus.RUNNING)))
        .order_by(Run.created_at.desc())).all()
    out: dict[tuple[str, int], Run] = {}
    for run, sim_hash in found:
        key = (sim_hash, run.seed)
        if key not in out or (run.status == RunStatus.SUCCEEDED and out[key].status != RunStatus.SUCCEEDED):
            out[key] = run
    return out


def create_runs(session: Session, *, scenario_id: str, seeds: list[int],
                client: str | None = None, owner_hash: str | None = None,
                threads: int = 1, engine: str = "packet") -> list[tuple[Run, bool]]:
    """One run per seed: (run, cached); a SUCCEEDED or in-flight run of the same engine is
    reused, whatever threads it ran on (results are the same bytes for every thread count outside
    `perf`). Commits."""
    out: list[tuple[Run, bool]] = []
    for seed in seeds:
        existing = reusable_run(session, scenario_id=scenario_id, seed=seed, engine=engine)
        if existing is not None:
            out.append((existing, existing.status == RunStatus.SUCCEEDED))
            continue
        run = Run(id=new_id(), scenario_id=scenario_id, seed=seed, status=RunStatus.PENDING,
                  client=client, owner_hash=owner_hash, threads=threads, engine=engine)
        session.add(run)
        out.append((run, False))
    session.commit()
    return out


def list_runs(session: Session, *, scenario_id: str | None, status: str | None, limit: int,
              offset: int, owned_by: tuple[str, ...] | None = None) -> tuple[list[Run], int]:
    """Newest first, optionally filtered; with `owned_by` (token hashes) only the runs these own."""
    query = select(Run)
    if scenario_id:
        query = query.where(Run.scenario_id == scenario_id)
    if status:
        query = query.where(Run.status == status)
    if owned_by is not None:
        query = query.where(Run.owner_hash.in_(owned_by))
    return newest_first_page(session, query, Run, limit=limit, offset=offset)


def cancel_run(session: Session, *, run: Run) -> bool:
    """Mark a non-final run CANCELLED (the worker polls the row and kills the simulator)."""
    done = session.execute(
        update(Run).where(Run.id == run.id, Run.status.not_in(FINAL_STATES))
        .values(status=RunStatus.CANCELLED, finished_at=utcnow(), error="cancelled by user"))
    session.commit()
    session.refresh(run)
    return done.rowcount == 1


def fail_run(session: Session, *, run_id: str, error: str) -> None:
    """Mark a non-final run FAILED with a one-line reason."""
    session.execute(update(Run).where(Run.id == run_id, Run.status.not_in(FINAL_STATES))
                    .values(status=RunStatus.FAILED, error=error[:2000], finished_at=utcnow()))
    session.commit()


@lru_cache(maxsize=16)
def _parsed(run_id: str, sha256: str) -> dict[str, Any]:
    """Parsed result JSON (immutable once stored, so cached by id and hash)."""
    from app.core.db import get_sessionmaker

    with get_sessionmaker()() as session:
        return json.loads(session.get(RunResult, run_id).result_json)


def result_sha256(session: Session, *, run: Run) -> str | None:
    """The hash of the run's stored result, or None; reads only the hash, not the result."""
    return session.scalar(select(RunResult.sha256).where(RunResult.run_id == run.id))


def parsed_result(run_id: str, sha256: str) -> dict[str, Any]:
    """The parsed result of `run_id` whose stored hash is `sha256` (cached)."""
    return _parsed(run_id, sha256)


def raw_result(session: Session, *, run: Run) -> str | None:
    """The result exactly as the simulator wrote it."""
    row = session.get(RunResult, run.id)
    return None if row is None else row.result_json


def stale_runs(session: Session, *, stale_after_s: float) -> list[Run]:
    """RUNNING rows whose heartbeat is older than `stale_after_s`."""
    limit = utcnow() - timedelta(seconds=stale_after_s)
    return list(session.scalars(select(Run).where(
        Run.status == RunStatus.RUNNING, Run.heartbeat_at < limit)).all())
