"""Session fixtures: a fresh migrated PostgreSQL database, a Redis broker database, a live API
server and two real Celery workers. Missing services make the run fail, never skip."""

import tempfile
from collections.abc import Iterator

import httpx
import pytest
from sqlalchemy import create_engine
from sqlalchemy.engine import Engine

from tests.helpers import OWNER_TOKEN
from tests.support import (Stack, create_database, drop_database, migrate, redis_url_with_db,
                           require_env, service_env)

PG_REDIS_DB = 11


@pytest.fixture(scope="session")
def pg_url() -> Iterator[str]:
    """A new database on the PostgreSQL of DATABASE_URL, migrated to head."""
    url = create_database(require_env("DATABASE_URL"))
    result = migrate(service_env(DATABASE_URL=url))
    if result.returncode != 0:
        pytest.fail(f"alembic upgrade head failed:\n{result.stderr}")
    yield url
    drop_database(url)


@pytest.fixture(scope="session")
def stack(pg_url: str) -> Iterator[Stack]:
    """API server + 2 workers on PostgreSQL and Redis (the production code path), and the
    worker of runs on several threads (queue sim-parallel, docs/operations.md)."""
    broker = redis_url_with_db(require_env("CELERY_BROKER_URL"), PG_REDIS_DB)
    runs_dir = tempfile.mkdtemp(prefix="ft-runs-")
    env = service_env(DATABASE_URL=pg_url, CELERY_BROKER_URL=broker, RUNS_DIR=runs_dir,
                      REAPER_INTERVAL_S="2", HEARTBEAT_STALE_S="30", SSE_POLL_INTERVAL_S="0.2",
                      PROGRESS_WRITE_INTERVAL_S="0.3", MAX_BODY_BYTES="200000",
                      # every test calls from 127.0.0.1: a short window for failed owner tokens
                      # (tests/api/test_owners.py floods it and waits the window out)
                      FAILED_TOKEN_ATTEMPTS="60", FAILED_TOKEN_WINDOW_S="3",
                      # threads 2..4 on any machine (the simulator allows 4 x its cores)
                      MAX_RUN_THREADS="4")
    stack = Stack("pg", env)
    try:
        stack.start_server()
        stack.start_worker()
        stack.start_worker()
        stack.start_worker(queues="sim-parallel")
        yield stack
    finally:
        stack.stop()


@pytest.fixture(scope="session")
def api(stack: Stack) -> Iterator[httpx.Client]:
    """HTTP client of the live API (/api/v1), the owner: it sends its owner token on every request
    (as the browser does), so what it creates is its own."""
    with stack.client() as client:
        client.headers["X-Owner-Token"] = OWNER_TOKEN
        yield client


@pytest.fixture(scope="session")
def engine(pg_url: str) -> Iterator[Engine]:
    """Direct database access for assertions on stored rows."""
    engine = create_engine(pg_url, pool_pre_ping=True)  # survives the outage tests
    yield engine
    engine.dispose()
