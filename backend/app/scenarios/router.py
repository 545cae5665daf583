"""Scenario snapshots: create, list, get, fork, delete, validate."""

from typing import Annotated

from fastapi import APIRouter, HTTPException, Query, Response

from app.api.deps import OWNER_RESPONSES, SessionDep, SettingsDep, require_owner
from app.auth.deps import CallerDep
from app.scenarios.deps import ScenarioDep
from app.core.strict_json import StrictJsonRoute
from app.scenarios import service
from app.scenarios.checks import check_with_simulator
from app.scenarios.models import ScenarioRow
from app.scenarios.schemas import (ScenarioCreate, ScenarioCreated, ScenarioFork, ScenarioPublic,
                                   ScenarioKind, ScenariosPublic, ScenarioSummary,
                                   ScenarioValidate, ValidateResult)

router = APIRouter(prefix="/scenarios", tags=["scenarios"], route_class=StrictJsonRoute)


def summary_of(row: ScenarioRow) -> dict:
    """Row -> ScenarioSummary fields."""
    return {"id": row.id, "name": row.name, "description": row.description,
            "content_hash": row.content_hash, "parent_id": row.parent_id,
            "preset_key": row.preset_key, "tuning_id": row.tuning_id, "created_at": row.created_at, "share_url": f"/s/{row.id}"}


def public_of(row: ScenarioRow) -> ScenarioPublic:
    """Row -> ScenarioPublic (with the document)."""
    return ScenarioPublic(**summary_of(row), scenario=row.document)


@router.post("/validate", response_model=ValidateResult)
def validate(body: ScenarioValidate) -> ValidateResult:
    """Check a scenario without storing it (the editor's inline errors)."""
    checked = check_with_simulator(service.to_document(body.scenario))
    return ValidateResult(ok=True, simulator_checked=checked)


@router.post("", response_model=ScenarioCreated, status_code=201, response_model_exclude_unset=True)
def create(session: SessionDep, caller: CallerDep, body: ScenarioCreate) -> ScenarioCreated:
    """Store an immutable snapshot owned by the caller's first owner token (a fresh one when it
    sent none), returned here."""
    if body.parent_id is not None and session.get(ScenarioRow, body.parent_id) is None:
        raise HTTPException(404, f"scenario '{body.parent_id}' not found")
    check_with_simulator(service.to_document(body.scenario))
    row, token = service.create_scenario(session, scenario=body.scenario, parent_id=body.parent_id,
                                         owner_token=caller.owner_token())
    return ScenarioCreated(**summary_of(row), scenario=row.document, owner_token=token)


@router.get("", response_model=ScenariosPublic)
def list_(session: SessionDep, caller: CallerDep,
          q: Annotated[str | None, Query(max_length=200)] = None,
          limit: Annotated[int, Query(ge=1, le=200)] = 20,
          offset: Annotated[int, Query(ge=0, le=1_000_000_000)] = 0,
          kind: Annotated[ScenarioKind, Query(
              description="user (default): saved by people, without presets and the "
                          "snapshots of sweep points and tuning evaluations; preset; "
                          "sweep_point; tuning_point; all")] = ScenarioKind.user,
          ) -> ScenariosPublic:
    """The caller's snapshots (those its owner tokens own) and the presets, newest first; `q`
    searches their names; `kind` picks which (default: user). Nobody else's are listed: a
    scenario is read by its id (its share link)."""
    rows, count = service.list_scenarios(session, q=q, limit=limit, offset=offset, kind=kind,
                                         owned_by=caller.listing())
    return ScenariosPublic(data=[ScenarioSummary(**summary_of(r)) for r in rows], count=count)


@router.get("/{id}", response_model=ScenarioPublic, response_model_exclude_unset=True)
def get(row: ScenarioDep) -> ScenarioPublic:
    """One snapshot with its document."""
    return public_of(row)


@router.post("/{id}/fork", response_model=ScenarioCreated, status_code=201,
             response_model_exclude_unset=True)
def fork(session: SessionDep, caller: CallerDep, row: ScenarioDep,
         body: ScenarioFork) -> ScenarioCreated:
    """A new snapshot of the edited document with parent_id = this id, owned by the caller
    (anyone with the link may fork)."""
    check_with_simulator(service.to_document(body.scenario))
    child, token = service.create_scenario(session, scenario=body.scenario, parent_id=row.id,
                                           owner_token=caller.owner_token())
    return ScenarioCreated(**summary_of(child), scenario=child.document, owner_token=token)


@router.delete("/{id}", status_code=204, response_class=Response, responses=OWNER_RESPONSES)
def delete(session: SessionDep, settings: SettingsDep, caller: CallerDep,
           row: ScenarioDep) -> Response:
    """Delete a snapshot and its runs; needs its owner token."""
    require_owner(caller, settings, f"scenario '{row.id}'", row.owner_token_hash)
    service.delete_scenario(session, row=row)
    return Response(status_code=204)
