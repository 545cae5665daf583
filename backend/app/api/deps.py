"""Shared request dependencies as Annotated aliases; the *Dep lookups return 404 themselves.

`CallerDep` is who is asking: the owner tokens of its X-Owner-Token header (their hashes) and its
address. `require_owner` answers 403 unless the caller holds the token of one of the owners given
(docs/security.md)."""

from typing import Annotated

from fastapi import Depends, HTTPException, Path, Request
from fastapi.security import APIKeyHeader
from pydantic import BaseModel, Field
from sqlalchemy.orm import Session

from app.auth.service import account_token, class_of, session_user
from app.core import owners
from app.core.owners import Caller
from app.core.config import Settings, get_settings
from app.core.db import get_session
from app.runs.models import Run
from app.scenarios.models import ScenarioRow
from app.sweeps.models import Sweep
from app.tunings.models import Tuning

SessionDep = Annotated[Session, Depends(get_session)]
SettingsDep = Annotated[Settings, Depends(get_settings)]
# Ids are URL-safe base64 (app/scenarios/service.new_id): nothing else reaches a query or a path.
IdPath = Annotated[str, Path(min_length=1, max_length=64, pattern=r"^[A-Za-z0-9_-]+$")]

owner_token_header = APIKeyHeader(
    name=owners.HEADER, scheme_name="OwnerToken", auto_error=False,
    description="The owner token(s) returned when the caller first created something (a "
                "scenario, run, sweep or tuning), comma-separated when it holds several. Needed "
                "to cancel, apply or delete; lists return only what these tokens own "
                "(docs/security.md).")


def get_caller(request: Request, settings: SettingsDep, session: SessionDep,
               header: Annotated[str | None, Depends(owner_token_header)] = None) -> Caller:
    """The request's caller; 401 when X-Owner-Token is malformed, and, when sign-in is on
    (OIDC_ISSUER), for a caller not signed in (except GET /health). A signed-in caller's first
    token is its account's (app/auth/service.py)."""
    tokens = tuple(owners.parse_tokens(header))
    address = request.client.host if request.client else "unknown"
    role = "anonymous"
    if settings.OIDC_ISSUER:
        user = session_user(request)
        if user is None:
            if request.url.path.endswith("/health"):
                return Caller(tokens=(), hashes=(), address=address)
            raise HTTPException(401, "sign in first: this instance requires it (/api/v1/auth/login)")
        account = account_token(settings.SESSION_SECRET, user["iss"], user["sub"])
        tokens = (account, *(t for t in tokens if t != account))[:owners.MAX_TOKENS]
        role = user["role"]
        if role == "instructor":
            return Caller(tokens=tokens, hashes=tuple(owners.token_hash(t) for t in tokens),
                          address=address, role=role, class_hashes=class_of(
                              session, owner_hash=owners.token_hash(account),
                              groups=user.get("groups", [])))
    return Caller(tokens=tokens, hashes=tuple(owners.token_hash(t) for t in tokens),
                  address=address, role=role)


CallerDep = Annotated[Caller, Depends(get_caller)]
OWNER_RESPONSES = {
    403: {"description": "the caller holds no owner token of this resource (X-Owner-Token)"},
    429: {"description": "too many failed owner-token attempts from this client (Retry-After)"},
}


class Access(BaseModel):
    """GET /runs/{id}/access, /tunings/{id}/access: whether this caller may change it (cancel,
    apply a pick), asked before a page offers the button; a caller that may not is told why in
    plain words instead of a 403 naming a header."""

    may_change: bool
    reason: str = Field("", description="why not, in words; empty when it may")


def may_change(caller: Caller, *owner_hashes: str | None) -> bool:
    """Whether `require_owner` would pass, without counting a failed attempt (a question, not
    a try)."""
    return caller.sees_all or any(owners.holds(caller.hashes, h) for h in owner_hashes)


def require_owner(caller: Caller, settings: Settings, what: str, *owner_hashes: str | None) -> None:
    """Pass when the caller holds a token of one of `owner_hashes`, else 403 with one line.
    A client whose tokens keep failing is answered 429 with Retry-After first."""
    limit, window = settings.FAILED_TOKEN_ATTEMPTS, settings.FAILED_TOKEN_WINDOW_S
    owners.failed_attempts.check(caller.address, limit, window)
    if caller.sees_all or any(owners.holds(caller.hashes, h) for h in owner_hashes):
        return
    if caller.tokens:
        owners.failed_attempts.record(caller.address, window)
        raise HTTPException(403, f"X-Owner-Token does not own {what}")
    raise HTTPException(403, f"{what} can only be changed with its owner token (X-Owner-Token)")


def open_listing(session: Session, scenario_id: str | None) -> bool:
    """Whether a list filtered by `scenario_id` may show everyone's rows of it: a saved scenario's
    link holders may read its runs, sweeps and tunings; a preset's (public) rows are the caller's
    only, and a list without a scenario is always the caller's only."""
    if not scenario_id:
        return False
    row = session.get(ScenarioRow, scenario_id)
    return row is not None and row.preset_key is None


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


def get_tuning(session: SessionDep, id: IdPath) -> Tuning:
    """Path parameter `id` -> tuning row."""
    return _get_or_404(session, Tuning, id, "tuning")


ScenarioDep = Annotated[ScenarioRow, Depends(get_scenario)]
RunDep = Annotated[Run, Depends(get_run)]
SweepDep = Annotated[Sweep, Depends(get_sweep)]
TuningDep = Annotated[Tuning, Depends(get_tuning)]
