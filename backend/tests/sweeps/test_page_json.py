"""GET /sweeps/{id} writes its page straight from the rows (app/sweeps/service.page_json): the
bytes must be the response model's own JSON of the same page, for finished points (with and
without job metrics), running and failed ones, and a later page."""

import secrets

from sqlalchemy.orm import Session

from app.core.db import make_engine
from app.runs.models import Run
from app.scenarios.models import ScenarioRow
from app.sweeps import service
from app.sweeps.models import Sweep, SweepPoint


def test_page_json_is_the_models_json(pg_url):
    engine = make_engine(pg_url)  # the app's engine (its JSON column reader)
    try:
        with Session(engine) as session:
            scenario = ScenarioRow(id=secrets.token_hex(8), name="page json", description="",
                                   content_hash="0" * 64, document={"schema_version": 1})
            sweep = Sweep(id=secrets.token_hex(8), scenario_id=scenario.id, seed=3, total=4,
                          expanded=True, linked=[],
                          parameters=[{"path": "switch.ecn.kmin_bytes", "values": [0, 1, 2, 3]}])
            session.add_all([scenario, sweep])
            session.flush()
            statuses = ["SUCCEEDED", "SUCCEEDED", "RUNNING", "FAILED"]
            for i, status in enumerate(statuses):
                run = Run(id=secrets.token_hex(8), scenario_id=scenario.id, seed=3, status=status)
                if status == "SUCCEEDED":
                    run.throughput_gbps, run.fct_p99_us, run.ecn_marked_packets = 20.5 + i, 1e3, 7
                    run.job_metrics = {"ring": {"jct_us": 359.46, "busbw_gbps": None}} if i else None
                session.add(run)
                session.flush()
                session.add(SweepPoint(sweep_id=sweep.id, index=i, scenario_id=scenario.id,
                                       run_id=run.id, params={"switch.ecn.kmin_bytes": i}))
            session.commit()
            for offset, limit in ((0, 1000), (1, 2)):
                model = service.to_public(session, sweep=sweep, offset=offset, limit=limit)
                assert (service.page_json(session, sweep=sweep, offset=offset, limit=limit)
                        == model.model_dump_json().encode())
                # progress over every point, whether the page holds them all (counted from its
                # rows) or not (counted by the database): 2 succeeded + 1 failed are final
                assert (model.total, model.done, model.failed, model.status) == (4, 3, 1, "RUNNING")
                assert model.points_count == 4
            assert [p.status for p in model.points] == ["SUCCEEDED", "RUNNING"]
            assert model.points[0].metrics.jobs == {"ring": {"jct_us": 359.46, "busbw_gbps": None}}
    finally:
        engine.dispose()


def test_a_finished_sweeps_page_is_kept_and_a_running_ones_is_not(pg_url):
    """The page of a final sweep is served as first written (its points never change again);
    a running sweep's page is read anew every time. Proven by changing a stored metric behind
    the service's back: only the running sweep's page shows it."""
    engine = make_engine(pg_url)
    try:
        with Session(engine) as session:
            scenario = ScenarioRow(id=secrets.token_hex(8), name="final pages", description="",
                                   content_hash="0" * 64, document={"schema_version": 1})
            session.add(scenario)
            sweeps = {}
            for name, statuses in (("final", ["SUCCEEDED", "FAILED"]),
                                   ("running", ["SUCCEEDED", "RUNNING"])):
                sweep = Sweep(id=secrets.token_hex(8), scenario_id=scenario.id, seed=1, total=2,
                              expanded=True, linked=[],
                              parameters=[{"path": "switch.ecn.kmin_bytes", "values": [0, 1]}])
                session.add(sweep)
                session.flush()
                runs = []
                for i, status in enumerate(statuses):
                    run = Run(id=secrets.token_hex(8), scenario_id=scenario.id, seed=1,
                              status=status, throughput_gbps=10.0 if status == "SUCCEEDED" else None)
                    session.add(run)
                    session.flush()
                    session.add(SweepPoint(sweep_id=sweep.id, index=i, scenario_id=scenario.id,
                                           run_id=run.id, params={"switch.ecn.kmin_bytes": i}))
                    runs.append(run)
                sweeps[name] = (sweep, runs[0])
            session.commit()
            first = {name: service.page_json(session, sweep=sweep)
                     for name, (sweep, _) in sweeps.items()}
            assert b'"status":"FAILED"' in first["final"]
            for _, run in sweeps.values():
                run.throughput_gbps = 99.0
            session.commit()
            again = {name: service.page_json(session, sweep=sweep)
                     for name, (sweep, _) in sweeps.items()}
            assert again["final"] == first["final"]
            assert again["running"] != first["running"]
            assert b'"throughput_gbps":99.0' in again["running"]
    finally:
        engine.dispose()


def test_the_final_pages_stay_within_their_bytes():
    pages = service._FinalPages(max_bytes=10)
    pages.put(("a", 0, 1), b"1234")
    pages.put(("b", 0, 1), b"5678")
    assert pages.get(("a", 0, 1)) == b"1234"  # now the most recently read
    pages.put(("c", 0, 1), b"90ab")  # 12 bytes: the least recently read (b) goes
    assert (pages.get(("a", 0, 1)), pages.get(("b", 0, 1)), pages.get(("c", 0, 1))) == (
        b"1234", None, b"90ab")
    pages.put(("d", 0, 1), b"x" * 11)  # larger than the whole budget: not kept
    assert pages.get(("d", 0, 1)) is None
