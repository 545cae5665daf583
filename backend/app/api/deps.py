"""The request dependencies every domain shares: the database session, the settings, an id in a
path, and the owner checks. `require_owner` answers 403 unless the caller (app/auth/deps.py:
`CallerDep`) holds the token of one of the owners given (docs/security.md). A domain's own
lookups (`RunDep`, `SweepDep`, ...) live in its package (app/runs/deps.py, ...): this base
imports no domain."""

from typing import Annotated

from fastapi import Depends, HTTPException, Path
from pydantic import BaseModel, Field
from sqlalchemy.orm import Session

from app.core import owners
from app.core.owners import Caller
from app.core.config import Settings, get_settings
from app.core.db import get_session

SessionDep = Annotated[Session, Depends(get_session)]
SettingsDep = Annotated[Settings, Depends(get_settings)]
# Ids are URL-safe base64 (app/scenarios/service.new_id): nothing else reaches a query or a path.
IdPath = Annotated[str, Path(min_length=1, max_length=64, pattern=r"^[A-Za-z0-9_-]+$")]

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


def get_or_404(session: Session, model: type, item_id: str, what: str):
    """The row with this primary key, or a 404 naming the resource."""
    row = session.get(model, item_id)
    if row is None:
        raise HTTPException(status_code=404, detail=f"{what} '{item_id}' not found")
    return row
