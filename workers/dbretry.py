"""Database errors in workers: retry with exponential backoff instead of losing the work.

Tasks whose work is not done yet (claiming, expanding, dispatching) let Celery retry them:
`DB_RETRY_TASK_OPTIONS` (autoretry_for, retry_backoff with jitter, a cap on tries). A finished
simulation's outcome is stored with `with_db_retry` in place instead: retrying the task would
simulate again, while the result file is already on disk.
"""

import logging
import random
import time
from collections.abc import Callable
from typing import TypeVar

from app.core.config import get_settings
from app.core.db import DB_UNAVAILABLE

log = logging.getLogger(__name__)
T = TypeVar("T")


def _task_options() -> dict:
    settings = get_settings()
    return {"autoretry_for": DB_UNAVAILABLE, "retry_backoff": 1,
            "retry_backoff_max": max(1, int(settings.DB_RETRY_MAX_DELAY_S)), "retry_jitter": True,
            "max_retries": settings.DB_RETRY_MAX_TRIES}


DB_RETRY_TASK_OPTIONS = _task_options()


def backoff_s(attempt: int) -> float:
    """1, 2, 4, ... seconds up to DB_RETRY_MAX_DELAY_S, with +-20 % jitter so workers spread."""
    base = min(get_settings().DB_RETRY_MAX_DELAY_S, 2.0 ** attempt)
    return base * random.uniform(0.8, 1.2)


def with_db_retry(action: Callable[[], T], *, what: str,
                  sleep: Callable[[float], None] = time.sleep) -> T:
    """Call `action` until it does not raise a database-unavailable error, for at most
    DB_RETRY_WINDOW_S; then the last error propagates."""
    deadline = time.monotonic() + get_settings().DB_RETRY_WINDOW_S
    attempt = 0
    while True:
        try:
            return action()
        except DB_UNAVAILABLE as exc:
            delay = backoff_s(attempt)
            if time.monotonic() + delay > deadline:
                raise
            log.warning("%s: database unavailable (%s); retry %d in %.1f s", what,
                        type(exc).__name__, attempt + 1, delay)
            sleep(delay)
            attempt += 1
