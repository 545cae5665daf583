"""Load benchmark (issue 13): 50 people browsing while two workers run a sweep, PostgreSQL stack.

    eval "$(scripts/services.sh start)"
    PYTHONPATH=backend:. .venv/bin/python bench/load.py [--users 50] [--seconds 60] [--out DIR]
        [--profile] [--api-workers N] [--api-nice N] [--sim-nice N] [--browser-cache]

Starts its own API server (one uvicorn process, as in compose; --api-workers for more) and two
Celery workers on a new database (their simulators at niceness SIM_NICE, --sim-nice), stores 20 scenarios and 10 finished runs, starts a sweep long enough to outlast the
load, then runs Locust headless (bench/load/locustfile.py) against the API and prints the latency
percentiles per request kind and the errors. Exit status 1 when a request failed, the aggregated
p99 is 100 ms or more, or the sweep was not running throughout. With --profile, py-spy samples
the API process during the load (DIR/api-profile.txt, collapsed stacks) and the functions of the
app, SQLAlchemy, Pydantic and the database driver that took most of its CPU are printed.
--api-nice N (negative: root only) runs the API, the PostgreSQL server and Locust at niceness N:
on a development machine shared with other people's builds it stands in for a host where the
API's side has the cores it needs; the figures say which setting they were measured with.
"""

import argparse
import csv
import json
import os
import time
import secrets
import subprocess
import sys
import tempfile
from collections import Counter
from pathlib import Path

import psutil

from tests.helpers import create_scenario, wait_final
from tests.scenarios_data import incast, two_hosts
from tests.support import (ROOT, VENV_BIN, Stack, create_database, drop_database, migrate,
                           redis_url_with_db, require_env, service_env)

LOAD_REDIS_DB = 12
P99_TARGET_MS = 100
PROFILE_RATE = 50  # py-spy samples per second
PROFILED = ("app/", "sqlalchemy/", "pydantic", "psycopg/", "starlette/", "fastapi/", "json/")


def prepare(stack: Stack, sweep_points: int, point_us: int) -> dict:
    """Scenarios, finished runs to open, and a running sweep; returns the Locust targets."""
    with stack.client() as api:
        for i in range(20):
            create_scenario(api, incast(name=f"browsed scenario {i}"))
        base = create_scenario(api, two_hosts(name="browsed results", duration_us=2_000,
                                              monitor={"sample_interval_us": 10}))
        runs = api.post("/runs", json={"scenario_id": base["id"],
                                       "seeds": list(range(1, 11))}).json()["data"]
        for run in runs:
            assert wait_final(api, run["id"])["status"] == "SUCCEEDED"
        sweep_base = create_scenario(api, two_hosts(name="load sweep", duration_us=point_us,
                                                    monitor={"sample_interval_us": 100}))
        seeds = [10_000 + secrets.randbelow(10**8) for _ in range(sweep_points)]
        sweep = api.post("/sweeps", json={"scenario_id": sweep_base["id"], "seed": 1,
                                          "parameters": [{"path": "seed", "values": seeds}]})
        assert sweep.status_code == 201, sweep.text
    return {"runs": [r["id"] for r in runs], "sweep": sweep.json()["id"]}


def start_profiler(pid: int, seconds: int, out: Path) -> subprocess.Popen:
    """py-spy sampling the stack of the API server's thread that holds the GIL (collapsed, one
    line per distinct stack): where the Python work of all its threads goes."""
    return subprocess.Popen([str(VENV_BIN / "py-spy"), "record", "--pid", str(pid), "--format",
                             "raw", "--rate", str(PROFILE_RATE), "--gil", "--nonblocking",
                             "--duration", str(seconds), "--output", str(out)],
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)


def _frame_name(frame: str) -> str:
    """'to_public (app/sweeps/service.py:120)' -> 'to_public (app/sweeps/service.py)'."""
    function, _, where = frame.partition(" (")
    return f"{function} ({where.split(':')[0].rstrip(')')})"


def print_profile(path: Path, seconds: int, top: int = 20) -> None:
    """Share of the samples per endpoint (the first router or dependency frame of a stack) and
    per function (inclusive, each counted once per stack) for the app and the libraries it leans
    on: the top of the lists is where the API's time under the GIL went."""
    endpoints: Counter[str] = Counter()
    functions: Counter[str] = Counter()
    total = 0
    for line in path.read_text().splitlines():
        stack, _, count = line.rpartition(" ")
        samples = int(count)
        total += samples
        frames = [f for f in stack.split(";") if " (" in f]
        endpoint = next((f for f in frames if "router.py" in f or "api/deps.py" in f), None)
        endpoints[_frame_name(endpoint) if endpoint else "(outside endpoints)"] += samples
        for name in {_frame_name(f) for f in frames if any(w in f for w in PROFILED)}:
            functions[name] += samples
    print(f"\nAPI process: GIL held in {total} of {PROFILE_RATE * seconds} samples "
          f"({100 * total / (PROFILE_RATE * seconds):.0f}%; py-spy). Share per endpoint:")
    for name, samples in endpoints.most_common(top):
        print(f"{100 * samples / max(total, 1):5.1f}%  {name}")
    print("Inclusive share per function:")
    for name, samples in functions.most_common(top):
        print(f"{100 * samples / max(total, 1):5.1f}%  {name}")


def cpu_per_request(stack: Stack, targets: dict, repeats: int) -> dict[str, float]:
    """The API process's CPU time (user + system, all threads) per request, one kind at a time
    with one client after the load: what each endpoint costs, whatever the machine's load."""
    processes = api_processes(stack)

    def cpu_s() -> float:
        return sum(sum(p.cpu_times()[:2]) for p in processes)

    run, sweep = targets["runs"][0], targets["sweep"]
    paths = {"GET /scenarios": "/scenarios?limit=20", "GET /runs": "/runs?limit=20",
             "GET /runs/{id}": f"/runs/{run}", "GET /runs/{id}/summary": f"/runs/{run}/summary",
             "GET /runs/{id}/flows": f"/runs/{run}/flows?limit=50",
             "GET /runs/{id}/series": f"/runs/{run}/series", "GET /sweeps/{id}": f"/sweeps/{sweep}"}
    costs = {}
    with stack.client() as api:
        for name, path in paths.items():
            assert api.get(path).status_code == 200, path  # warm: first-call imports and caches
            before = cpu_s()
            for _ in range(repeats):
                api.get(path)
            costs[name] = 1000 * (cpu_s() - before) / repeats
    return costs


def renice_tree(pid: int, nice: int) -> int:
    """Set the niceness of a process and its descendants (children forked later inherit it);
    returns how many processes were changed."""
    root = psutil.Process(pid)
    processes = [root, *root.children(recursive=True)]
    for process in processes:
        process.nice(nice)
    return len(processes)


def postgres_server(port: int) -> int:
    """The pid of the PostgreSQL server listening on `port` (the postmaster: its connections'
    processes are its children)."""
    for process in psutil.process_iter(["name", "cmdline", "ppid"]):
        cmdline = process.info["cmdline"] or []
        if process.info["name"] in ("postgres", "postmaster") and str(port) in cmdline \
                and psutil.Process(process.info["ppid"]).name() not in ("postgres", "postmaster"):
            return process.pid
    raise SystemExit(f"no PostgreSQL server found on port {port} (needed for --api-nice)")


def api_processes(stack: Stack) -> list[psutil.Process]:
    """The uvicorn process and its worker processes (--api-workers)."""
    server = psutil.Process(stack.server.pid)
    return [server, *server.children(recursive=True)]


def read_stats(prefix: Path) -> list[dict]:
    with open(f"{prefix}_stats.csv") as handle:
        return list(csv.DictReader(handle))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--users", type=int, default=50)
    parser.add_argument("--seconds", type=int, default=60)
    parser.add_argument("--sweep-points", type=int, default=600)
    parser.add_argument("--point-us", type=int, default=60_000,
                        help="simulated time of each sweep point: long enough that the sweep "
                             "outlasts the load on a fast machine (30,000 until 2026-11-29, when "
                             "the 600 points ended within the minute)")
    parser.add_argument("--out", default=tempfile.mkdtemp(prefix="ft-load-"))
    parser.add_argument("--nice-workers", type=int, default=0,
                        help="run the workers (and their simulators) at this niceness, as "
                             "`nice -n N celery ...` would on a host shared with the API")
    parser.add_argument("--cost-repeats", type=int, default=100,
                        help="requests per kind for the CPU cost per request after the load")
    parser.add_argument("--profile", action="store_true",
                        help="sample the API process with py-spy during the load")
    parser.add_argument("--api-workers", type=int, default=1,
                        help="uvicorn worker processes (`uvicorn --workers N`)")
    parser.add_argument("--api-nice", type=int, default=0,
                        help="niceness of the API, PostgreSQL and Locust (negative: root only)")
    parser.add_argument("--browser-cache", action="store_true",
                        help="users revalidate result views they have read (If-None-Match)")
    parser.add_argument("--sim-nice", type=int, default=10,
                        help="SIM_NICE of the workers: niceness of every fabricsim process")
    args = parser.parse_args()
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    url = create_database(require_env("DATABASE_URL"))
    assert migrate(service_env(DATABASE_URL=url)).returncode == 0
    broker = redis_url_with_db(require_env("CELERY_BROKER_URL"), LOAD_REDIS_DB)
    # All simulated users come from 127.0.0.1, one client for the per-client limits: give that
    # client room for every user's streams (a real class has one address per student or a token).
    env = service_env(DATABASE_URL=url, CELERY_BROKER_URL=broker,
                      RUNS_DIR=tempfile.mkdtemp(prefix="ft-load-runs-"),
                      MAX_SSE_PER_CLIENT=str(2 * args.users), QUOTA_CONCURRENT_RUNS="0",
                      SIM_NICE=str(args.sim_nice))
    stack = Stack("load-bench", env)
    try:
        stack.start_server(*(["--workers", str(args.api_workers)] if args.api_workers > 1 else []))
        if args.api_nice:
            renice_tree(stack.server.pid, args.api_nice)
            renice_tree(postgres_server(int(require_env("DATABASE_URL").rsplit(":", 1)[1]
                                            .split("/")[0])), args.api_nice)
        for _ in range(2):
            worker = stack.start_worker()
            if args.nice_workers:  # the worker's group: main, pool and every fabricsim it starts
                os.setpriority(os.PRIO_PGRP, worker.pid, args.nice_workers)
        targets = prepare(stack, args.sweep_points, args.point_us)
        prefix = out / "locust"
        profiled = api_processes(stack)[-1].pid  # the (last) process that serves requests
        profiler = (start_profiler(profiled, args.seconds, out / "api-profile.txt")
                    if args.profile else None)
        load_before, started = os.getloadavg()[0], time.strftime("%Y-%m-%d %H:%M:%S UTC",
                                                                 time.gmtime())
        locust = subprocess.run(
            [str(VENV_BIN / "locust"), "-f", str(ROOT / "bench" / "load" / "locustfile.py"),
             "--headless", "-u", str(args.users), "-r", "10", "-t", f"{args.seconds}s",
             "--host", f"http://127.0.0.1:{stack.port}", "--csv", str(prefix),
             "--only-summary", "--loglevel", "WARNING"],
            env={**env, "LOAD_TARGETS": json.dumps(targets),
                 "LOAD_BROWSER_CACHE": "1" if args.browser_cache else "0"}, cwd=ROOT, timeout=args.seconds + 120,
            capture_output=True, text=True, check=False,
            preexec_fn=(lambda: os.nice(args.api_nice)) if args.api_nice else None)
        load_after = os.getloadavg()[0]
        if profiler:
            profiler.wait(timeout=60)
        with stack.client() as api:
            sweep = api.get(f"/sweeps/{targets['sweep']}").json()
        costs = cpu_per_request(stack, targets, args.cost_repeats)
    finally:
        stack.stop()
        drop_database(url)
    stats = read_stats(prefix)
    print(f"{'request':34} {'count':>7} {'fail':>5} {'p50':>6} {'p95':>6} {'p99':>6} {'max':>7}")
    for row in stats:
        print(f"{row['Name'][:34]:34} {row['Request Count']:>7} {row['Failure Count']:>5} "
              f"{row['50%']:>6} {row['95%']:>6} {row['99%']:>6} {float(row['Max Response Time']):>7.0f}")
    total = next(r for r in stats if r["Name"] == "Aggregated")
    api_rows = [r for r in stats if r["Name"] not in ("Aggregated", "SSE first event")]
    requests = sum(int(r["Request Count"]) for r in api_rows)
    failures = sum(int(r["Failure Count"]) for r in stats)
    # p99 of the API's answers (SSE first event is a separate figure, printed above).
    p99 = max((float(r["99%"]) for r in api_rows if int(r["Request Count"]) >= 20), default=0.0)
    print(f"\nAPI requests {requests}, failures {failures}, aggregated p99 {total['99%']} ms, "
          f"worst endpoint p99 {p99:.0f} ms; sweep during the load: {sweep['done']}/"
          f"{sweep['total']} points done, status {sweep['status']}")
    print(f"\nStarted {started}; load average (1 min) {load_before:.1f} at the start, "
          f"{load_after:.1f} at the end; {os.cpu_count()} cores; API workers {args.api_workers}, "
          f"API/PostgreSQL/Locust niceness {args.api_nice}, SIM_NICE {args.sim_nice}, "
          f"worker niceness {args.nice_workers}, browser cache {args.browser_cache}")
    print(f"\nAPI CPU per request, one client after the load ({args.cost_repeats} each): "
          + ", ".join(f"{name} {ms:.1f} ms" for name, ms in costs.items()))
    if args.profile:
        print_profile(out / "api-profile.txt", args.seconds)
    if locust.returncode not in (0, 1):
        print(locust.stdout[-2000:], locust.stderr[-2000:])
    ok = failures == 0 and float(total["99%"]) < P99_TARGET_MS and sweep["status"] == "RUNNING"
    print("target p99 < 100 ms, no error: " + ("met" if ok else "NOT met"))
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
