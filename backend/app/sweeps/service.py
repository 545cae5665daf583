"""Sweeps: create (validated grid), expand into snapshots and runs, derive status and table."""

import threading
from collections import OrderedDict
from collections.abc import Callable
from typing import Any

from pydantic_core import to_json
from sqlalchemy import func, select, update
from sqlalchemy.orm import Session, aliased

from app.core.db import newest_first_page, utcnow
from app.runs.models import FINAL_STATES, Run, RunStatus
from app.runs.schemas import METRIC_NAMES, RunMetrics
from app.runs.service import reusable_runs_by_content
from app.scenarios.models import ScenarioRow
from app.scenarios.document import Scenario
from app.scenarios.service import create_scenario, new_id
from app.sweeps.grid import build_points
from app.sweeps.models import Sweep, SweepPoint
from app.sweeps.schemas import (SweepCreate, SweepProgress, SweepPublic,
                                SweepSummary)


def create_sweep(session: Session, *, base: ScenarioRow, body: SweepCreate,
                 client: str | None = None, owner_hash: str | None = None) -> Sweep:
    """Validate every point now (422 on the first bad one) and store the sweep. Commits."""
    build_points(base.document, body)
    sweep = Sweep(id=new_id(), scenario_id=base.id, seed=body.seed,
                  parameters=[p.model_dump(mode="json") for p in body.parameters],
                  linked=[link.model_dump(mode="json", by_alias=True) for link in body.linked],
                  screening=body.screening.model_dump(mode="json") if body.screening else None,
                  total=_grid_size(body), client=client, owner_hash=owner_hash)
    session.add(sweep)
    session.commit()
    return sweep


def _grid_size(body: SweepCreate) -> int:
    """Number of points of the grid."""
    size = 1
    for parameter in body.parameters:
        size *= len(parameter.values)
    return size


def grid_size(body: SweepCreate) -> int:
    """Public alias used by the router for the point limit."""
    return _grid_size(body)


EXPAND_SLICE = 256  # points stored per commit; each slice goes to the workers at once
Slice = list[tuple[int, dict[str, Any], ScenarioRow]]  # (point index, params, snapshot)


def expand_sweep(session: Session, *, sweep: Sweep,
                 dispatch: Callable[[list[str]], None] | None = None) -> list[str]:
    """Create each point's snapshot and run, EXPAND_SLICE points per commit; returns the run ids
    still to execute that were not handed to `dispatch`.

    With `dispatch`, each slice's new runs are handed over as soon as the slice is committed, so
    the workers simulate the first points while the rest are stored (expanding 3,300 points took
    10 s before the first one ran). Idempotent and resumable: points already stored (an earlier
    attempt that died midway) are kept and their PENDING runs returned again; a cancel stops the
    expansion at the next slice."""
    if sweep.cancelled:
        return []
    stored = {p.index: p for p in _points(session, sweep.id)}
    again = [p.run_id for p in stored.values()
             if session.get(Run, p.run_id).status == RunStatus.PENDING]
    if sweep.expanded:
        return again
    base = session.get(ScenarioRow, sweep.scenario_id)
    body = SweepCreate(scenario_id=sweep.scenario_id, seed=sweep.seed,
                       parameters=sweep.parameters, linked=sweep.linked, screening=sweep.screening)
    left: list[str] = list(again)
    pending: Slice = []
    for index, (params, scenario) in enumerate(build_points(base.document, body)):
        if index in stored:
            continue
        row, _token = create_scenario(session, scenario=_named(scenario, base, params),
                                      parent_id=base.id, sweep_id=sweep.id, commit=False,
                                      owner_hash=sweep.owner_hash)
        pending.append((index, params, row))
        if len(pending) >= EXPAND_SLICE:
            left += _store_slice(session, sweep, pending, dispatch)
            pending = []
            session.refresh(sweep)
            if sweep.cancelled:
                return left
    left += _store_slice(session, sweep, pending, dispatch)
    sweep.expanded = True
    session.commit()
    return left


def _store_slice(session: Session, sweep: Sweep, points: Slice,
                 dispatch: Callable[[list[str]], None] | None) -> list[str]:
    """Runs (one query for the reusable ones) and points of a slice of snapshots, committed;
    the new runs go to `dispatch` when there is one, else they are returned."""
    engine = first_engine(sweep)
    runs = reusable_runs_by_content(session, {row.sim_hash for _i, _p, row in points},
                                    [sweep.seed], engine=engine)
    new: list[str] = []
    for index, params, row in points:
        run = runs.get((row.sim_hash, sweep.seed))
        if run is None:
            run = Run(id=new_id(), scenario_id=row.id, seed=sweep.seed, status=RunStatus.PENDING,
                      client=sweep.client, owner_hash=sweep.owner_hash, engine=engine)
            session.add(run)
            runs[(row.sim_hash, sweep.seed)] = run  # the same simulation twice: one run
            new.append(run.id)
        session.add(SweepPoint(sweep_id=sweep.id, index=index, params=params,
                               scenario_id=row.id, run_id=run.id))
    session.commit()
    if dispatch is not None and new:
        dispatch(new)
        return []
    return new


def first_engine(sweep: Sweep) -> str:
    """The engine of every point's first run: "flow" when the sweep screens."""
    return sweep.screening["engine"] if sweep.screening else "packet"


def _named(scenario: Scenario, base: ScenarioRow, params: dict[str, Any]) -> Scenario:
    """The point's scenario, named after the base and its parameter values."""
    label = ", ".join(f"{k.rsplit('.', 1)[-1]}={v}" for k, v in params.items())
    return scenario.model_copy(update={"name": f"{base.name} [{label}]"[:200]})


def _points(session: Session, sweep_id: str) -> list[SweepPoint]:
    """Points in index order."""
    return list(session.scalars(select(SweepPoint).where(SweepPoint.sweep_id == sweep_id)
                                .order_by(SweepPoint.index)).all())


def _status_counts(session: Session, sweep_id: str) -> dict[str, int]:
    """Number of the sweep's stored runs per status (a screened point's packet-level run too)."""
    counts: dict[str, int] = {}
    for column in (SweepPoint.run_id, SweepPoint.packet_run_id):
        for status, count in session.execute(
                select(Run.status, func.count()).join(SweepPoint, column == Run.id)
                .where(SweepPoint.sweep_id == sweep_id).group_by(Run.status)).all():
            counts[status] = counts.get(status, 0) + count
    return counts


def planned_runs(sweep: Sweep) -> int:
    """Runs the sweep will have: one per point, plus the packet-level runs of the points a
    screening keeps (as many as it asks for until the flow-level ranking says how many)."""
    if not sweep.screening:
        return sweep.total
    if sweep.kept is not None:
        return sweep.total + len(sweep.kept)
    if sweep.cancelled:
        return sweep.total
    return sweep.total + min(sweep.screening["keep"], sweep.total)


def progress(session: Session, *, sweep: Sweep) -> SweepProgress:
    """Counts and the status derived from the points' runs."""
    return _progress_of(sweep, _status_counts(session, sweep.id))


def _progress_of(sweep: Sweep, counts: dict[str, int]) -> SweepProgress:
    """Progress from the number of the sweep's runs in each status."""
    done = sum(counts.get(s, 0) for s in FINAL_STATES)
    failed = counts.get(RunStatus.FAILED, 0) + counts.get(RunStatus.CANCELLED, 0)
    total = planned_runs(sweep)
    return SweepProgress(id=sweep.id, status=_status(sweep, counts, done, failed, total),
                         total=total, done=done, failed=failed)


def _status(sweep: Sweep, counts: dict[str, int], done: int, failed: int, total: int) -> str:
    """PENDING until a point runs; RUNNING; at the end SUCCEEDED, FAILED or CANCELLED."""
    if sweep.expanded and done == total:
        if sweep.cancelled:
            return RunStatus.CANCELLED
        return RunStatus.FAILED if failed else RunStatus.SUCCEEDED
    if sweep.cancelled and not sweep.expanded:
        return RunStatus.CANCELLED
    if counts.get(RunStatus.RUNNING, 0) or done:
        return RunStatus.RUNNING
    return RunStatus.PENDING


# The table's columns, read as plain rows: building ORM objects for a sweep's hundreds of points
# and runs took two thirds of the API's time on GET /sweeps/{id} under load (bench/load.py).
_PACKET = aliased(Run)  # a screened point's packet-level run
_TABLE_COLUMNS = (SweepPoint.index, SweepPoint.params, SweepPoint.scenario_id, Run.id, Run.status,
                  Run.engine, _PACKET.id, _PACKET.status, _PACKET.job_metrics,
                  *(getattr(_PACKET, m) for m in METRIC_NAMES),
                  Run.job_metrics, *(getattr(Run, m) for m in METRIC_NAMES))
_METRIC_COLUMNS = 1 + len(METRIC_NAMES)  # job_metrics and the metric columns
POINTS_PAGE_MAX = 1000  # points per GET /sweeps/{id} page (the default page size too)
_METRICS_ORDER = tuple(RunMetrics.model_fields)  # the metrics object's keys as the model writes them


def _page(session: Session, *, sweep: Sweep, offset: int, limit: int) -> dict[str, Any]:
    """The sweep's progress over all points with one page of its points table: plain data in
    SweepPublic's shape (fields in its order)."""
    rows = session.execute(select(*_TABLE_COLUMNS).join(Run, SweepPoint.run_id == Run.id)
                           .outerjoin(_PACKET, SweepPoint.packet_run_id == _PACKET.id)
                           .where(SweepPoint.sweep_id == sweep.id)
                           .order_by(SweepPoint.index).offset(offset).limit(limit)).all()
    if offset == 0 and len(rows) < limit:
        # the page holds every stored point: its statuses are the counts (one query, not two)
        counts: dict[str, int] = {}
        for row in rows:
            for status in (row[4], row[7]):
                if status is not None:
                    counts[status] = counts.get(status, 0) + 1
    else:
        # a point the expander commits after the page was read only makes the counts newer
        counts = _status_counts(session, sweep.id)
    points = []
    for index, params, scenario_id, run_id, status, engine, packet_id, packet_status, *rest in rows:
        packet, first = rest[:_METRIC_COLUMNS], rest[_METRIC_COLUMNS:]
        points.append({"index": index, "params": params, "scenario_id": scenario_id,
                       "run_id": run_id, "status": status, "metrics": _metrics(status, first),
                       "engine": engine or "packet", "packet_run_id": packet_id,
                       "packet_status": packet_status,
                       "packet_metrics": _metrics(packet_status, packet)})
    stored = len(rows) if offset == 0 and len(rows) < limit else _stored_points(
        session, sweep.id)
    after = offset + len(points)
    return {**_progress_of(sweep, counts).model_dump(), "scenario_id": sweep.scenario_id,
            "seed": sweep.seed, "created_at": sweep.created_at, "parameters": sweep.parameters,
            "linked": sweep.linked, "screening": sweep.screening, "kept": sweep.kept,
            "points": points, "points_count": stored, "offset": offset,
            "next_offset": after if points and after < stored else None}


def _metrics(status: str | None, columns: list[Any]) -> dict[str, Any] | None:
    """A run's metrics object from its columns (job_metrics first), null unless it succeeded."""
    if status != RunStatus.SUCCEEDED:
        return None
    jobs, *values = columns
    return dict(zip(_METRICS_ORDER, (*values, jobs), strict=True))


def _stored_points(session: Session, sweep_id: str) -> int:
    return session.scalar(select(func.count()).select_from(SweepPoint)
                          .where(SweepPoint.sweep_id == sweep_id)) or 0


def to_public(session: Session, *, sweep: Sweep, offset: int = 0,
              limit: int = POINTS_PAGE_MAX) -> SweepPublic:
    """The sweep's progress with one page of its points table."""
    return SweepPublic.model_validate(_page(session, sweep=sweep, offset=offset, limit=limit))


class _FinalPages:
    """The pages of finished sweeps, which never change again (no point of a final sweep is
    rerun, cancelled or deleted; deleting the sweep answers 404 before a page is looked up):
    kept in this API process, least recently read out first, up to `max_bytes` together."""

    def __init__(self, max_bytes: int) -> None:
        self._pages: OrderedDict[tuple[str, int, int], bytes] = OrderedDict()
        self._bytes = 0
        self._max = max_bytes
        self._lock = threading.Lock()

    def get(self, key: tuple[str, int, int]) -> bytes | None:
        with self._lock:
            page = self._pages.get(key)
            if page is not None:
                self._pages.move_to_end(key)
            return page

    def put(self, key: tuple[str, int, int], page: bytes) -> None:
        if len(page) > self._max:
            return
        with self._lock:
            if key in self._pages:
                return
            self._pages[key] = page
            self._bytes += len(page)
            while self._bytes > self._max:
                _, old = self._pages.popitem(last=False)
                self._bytes -= len(old)


final_pages = _FinalPages(max_bytes=32 * 1024 * 1024)


def page_json(session: Session, *, sweep: Sweep, offset: int = 0,
              limit: int = POINTS_PAGE_MAX) -> bytes:
    """GET /sweeps/{id}: to_public's JSON without building and validating a model per point,
    which cost more than the rest of the page together (bench/sweep_view.py). The data come
    from typed columns in SweepPublic's shape; tests/sweeps/test_page_json.py holds the bytes
    equal to the model's own JSON. A finished sweep's page is written once per API process and
    then served as it was (`final_pages`): everyone who opens a finished sweep reads the same
    bytes, and under load (bench/load.py) the readers of a sweep that just ended stop competing
    with its last writes."""
    key = (sweep.id, offset, limit)
    cached = final_pages.get(key)
    if cached is not None:
        return cached
    page = _page(session, sweep=sweep, offset=offset, limit=limit)
    body = to_json(page)
    if page["status"] in FINAL_STATES:
        final_pages.put(key, body)
    return body


def summary(session: Session, *, sweep: Sweep) -> SweepSummary:
    """A list row."""
    return SweepSummary(**progress(session, sweep=sweep).model_dump(),
                        scenario_id=sweep.scenario_id, created_at=sweep.created_at)


def list_sweeps(session: Session, *, scenario_id: str | None, limit: int, offset: int,
                owned_by: tuple[str, ...] | None = None) -> tuple[list[Sweep], int]:
    """Newest first; with `owned_by` (token hashes) only the sweeps these own."""
    query = select(Sweep)
    if scenario_id:
        query = query.where(Sweep.scenario_id == scenario_id)
    if owned_by is not None:
        query = query.where(Sweep.owner_hash.in_(owned_by))
    return newest_first_page(session, query, Sweep, limit=limit, offset=offset)


def cancel_sweep(session: Session, *, sweep: Sweep) -> bool:
    """Cancel every non-final point; False when the sweep already ended."""
    if progress(session, sweep=sweep).status in FINAL_STATES:
        return False
    sweep.cancelled = True
    for column in (SweepPoint.run_id, SweepPoint.packet_run_id):
        run_ids = select(column).where(SweepPoint.sweep_id == sweep.id, column.is_not(None))
        session.execute(update(Run).where(Run.id.in_(run_ids), Run.status.not_in(FINAL_STATES))
                        .values(status=RunStatus.CANCELLED, finished_at=utcnow(),
                                error="sweep cancelled"))
    session.commit()
    return True
