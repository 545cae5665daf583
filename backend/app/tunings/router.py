"""Tunings: create, list, get, follow (SSE), results, cancel, apply a pick."""

from datetime import timedelta
from typing import Annotated, Any

from fastapi import APIRouter, HTTPException, Query
from sqlalchemy.orm import Session
from sse_starlette.sse import EventSourceResponse

from app.api.deps import OWNER_RESPONSES, Access, SessionDep, SettingsDep, may_change, require_owner
from app.auth.deps import CallerDep
from app.scenarios.deps import open_listing
from app.tunings.deps import TuningDep
from app.api.errors import unprocessable
from app.api.sse import LastEventId, State, progress_stream
from app.core.db import utcnow
from app.core.owners import token_hash
from app.core.queue import kick_tuning
from app.runs.quotas import check_submission, client_key
from app.runs.models import FINAL_STATES
from app.scenarios.models import ScenarioRow
from app.scenarios.router import summary_of
from app.scenarios.schemas import ScenarioCreated
from app.tunings import service
from app.tunings.models import Tuning, TuningEvaluation
from app.tunings.schemas import (ApplyPick, SpaceOut, TuningCreate, TuningCreated, TuningPublic,
                                 TuningResults, TuningsPublic)
from app.tunings.objectives import JobNameError
from app.tunings.space import NAMED_SPACES, SpaceError

router = APIRouter(prefix="/tunings", tags=["tunings"])
STALE_CHAIN_S = 30.0  # a running tuning not stepped for this long gets its chain restarted
MAX_TUNING_POINTS = 1_000_000


@router.post("", response_model=TuningCreated, status_code=201,
             responses={429: {"description": "over a quota of this client (points per sweep or "
                                             "tuning, queued runs, simulated events per day)"}})
def create(session: SessionDep, settings: SettingsDep, caller: CallerDep,
           body: TuningCreate) -> Any:
    """Validate the space on every scenario, store the tuning and start its strategies. The
    client's quotas apply: the tuning's most runs (evaluations x scenarios x seeds) count
    against the points per sweep or tuning. The tuning, its snapshots and runs are owned by
    the caller's first owner token (a fresh one when it sent none, returned)."""
    client = client_key(caller, session, settings)
    token = caller.owner_token()
    bases = []
    for i, scenario_id in enumerate(body.scenario_ids):
        base = session.get(ScenarioRow, scenario_id)
        if base is None:
            raise HTTPException(404, f"scenario '{scenario_id}' not found")
        bases.append(base)
    try:
        tuning = service.create_tuning(
            session, body=body, bases=bases, max_points=MAX_TUNING_POINTS,
            admit=lambda runs: check_submission(session, settings, client=client, new_runs=0,
                                                points=runs), client=client,
            owner_hash=token_hash(token))
    except SpaceError as exc:
        return unprocessable([{"loc": ["body", "space", *exc.where], "msg": exc.message,
                               "type": "space"}])
    except JobNameError as exc:
        return unprocessable([{"loc": ["body", *exc.where], "msg": exc.message, "type": "job"}])
    kick_tuning(tuning.id)
    return TuningCreated(**service.to_public(session, tuning=tuning).model_dump(),
                         owner_token=token)


@router.get("/spaces", response_model=dict[str, SpaceOut])
def spaces() -> dict[str, SpaceOut]:
    """The named spaces (default units), for pickers and docs."""
    return {name: service.space_out(make()) for name, make in NAMED_SPACES.items()}


@router.get("", response_model=TuningsPublic)
def list_(session: SessionDep, caller: CallerDep, scenario_id: str | None = None,
          limit: Annotated[int, Query(ge=1, le=200)] = 20,
          offset: Annotated[int, Query(ge=0, le=1_000_000_000)] = 0) -> TuningsPublic:
    """Newest first, with per-strategy progress: the caller's tunings; with `scenario_id` of a
    saved scenario, every tuning of it (its link holders may read them; a preset's: the
    caller's)."""
    owned_by = None if open_listing(session, scenario_id) else caller.listing()
    rows, count = service.list_tunings(session, scenario_id=scenario_id, limit=limit,
                                       offset=offset, owned_by=owned_by)
    return TuningsPublic(data=[service.summary(session, tuning=t) for t in rows], count=count)


def _resume_if_stalled(tuning: Tuning) -> None:
    """A tuning whose step chain died with a worker is picked up again on the next look."""
    if tuning.status in FINAL_STATES:
        return
    last = tuning.stepped_at or tuning.created_at
    if last.tzinfo is None:
        from datetime import timezone
        last = last.replace(tzinfo=timezone.utc)
    if utcnow() - last > timedelta(seconds=STALE_CHAIN_S):
        kick_tuning(tuning.id)


@router.get("/{id}", response_model=TuningPublic)
def get(session: SessionDep, tuning: TuningDep) -> TuningPublic:
    """The request, the expanded space and per-strategy progress."""
    _resume_if_stalled(tuning)
    return service.to_public(session, tuning=tuning)


@router.get("/{id}/results", response_model=TuningResults)
def results(session: SessionDep, tuning: TuningDep, metrics: Annotated[bool, Query(
        description="include every evaluation's metrics (false: `metrics` is null, except the "
                    "picks'; a 3,990-evaluation tuning's response shrinks from 2.0 MB to a third "
                    "and a page can fetch the metrics when it shows one)")] = True
            ) -> TuningResults:
    """Every evaluation, each strategy's pick, the Pareto front and the comparison table."""
    return service.results(session, tuning=tuning, with_metrics=metrics)


def _owners(session, tuning: Tuning) -> tuple[str | None, ...]:
    """Who may change a tuning: its owner; one stored before owners were kept (owner_hash
    NULL), the owner of its first scenario."""
    if tuning.owner_hash is not None:
        return (tuning.owner_hash,)
    first = session.get(ScenarioRow, tuning.scenario_ids[0]) if tuning.scenario_ids else None
    return (first.owner_token_hash if first is not None else None,)


@router.get("/{id}/access", response_model=Access)
def access(session: SessionDep, caller: CallerDep, tuning: TuningDep) -> Access:
    """Whether the caller may cancel the tuning and apply its picks, and if not, why; the tuning
    page asks before it offers "Cancel" and "Apply this pick"."""
    if may_change(caller, *_owners(session, tuning)):
        return Access(may_change=True)
    return Access(may_change=False, reason="Someone else started this tuning: only they can cancel "
                  "it or apply its picks to its scenario. Fork a pick's settings to run them as "
                  "your own.")


@router.post("/{id}/cancel", response_model=TuningPublic,
             responses={**OWNER_RESPONSES, 409: {"description": "final"}})
def cancel(session: SessionDep, settings: SettingsDep, caller: CallerDep,
           tuning: TuningDep) -> TuningPublic:
    """Stop the strategies; needs the tuning's owner token; 409 when the tuning already ended."""
    require_owner(caller, settings, f"tuning '{tuning.id}'", *_owners(session, tuning))
    if not service.cancel_tuning(session, tuning=tuning):
        raise HTTPException(409, f"tuning '{tuning.id}' already ended")
    return service.to_public(session, tuning=tuning)


@router.post("/{id}/apply", response_model=ScenarioCreated, status_code=201,
             response_model_exclude_unset=True,
             responses={**OWNER_RESPONSES, 409: {"description": "not evaluated"}})
def apply(session: SessionDep, settings: SettingsDep, caller: CallerDep, tuning: TuningDep,
          body: ApplyPick) -> ScenarioCreated:
    """Fork a base scenario with an evaluation's settings (the new scenario's parent is the
    base, its owner the caller); needs the tuning's owner token."""
    require_owner(caller, settings, f"tuning '{tuning.id}'", *_owners(session, tuning))
    evaluation = session.get(TuningEvaluation, body.evaluation_id)
    if evaluation is None or evaluation.tuning_id != tuning.id:
        raise HTTPException(404, f"evaluation {body.evaluation_id} not found in tuning "
                                 f"'{tuning.id}'")
    if body.scenario_index >= len(tuning.scenario_ids):
        return unprocessable([{"loc": ["body", "scenario_index"], "type": "less_than",
                               "msg": f"must be < {len(tuning.scenario_ids)} (the tuning's "
                                      f"scenarios)"}])
    if evaluation.status != "DONE":
        raise HTTPException(409, f"evaluation {evaluation.id} is {evaluation.status}")
    child, token = service.apply_pick(session, tuning=tuning, evaluation=evaluation,
                                      scenario_index=body.scenario_index,
                                      owner_token=caller.owner_token())
    return ScenarioCreated(**summary_of(child), scenario=child.document, owner_token=token)


@router.get("/{id}/events", response_class=EventSourceResponse,
            responses={200: {"content": {"text/event-stream": {}}},
                       429: {"description": "too many open event streams for this client"}})
def events(session: SessionDep, settings: SettingsDep, caller: CallerDep, tuning: TuningDep,
           last_event_id: LastEventId = None) -> EventSourceResponse:
    """Server-Sent Events: `progress` (per strategy: evaluations, done, best so far), then `done`.
    A reconnecting client's Last-Event-ID skips the state it has already seen; the stream counts
    against the client's MAX_SSE_PER_CLIENT like the run and sweep streams."""
    tuning_id = tuning.id

    def read(s: Session) -> State:
        row = s.get(Tuning, tuning_id)
        if row is None:
            return None
        _resume_if_stalled(row)
        state = service.progress(s, tuning=row)
        return state.model_dump(mode="json"), state.status in FINAL_STATES

    return progress_stream(session, client=client_key(caller, session, settings), read=read,
                           last_event_id=last_event_id)
