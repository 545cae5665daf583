"""Owner tokens: the capability that lets a caller change or list its own work (issue 23).

A token is 32 URL-safe characters (24 random bytes, 192 bits) minted by the server the first time
a caller creates something without one; the caller sends it back in `X-Owner-Token` on every
request (several, comma-separated, when a browser holds tokens of other browsers' imported
lists). Only its sha256 is stored, on every row it owns. Nothing here knows a domain: the routers
decide which rows' owners may do what (app/api/deps.py).

Failed attempts (a request that presents tokens which own nothing it asked to change) are counted
per client address in this process; past FAILED_TOKEN_ATTEMPTS within FAILED_TOKEN_WINDOW_S the
address gets 429 with Retry-After until the window has passed.
"""

import hashlib
import hmac
import re
import secrets
import threading
import time
from collections import defaultdict, deque
from collections.abc import Iterable
from dataclasses import dataclass

from fastapi import HTTPException

HEADER = "X-Owner-Token"
TOKEN_RE = re.compile(r"^[A-Za-z0-9_-]{22,64}$")
MAX_TOKENS = 32  # tokens one request may present (a browser's own plus imported lists)


def new_token() -> str:
    """A fresh owner token: 24 random bytes, 32 URL-safe characters."""
    return secrets.token_urlsafe(24)


def token_hash(token: str) -> str:
    """The stored form of a token."""
    return hashlib.sha256(token.encode()).hexdigest()


def parse_tokens(header: str | None) -> list[str]:
    """The tokens of an X-Owner-Token header in order, duplicates dropped. Raises 401 naming the
    header when it is malformed (a token of the wrong form, or too many)."""
    if header is None or not header.strip():
        return []
    tokens = [t.strip() for t in header.split(",") if t.strip()]
    if len(tokens) > MAX_TOKENS:
        raise HTTPException(401, f"{HEADER}: at most {MAX_TOKENS} comma-separated tokens "
                                 f"(got {len(tokens)})")
    for token in tokens:
        if not TOKEN_RE.match(token):
            raise HTTPException(401, f"{HEADER}: each token is 22-64 URL-safe characters "
                                     "(A-Z a-z 0-9 _ -)")
    return list(dict.fromkeys(tokens))


def holds(hashes: Iterable[str], owner_hash: str | None) -> bool:
    """Whether one of `hashes` (the caller's) is `owner_hash`, compared in constant time."""
    if not owner_hash:
        return False
    found = False
    for digest in hashes:
        found |= hmac.compare_digest(digest, owner_hash)
    return found


@dataclass(frozen=True)
class Caller:
    """The tokens a request presents (first: the one new work is owned by) and its address."""

    tokens: tuple[str, ...]
    hashes: tuple[str, ...]
    address: str
    role: str = "anonymous"  # signed in (app/auth): member, instructor or admin
    # an instructor's: the owner hashes of the accounts sharing a group with it (read, not change)
    class_hashes: tuple[str, ...] = ()

    @property
    def sees_all(self) -> bool:
        """An admin lists everyone's work and may change it."""
        return self.role == "admin"

    def listing(self) -> tuple[str, ...] | None:
        """The owner hashes a list is restricted to (None: everything, for an admin)."""
        return None if self.sees_all else self.hashes + self.class_hashes

    def owner_token(self) -> str:
        """The token new work of this caller is owned by: its first, else a fresh one."""
        return self.tokens[0] if self.tokens else new_token()


class FailedAttempts:
    """Failed owner-token attempts per client address in a sliding window (this process)."""

    def __init__(self) -> None:
        self._seen: dict[str, deque[float]] = defaultdict(deque)
        self._lock = threading.Lock()

    def _trim(self, key: str, window_s: float, now: float) -> deque[float]:
        times = self._seen[key]
        while times and times[0] <= now - window_s:
            times.popleft()
        return times

    def check(self, key: str, limit: int, window_s: float) -> None:
        """Raise 429 with Retry-After while `key` has `limit` failures in the window."""
        now = time.monotonic()
        with self._lock:
            times = self._trim(key, window_s, now)
            if limit > 0 and len(times) >= limit:
                wait = max(1, int(times[0] + window_s - now) + 1)
                raise HTTPException(429, f"too many failed {HEADER} attempts from this client: "
                                         f"try again in {wait} s",
                                    headers={"Retry-After": str(wait)})
            if not times:
                del self._seen[key]

    def record(self, key: str, window_s: float) -> None:
        """Count one failure of `key`."""
        now = time.monotonic()
        with self._lock:
            self._trim(key, window_s, now).append(now)

    def clear(self) -> None:
        with self._lock:
            self._seen.clear()


failed_attempts = FailedAttempts()
