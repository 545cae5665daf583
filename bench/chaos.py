"""Chaos run (issue 13): faults injected into a live PostgreSQL stack while a sweep and a tuning run.

    eval "$(scripts/services.sh start)"
    PYTHONPATH=backend:. .venv/bin/python bench/chaos.py [--points 24] [--out chaos.json]

Starts its own API server and two Celery workers (the processes the test suite uses,
tests/support.py) on a new database, then, one phase per fault, submits a sweep (two-host runs)
and a grid tuning (incast), waits until the sweep is under way and injects:

  pool-kill   kill -9 of the pool process running a point (Celery replaces it)
  main-kill   kill -9 of that worker's main process; a new worker started 5 s later
  pg-stop     PostgreSQL stopped 10 s (scripts/services.sh pg-stop / pg-start)
  redis-stop  Redis stopped 10 s without saving (every queued message lost)
  api-restart the API killed (-9) and started again 2 s later while SSE clients follow the sweep,
              the tuning and a run; they reconnect with Last-Event-ID
  cancel      a long run cancelled mid-run: time until its fabricsim exits, then a new run

After each phase it checks the invariants: every run final (FAILED/CANCELLED with a reason), no
run PENDING or RUNNING, one stored result per SUCCEEDED run and none for the others, sweep and
tuning counts equal to their points/evaluations. It prints one line per phase and the time from
recovery (the fault's end) to completion. Finally the database all phases wrote to is backed up
with pg_dump -Fc and restored with pg_restore into a new database; row counts, a digest over every
stored result and the Alembic version must be identical. Exit status 1 when an invariant fails.
"""

import argparse
import json
import os
import re
import secrets
import signal
import subprocess
import sys
import tempfile
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
import psutil
from sqlalchemy import create_engine, text
from sqlalchemy.engine import make_url

from tests.helpers import create_scenario
from tests.scenarios_data import incast, long_running, two_hosts
from tests.support import (ROOT, Stack, create_database, drop_database, migrate,
                           redis_url_with_db, require_env, service_env, wait_until)

CHAOS_REDIS_DB = 15
FINAL = ("SUCCEEDED", "FAILED", "CANCELLED")


def services(command: str) -> None:
    """scripts/services.sh pg-stop|pg-start|redis-stop|redis-start."""
    subprocess.run([str(ROOT / "scripts" / "services.sh"), command], check=True, timeout=120,
                   capture_output=True)


def seed() -> int:
    """A fresh seed (identical simulations would reuse a stored run)."""
    return 1_000_000 + secrets.randbelow(10**8)


@dataclass
class Workload:
    sweep: str
    tuning: str
    runs: list[str] = field(default_factory=list)  # single runs of the phase (cancel, SSE)


class Chaos:
    def __init__(self, stack: Stack, url: str, points: int) -> None:
        self.stack, self.url, self.points = stack, url, points
        self.engine = create_engine(url, pool_pre_ping=True)
        self.api = stack.client()
        # one owner for everything the chaos run creates: it may cancel its runs (issue 23)
        self.api.headers["X-Owner-Token"] = secrets.token_urlsafe(24)

    # --- workload -------------------------------------------------------------------------
    def submit(self, label: str) -> Workload:
        base = create_scenario(self.api, two_hosts(name=f"chaos {label}", duration_us=15_000,
                                                   monitor={"sample_interval_us": 100}))
        sweep = self.api.post("/sweeps", json={"scenario_id": base["id"], "seed": 1, "parameters": [
            {"path": "seed", "values": [seed() for _ in range(self.points)]}]})
        small = create_scenario(self.api, incast(name=f"chaos tuning {label}"))
        tuning = self.api.post("/tunings", json={
            "scenario_ids": [small["id"]], "seeds": [seed()],
            "space": {"parameters": [{"name": "pmax", "path": "switch.ecn.pmax",
                                      "values": [1, 10, 50, 90], "unit": "percent"}]},
            "objectives": [{"kind": "metric", "metric": "throughput_gbps"}],
            "strategies": [{"name": "grid"}]})
        assert sweep.status_code == 201 and tuning.status_code == 201, (sweep.text, tuning.text)
        return Workload(sweep.json()["id"], tuning.json()["id"])

    def sweep_done(self, work: Workload) -> int:
        return self.api.get(f"/sweeps/{work.sweep}").json()["done"]

    def wait_under_way(self, work: Workload) -> None:
        """Until a point runs and a few are done: the fault lands mid-sweep."""
        wait_until(lambda: self.sweep_done(work) >= 3 and self.running_pool_pid(), 300,
                   interval=0.1, what="the sweep under way")

    def running_pool_pid(self) -> int | None:
        with self.engine.connect() as c:
            worker = c.execute(text("SELECT worker FROM runs WHERE status = 'RUNNING' "
                                    "AND worker LIKE '%pid=%' LIMIT 1")).scalar()
        return int(re.search(r"pid=(\d+)", worker).group(1)) if worker else None

    def finished(self, work: Workload, timeout: float = 900) -> float:
        """Wait for the sweep, the tuning and the phase's runs to end; returns the time."""
        def done() -> bool:
            try:
                states = [self.api.get(f"/sweeps/{work.sweep}").json()["status"],
                          self.api.get(f"/tunings/{work.tuning}").json()["status"],
                          *[self.api.get(f"/runs/{r}").json()["status"] for r in work.runs]]
            except (httpx.HTTPError, KeyError, ValueError):
                return False  # the API is still coming back
            return all(s in FINAL for s in states)

        wait_until(done, timeout, interval=0.2, what="the phase's work to finish")
        return time.monotonic()

    # --- invariants -----------------------------------------------------------------------
    def check(self, work: Workload) -> dict[str, Any]:
        problems: list[str] = []
        sweep = self.api.get(f"/sweeps/{work.sweep}").json()
        if not (sweep["total"] == len(sweep["points"]) == self.points):
            problems.append(f"sweep counts {sweep['total']}/{len(sweep['points'])}")
        final_points = sum(p["status"] in FINAL for p in sweep["points"])
        if sweep["done"] != final_points or final_points != self.points:
            problems.append(f"sweep done {sweep['done']} vs final points {final_points}")
        results = self.api.get(f"/tunings/{work.tuning}/results").json()
        evaluations = results["evaluations"]
        if len(evaluations) != 4 or any(e["status"] not in ("DONE", "FAILED") for e in evaluations):
            problems.append(f"tuning evaluations {[e['status'] for e in evaluations]}")
        with self.engine.connect() as c:
            unfinished = c.execute(text(
                "SELECT count(*) FROM runs WHERE status IN ('PENDING', 'RUNNING')")).scalar_one()
            no_reason = c.execute(text(
                "SELECT count(*) FROM runs WHERE status IN ('FAILED', 'CANCELLED') "
                "AND coalesce(error, '') = ''")).scalar_one()
            stored, distinct = c.execute(text(
                "SELECT count(*), count(DISTINCT run_id) FROM run_results")).one()
            succeeded_without = c.execute(text(
                "SELECT count(*) FROM runs r WHERE r.status = 'SUCCEEDED' AND NOT EXISTS "
                "(SELECT 1 FROM run_results rr WHERE rr.run_id = r.id)")).scalar_one()
            stored_for_others = c.execute(text(
                "SELECT count(*) FROM run_results rr JOIN runs r ON r.id = rr.run_id "
                "WHERE r.status <> 'SUCCEEDED'")).scalar_one()
            counts = dict(c.execute(text("SELECT status, count(*) FROM runs GROUP BY status")).all())
            attempts = c.execute(text("SELECT max(attempts) FROM runs")).scalar_one()
        for name, value in (("runs PENDING/RUNNING", unfinished), ("final without reason", no_reason),
                            ("results stored twice", stored - distinct),
                            ("SUCCEEDED without result", succeeded_without),
                            ("result of a run not SUCCEEDED", stored_for_others)):
            if value:
                problems.append(f"{name}: {value}")
        tuning = self.api.get(f"/tunings/{work.tuning}").json()["status"]
        return {"sweep": sweep["status"], "tuning": tuning,
                "runs": counts, "results": stored, "max_attempts": attempts, "problems": problems}


# --- faults ---------------------------------------------------------------------------------
def pool_kill(chaos: Chaos, work: Workload) -> tuple[float, dict]:
    pid = chaos.running_pool_pid()
    os.kill(pid, signal.SIGKILL)
    return time.monotonic(), {"killed_pool_pid": pid}


def main_kill(chaos: Chaos, work: Workload) -> tuple[float, dict]:
    pool = chaos.running_pool_pid()
    main = psutil.Process(pool).ppid()
    os.kill(main, signal.SIGKILL)
    time.sleep(5)  # the fault: no replacement for 5 s
    chaos.stack.start_worker()
    return time.monotonic(), {"killed_main_pid": main, "new_worker": "started 5 s later"}


def outage(start: str, stop: str, probe: str):
    def inject(chaos: Chaos, work: Workload) -> tuple[float, dict]:
        services(start)
        codes: dict[int, int] = {}
        ends = time.monotonic() + 10  # the fault lasts 10 s; the API is probed meanwhile
        while time.monotonic() < ends:
            code = chaos.api.get(probe).status_code
            codes[code] = codes.get(code, 0) + 1
            time.sleep(0.5)
        services(stop)
        return time.monotonic(), {"api_codes_during_outage": codes}
    return inject


class Follower(threading.Thread):
    """An SSE client that reconnects with Last-Event-ID, as the browser's EventSource does."""

    def __init__(self, base_url: str, path: str) -> None:
        super().__init__(daemon=True)
        self.base_url, self.path = base_url, path
        self.ids: list[str] = []
        self.final: str | None = None
        self.reconnects = 0
        self.got_first = threading.Event()

    def run(self) -> None:
        deadline = time.monotonic() + 900
        with httpx.Client(base_url=self.base_url, timeout=60) as http:
            while self.final is None and time.monotonic() < deadline:
                headers = {"Last-Event-ID": self.ids[-1]} if self.ids else {}
                try:
                    with http.stream("GET", self.path, headers=headers) as response:
                        self._read(response)
                except httpx.HTTPError:
                    pass
                if self.final is None:
                    self.reconnects += 1
                    time.sleep(0.5)  # EventSource's retry delay (the server suggests 2 s)

    def _read(self, response: httpx.Response) -> None:
        event, ident = None, None
        for line in response.iter_lines():
            if line.startswith("event:"):
                event = line[6:].strip()
            elif line.startswith("id:"):
                ident = line[3:].strip()
            elif line.startswith("data:"):
                if ident and event == "progress":  # `done` repeats the last state's id
                    self.ids.append(ident)
                self.got_first.set()
                if event == "done":
                    self.final = json.loads(line[5:])["status"]
                    return
                ident = None


def api_restart(chaos: Chaos, work: Workload) -> tuple[float, dict]:
    run = create_scenario(chaos.api, two_hosts(name="chaos sse run", duration_us=200_000))
    created = chaos.api.post("/runs", json={"scenario_id": run["id"], "seeds": [seed()]}).json()
    work.runs.append(created["data"][0]["id"])
    paths = [f"/sweeps/{work.sweep}/events", f"/tunings/{work.tuning}/events",
             f"/runs/{work.runs[0]}/events"] * 2
    followers = [Follower(chaos.stack.base_url, p) for p in paths]
    for f in followers:
        f.start()
    for f in followers:
        f.got_first.wait(60)
    os.killpg(chaos.stack.server.pid, signal.SIGKILL)
    chaos.stack.server.wait()
    time.sleep(2)  # the fault: the API is away for 2 s
    chaos.stack.start_server()
    recovered = time.monotonic()
    for f in followers:
        f.join(900)
    repeats = sum(sum(a == b for a, b in zip(f.ids, f.ids[1:])) for f in followers)
    return recovered, {"sse_clients": len(followers),
                       "reconnects": sum(f.reconnects for f in followers),
                       "clients_ended_final": sum(f.final in FINAL for f in followers),
                       "states_received_twice": repeats}


def cancel(chaos: Chaos, work: Workload) -> tuple[float, dict]:
    scenario = create_scenario(chaos.api, long_running("chaos cancel"))
    run = chaos.api.post("/runs", json={"scenario_id": scenario["id"], "seeds": [seed()]}).json()
    run_id = run["data"][0]["id"]
    work.runs.append(run_id)
    wait_until(lambda: (lambda r: r["status"] == "RUNNING" and r["progress"] > 0)(
        chaos.api.get(f"/runs/{run_id}").json()), 300, what="the long run under way")
    sims = [p for p in psutil.process_iter(["name", "cmdline"])
            if p.info["name"] == "fabricsim" and any(run_id in a for a in p.info["cmdline"] or [])]
    asked = time.monotonic()
    assert chaos.api.post(f"/runs/{run_id}/cancel").status_code == 200
    wait_until(lambda: all(not p.is_running() or p.status() == psutil.STATUS_ZOMBIE for p in sims),
               60, interval=0.02, what="the cancelled fabricsim to exit")
    gone = time.monotonic() - asked
    follow = create_scenario(chaos.api, two_hosts(name="chaos after cancel"))
    after = chaos.api.post("/runs", json={"scenario_id": follow["id"], "seeds": [seed()]}).json()
    work.runs.append(after["data"][0]["id"])
    return asked, {"fabricsim_found": len(sims), "fabricsim_gone_after_s": round(gone, 2)}


def fingerprint(url: str) -> dict[str, Any]:
    """Row counts and a digest over every stored result, to compare a restore with its source."""
    engine = create_engine(url)
    try:
        with engine.connect() as c:
            counts = {t: c.execute(text(f"SELECT count(*) FROM {t}")).scalar_one()
                      for t in ("scenarios", "runs", "run_results", "sweeps", "tunings")}
            digest = c.execute(text("SELECT md5(string_agg(run_id || sha256 || md5(result_json), "
                                    "',' ORDER BY run_id)) FROM run_results")).scalar_one()
            version = c.execute(text("SELECT version_num FROM alembic_version")).scalar_one()
    finally:
        engine.dispose()
    return {**counts, "results_md5": digest, "alembic_version": version}


def backup_restore(url: str) -> dict[str, Any]:
    """pg_dump -Fc of the chaos database, pg_restore into a new one, fingerprints compared."""
    libpq = make_url(url).set(drivername="postgresql")
    source = libpq.render_as_string(hide_password=False)
    copy = create_database(url)
    target = make_url(copy).set(drivername="postgresql").render_as_string(hide_password=False)
    with tempfile.TemporaryDirectory() as tmp:
        dump = Path(tmp) / "fabrictwin.dump"
        started = time.monotonic()
        subprocess.run(["pg_dump", "-Fc", "-f", str(dump), "--dbname", source], check=True,
                       timeout=600)
        dumped = time.monotonic()
        subprocess.run(["pg_restore", "--no-owner", "--dbname", target, str(dump)], check=True,
                       timeout=600)
        restored = time.monotonic()
        size = dump.stat().st_size
    before, after = fingerprint(url), fingerprint(copy)
    drop_database(copy)
    return {"dump_bytes": size, "dump_s": round(dumped - started, 2),
            "restore_s": round(restored - dumped, 2), "source": before,
            "identical": before == after}


FAULTS = {"pool-kill": pool_kill, "main-kill": main_kill,
          "pg-stop": outage("pg-stop", "pg-start", "/sweeps"),
          "redis-stop": outage("redis-stop", "redis-start", "/sweeps"),
          "api-restart": api_restart, "cancel": cancel}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--points", type=int, default=24, help="sweep points per phase")
    parser.add_argument("--faults", default=",".join(FAULTS), help="comma-separated subset")
    parser.add_argument("--out", help="write the figures as JSON here")
    args = parser.parse_args()
    url = create_database(require_env("DATABASE_URL"))
    assert migrate(service_env(DATABASE_URL=url)).returncode == 0
    broker = redis_url_with_db(require_env("CELERY_BROKER_URL"), CHAOS_REDIS_DB)
    env = service_env(DATABASE_URL=url, CELERY_BROKER_URL=broker,
                      RUNS_DIR=tempfile.mkdtemp(prefix="ft-chaos-"), REAPER_INTERVAL_S="2",
                      PENDING_GRACE_S="10", HEARTBEAT_STALE_S="15", DB_RETRY_MAX_DELAY_S="2",
                      PROGRESS_WRITE_INTERVAL_S="0.3", SSE_POLL_INTERVAL_S="0.2",
                      QUOTA_CONCURRENT_RUNS="0")
    stack = Stack("chaos-bench", env)
    figures, failed = [], False
    try:
        stack.start_server()
        stack.start_worker()
        stack.start_worker()
        chaos = Chaos(stack, url, args.points)
        for name in args.faults.split(","):
            work = chaos.submit(name)
            chaos.wait_under_way(work)
            done_before = chaos.sweep_done(work)
            started = time.monotonic()
            recovered, detail = FAULTS[name](chaos, work)
            completed = chaos.finished(work)
            result = {"fault": name, "points_done_at_fault": f"{done_before}/{args.points}",
                      "fault_s": round(recovered - started, 1),
                      "recovery_to_completion_s": round(completed - recovered, 1),
                      **detail, **chaos.check(work)}
            failed |= bool(result["problems"])
            figures.append(result)
            print(json.dumps(result), flush=True)
        backup = backup_restore(url)  # the database every phase wrote to, restored once
        failed |= not backup["identical"]
        figures.append({"backup_restore": backup})
        print(json.dumps({"backup_restore": backup}), flush=True)
    finally:
        for proc in stack.workers:  # killed main processes may leave their pool children
            try:
                os.killpg(proc.pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
        stack.stop()
        drop_database(url)
    if args.out:
        with open(args.out, "w") as out:
            json.dump(figures, out, indent=1)
    print("invariants " + ("FAILED" if failed else "held after every fault"))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
