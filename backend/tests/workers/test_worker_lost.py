"""A worker process killed with kill -9 mid-run: the run is retried once and ends final,
stored once, never stuck RUNNING."""

import os
import re
import signal

from sqlalchemy import text

from tests.helpers import create_scenario, start_run, wait_final
from tests.scenarios_data import long_running, two_hosts
from tests.support import wait_until


def _running(api, run_id, attempts):
    """Wait until the run reports progress in attempt `attempts`; returns the row's worker."""
    def check():
        run = api.get(f"/runs/{run_id}").json()
        return run["status"] == "RUNNING" and run["attempts"] == attempts and run["progress"] > 0

    wait_until(check, 120, what=f"run to make progress in attempt {attempts}")


def _worker_of(engine, run_id):
    with engine.connect() as connection:
        return connection.execute(text("SELECT worker FROM runs WHERE id = :i"),
                                  {"i": run_id}).scalar_one()


def test_kill_9_worker_mid_run(api, engine):
    # A run that lasts minutes, so the kill always lands mid-run; the redelivered attempt is
    # cancelled once it makes progress (finishing after a redelivery is covered by the Redis and
    # PostgreSQL outage tests in test_outages.py).
    scenario = create_scenario(api, long_running("kill -9 mid-run"))
    run = start_run(api, scenario["id"])[0]
    _running(api, run["id"], attempts=1)
    worker = _worker_of(engine, run["id"])
    pid = int(re.search(r"pid=(\d+)", worker).group(1))
    os.kill(pid, signal.SIGKILL)
    _running(api, run["id"], attempts=2)
    assert _worker_of(engine, run["id"]) != worker
    assert api.post(f"/runs/{run['id']}/cancel").status_code == 200
    final = wait_final(api, run["id"], timeout=60)
    assert final["status"] == "CANCELLED" and final["attempts"] == 2, final
    with engine.connect() as connection:
        stored = connection.execute(text("SELECT count(*) FROM run_results WHERE run_id = :i"),
                                    {"i": run["id"]}).scalar_one()
    assert stored == 0


def test_reaper_requeues_stale_running_run(api, engine):
    scenario = create_scenario(api, two_hosts(name="stale"))
    run = start_run(api, scenario["id"])[0]
    wait_final(api, run["id"])
    # Simulate a worker host that vanished without Celery noticing: RUNNING, old heartbeat.
    with engine.begin() as connection:
        connection.execute(text(
            "UPDATE runs SET status = 'RUNNING', attempts = 1, task_id = 'gone', "
            "heartbeat_at = now() - interval '10 minutes', finished_at = NULL WHERE id = :i"),
            {"i": run["id"]})
        connection.execute(text("DELETE FROM run_results WHERE run_id = :i"), {"i": run["id"]})
    final = wait_final(api, run["id"], timeout=120)
    assert final["status"] == "SUCCEEDED" and final["attempts"] == 2
