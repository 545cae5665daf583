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

from sqlalchemy import select
from sqlalchemy.orm import Session
from starlette.requests import HTTPConnection

from app.auth.models import Account
from app.core.db import utcnow

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


def groups_of(claims: dict[str, Any], claim: str) -> list[str]:
    """The groups (classes, teams) the ID token's `claim` names."""
    value = claims.get(claim) or []
    return sorted({value} if isinstance(value, str) else {str(v) for v in value})[:100]


def remember_account(session: Session, *, owner_hash: str, user: dict[str, Any]) -> None:
    """Store or refresh the account (its role and groups as its last ID token said)."""
    row = session.get(Account, owner_hash) or Account(owner_hash=owner_hash)
    row.issuer, row.subject, row.name = user["iss"][:300], user["sub"][:300], user["name"][:200]
    row.role, row.groups, row.seen_at = user["role"], user.get("groups", []), utcnow()
    session.add(row)
    session.commit()


def class_of(session: Session, *, owner_hash: str, groups: list[str]) -> tuple[str, ...]:
    """The owner hashes of the other accounts that share one of `groups` (an instructor's
    class or team), as last seen at their sign-in."""
    if not groups:
        return ()
    wanted = set(groups)
    rows = session.execute(select(Account.owner_hash, Account.groups)).all()
    return tuple(h for h, g in rows if h != owner_hash and wanted & set(g or []))


def session_user(connection: HTTPConnection) -> dict[str, Any] | None:
    """The signed-in user of the request's session, or None (also when sessions are off)."""
    if "session" not in connection.scope:
        return None
    user = connection.session.get("user")
    return user if isinstance(user, dict) and user.get("sub") else None
