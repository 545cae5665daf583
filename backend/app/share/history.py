"""A scenario's history, read by its id (open to whoever holds the link, like the scenario):
its runs, sweeps, tunings and forks, and its parent's runs, so a page can offer "compare with
what I had" without the global list endpoints (those list only the caller's own work)."""

from datetime import datetime

from pydantic import BaseModel, Field
from sqlalchemy import exists, select
from sqlalchemy.orm import Session, defer

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


def _runs(session: Session, scenario_ids: list[str]) -> list[RunPublic]:
    if not scenario_ids:
        return []
    rows = session.scalars(select(Run).where(Run.scenario_id.in_(scenario_ids))
                           .order_by(Run.created_at.desc(), Run.id).limit(LIMIT)).all()
    return [runs_service.to_public(r) for r in rows]


def history(session: Session, row: ScenarioRow) -> ScenarioHistory:
    parent = session.get(ScenarioRow, row.parent_id) if row.parent_id else None
    is_point = exists().where(SweepPoint.scenario_id == ScenarioRow.id)
    forks = session.scalars(
        select(ScenarioRow).options(defer(ScenarioRow.document))
        .where(ScenarioRow.parent_id == row.id, ScenarioRow.tuning_id.is_(None), ~is_point)
        .order_by(ScenarioRow.created_at.desc(), ScenarioRow.id).limit(LIMIT)).all()
    sweeps = session.scalars(select(Sweep).where(Sweep.scenario_id == row.id)
                             .order_by(Sweep.created_at.desc(), Sweep.id).limit(LIMIT)).all()
    # scenario_ids is a JSON list: filtered here (a scenario has few tunings among all)
    tunings = [t for t in session.scalars(select(Tuning).order_by(Tuning.created_at.desc(), Tuning.id))
               if row.id in (t.scenario_ids or [])][:LIMIT]
    return ScenarioHistory(
        scenario_id=row.id, parent=_member(parent) if parent else None,
        runs=_runs(session, [row.id]), parent_runs=_runs(session, [parent.id] if parent else []),
        sweeps=[sweeps_service.summary(session, sweep=s) for s in sweeps],
        tunings=[tunings_service.summary(session, tuning=t) for t in tunings],
        forks=[_member(f) for f in forks], fork_runs=_runs(session, [f.id for f in forks]))
