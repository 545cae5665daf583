"""API CPU per GET /sweeps/{id} of a 600-point sweep, in process (issue 37, section 5).

    eval "$(scripts/services.sh start)"
    PYTHONPATH=backend:. .venv/bin/python bench/sweep_view.py [--points 600] [--requests 200]

A new PostgreSQL database, migrated; one scenario, a sweep of POINTS points over one parameter,
every point's run SUCCEEDED with its summary columns (three of four; the rest RUNNING, or FAILED
with --finished, so that the sweep has ended and its page is kept: service.final_pages); then
REQUESTS times what GET /api/v1/sweeps/{id} does (app/sweeps/service.py `page_json` on the app's
engine, and the page's JSON), the CPU seconds per page in this process (the database server's
are not counted), and the response's size. CPU time, not wall time: steadier on a shared
machine. bench/load.py measures the whole endpoint's latency under 50 users, and its CPU per
request in the API process."""

import argparse
import cProfile
import os
import pstats
import secrets
import time

from tests.support import create_database, drop_database, migrate, require_env, service_env


def seed(url: str, points: int, finished: bool = False) -> str:
    from sqlalchemy import create_engine
    from sqlalchemy.orm import Session

    from app.runs.models import Run
    from app.scenarios.models import ScenarioRow
    from app.sweeps.models import Sweep, SweepPoint

    engine = create_engine(url)
    with Session(engine) as session:
        scenario = ScenarioRow(id=secrets.token_hex(8), name="sweep base", description="",
                               content_hash="0" * 64, document={"schema_version": 1})
        sweep = Sweep(id=secrets.token_hex(8), scenario_id=scenario.id, seed=1, total=points,
                      expanded=True, parameters=[{"path": "switch.ecn.kmin_bytes",
                                                  "values": list(range(points))}], linked=[])
        session.add_all([scenario, sweep])
        session.flush()
        for i in range(points):
            done = i % 4 != 3
            run = Run(id=secrets.token_hex(8), scenario_id=scenario.id, seed=1,
                      status="SUCCEEDED" if done else "FAILED" if finished else "RUNNING")
            if done:
                run.throughput_gbps, run.fct_p50_us, run.fct_p99_us = 20.0 + i, 10.5, 99.0
                run.slowdown_p99, run.max_queue_bytes = 3.2, 123456.0
                run.ecn_marked_packets, run.cnps_sent, run.pfc_pauses_sent = 400, 16, 0
                run.drops_total = 0
            session.add(run)
            session.flush()
            session.add(SweepPoint(sweep_id=sweep.id, index=i, scenario_id=scenario.id,
                                   run_id=run.id, params={"switch.ecn.kmin_bytes": i * 100}))
        sweep_id = sweep.id
        session.commit()
    engine.dispose()
    return sweep_id


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--points", type=int, default=600)
    ap.add_argument("--requests", type=int, default=200)
    ap.add_argument("--profile", action="store_true", help="print cProfile's top functions")
    ap.add_argument("--finished", action="store_true",
                    help="every point final: the sweep has ended, its page is written once and kept")
    args = ap.parse_args()
    url = create_database(require_env("DATABASE_URL"))
    try:
        env = service_env(DATABASE_URL=url)
        assert migrate(env).returncode == 0
        sweep_id = seed(url, args.points, args.finished)
        from sqlalchemy.orm import Session

        from app.core.db import make_engine
        from app.sweeps import service
        from app.sweeps.models import Sweep

        engine = make_engine(url)  # the app's engine settings (JSON columns' reader included)
        with Session(engine) as session:
            sweep = session.get(Sweep, sweep_id)
            size = len(service.page_json(session, sweep=sweep))  # warm
            profiler = cProfile.Profile() if args.profile else None
            if profiler:
                profiler.enable()
            started = time.process_time()
            for _ in range(args.requests):
                service.page_json(session, sweep=sweep)
            per = (time.process_time() - started) / args.requests * 1000
            if profiler:
                profiler.disable()
                pstats.Stats(profiler).sort_stats("tottime").print_stats(20)
        engine.dispose()
        state = "finished" if args.finished else "running"
        print(f"GET /sweeps/{{id}} of {args.points} points ({state}): {per:.3f} ms of API CPU per page "
              f"(the query, the page's models and its JSON; {args.requests} pages), "
              f"{size:,} bytes; load average {os.getloadavg()[0]:.1f}")
    finally:
        drop_database(url)


if __name__ == "__main__":
    main()
