"""Shared request dependencies as Annotated aliases; the *Dep lookups return 404 themselves."""

from typing import Annotated

from fastapi import Depends, HTTPException, Path
from sqlalchemy.orm import Session

from app.core.config import Settings, get_settings
from app.core.db import get_session
from app.runs.models import Run
from app.scenarios.models import ScenarioRow
from app.sweeps.models import Sweep

SessionDep = Annotated[Session, Depends(get_session)]
SettingsDep = Annotated[Settings, Depends(get_settings)]
# Ids are URL-safe base64 (app/scenarios/service.new_id): nothing else reaches a query or a path.
IdPath = Annotated[str, Path(min_length=1, max_length=64, pattern=r"^[A-Za-z0-9_-]+$")]


def _get_or_404(session: Session, model: type, item_id: str, what: str):
    """The row with this primary key, or a 404 naming the resource."""
    row = session.get(model, item_id)
    if row is None:
        raise HTTPException(status_code=404, detail=f"{what} '{item_id}' not found")
    return row


def get_scenario(session: SessionDep, id: IdPath) -> ScenarioRow:
    """Path parameter `id` -> scenario row."""
    return _get_or_404(session, ScenarioRow, id, "scenario")


def get_run(session: SessionDep, id: IdPath) -> Run:
    """Path parameter `id` -> run row."""
    return _get_or_404(session, Run, id, "run")


def get_sweep(session: SessionDep, id: IdPath) -> Sweep:
    """Path parameter `id` -> sweep row."""
    return _get_or_404(session, Sweep, id, "sweep")


ScenarioDep = Annotated[ScenarioRow, Depends(get_scenario)]
RunDep = Annotated[Run, Depends(get_run)]
SweepDep = Annotated[Sweep, Depends(get_sweep)]
