"""Signed-in callers (OpenID Connect, Authlib): the account behind a session and its role.

An account owns work like a browser does, through an owner token: the account's token is derived
from the session secret and the account's issuer and subject (HMAC-SHA256), so every session of
the account holds the same token, and nothing new is stored. A signed-in caller's tokens are the
account's first, then whatever its browser sends.
"""

import base64
import hashlib
import hmac
from typing import Any

from starlette.requests import HTTPConnection

ROLES = ("member", "instructor", "admin")


def account_token(secret: str, issuer: str, subject: str) -> str:
    """The owner token of an account: 43 URL-safe characters."""
    digest = hmac.new(secret.encode(), f"account:{issuer}|{subject}".encode(), hashlib.sha256)
    return base64.urlsafe_b64encode(digest.digest()).decode().rstrip("=")


def role_of(claims: dict[str, Any], claim: str) -> str:
    """The highest role the ID token's `claim` names (a string or a list), else member."""
    value = claims.get(claim) or []
    names = {value} if isinstance(value, str) else {str(v) for v in value}
    return next((r for r in reversed(ROLES) if r in names), "member")


def session_user(connection: HTTPConnection) -> dict[str, Any] | None:
    """The signed-in user of the request's session, or None (also when sessions are off)."""
    if "session" not in connection.scope:
        return None
    user = connection.session.get("user")
    return user if isinstance(user, dict) and user.get("sub") else None
