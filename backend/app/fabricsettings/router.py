"""Switch and NIC settings in (SONiC config_db.json, ConnectX sysfs dump: a field-by-field report,
then, unless dry_run, a new scenario) and out (SONiC, NVUE, sysfs) for a scenario or a tuning's
pick. docs/real-fabric.md."""

from typing import Annotated

from fastapi import APIRouter, HTTPException, Path, Query
from fastapi.responses import JSONResponse
from pydantic import ValidationError

from app.api.deps import SessionDep
from app.auth.deps import CallerDep
from app.scenarios.deps import ScenarioDep
from app.tunings.deps import TuningDep
from app.api.errors import unprocessable
from app.core import simulator
from app.core.strict_json import StrictJsonRoute
from app.core.textfile import TextFileError
from app.core.validation import normalize_loc
from app.fabricsettings import service
from app.fabricsettings.schemas import (ExportFormat, ReportEntry, SettingsExport, SettingsImport,
                                        SettingsImported)
from app.fabricsettings.sonic_import import SonicFileError
from app.runs.models import Run
from app.scenarios.checks import check_with_simulator
from app.scenarios.document import Scenario
from app.scenarios.router import summary_of
from app.scenarios.schemas import ScenarioSummary
from app.scenarios.service import create_scenario
from app.scenarios.topology import NodeId
from app.tunings import service as tunings
from app.tunings.models import TuningEvaluation

# a stored evaluation's id (an INTEGER column): larger ones are a 422, not a database error
EvaluationId = Annotated[int, Path(ge=1, le=2**31 - 1)]
router = APIRouter(tags=["settings"], route_class=StrictJsonRoute)
UNPROCESSABLE = {422: {"description": "a file's line or field, or the resulting scenario, is "
                                      "invalid (one line naming where and what was expected)"}}
UNAVAILABLE = {503: {"description": "the simulator, which lists the switches' ports, is "
                                    "unavailable"}}


def _file_error(body: SettingsImport, exc: TextFileError) -> JSONResponse:
    if isinstance(exc, SonicFileError):
        index = next((i for i, f in enumerate(body.sonic) if exc.label in (f.name,)), None)
        loc = ["body", "sonic"] + ([index, "text"] if index is not None else [])
    else:
        loc = ["body", "nic_sysfs"]
    return unprocessable([{"loc": loc, "msg": str(exc), "type": "import_error",
                           "ctx": {"line": str(exc.line)}}])


@router.post("/scenarios/{id}/settings/import", response_model=SettingsImported,
             response_model_exclude_unset=True, responses=UNPROCESSABLE)
def import_settings(session: SessionDep, caller: CallerDep, row: ScenarioDep,
                    body: SettingsImport) -> SettingsImported | JSONResponse:
    """Read SONiC config_db.json files and/or a NIC sysfs dump into this scenario: the report
    says, field by field, what was read, mapped (to which parameter, with which conversion),
    ignored and kept. dry_run (default) stores nothing; dry_run false stores the result as a
    new scenario (parent: this one, owner: the caller)."""
    if not body.sonic and body.nic_sysfs is None:
        return unprocessable([{"loc": ["body"], "type": "missing",
                               "msg": "give sonic files, nic_sysfs, or both"}])
    try:
        document, report = service.import_settings(
            row.document, sonic_files=[(f.name, f.text) for f in body.sonic],
            sysfs_text=body.nic_sysfs, nic_host=body.nic_host, draw_topology=body.draw_topology)
    except TextFileError as exc:
        return _file_error(body, exc)
    if body.name is not None:
        document["name"] = body.name
    try:
        scenario = Scenario.model_validate(document)
    except ValidationError as exc:
        return unprocessable([{"loc": ["body", "scenario",
                                       *normalize_loc(tuple(e["loc"]), document)],
                               "msg": e["msg"], "type": e["type"]} for e in exc.errors()[:50]])
    out = SettingsImported(report=[ReportEntry(**e) for e in report.as_json()],
                           counts=report.counts(), scenario=document)
    if not body.dry_run:
        check_with_simulator(document)
        child, token = create_scenario(session, scenario=scenario, parent_id=row.id,
                                       owner_token=caller.owner_token())
        out.saved = ScenarioSummary(**summary_of(child))
        out.owner_token = token
        out.scenario = child.document
    return out


def _export(document: dict, fmt: ExportFormat, source: dict, switch: str | None,
            host: str | None) -> SettingsExport:
    try:
        return service.export_settings(document, fmt, source, switch=switch, host=host)
    except LookupError as exc:
        raise HTTPException(404, str(exc).strip("'\"")) from None
    except ValueError as exc:
        raise HTTPException(422, [{"loc": ["query", "switch"], "msg": str(exc),
                                   "type": "value_error"}]) from None
    except simulator.SimulatorUnavailable as exc:
        raise HTTPException(503, f"the export needs the simulator: {exc}") from None


FormatQuery = Annotated[ExportFormat, Query(description=(
    "sonic: config_db.json patch per switch; nvue: `nv set qos` commands per switch; "
    "nic_sysfs: the ConnectX roce_rp / roce_np writes"))]
SwitchQuery = Annotated[NodeId | None, Query(description="export this switch only")]
HostQuery = Annotated[NodeId | None, Query(description="nic_sysfs: this host's NIC only")]


@router.get("/scenarios/{id}/settings/export", response_model=SettingsExport,
            responses={404: {"description": "unknown scenario, run or switch"}, **UNAVAILABLE})
def export_scenario(session: SessionDep, row: ScenarioDep, format: FormatQuery,
                    run_id: Annotated[str | None, Query(
                        min_length=1, max_length=64, pattern=r"^[A-Za-z0-9_-]+$",
                        description="a run of this scenario, named in the header")] = None,
                    switch: SwitchQuery = None, host: HostQuery = None) -> SettingsExport:
    """The scenario's switch or NIC settings in a device's format and units, each file with a
    header naming the scenario (and run)."""
    if run_id is not None:
        run = session.get(Run, run_id)
        if run is None or run.scenario_id != row.id:
            raise HTTPException(404, f"run '{run_id}' is not a run of scenario '{row.id}'")
    source = {"scenario_id": row.id, "scenario_name": row.name, "run_id": run_id}
    return _export(row.document, format, source, switch, host)


@router.get("/tunings/{id}/evaluations/{evaluation_id}/settings/export",
            response_model=SettingsExport,
            responses={404: {"description": "unknown tuning, evaluation or switch"},
                       409: {"description": "the evaluation has not finished"}, **UNAVAILABLE})
def export_pick(session: SessionDep, tuning: TuningDep, evaluation_id: EvaluationId,
                format: FormatQuery,
                scenario_index: Annotated[int, Query(ge=0, le=3)] = 0,
                switch: SwitchQuery = None, host: HostQuery = None) -> SettingsExport:
    """A tuning pick's settings (the evaluation's, on base scenario `scenario_index`) in a
    device's format; the header names the tuning, the strategy and the evaluation's run."""
    evaluation = session.get(TuningEvaluation, evaluation_id)
    if evaluation is None or evaluation.tuning_id != tuning.id:
        raise HTTPException(404, f"evaluation {evaluation_id} not found in tuning '{tuning.id}'")
    if scenario_index >= len(tuning.scenario_ids):
        raise HTTPException(422, [{"loc": ["query", "scenario_index"], "type": "less_than",
                                   "msg": f"must be < {len(tuning.scenario_ids)} (the tuning's "
                                          "scenarios)"}])
    if evaluation.status != "DONE":
        raise HTTPException(409, f"evaluation {evaluation.id} is {evaluation.status}")
    base, document = tunings.pick_document(session, tuning=tuning, evaluation=evaluation,
                                           scenario_index=scenario_index)
    runs = evaluation.run_ids or []
    per_scenario = len(runs) // max(1, len(tuning.scenario_ids))
    run_id = runs[scenario_index * per_scenario] if runs and per_scenario else None
    label = ", ".join(f"{k}={v}" for k, v in evaluation.params.items())
    source = {"scenario_id": base.id, "scenario_name": base.name, "run_id": run_id,
              "tuning_id": tuning.id, "evaluation_id": evaluation.id,
              "strategy": evaluation.strategy, "pick": label}
    return _export(document, format, source, switch, host)
