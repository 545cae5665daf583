"""Fair use of a shared instance: per-client quotas (issue 13), counted over runs (so they live
in the runs domain; app/core imports no domain).

A client is the creator of the owner token the request carries first in X-Owner-Token (a lab of
forty students behind one NAT address is forty clients; issue 23: the token is one per browser,
reused for everything it creates), else the request's address;
QUOTA_CLIENT_KEY=address ignores tokens (a public instance, where anyone can mint tokens by saving
scenarios). Only a hash of the token is kept.

Submission-time limits answer 429 with Retry-After and name the limit: queued runs, points per
sweep or tuning, simulated events per day. Concurrent runs are enforced where runs start: a worker
that would exceed a client's limit defers the run (app/runs/execution.claim_run, under a
per-client lock), so the slot goes to another client meanwhile. Open event streams are counted
where they are served (app/api/sse.py).
"""

from datetime import timedelta

from sqlalchemy import func, select
from sqlalchemy.orm import Session

from app.api.errors import QuotaExceeded
from app.core.config import Settings
from app.core.db import utcnow
from app.core.owners import Caller
from app.runs.models import Run, RunStatus


def client_key(caller: Caller, session: Session, settings: Settings) -> str:
    """`owner:<hash>` of the caller's first owner token when it already owns work (and tokens
    count), else `addr:<address>`: quotas follow the token's creator, and a token nobody has used
    yet (anyone can mint one) is its address."""
    from app.scenarios.models import ScenarioRow

    if caller.hashes and settings.QUOTA_CLIENT_KEY == "token_or_address":
        digest = caller.hashes[0]
        if session.scalar(select(ScenarioRow.id).where(
                ScenarioRow.owner_token_hash == digest).limit(1)) is not None or \
                session.scalar(select(Run.id).where(Run.owner_hash == digest).limit(1)) is not None:
            return f"owner:{digest[:40]}"
    return f"addr:{caller.address}"[:80]


def check_submission(session: Session, settings: Settings, *, client: str, new_runs: int,
                     points: int | None = None) -> None:
    """Raise QuotaExceeded when `new_runs` more queued runs would pass a limit of `client`."""
    if points is not None and points > settings.QUOTA_POINTS_PER_SWEEP:
        raise QuotaExceeded("points per sweep", f"quota: at most {settings.QUOTA_POINTS_PER_SWEEP}"
                            f" points per sweep or tuning per client (asked {points})", 3600)
    queued = session.scalar(select(func.count()).select_from(Run).where(
        Run.client == client, Run.status == RunStatus.PENDING)) or 0
    if queued + new_runs > settings.QUOTA_QUEUED_RUNS:
        raise QuotaExceeded("queued runs", f"quota: at most {settings.QUOTA_QUEUED_RUNS} queued "
                            f"runs per client ({queued} queued, {new_runs} more asked)",
                            settings.QUOTA_RETRY_AFTER_S)
    if settings.QUOTA_EVENTS_PER_DAY > 0:
        since = utcnow() - timedelta(days=1)
        used, oldest = session.execute(select(func.coalesce(func.sum(Run.events), 0),
                                              func.min(Run.created_at)).where(
            Run.client == client, Run.created_at >= since)).one()
        if used >= settings.QUOTA_EVENTS_PER_DAY:
            frees = (oldest.replace(tzinfo=since.tzinfo) if oldest.tzinfo is None else oldest) \
                + timedelta(days=1) - utcnow()
            raise QuotaExceeded("simulated events per day",
                                f"quota: at most {settings.QUOTA_EVENTS_PER_DAY} simulated events "
                                f"per client in 24 h ({used} used)", frees.total_seconds())
