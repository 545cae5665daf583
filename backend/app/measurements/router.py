"""Measurements: import an NCCL-tests or perftest output into a scenario, run the matching
simulation, read measured against simulated (docs/real-fabric.md)."""

from typing import Annotated

from fastapi import APIRouter, Depends, HTTPException, Query, Response
from fastapi.responses import JSONResponse
from pydantic import ValidationError

from app.api.deps import OWNER_RESPONSES, IdPath, SessionDep, SettingsDep, require_owner
from app.auth.deps import CallerDep
from app.scenarios.deps import open_listing
from app.api.errors import unprocessable
from app.core.owners import token_hash
from app.core.strict_json import StrictJsonRoute
from app.core.textfile import TextFileError
from app.measurements import service
from app.measurements.errors import ToolError
from app.measurements.matching import MatchError
from app.measurements.models import Measurement
from app.measurements.schemas import (Comparison, MeasurementCreate, MeasurementCreated,
                                      MeasurementPublic, MeasurementsPublic, SimulateRequest,
                                      SimulationStarted)
from app.runs.quotas import check_submission, client_key
from app.scenarios.models import ScenarioRow

router = APIRouter(prefix="/measurements", tags=["measurements"], route_class=StrictJsonRoute)
BAD_FILE = {422: {"description": "the file is not the tool's output, or is truncated: one line "
                                 "naming the line number and what was expected"}}


def get_measurement(session: SessionDep, id: IdPath) -> Measurement:
    row = session.get(Measurement, id)
    if row is None:
        raise HTTPException(404, f"measurement '{id}' not found")
    return row


MeasurementDep = Annotated[Measurement, Depends(get_measurement)]


@router.post("", response_model=MeasurementCreated, status_code=201, responses=BAD_FILE)
def create(session: SessionDep, caller: CallerDep,
           body: MeasurementCreate) -> MeasurementCreated | JSONResponse:
    """Read the output and attach it to the scenario; owned by the caller's first owner token
    (a fresh one when it sent none, returned). A wrong or truncated file stores nothing."""
    scenario = session.get(ScenarioRow, body.scenario_id)
    if scenario is None:
        raise HTTPException(404, f"scenario '{body.scenario_id}' not found")
    token = caller.owner_token()
    try:
        row = service.create(session, scenario=scenario, kind=body.kind, text=body.text,
                             tool=body.tool, name=body.name, owner_hash=token_hash(token))
    except TextFileError as exc:
        field = "tool" if isinstance(exc, ToolError) else "text"
        return unprocessable([{"loc": ["body", field], "msg": str(exc), "type": "file_error",
                               "ctx": {"line": str(exc.line)}}])
    return MeasurementCreated(**service.public(row).model_dump(), owner_token=token)


@router.get("", response_model=MeasurementsPublic)
def list_(session: SessionDep, caller: CallerDep, scenario_id: str | None = None,
          limit: Annotated[int, Query(ge=1, le=200)] = 50,
          offset: Annotated[int, Query(ge=0, le=1_000_000_000)] = 0) -> MeasurementsPublic:
    """Newest first: the caller's measurements; with `scenario_id` of a saved scenario, every
    measurement of it (whoever holds the scenario's link may read them)."""
    owned_by = None if open_listing(session, scenario_id) else caller.listing()
    rows, count = service.list_measurements(session, scenario_id=scenario_id, limit=limit,
                                            offset=offset, owned_by=owned_by)
    return MeasurementsPublic(data=[service.summary(r) for r in rows], count=count)


@router.get("/{id}", response_model=MeasurementPublic)
def get(row: MeasurementDep) -> MeasurementPublic:
    """The measurement as read: header, rows (in Gbit/s and us), notes, its simulation."""
    return service.public(row)


@router.delete("/{id}", status_code=204, response_class=Response, responses=OWNER_RESPONSES)
def delete(session: SessionDep, settings: SettingsDep, caller: CallerDep,
           row: MeasurementDep) -> Response:
    """Delete the measurement (its simulation stays); needs its owner token."""
    require_owner(caller, settings, f"measurement '{row.id}'", row.owner_hash)
    session.delete(row)
    session.commit()
    return Response(status_code=204)


@router.post("/{id}/simulate", response_model=SimulationStarted, status_code=201,
             responses={**OWNER_RESPONSES, 422: {"description": "the scenario has no generator "
                                                 "that matches the measurement"}})
def simulate(session: SessionDep, settings: SettingsDep, caller: CallerDep, row: MeasurementDep,
             body: SimulateRequest) -> SimulationStarted | JSONResponse:
    """Run the matching simulation: NCCL-tests, a sweep of the scenario's collective over exactly
    the measured sizes; perftest, its perftest generator at the measured message size(s),
    iterations, TX depth and QPs (one run, or a sweep for several sizes). Needs the
    measurement's owner token."""
    require_owner(caller, settings, f"measurement '{row.id}'", row.owner_hash)
    scenario = session.get(ScenarioRow, row.scenario_id)
    try:
        the_plan = service.plan(row, scenario, body.generator)
    except MatchError as exc:
        return unprocessable([{"loc": ["body", exc.field], "msg": exc.message,
                               "type": "no_matching_generator"}])
    except TextFileError as exc:
        return unprocessable([{"loc": ["body"], "msg": str(exc), "type": "file_error"}])
    client = client_key(caller, session, settings)
    points = len(the_plan.parameters[0]["values"]) if the_plan.parameters else 1
    check_submission(session, settings, client=client, new_runs=points, points=points)
    try:
        service.start(session, row=row, scenario=scenario, the_plan=the_plan, seed=body.seed,
                      client=client, owner_hash=row.owner_hash or token_hash(caller.owner_token()))
    except ValidationError as exc:
        session.rollback()
        return unprocessable([{"loc": ["body", "generator"], "type": "simulation_invalid",
                               "msg": f"{'.'.join(map(str, e['loc']))}: {e['msg']}"}
                              for e in exc.errors()[:10]])
    return SimulationStarted(measurement_id=row.id, kind=the_plan.kind, sweep_id=row.sweep_id,
                             run_id=row.run_id, sim_scenario_id=row.sim_scenario_id,
                             generator=the_plan.generator, notes=the_plan.notes)


@router.get("/{id}/comparison", response_model=Comparison)
def comparison(session: SessionDep, row: MeasurementDep) -> Comparison:
    """Measured against simulated per size (busbw for NCCL-tests; bandwidth or mean latency
    for perftest), the ratio, and for each point that differs by more than 10 % the reasons
    the model lists."""
    return service.comparison(session, row)
