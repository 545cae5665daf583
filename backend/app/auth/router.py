"""Sign-in through the organisation's OpenID Connect provider (Authlib's Starlette client):
/auth/login redirects to the provider, /auth/callback checks the ID token (signature, issuer,
audience, nonce) and keeps the user in the signed session cookie; /auth/me and /auth/logout.
Mounted only when OIDC_ISSUER is set (app/main.py)."""

from typing import Any

from authlib.integrations.starlette_client import OAuth, OAuthError
from fastapi import APIRouter, HTTPException, Request
from fastapi.responses import RedirectResponse

from app.api.deps import SessionDep, SettingsDep
from app.auth.service import (account_token, groups_of, remember_account, role_of,
                              session_user)
from app.core import owners
from app.core.config import Settings

router = APIRouter(prefix="/auth", tags=["auth"])
_oauth: dict[str, OAuth] = {}


def client(settings: Settings):
    """The registered OIDC client of this process (discovery read on first use)."""
    if settings.OIDC_ISSUER not in _oauth:
        oauth = OAuth()
        oauth.register("oidc", client_id=settings.OIDC_CLIENT_ID,
                       client_secret=settings.OIDC_CLIENT_SECRET,
                       server_metadata_url=settings.OIDC_ISSUER.rstrip("/")
                       + "/.well-known/openid-configuration",
                       client_kwargs={"scope": settings.OIDC_SCOPES})
        _oauth[settings.OIDC_ISSUER] = oauth
    return _oauth[settings.OIDC_ISSUER].oidc


@router.get("/login", response_class=RedirectResponse, status_code=302,
            responses={302: {"description": "to the provider's sign-in page"}})
async def login(request: Request, settings: SettingsDep) -> Any:
    """Start signing in: a redirect to the provider."""
    address = request.client.host if request.client else "unknown"
    owners.failed_attempts.check(address, settings.FAILED_TOKEN_ATTEMPTS,
                                 settings.FAILED_TOKEN_WINDOW_S)
    return await client(settings).authorize_redirect(request, str(request.url_for("auth-callback")))


@router.get("/callback", name="auth-callback", response_class=RedirectResponse, status_code=302,
            responses={401: {"description": "the provider's answer did not check out"},
                       429: {"description": "too many failed sign-ins from this client"}})
async def callback(request: Request, settings: SettingsDep, session: SessionDep) -> Any:
    """The provider's answer: check the ID token, keep the user in the session, go home."""
    address = request.client.host if request.client else "unknown"
    owners.failed_attempts.check(address, settings.FAILED_TOKEN_ATTEMPTS,
                                 settings.FAILED_TOKEN_WINDOW_S)
    try:
        token = await client(settings).authorize_access_token(request)
    except OAuthError as exc:
        owners.failed_attempts.record(address, settings.FAILED_TOKEN_WINDOW_S)
        raise HTTPException(401, f"sign-in failed: {exc.error}") from exc
    claims = dict(token.get("userinfo") or {})
    user = {"iss": str(claims.get("iss", settings.OIDC_ISSUER)), "sub": str(claims["sub"]),
            "name": str(claims.get("name") or claims.get("email") or claims["sub"])[:200],
            "role": role_of(claims, settings.OIDC_ROLES_CLAIM),
            "groups": groups_of(claims, settings.OIDC_GROUPS_CLAIM)}
    token = account_token(settings.SESSION_SECRET, user["iss"], user["sub"])
    remember_account(session, owner_hash=owners.token_hash(token), user=user)
    request.session["user"] = user
    return RedirectResponse("/", status_code=302)


@router.get("/me")
def me(request: Request) -> dict[str, Any]:
    """The signed-in user: {sub, name, role}; 401 when signed out."""
    user = session_user(request)
    if user is None:
        raise HTTPException(401, "not signed in")
    return {"sub": user["sub"], "name": user["name"], "role": user["role"],
            "groups": user.get("groups", [])}


@router.post("/logout", status_code=204)
def logout(request: Request) -> None:
    """Forget the session."""
    request.session.pop("user", None)
