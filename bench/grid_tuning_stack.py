"""Wall time of a grid tuning over the 3,300-point ByteTuning space on the full stack, against
the number of Celery workers, side by side in one run.

  eval "$(scripts/services.sh start)"
  PYTHONPATH=backend:. .venv/bin/python bench/grid_tuning_stack.py [--workers 1,2]
      [--duration-us 10000] [--kind tuning|sweep] [--json OUT.json]

Per worker count: a fresh PostgreSQL database (so no run is reused from the previous
measurement), the API server (uvicorn) and that many Celery workers (prefork, concurrency 1,
as the test stack runs them), then `POST /tunings` with the `grid` strategy over
`{"named": "bytetuning"}` on the `incast-2to1` preset (10 ms simulated) and the time until the
tuning is SUCCEEDED: every point is a stored run and a scored evaluation (batch execution: chunks
of runs per task, one `fabricsim batch` process per chunk). The simulators' and workers' CPU
seconds come from the workers' process groups at the end (children's rusage is not visible
across processes, so /proc of each worker's pool is read before it stops).

`--kind sweep` times the same 3,300 points as a sweep (`POST /sweeps` with the space's values in
model units and Kmax linked to Kmin + 500 cells), what a user gets from the sweep form.
"""

import argparse
import json
import os
import time
from pathlib import Path


from app.tunings.space import bytetuning_space, to_model
from tests.support import (Stack, create_database, drop_database, migrate, redis_url_with_db,
                           require_env, service_env)

FINAL = {"SUCCEEDED", "FAILED", "CANCELLED"}
BROKER_DB = 12


def group_cpu_seconds(pgid: int) -> float:
    """User+system CPU seconds of the live processes of a process group, with their reaped
    children (a worker's pool process reaps each `fabricsim batch`, whose cutime holds its
    forked simulations)."""
    tick = os.sysconf("SC_CLK_TCK")
    total = 0
    for pid in filter(str.isdigit, os.listdir("/proc")):
        try:
            fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        if int(fields[2]) == pgid:  # field 5 (pgrp) after the state
            total += sum(int(v) for v in fields[11:15])  # utime stime cutime cstime
    return total / tick


def sweep_body(base: str, document: dict) -> dict:
    """The ByteTuning grid as a sweep: each parameter's values in model units, Kmax = Kmin + 500
    cells (the named space's link)."""
    space = bytetuning_space()
    parameters = [{"path": p.path, "values": [to_model(p.unit, v, document) for v in p.values]}
                  for p in space.parameters]
    (link,) = space.linked
    source = next(p.path for p in space.parameters if p.name == link.source)
    offset = to_model(link.unit, link.offset, document)
    return {"scenario_id": base, "seed": 1, "parameters": parameters,
            "linked": [{"path": link.path, "from": source, "scale": link.scale,
                        "offset": offset}]}


def measure(workers: int, duration_us: float, timeout_s: float, kind: str = "tuning") -> dict:
    url = create_database(require_env("DATABASE_URL"))
    broker = redis_url_with_db(require_env("CELERY_BROKER_URL"), BROKER_DB)
    env = service_env(DATABASE_URL=url, CELERY_BROKER_URL=broker,
                      RUNS_DIR=f"/tmp/ft-bench-runs-{os.getpid()}-{workers}")
    stack = Stack(f"bench-grid-{workers}", env)
    try:
        result = migrate(env)
        if result.returncode != 0:
            raise SystemExit(f"alembic upgrade failed: {result.stderr}")
        stack.start_server()
        for _ in range(workers):
            stack.start_worker()
        with stack.client() as api:
            base = api.get("/presets/incast-2to1").json()["scenario_id"]
            if duration_us != 10_000:
                scenario = api.get(f"/scenarios/{base}").json()["scenario"]
                scenario["duration_us"] = duration_us
                base = api.post("/scenarios", json={"scenario": scenario}).json()["id"]
            if kind == "sweep":
                document = api.get(f"/scenarios/{base}").json()["scenario"]
                path, body = "/sweeps", sweep_body(base, document)
            else:
                path, body = "/tunings", {
                    "scenario_ids": [base], "seeds": [1], "space": {"named": "bytetuning"},
                    "objectives": [{"kind": "bytetuning_throughput", "beta": 0.5}],
                    "strategies": [{"name": "grid"}]}
            started = time.monotonic()
            created = api.post(path, json=body)
            created.raise_for_status()
            item_id = created.json()["id"]
            deadline = started + timeout_s
            while True:
                item = api.get(f"{path}/{item_id}", params={"limit": 1} if kind == "sweep"
                               else None).json()
                if item["status"] in FINAL or time.monotonic() > deadline:
                    break
                time.sleep(0.5)  # polling interval of a progress read, not synchronisation
            wall = time.monotonic() - started
        cpu = sum(group_cpu_seconds(p.pid) for p in stack.workers)
        if kind == "sweep":
            total, done = item["total"], item["done"]
        else:
            total, done = item["strategies"][0]["evaluations"], item["strategies"][0]["done"]
        return {"kind": kind, "workers": workers, "status": item["status"], "evaluations": total,
                "done": done, "wall_s": round(wall, 1), "worker_cpu_s": round(cpu, 1),
                "points_per_min": round(60 * done / wall, 1),
                "load_avg_1min_at_end": round(os.getloadavg()[0], 1)}
    finally:
        stack.stop()
        drop_database(url)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--workers", default="1,2")
    parser.add_argument("--duration-us", type=float, default=10_000)
    parser.add_argument("--timeout-s", type=float, default=3600)
    parser.add_argument("--kind", choices=["tuning", "sweep"], default="tuning")
    parser.add_argument("--json", default="")
    args = parser.parse_args()
    rows = []
    print(f"cpus {os.cpu_count()}", flush=True)
    for workers in [int(w) for w in args.workers.split(",")]:
        rows.append(measure(workers, args.duration_us, args.timeout_s, args.kind))
        print(json.dumps(rows[-1]), flush=True)
    first = rows[0]
    for row in rows:
        row["speedup_vs_first"] = round(first["wall_s"] / row["wall_s"], 2)
    print("summary " + json.dumps(rows), flush=True)
    if args.json:
        Path(args.json).write_text(json.dumps(rows, indent=1))


if __name__ == "__main__":
    main()
