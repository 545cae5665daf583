"""Sweeps: a scenario plus a parameter grid, one run per point."""

import logging
from typing import Annotated

from fastapi import APIRouter, HTTPException, Query, Response
from sqlalchemy.orm import Session
from sse_starlette.sse import EventSourceResponse

from app.api.deps import OWNER_RESPONSES, SessionDep, SettingsDep, require_owner
from app.auth.deps import CallerDep
from app.scenarios.deps import open_listing
from app.sweeps.deps import SweepDep
from app.api.sse import LastEventId, State, progress_stream
from app.core.owners import token_hash
from app.core.queue import enqueue_sweep
from app.runs.quotas import check_submission, client_key
from app.core.strict_json import StrictJsonRoute
from app.runs.models import FINAL_STATES
from app.scenarios.models import ScenarioRow
from app.sweeps import service
from app.sweeps.models import Sweep
from app.sweeps.schemas import SweepCreate, SweepCreated, SweepPublic, SweepsPublic

log = logging.getLogger(__name__)
router = APIRouter(prefix="/sweeps", tags=["sweeps"], route_class=StrictJsonRoute)


@router.post("", response_model=SweepCreated, status_code=201,
             responses={429: {"description": "over a quota (Retry-After; the message names it)"}})
def create(session: SessionDep, settings: SettingsDep, caller: CallerDep,
           body: SweepCreate) -> SweepCreated:
    """Validate every point, store the sweep and fan its runs out on the workers. The sweep, its
    points and runs are owned by the caller's first owner token (a fresh one when it sent none,
    returned)."""
    base = session.get(ScenarioRow, body.scenario_id)
    if base is None:
        raise HTTPException(404, f"scenario '{body.scenario_id}' not found")
    size = service.grid_size(body)
    if size > settings.MAX_SWEEP_POINTS:
        raise HTTPException(422, [{"loc": ["body", "parameters"], "type": "too_many_points",
                                   "msg": f"the grid has {size} points (at most "
                                          f"{settings.MAX_SWEEP_POINTS})"}])
    client = client_key(caller, session, settings)
    check_submission(session, settings, client=client, new_runs=size, points=size)
    token = caller.owner_token()
    sweep = service.create_sweep(session, base=base, body=body, client=client,
                                 owner_hash=token_hash(token))
    try:
        enqueue_sweep(sweep.id)
    except Exception as exc:  # noqa: BLE001 - broker down: the reconciler expands it later
        log.warning("sweep %s: broker unreachable (%s); the reconciler will enqueue it",
                    sweep.id, type(exc).__name__)
    return SweepCreated(**service.to_public(session, sweep=sweep).model_dump(), owner_token=token)


@router.get("", response_model=SweepsPublic)
def list_(session: SessionDep, caller: CallerDep, scenario_id: str | None = None,
          limit: Annotated[int, Query(ge=1, le=200)] = 20,
          offset: Annotated[int, Query(ge=0, le=1_000_000_000)] = 0) -> SweepsPublic:
    """Newest first, with progress counts: the caller's sweeps; with `scenario_id` of a saved
    scenario, every sweep of it (its link holders may read them; a preset's: the caller's)."""
    owned_by = None if open_listing(session, scenario_id) else caller.listing()
    rows, count = service.list_sweeps(session, scenario_id=scenario_id, limit=limit,
                                      offset=offset, owned_by=owned_by)
    return SweepsPublic(data=[service.summary(session, sweep=s) for s in rows], count=count)


@router.get("/{id}", response_model=SweepPublic)
def get(session: SessionDep, sweep: SweepDep,
        limit: Annotated[int, Query(ge=1, le=service.POINTS_PAGE_MAX,
                                    description="points in this page")] = service.POINTS_PAGE_MAX,
        offset: Annotated[int, Query(ge=0, le=1_000_000_000,
                                     description="index of the page's first point")] = 0,
        ) -> SweepPublic:
    """Progress over all points and one page of the aggregated table (params -> metrics), in
    point index order: follow `next_offset` until it is null to read the whole table."""
    # The page's JSON straight from its rows (a page holds up to 1000 points; the response model
    # documents the shape): bench/sweep_view.py measures it.
    return Response(service.page_json(session, sweep=sweep, offset=offset, limit=limit),
                    media_type="application/json")


@router.post("/{id}/cancel", response_model=SweepPublic,
             responses={**OWNER_RESPONSES, 409: {"description": "final"}})
def cancel(session: SessionDep, settings: SettingsDep, caller: CallerDep,
           sweep: SweepDep) -> SweepPublic:
    """Cancel every point not yet finished; needs the sweep's owner token; 409 when the sweep
    already ended."""
    require_owner(caller, settings, f"sweep '{sweep.id}'", sweep.owner_hash)
    if not service.cancel_sweep(session, sweep=sweep):
        raise HTTPException(409, f"sweep '{sweep.id}' already ended")
    return service.to_public(session, sweep=sweep)


@router.get("/{id}/events", response_class=EventSourceResponse,
            responses={200: {"content": {"text/event-stream": {}}},
                       429: {"description": "too many open event streams for this client"}})
def events(session: SessionDep, settings: SettingsDep, caller: CallerDep, sweep: SweepDep,
           last_event_id: LastEventId = None) -> EventSourceResponse:
    """Server-Sent Events: `progress` with {id, status, total, done, failed}, then `done`."""
    sweep_id = sweep.id

    def read(s: Session) -> State:
        row = s.get(Sweep, sweep_id)
        if row is None:
            return None
        state = service.progress(s, sweep=row)
        return state.model_dump(mode="json"), state.status in FINAL_STATES

    return progress_stream(session, client=client_key(caller, session, settings), read=read,
                           last_event_id=last_event_id)
