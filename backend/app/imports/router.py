"""POST /imports/hpcc: the HPCC simulator's files (or a CSV of flows) -> a scenario document.

The document is returned, not stored: the editor shows it and saves it with POST /scenarios.
Bad input is a 422 naming the field and the line of the file."""

from typing import Any

from fastapi import APIRouter
from fastapi.responses import JSONResponse
from pydantic import BaseModel, ConfigDict, Field, ValidationError

from app.api.errors import unprocessable
from app.core.strict_json import StrictJsonRoute
from app.core.validation import normalize_loc
from app.scenarios.importers.hpcc import build
from app.scenarios.importers.hpcc_files import MAX_TEXT_BYTES, ImportFileError
from app.scenarios import limits
from app.scenarios.document import Scenario

router = APIRouter(prefix="/imports", tags=["imports"], route_class=StrictJsonRoute)

FIELD_OF_FILE = {"topology": "topology", "flows": "flows", "csv": "flows_csv", "config": "config",
                 "built-in benchmark config": "config"}


class HpccImport(BaseModel):
    """The files' text; give a topology or a base scenario, and a flow file or a CSV."""

    model_config = ConfigDict(extra="forbid")
    topology: str | None = Field(None, max_length=MAX_TEXT_BYTES,
                                 description="topology file: 'nodes switches links', switch ids, links")
    flows: str | None = Field(None, max_length=MAX_TEXT_BYTES,
                              description="flow file: count, then 'src dst priority dport size start_s'")
    flows_csv: str | None = Field(None, max_length=MAX_TEXT_BYTES,
                                  description="CSV: src,dst,size_bytes,start_us[,priority]")
    config: str | None = Field(None, max_length=MAX_TEXT_BYTES,
                               description="the simulator's config (default: its DCQCN benchmark)")
    base_scenario: dict[str, Any] | None = Field(
        None, description="keep this scenario's topology and settings; replace its traffic")
    duration_us: float | None = Field(None, gt=0, le=limits.MAX_DURATION_US,
                                      description="default: SIMULATOR_STOP_TIME - first start")
    name: str = Field("", max_length=limits.MAX_NAME_CHARS)


class HpccImported(BaseModel):
    """The scenario document and what the import left out or approximated."""

    scenario: dict[str, Any]
    notes: list[str]


@router.post("/hpcc", response_model=HpccImported,
             responses={422: {"description": "a file's line, or the resulting scenario, is invalid"}})
def import_hpcc(body: HpccImport) -> HpccImported | JSONResponse:
    """Build the scenario; it is validated like POST /scenarios/validate (Pydantic part)."""
    try:
        doc, notes = build(body.topology, body.flows, body.flows_csv, body.config,
                           body.base_scenario, body.duration_us, body.name)
    except ImportFileError as exc:
        field = FIELD_OF_FILE.get(exc.file, exc.file)
        where = f"line {exc.line}: " if exc.line else ""
        return unprocessable([{"loc": ["body", field], "msg": where + exc.message,
                               "type": "import_error", "ctx": {"line": str(exc.line)}}])
    try:
        Scenario.model_validate(doc)
    except ValidationError as exc:
        return unprocessable([{"loc": ["body", "scenario", *normalize_loc(tuple(e["loc"]), doc)],
                               "msg": e["msg"], "type": e["type"]} for e in exc.errors()[:50]])
    return HpccImported(scenario=doc, notes=notes)
