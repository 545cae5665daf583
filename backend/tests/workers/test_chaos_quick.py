"""Issue 13, the quick chaos cases with real processes: the API killed and restarted while a
client follows a run's Server-Sent Events (the client resumes with Last-Event-ID and sees no
state twice), and a run cancelled mid-run (its fabricsim is gone, the worker takes new work).
The long chaos run (sweep + tuning under every fault) is bench/chaos.py."""

import json
import os
import secrets
import signal
import tempfile
from collections.abc import Iterator

import httpx
import psutil
import pytest

from tests.helpers import create_scenario, start_run, wait_final
from tests.scenarios_data import long_running, two_hosts
from tests.support import (Stack, create_database, drop_database, migrate, redis_url_with_db,
                           require_env, service_env, wait_until)

CHAOS_REDIS_DB = 14


@pytest.fixture(scope="module")
def chaos_stack() -> Iterator[Stack]:
    """API on its own database; no worker yet (each test starts the ones it needs)."""
    url = create_database(require_env("DATABASE_URL"))
    assert migrate(service_env(DATABASE_URL=url)).returncode == 0
    broker = redis_url_with_db(require_env("CELERY_BROKER_URL"), CHAOS_REDIS_DB)
    env = service_env(DATABASE_URL=url, CELERY_BROKER_URL=broker,
                      RUNS_DIR=tempfile.mkdtemp(prefix="ft-chaos-"), SSE_POLL_INTERVAL_S="0.2",
                      PROGRESS_WRITE_INTERVAL_S="0.3")
    stack = Stack("chaos", env)
    try:
        stack.start_server()
        yield stack
    finally:
        stack.stop()
        drop_database(url)


def read_events(lines: Iterator[str], stop_after: int | None = None) -> list[dict]:
    """Parse an event stream's lines into {"event", "id", "data"} dicts until `done` (or
    `stop_after` events). A stream the server dropped (killed API) simply ends the list."""
    events, current = [], {}
    try:
        for line in lines:
            if line == "":
                if "data" in current:
                    events.append(current)
                    if current.get("event") == "done" or len(events) == stop_after:
                        return events
                current = {}
                continue
            field, _, value = line.partition(":")
            value = value.strip()
            if field == "data":
                current["data"] = json.loads(value)
            elif field in ("event", "id"):
                current[field] = value
    except httpx.HTTPError:
        pass  # the connection died with the server
    return events


def new_seed() -> int:
    """A seed no earlier run used (identical simulations would reuse a stored run)."""
    return 100_000 + secrets.randbelow(10**6)


def test_sse_client_resumes_after_api_restart_without_repeats(chaos_stack):
    stack = chaos_stack
    with stack.client() as api:
        scenario = create_scenario(api, two_hosts(name="sse across an API restart"))
        run = start_run(api, scenario["id"], seeds=[new_seed()])[0]
        path = f"/runs/{run['id']}/events"
        # No worker serves the runs' queue yet: the run stays PENDING, a state the client sees
        # once before the API dies under it.
        with api.stream("GET", path, timeout=60) as first:
            lines = first.iter_lines()  # one iterator: a stream is read once
            seen = read_events(lines, stop_after=1)
            assert [(e["event"], e["data"]["status"]) for e in seen] == [("progress", "PENDING")]
            last_id = seen[0]["id"]
            assert first.headers["content-type"].startswith("text/event-stream")
            os.killpg(stack.server.pid, signal.SIGKILL)
            stack.server.wait()
            assert all(e["event"] != "done" for e in read_events(lines))  # dropped, not ended
        stack.start_server()  # same port, like a restarted replica behind the same address
        # The client reconnects as EventSource does, sending the id of the last event it got.
        with api.stream("GET", path, headers={"Last-Event-ID": last_id}, timeout=300) as resumed:
            assert resumed.status_code == 200
            worker = stack.start_worker()
            events = read_events(resumed.iter_lines())
        assert events and events[-1]["event"] == "done", events
        assert events[-1]["data"]["status"] == "SUCCEEDED"
        # The PENDING state the client had already seen is not sent again.
        assert last_id not in [e.get("id") for e in events], events
        assert "PENDING" not in [e["data"]["status"] for e in events], events
        # A client that got the final state reconnects: only `done`, no repeated progress.
        done_id = events[-1]["id"]
        with api.stream("GET", path, headers={"Last-Event-ID": done_id}, timeout=60) as again:
            assert [e["event"] for e in read_events(again.iter_lines())] == ["done"]
        with api.stream("GET", path, timeout=60) as fresh:  # a new client gets the state too
            assert [e["event"] for e in read_events(fresh.iter_lines())] == ["progress", "done"]
        stack.stop_worker(worker)


def fabricsim_processes(worker: psutil.Process) -> list[psutil.Process]:
    """The simulator processes under a worker (pool child -> fabricsim)."""
    return [p for p in worker.children(recursive=True)
            if p.name() == "fabricsim" and p.status() != psutil.STATUS_ZOMBIE]


def test_cancel_mid_run_kills_fabricsim_and_worker_takes_new_work(chaos_stack):
    stack = chaos_stack
    worker_proc = stack.start_worker()  # one worker, one slot: the next run must use it too
    worker = psutil.Process(worker_proc.pid)
    with stack.client() as api:
        scenario = create_scenario(api, long_running("cancel mid-run"))
        run = start_run(api, scenario["id"], seeds=[new_seed()])[0]
        wait_until(lambda: (lambda r: r["status"] == "RUNNING" and r["progress"] > 0)(
            api.get(f"/runs/{run['id']}").json()), 120, what="the long run to make progress")
        sims = fabricsim_processes(worker)
        assert len(sims) == 1 and any(run["id"] in arg for arg in sims[0].cmdline()), sims
        cancelled = api.post(f"/runs/{run['id']}/cancel",  # the scenario's owner cancels
                             headers={"X-Owner-Token": scenario["owner_token"]})
        assert cancelled.status_code == 200 and cancelled.json()["status"] == "CANCELLED"
        # The worker's next progress tick sees the claim gone and SIGKILLs the simulator.
        wait_until(lambda: not sims[0].is_running() or sims[0].status() == psutil.STATUS_ZOMBIE,
                   60, interval=0.05, what="the cancelled run's fabricsim to exit")
        final = api.get(f"/runs/{run['id']}").json()
        assert final["status"] == "CANCELLED" and final["error"] == "cancelled by user", final
        # The same single worker slot takes the next run and finishes it.
        short = create_scenario(api, two_hosts(name="after a cancel"))
        after = start_run(api, short["id"], seeds=[new_seed()])[0]
        assert wait_final(api, after["id"])["status"] == "SUCCEEDED"
        assert worker_proc.poll() is None
        assert api.get(f"/runs/{run['id']}/summary").status_code == 409  # nothing stored for it
    stack.stop_worker(worker_proc)


def test_sweep_and_tuning_streams_resume_from_last_event_id(chaos_stack):
    """Every event stream a page follows (run above, sweep, tuning) honours Last-Event-ID."""
    stack = chaos_stack
    worker = stack.start_worker()
    with stack.client() as api:
        base = create_scenario(api, two_hosts(name="streams resume"))
        sweep = api.post("/sweeps", json={"scenario_id": base["id"], "seed": new_seed(),
                                          "parameters": [{"path": "seed",
                                                          "values": [new_seed(), new_seed()]}]})
        tuning = api.post("/tunings", json={
            "scenario_ids": [base["id"]], "seeds": [new_seed()],
            "space": {"parameters": [{"name": "pmax", "path": "switch.ecn.pmax",
                                      "values": [1, 90], "unit": "percent"}]},
            "objectives": [{"kind": "metric", "metric": "throughput_gbps"}],
            "strategies": [{"name": "grid"}]})
        assert sweep.status_code == 201 and tuning.status_code == 201, (sweep.text, tuning.text)
        for path in (f"/sweeps/{sweep.json()['id']}/events",
                     f"/tunings/{tuning.json()['id']}/events"):
            with api.stream("GET", path, timeout=300) as stream:
                events = read_events(stream.iter_lines())
            assert events[-1]["event"] == "done" and events[-1]["data"]["status"] == "SUCCEEDED"
            ids = [e["id"] for e in events]
            assert all(a != b for a, b in zip(ids, ids[1:-1])), ids  # no state sent twice
            with api.stream("GET", path, headers={"Last-Event-ID": ids[-1]}, timeout=60) as again:
                assert [e["event"] for e in read_events(again.iter_lines())] == ["done"], path
    stack.stop_worker(worker)
