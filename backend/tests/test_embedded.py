"""The embedded default: SQLite file + Redis broker + one local worker, same end-to-end test."""

import tempfile
from pathlib import Path

import pytest

from tests.runs.e2e import run_two_hosts_end_to_end
from tests.support import BACKEND, Stack, redis_url_with_db, require_env, service_env

SQLITE_REDIS_DB = 12


@pytest.fixture(scope="module")
def embedded():
    """API + one worker on a fresh SQLite file, migrated and seeded by the prestart script."""
    import subprocess

    workdir = Path(tempfile.mkdtemp(prefix="ft-embedded-"))
    broker = redis_url_with_db(require_env("CELERY_BROKER_URL"), SQLITE_REDIS_DB)
    env = service_env(DATABASE_URL=f"sqlite:///{workdir / 'fabrictwin.db'}",
                      CELERY_BROKER_URL=broker, RUNS_DIR=str(workdir / "runs"),
                      SSE_POLL_INTERVAL_S="0.2", PROGRESS_WRITE_INTERVAL_S="0.3")
    prestart = subprocess.run([str(BACKEND / "scripts" / "prestart.sh")], env=env,
                              capture_output=True, text=True, timeout=120, check=False)
    assert prestart.returncode == 0, prestart.stderr
    stack = Stack("sqlite", env)
    try:
        stack.start_server()
        stack.start_worker()
        with stack.client() as client:
            yield client
    finally:
        stack.stop()


def test_embedded_end_to_end(embedded):
    run = run_two_hosts_end_to_end(embedded, "e2e embedded")
    assert run["status"] == "SUCCEEDED"
    presets = embedded.get("/presets").json()
    # every preset of app/presets/data is seeded (21 today)
    assert presets["count"] == len(list((BACKEND / "app" / "presets" / "data").glob("*.json"))) == 21
