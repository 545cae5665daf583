"""Runs: start, list, get, cancel, and read results (summary, flows, series, raw JSON, events)."""

import csv
import io
import logging
from typing import Annotated, Any

from fastapi import APIRouter, HTTPException, Query, Request, Response
from sqlalchemy.orm import Session
from sse_starlette.sse import EventSourceResponse

from app.api.deps import OWNER_RESPONSES, Access, SessionDep, SettingsDep, may_change, require_owner
from app.auth.deps import CallerDep
from app.runs.deps import RunDep
from app.scenarios.deps import open_listing
from app.api.sse import LastEventId, State, progress_stream
from app.core.config import max_run_threads
from app.core.owners import token_hash
from app.core.queue import enqueue_run
from app.runs.quotas import check_submission, client_key
from app.core.strict_json import StrictJsonRoute
from app.core import simulator
from app.runs import service
from app.runs.flow_errors import fabric_oversubscription, flow_error
from app.runs import threads as threads_rules
from app.runs.models import FINAL_STATES, Run
from app.runs.schemas import (MAX_SEEDS, FlowError, FlowsPublic, RunCreate, RunDiagnostics, RunLimits, RunPublic,
                              RunsCreated, RunsPublic, RunStatus, RunSummary)
from app.scenarios.models import ScenarioRow

log = logging.getLogger(__name__)
router = APIRouter(prefix="/runs", tags=["runs"], route_class=StrictJsonRoute)
FLOW_COLUMNS = ("id", "src", "dst", "generator", "priority", "size_bytes", "start_us", "fct_us",
                "ideal_fct_us", "slowdown", "bytes_delivered", "goodput_gbps", "retransmits")


def start(session: Session, run: Run) -> None:
    """Enqueue a committed PENDING run. When the broker is down the run stays PENDING: the
    reconciler (app/sweeps/reconciler.py) enqueues it once the broker answers again."""
    try:
        enqueue_run(run.id, threads=run.threads or 1)
    except Exception as exc:  # noqa: BLE001 - any broker error: leave it to the reconciler
        log.warning("run %s: broker unreachable (%s); the reconciler will enqueue it",
                    run.id, type(exc).__name__)


# A stored result never changes, so its views are cacheable: browsers keep them for an hour and
# revalidate with If-None-Match (304, without reading the result). Bump the version when a view's
# output changes for the same stored result (a new field, another format).
RESULT_VIEWS_VERSION = "2"
RESULT_CACHE_CONTROL = "private, max-age=3600"
NOT_MODIFIED = {304: {"description": "not modified: the If-None-Match tag is the result's"}}


def _etag_matches(if_none_match: str | None, etag: str) -> bool:
    """RFC 9110 If-None-Match (weak comparison): `*` or a list of tags."""
    if not if_none_match:
        return False
    tags = [tag.strip().removeprefix("W/") for tag in if_none_match.split(",")]
    return "*" in tags or etag in tags


def succeeded_result(session: Session, run: Run, request: Request | None = None,
                     response: Response | None = None) -> dict[str, Any]:
    """The parsed result, or 409 while the run has none. With `request`: 304 when the client
    already holds this result's view (If-None-Match), else the caching headers on `response`."""
    sha256 = service.result_sha256(session, run=run) if run.status == RunStatus.SUCCEEDED else None
    if sha256 is None:
        raise HTTPException(409, f"run '{run.id}' is {run.status}: no result")
    if request is not None:
        headers = result_cache_headers(sha256)
        if _etag_matches(request.headers.get("if-none-match"), headers["ETag"]):
            raise HTTPException(304, headers=headers)
        if response is not None:
            response.headers.update(headers)
    return service.parsed_result(run.id, sha256)


def result_cache_headers(sha256: str) -> dict[str, str]:
    """ETag and Cache-Control of the views of the result whose hash is `sha256`."""
    return {"ETag": f'"{RESULT_VIEWS_VERSION}-{sha256[:40]}"',
            "Cache-Control": RESULT_CACHE_CONTROL}


def run_threads(document: dict[str, Any], asked: int | None, maximum: int) -> int:
    """The threads of new runs of `document`: `asked` (422 at `threads` when the simulator runs
    the scenario on one thread only), else the default of app/runs/threads.py."""
    if asked is None:
        return threads_rules.auto_threads(document, maximum)
    refusal = threads_rules.parallel_refusal(document) if asked > 1 else ""
    if refusal:
        raise HTTPException(422, [{"loc": ["body", "threads"], "type": "single_thread_scenario",
                                   "msg": f"threads {asked}: {refusal}", "input": asked}])
    return asked


@router.post("", response_model=RunsCreated, status_code=201,
             responses={429: {"description": "over a quota (Retry-After; the message names it)"}})
def create(session: SessionDep, settings: SettingsDep, caller: CallerDep,
           body: RunCreate) -> RunsCreated:
    """One run per seed; a scenario+seed that already succeeded returns that run (cached), one
    still in flight is shared. New runs are owned by the caller's first owner token (a fresh
    one when it sent none, returned): anyone with the scenario's link may run it."""
    scenario = session.get(ScenarioRow, body.scenario_id)
    if scenario is None:
        raise HTTPException(404, f"scenario '{body.scenario_id}' not found")
    # the flow-level engine runs on one thread, whatever is asked
    threads = 1 if body.engine == "flow" else run_threads(scenario.document, body.threads,
                                                          max_run_threads(settings))
    client = client_key(caller, session, settings)
    token = caller.owner_token()
    new_runs = sum(service.reusable_run(session, scenario_id=body.scenario_id, seed=seed,
                                        engine=body.engine) is None
                   for seed in body.seeds)
    check_submission(session, settings, client=client, new_runs=new_runs)
    created = service.create_runs(session, scenario_id=body.scenario_id, seeds=body.seeds,
                                  client=client, owner_hash=token_hash(token), threads=threads,
                                  engine=body.engine)
    for run, cached in created:
        if not cached and run.status == RunStatus.PENDING and run.attempts == 0 and run.task_id is None:
            start(session, run)
    data = [service.to_public(run, cached) for run, cached in created]
    return RunsCreated(data=data, count=len(data), owner_token=token)


@router.get("", response_model=RunsPublic)
def list_(session: SessionDep, caller: CallerDep, scenario_id: str | None = None,
          status: RunStatus | None = None, limit: Annotated[int, Query(ge=1, le=500)] = 50,
          offset: Annotated[int, Query(ge=0, le=1_000_000_000)] = 0) -> RunsPublic:
    """Newest first, filtered by scenario and status. The caller's runs (those its owner tokens
    own); with `scenario_id` of a saved scenario, every run of it (whoever holds the scenario's
    link may read them; a preset's: the caller's only)."""
    owned_by = None if open_listing(session, scenario_id) else caller.listing()
    rows, count = service.list_runs(session, scenario_id=scenario_id, status=status,
                                    limit=limit, offset=offset, owned_by=owned_by)
    return RunsPublic(data=[service.to_public(r) for r in rows], count=count)


@router.get("/limits", response_model=RunLimits)
def limits(settings: SettingsDep) -> RunLimits:
    """The seeds and simulator threads one run request may ask for on this instance."""
    return RunLimits(max_seeds=MAX_SEEDS,
                     max_threads=max_run_threads(settings),
                     hosts_per_thread=threads_rules.HOSTS_PER_THREAD)


@router.get("/{id}", response_model=RunPublic)
def get(run: RunDep) -> RunPublic:
    """Status, progress, timings and summary metrics (the polling fallback of /events)."""
    return service.to_public(run)


@router.get("/{id}/access", response_model=Access)
def access(session: SessionDep, caller: CallerDep, run: RunDep) -> Access:
    """Whether the caller may cancel the run (it holds the owner token of the run or of its
    scenario), and if not, why; the run page asks before it offers "Cancel run"."""
    scenario = session.get(ScenarioRow, run.scenario_id)
    scenario_owner = scenario.owner_token_hash if scenario is not None else None
    if may_change(caller, run.owner_hash, scenario_owner):
        return Access(may_change=True)
    return Access(may_change=False, reason="Someone else started this run: only they can cancel "
                  "it. Fork its scenario to run these settings as your own.")


@router.post("/{id}/cancel", response_model=RunPublic,
             responses={**OWNER_RESPONSES, 409: {"description": "final"}})
def cancel(session: SessionDep, settings: SettingsDep, caller: CallerDep, run: RunDep) -> RunPublic:
    """Cancel a pending or running run; needs the owner token of the run or of its scenario;
    409 when it already ended."""
    scenario = session.get(ScenarioRow, run.scenario_id)
    require_owner(caller, settings, f"run '{run.id}'", run.owner_hash,
                  scenario.owner_token_hash if scenario is not None else None)
    if not service.cancel_run(session, run=run):
        raise HTTPException(409, f"run '{run.id}' is already {run.status}")
    return service.to_public(run)


@router.get("/{id}/summary", response_model=RunSummary, responses=NOT_MODIFIED)
def summary(session: SessionDep, run: RunDep, request: Request, response: Response) -> RunSummary:
    """run_info and summary of the result; 409 unless SUCCEEDED."""
    result = succeeded_result(session, run, request, response)
    return RunSummary(run_info=result["run_info"], summary=result["summary"],
                      warnings=result.get("warnings", []), caveats=result.get("caveats", []),
                      flow_error=_flow_error(session, run, result))


def _flow_error(session: Session, run: Run, result: dict[str, Any]) -> FlowError | None:
    """The measured error of a flow-level run's kind of scenario (a collective's kind needs the
    fabric's oversubscription: the result's run_info.fabric, or in a result of an earlier
    version `fabricsim expand` of its fabric alone, simulator.expand_fabric); None when the
    simulator cannot say."""
    if run.engine != "flow":
        return None
    oversubscription = fabric_oversubscription(result)
    if oversubscription is None and result.get("jobs"):
        try:
            stats = simulator.expand_fabric(session.get(ScenarioRow, run.scenario_id).document)["stats"]
        except (simulator.SimulatorUnavailable, simulator.SimulatorRejected):
            return None
        oversubscription = float(stats.get("oversubscription", 1.0))
    return flow_error(result, oversubscription)


@router.get("/{id}/flows", response_model=FlowsPublic, responses=NOT_MODIFIED)
def flows(session: SessionDep, run: RunDep, request: Request, response: Response,
          limit: Annotated[int, Query(ge=1, le=10000)] = 100,
          offset: Annotated[int, Query(ge=0, le=1_000_000_000)] = 0) -> FlowsPublic:
    """A page of per-flow records."""
    records = succeeded_result(session, run, request, response).get("flows", [])
    return FlowsPublic(data=records[offset:offset + limit], count=len(records))


@router.get("/{id}/flows.csv", response_class=Response,
            responses={200: {"content": {"text/csv": {}}}})
def flows_csv(session: SessionDep, run: RunDep) -> Response:
    """The whole per-flow table as CSV."""
    records = succeeded_result(session, run).get("flows", [])
    buffer = io.StringIO()
    writer = csv.DictWriter(buffer, fieldnames=FLOW_COLUMNS, extrasaction="ignore")
    writer.writeheader()
    writer.writerows(records)
    headers = {"Content-Disposition": f'attachment; filename="run-{run.id}-flows.csv"'}
    return Response(buffer.getvalue(), media_type="text/csv", headers=headers)


@router.get("/{id}/series", response_model=dict[str, Any], responses=NOT_MODIFIED)
def series(session: SessionDep, run: RunDep, request: Request,
           response: Response) -> dict[str, Any]:
    """The sampled time series (queues, flow rates, pause state)."""
    return succeeded_result(session, run, request, response).get("series", {})


@router.get("/{id}/diagnostics", response_model=RunDiagnostics, responses=NOT_MODIFIED)
def diagnostics(session: SessionDep, run: RunDep, request: Request,
                response: Response) -> RunDiagnostics:
    """Faults, watchdogs and PFC deadlocks, Pingmesh RTTs, port counters (each null when the
    run has none; docs/result-format.md, "Optional objects")."""
    result = succeeded_result(session, run, request, response)
    return RunDiagnostics(faults=result.get("faults"), pingmesh=result.get("pingmesh"),
                          port_counters=result.get("port_counters"),
                          dci_accelerator=result.get("dci_accelerator"),
                          transport=result.get("transport"))


@router.get("/{id}/jobs", response_model=list[dict[str, Any]], responses=NOT_MODIFIED)
def jobs(session: SessionDep, run: RunDep, request: Request, response: Response) -> list[dict[str, Any]]:
    """The result's collective jobs (docs/result-format.md, "jobs"): JCT, algbw and busbw, every
    iteration and step; an empty list when the run has none."""
    return succeeded_result(session, run, request, response).get("jobs", [])


@router.get("/{id}/result", response_class=Response,
            responses={200: {"content": {"application/json": {}}}})
def result(session: SessionDep, run: RunDep) -> Response:
    """The raw result JSON as the simulator wrote it (download)."""
    succeeded_result(session, run)
    headers = {"Content-Disposition": f'attachment; filename="run-{run.id}-result.json"'}
    return Response(service.raw_result(session, run=run), media_type="application/json",
                    headers=headers)


@router.get("/{id}/events", response_class=EventSourceResponse,
            responses={200: {"content": {"text/event-stream": {}}},
                       429: {"description": "too many open event streams for this client"}})
def events(session: SessionDep, settings: SettingsDep, caller: CallerDep, run: RunDep,
           last_event_id: LastEventId = None) -> EventSourceResponse:
    """Server-Sent Events: `progress` (RunPublic JSON) on change, `done` at a final status."""
    run_id = run.id

    def read(s: Session) -> State:
        row = s.get(Run, run_id)
        if row is None:
            return None
        return service.to_public(row).model_dump(mode="json"), row.status in FINAL_STATES

    return progress_stream(session, client=client_key(caller, session, settings), read=read,
                           last_event_id=last_event_id)
