"""Issue 13, defects 2 and 3: a Redis restart that loses every queued message, and a PostgreSQL
outage in the middle of a sweep, strand no run: every point ends SUCCEEDED, stored once, and the
API answers 503 with Retry-After (never 500) while the database is down."""

import subprocess
from collections.abc import Iterator

import httpx
import pytest
from sqlalchemy import create_engine, text

from tests.helpers import create_scenario
from tests.scenarios_data import two_hosts
from tests.support import (ROOT, Stack, create_database, drop_database, migrate,
                           redis_url_with_db, require_env, service_env, wait_until)

OUTAGE_REDIS_DB = 13
POINTS = 16


def services(command: str) -> None:
    """scripts/services.sh pg-stop|pg-start|redis-stop|redis-start (this checkout's services)."""
    subprocess.run([str(ROOT / "scripts" / "services.sh"), command], check=True, timeout=120,
                   capture_output=True)


@pytest.fixture(scope="module")
def outage_stack() -> Iterator[tuple[Stack, str]]:
    """API + 2 workers on their own database; the reconciler runs every second with a 3 s grace."""
    url = create_database(require_env("DATABASE_URL"))
    assert migrate(service_env(DATABASE_URL=url)).returncode == 0
    broker = redis_url_with_db(require_env("CELERY_BROKER_URL"), OUTAGE_REDIS_DB)
    import tempfile

    env = service_env(DATABASE_URL=url, CELERY_BROKER_URL=broker,
                      RUNS_DIR=tempfile.mkdtemp(prefix="ft-outage-"), REAPER_INTERVAL_S="1",
                      PENDING_GRACE_S="3", HEARTBEAT_STALE_S="30", DB_RETRY_MAX_DELAY_S="2",
                      PROGRESS_WRITE_INTERVAL_S="0.3", SSE_POLL_INTERVAL_S="0.2")
    stack = Stack("outage", env)
    try:
        stack.start_server()
        stack.start_worker()
        stack.start_worker()
        yield stack, url
    finally:
        stack.stop()
        drop_database(url)


def start_sweep(api: httpx.Client, stack: Stack, url: str, name: str, first_seed: int) -> str:
    """A sweep of POINTS two-host runs, expanded but not started: every point PENDING, queued.

    Seeds first_seed.. keep each test's points new (identical simulations would reuse stored runs).
    Deterministic on any machine: the stack's workers are stopped first, and only an expander
    (the `celery` queue) is started, so nothing consumes the runs' queue until the test says so."""
    for proc in stack.workers:
        if proc.poll() is None:
            stack.stop_worker(proc)
    stack.start_worker(queues="celery")
    base = create_scenario(api, two_hosts(name=name, duration_us=15_000,
                                          monitor={"sample_interval_us": 100}))
    response = api.post("/sweeps", json={"scenario_id": base["id"], "seed": 1, "parameters": [
        {"path": "seed", "values": list(range(first_seed, first_seed + POINTS))}]})
    assert response.status_code == 201, response.text
    sweep_id = response.json()["id"]
    wait_until(lambda: point_states(url, sweep_id).get("PENDING", 0) == POINTS, 120,
               what="the sweep expanded into queued points")
    return sweep_id


def point_states(url: str, sweep_id: str) -> dict[str, int]:
    """Run status -> count over the sweep's points, straight from the database."""
    engine = create_engine(url)
    try:
        with engine.connect() as connection:
            rows = connection.execute(text(
                "SELECT r.status, count(*) FROM runs r JOIN sweep_points p ON p.run_id = r.id "
                "WHERE p.sweep_id = :s GROUP BY r.status"), {"s": sweep_id}).all()
        return dict(rows)
    finally:
        engine.dispose()


def assert_sweep_complete(api: httpx.Client, url: str, sweep_id: str) -> None:
    """Every point SUCCEEDED exactly once: one stored result per run, counts consistent."""
    body = wait_until(lambda: (lambda b: b if b["status"] in ("SUCCEEDED", "FAILED") else None)(
        api.get(f"/sweeps/{sweep_id}").json()), 300, interval=0.5, what="sweep to finish")
    assert body["status"] == "SUCCEEDED", [p for p in body["points"] if p["status"] != "SUCCEEDED"]
    assert body["total"] == body["done"] == POINTS and body["failed"] == 0
    assert len(body["points"]) == POINTS and len({p["run_id"] for p in body["points"]}) == POINTS
    engine = create_engine(url)
    try:
        with engine.connect() as connection:
            stored = connection.execute(text(
                "SELECT count(*), count(DISTINCT rr.run_id) FROM run_results rr "
                "JOIN sweep_points p ON p.run_id = rr.run_id WHERE p.sweep_id = :s"),
                {"s": sweep_id}).one()
    finally:
        engine.dispose()
    assert tuple(stored) == (POINTS, POINTS)


def test_redis_restart_without_persistence_mid_sweep(outage_stack):
    stack, url = outage_stack
    with stack.client() as api:
        sweep_id = start_sweep(api, stack, url, "redis restart", first_seed=1)
        services("redis-stop")  # shutdown nosave: every queued message is gone
        try:
            assert point_states(url, sweep_id) == {"PENDING": POINTS}
            assert api.get("/sweeps").status_code == 200  # the API does not need the broker
        finally:
            services("redis-start")
        # Workers for the runs' queue: they find it empty; only the reconciler can save the sweep.
        stack.start_worker()
        stack.start_worker()
        assert_sweep_complete(api, url, sweep_id)
        # After the restart the workers take new work as before.
        assert api.post("/runs", json={"scenario_id": api.get(f"/sweeps/{sweep_id}").json()
                                       ["scenario_id"], "seeds": [99]}).status_code == 201


def test_postgres_outage_mid_sweep_503_then_complete(outage_stack):
    stack, url = outage_stack
    with stack.client() as api:
        sweep_id = start_sweep(api, stack, url, "postgres outage", first_seed=1001)
        services("pg-stop")
        codes = []
        try:
            # While the database is down: 503 with Retry-After, on reads, writes and health.
            for path in ("/sweeps", f"/sweeps/{sweep_id}", "/scenarios", "/runs"):
                response = api.get(path)
                codes.append(response.status_code)
                assert response.status_code == 503, (path, response.status_code, response.text)
                assert int(response.headers["retry-after"]) > 0
            created = api.post("/runs", json={"scenario_id": "x", "seeds": [1]})
            assert created.status_code == 503 and "retry-after" in created.headers
            # Workers for the runs' queue start during the outage: each claim fails and is retried
            # with backoff (logged), none is acknowledged as lost.
            stack.start_worker()
            stack.start_worker()
            # Celery's autoretry logs each try: "Task runs.execute_batch[...] retry: Retry in 2s:
            # OperationalError(...)".
            wait_until(lambda: any(b"retry: Retry in" in text and b"OperationalError" in text
                                   for text in (log.read_bytes() for log in stack.worker_logs())),
                       60,
                       what="a worker to retry a database write")
        finally:
            services("pg-start")
        assert_sweep_complete(api, url, sweep_id)
