"""A screening sweep's second stage: once every point has its flow-level answer, rank the points by
the screening's metric and run the best `keep` again at packet level (app/runs/screening.py).

`promote` is idempotent and safe to call from anywhere at any time (the worker that stored a
chunk of flow-level answers, the reconciler's pass): it does nothing until the flow stage has
ended, and the sweep's row lock lets one caller store the packet-level runs.
"""

from typing import Any

from sqlalchemy import select
from sqlalchemy.orm import Session

from app.runs.models import FINAL_STATES, Run, RunStatus
from app.runs.service import reusable_runs_by_content
from app.scenarios.models import ScenarioRow
from app.scenarios.service import new_id
from app.sweeps.models import Sweep, SweepPoint
from app.sweeps.schemas import SweepScreening


def figure(run: Run, screening: SweepScreening) -> float | None:
    """The run's value of the screening's metric (a named job's for jct_us and busbw_gbps)."""
    if screening.job and screening.metric in ("jct_us", "busbw_gbps"):
        return ((run.job_metrics or {}).get(screening.job) or {}).get(screening.metric)
    return getattr(run, screening.metric)


def ranking(points: list[tuple[int, Run]], screening: SweepScreening) -> list[int]:
    """Indexes of the points whose flow-level run succeeded with a value, best first (ties: the
    lower index)."""
    scored: list[tuple[float, int]] = []
    for index, run in points:
        value = figure(run, screening) if run.status == RunStatus.SUCCEEDED else None
        if value is not None:
            scored.append((value if screening.sense == "min" else -value, index))
    return [index for _value, index in sorted(scored)]


def promote(session: Session, *, sweep_id: str) -> list[str]:
    """Store the packet-level runs of the best points when the flow stage has just ended; returns
    the new run ids to execute (empty otherwise). Commits when it stores."""
    sweep = session.get(Sweep, sweep_id, with_for_update=True)
    if sweep is None or not sweep.screening or sweep.kept is not None or not sweep.expanded:
        session.rollback()
        return []
    rows = session.execute(
        select(SweepPoint, Run).join(Run, SweepPoint.run_id == Run.id).where(SweepPoint.sweep_id == sweep.id)
    ).all()
    if len(rows) < sweep.total or any(run.status not in FINAL_STATES for _p, run in rows):
        session.rollback()
        return []
    screening = SweepScreening.model_validate(sweep.screening)
    kept = [] if sweep.cancelled else ranking([(p.index, run) for p, run in rows], screening)[: screening.keep]
    points = {p.index: p for p, _run in rows}
    new = _packet_runs(session, sweep, [points[i] for i in kept])
    sweep.kept = kept
    session.commit()
    return new


def _packet_runs(session: Session, sweep: Sweep, points: list[SweepPoint]) -> list[str]:
    """Each point's packet-level run (an existing one of the same simulation when there is one);
    returns the new ones."""
    if not points:
        return []
    hashes: dict[str, str] = dict(
        session.execute(
            select(ScenarioRow.id, ScenarioRow.sim_hash).where(ScenarioRow.id.in_({p.scenario_id for p in points}))
        ).all()
    )
    runs: dict[tuple[str, int], Any] = reusable_runs_by_content(
        session, set(hashes.values()), [sweep.seed], engine="packet"
    )
    new: list[str] = []
    for point in points:
        key = (hashes[point.scenario_id], sweep.seed)
        run = runs.get(key)
        if run is None:
            run = Run(
                id=new_id(),
                scenario_id=point.scenario_id,
                seed=sweep.seed,
                status=RunStatus.PENDING,
                client=sweep.client,
                owner_hash=sweep.owner_hash,
                engine="packet",
            )
            session.add(run)
            runs[key] = run
            new.append(run.id)
        point.packet_run_id = run.id
    return new


def awaiting_promotion(session: Session) -> list[str]:
    """Screening sweeps expanded, not yet ranked (the reconciler promotes those whose flow stage
    has ended)."""
    return list(
        session.scalars(
            select(Sweep.id).where(Sweep.expanded.is_(True), Sweep.kept.is_(None), Sweep.screening.is_not(None))
        ).all()
    )
