"""Scenario lookups for the routes: path parameter `id` -> the row, or a 404 naming it."""

from typing import Annotated

from fastapi import Depends
from sqlalchemy.orm import Session

from app.api.deps import IdPath, SessionDep, get_or_404
from app.scenarios.models import ScenarioRow


def get_scenario(session: SessionDep, id: IdPath) -> ScenarioRow:
    """Path parameter `id` -> scenario row."""
    return get_or_404(session, ScenarioRow, id, "scenario")


ScenarioDep = Annotated[ScenarioRow, Depends(get_scenario)]


def open_listing(session: Session, scenario_id: str | None) -> bool:
    """Whether a list filtered by `scenario_id` may show everyone's rows of it: a saved scenario's
    link holders may read its runs, sweeps and tunings; a preset's (public) rows are the caller's
    only, and a list without a scenario is always the caller's only."""
    if not scenario_id:
        return False
    row = session.get(ScenarioRow, scenario_id)
    return row is not None and row.preset_key is None
