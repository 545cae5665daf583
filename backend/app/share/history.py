"""A scenario's history, read by its id: its runs, sweeps, tunings and forks, and its parent's
runs, so a page can offer "compare with what I had" in one call.

It shows what the list endpoints would show the caller (docs/security.md): the work on a saved
scenario is every link holder's (`GET /runs?scenario_id=` of it), the work on a preset (its id is
public) the caller's own only, and forks are the caller's own scenarios only (a colleague's copy
is the colleague's). `listing` is the caller's owner hashes (Caller.listing(); None: an admin's
everything)."""

from datetime import datetime

from pydantic import BaseModel, Field
from sqlalchemy import ColumnElement, exists, func, select
from sqlalchemy.dialects.postgresql import JSONB
from sqlalchemy.orm import Session, defer
from sqlalchemy.sql import cast

from app.runs import service as runs_service
from app.runs.models import Run
from app.runs.schemas import RunPublic
from app.scenarios.models import ScenarioRow
from app.sweeps import service as sweeps_service
from app.sweeps.models import Sweep, SweepPoint
from app.sweeps.schemas import SweepSummary
from app.tunings import service as tunings_service
from app.tunings.models import Tuning
from app.tunings.schemas import TuningSummary

LIMIT = 50


class FamilyMember(BaseModel):
    """A related scenario (the parent or a fork) without its document."""

    id: str
    name: str
    parent_id: str | None
    preset_key: str | None
    created_at: datetime


class ScenarioHistory(BaseModel):
    """Newest first in every list, at most 50 each."""

    scenario_id: str
    parent: FamilyMember | None = Field(description="the scenario this one was forked from")
    runs: list[RunPublic]
    parent_runs: list[RunPublic] = Field(description="the parent's runs (compare an edit with what it changed)")
    sweeps: list[SweepSummary]
    tunings: list[TuningSummary]
    forks: list[FamilyMember] = Field(description="scenarios saved from this one by people "
                                      "(not the snapshots of sweep points or tuning evaluations)")
    fork_runs: list[RunPublic] = Field(description="the forks' runs")


def _member(row: ScenarioRow) -> FamilyMember:
    return FamilyMember(id=row.id, name=row.name, parent_id=row.parent_id,
                        preset_key=row.preset_key, created_at=row.created_at)


def _owned(column, listing: tuple[str, ...] | None, scenario: ScenarioRow | None = None):
    """The condition that `column` (an owner hash) is the caller's, or None when everything may
    show: for an admin, and for the work on a saved (non-preset) `scenario`, whose link holders
    read it all."""
    if listing is None or (scenario is not None and scenario.preset_key is None):
        return None
    return column.in_(listing)


def _runs(session: Session, scenario_ids: list[str],
          owned: ColumnElement[bool] | None = None) -> list[RunPublic]:
    if not scenario_ids:
        return []
    query = select(Run).where(Run.scenario_id.in_(scenario_ids))
    if owned is not None:
        query = query.where(owned)
    rows = session.scalars(query.order_by(Run.created_at.desc(), Run.id).limit(LIMIT)).all()
    return [runs_service.to_public(r) for r in rows]


def _tuning_of(session: Session, scenario_id: str) -> ColumnElement[bool]:
    """Tuning.scenario_ids (a JSON list) holds `scenario_id`: JSONB containment on PostgreSQL,
    json_each on SQLite (the embedded instance)."""
    if session.get_bind().dialect.name == "postgresql":
        return cast(Tuning.scenario_ids, JSONB).contains([scenario_id])
    each = func.json_each(Tuning.scenario_ids).table_valued("value")
    return exists(select(1).select_from(each).where(each.c.value == scenario_id))


def _where(query, *conditions: ColumnElement[bool] | None):
    return query.where(*(c for c in conditions if c is not None))


def history(session: Session, row: ScenarioRow, listing: tuple[str, ...] | None) -> ScenarioHistory:
    parent = session.get(ScenarioRow, row.parent_id) if row.parent_id else None
    is_point = exists().where(SweepPoint.scenario_id == ScenarioRow.id)
    forks = session.scalars(_where(
        select(ScenarioRow).options(defer(ScenarioRow.document))
        .where(ScenarioRow.parent_id == row.id, ScenarioRow.tuning_id.is_(None), ~is_point),
        _owned(ScenarioRow.owner_token_hash, listing))
        .order_by(ScenarioRow.created_at.desc(), ScenarioRow.id).limit(LIMIT)).all()
    sweeps = session.scalars(_where(select(Sweep).where(Sweep.scenario_id == row.id),
                                    _owned(Sweep.owner_hash, listing, row))
                             .order_by(Sweep.created_at.desc(), Sweep.id).limit(LIMIT)).all()
    tunings = session.scalars(_where(select(Tuning).where(_tuning_of(session, row.id)),
                                     _owned(Tuning.owner_hash, listing, row))
                              .order_by(Tuning.created_at.desc(), Tuning.id).limit(LIMIT)).all()
    return ScenarioHistory(
        scenario_id=row.id, parent=_member(parent) if parent else None,
        runs=_runs(session, [row.id], _owned(Run.owner_hash, listing, row)),
        parent_runs=_runs(session, [parent.id], _owned(Run.owner_hash, listing, parent))
        if parent else [],
        sweeps=[sweeps_service.summary(session, sweep=s) for s in sweeps],
        tunings=[tunings_service.summary(session, tuning=t) for t in tunings],
        # the forks listed are the caller's (saved scenarios): every run of them shows
        forks=[_member(f) for f in forks], fork_runs=_runs(session, [f.id for f in forks]))
