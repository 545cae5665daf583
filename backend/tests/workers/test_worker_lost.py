"""A worker process killed with kill -9 mid-run: the run is retried once and ends final,
stored once, never stuck RUNNING."""

import os
import re
import signal

from sqlalchemy import text

from tests.helpers import create_scenario, start_run, wait_final
from tests.scenarios_data import two_hosts
from tests.support import wait_until


def _running_pid(api, run_id):
    """The pid of the pool process executing the run, once it reports progress."""
    def check():
        run = api.get(f"/runs/{run_id}").json()
        return run if run["status"] == "RUNNING" and run["progress"] > 0 else None

    wait_until(check, 120, what="run to make progress")
    return check


def test_kill_9_worker_mid_run(api, engine):
    scenario = create_scenario(api, two_hosts(name="long run", duration_us=300_000, monitor={"sample_interval_us": 100}))
    run = start_run(api, scenario["id"])[0]
    _running_pid(api, run["id"])
    with engine.connect() as connection:
        worker = connection.execute(text("SELECT worker FROM runs WHERE id = :i"),
                                    {"i": run["id"]}).scalar_one()
    pid = int(re.search(r"pid=(\d+)", worker).group(1))
    os.kill(pid, signal.SIGKILL)
    final = wait_final(api, run["id"], timeout=240)
    assert final["status"] in ("SUCCEEDED", "FAILED")
    assert final["attempts"] == 2, final
    with engine.connect() as connection:
        stored = connection.execute(text("SELECT count(*) FROM run_results WHERE run_id = :i"),
                                    {"i": run["id"]}).scalar_one()
        new_worker = connection.execute(text("SELECT worker FROM runs WHERE id = :i"),
                                        {"i": run["id"]}).scalar_one()
    assert stored == (1 if final["status"] == "SUCCEEDED" else 0)
    assert new_worker != worker


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
