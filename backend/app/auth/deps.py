"""Who is asking: `CallerDep` is the owner tokens of the request's X-Owner-Token header (their
hashes), its address and, when sign-in is on (OIDC_ISSUER), its account's role
(docs/security.md). The v1 router requires it on every route (app/main.py)."""

from typing import Annotated

from fastapi import Depends, HTTPException, Request
from fastapi.security import APIKeyHeader

from app.api.deps import SessionDep, SettingsDep
from app.auth.service import account_token, class_of, session_user
from app.core import owners
from app.core.owners import Caller

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
