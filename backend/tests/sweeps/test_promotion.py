"""A screening sweep's second stage (app/sweeps/screening.promote), by direct calls on PostgreSQL
(no worker sees these sweeps): nothing happens while a flow-level run is still going; once all
have ended the best `keep` points by the metric get one packet-level run each, once, however many
callers try; the reconciler's pass does it and enqueues them when the worker's message was lost;
a point whose flow-level run failed is not ranked. The figures are set by hand."""

from sqlalchemy import select, update
from sqlalchemy.orm import Session

from app.runs.models import Run
from app.scenarios.models import ScenarioRow
from app.sweeps import reconciler, service
from app.sweeps.models import Sweep, SweepPoint
from app.sweeps.screening import promote
from app.sweeps.schemas import SweepCreate
from tests.helpers import create_scenario
from validation.flow_vs_packet import flat_ring

RATES = [25, 50, 100, 200]


def _screening_sweep(engine, api, keep: int, metric: str) -> str:
    ring = flat_ring()
    ring["name"] = f"promotion {metric}"
    base = create_scenario(api, ring)
    body = SweepCreate.model_validate(
        {
            "scenario_id": base["id"],
            "seed": 3,
            "screening": {"keep": keep, "metric": metric},
            "parameters": [{"path": "topology.fabric_rate_gbps", "values": RATES}],
        }
    )
    with Session(engine) as session:
        sweep = service.create_sweep(session, base=session.get(ScenarioRow, base["id"]), body=body)
        service.expand_sweep(session, sweep=sweep)
        return sweep.id


def _finish(session: Session, sweep_id: str, figures: dict[int, float | None]) -> None:
    """The flow-level runs end: SUCCEEDED with these figures (as throughput and JCT), FAILED where
    None. Not committed: the caller's promotion commits them with its own writes, so the API's
    reconciler (every 2 s in the test stack) never sees them ended before the call under test."""
    for point in session.scalars(select(SweepPoint).where(SweepPoint.sweep_id == sweep_id)):
        value = figures[point.index]
        session.execute(
            update(Run)
            .where(Run.id == point.run_id)
            .values(status="SUCCEEDED" if value is not None else "FAILED", throughput_gbps=value, jct_us=value)
        )


def _points(engine, sweep_id: str) -> dict[int, SweepPoint]:
    with Session(engine) as session:
        return {p.index: p for p in session.scalars(select(SweepPoint).where(SweepPoint.sweep_id == sweep_id))}


def test_promotion_waits_for_every_flow_run_then_keeps_the_best_once(api, engine):
    sweep_id = _screening_sweep(engine, api, keep=2, metric="throughput_gbps")
    with Session(engine) as session:
        runs = [session.get(Run, p.run_id) for p in _points(engine, sweep_id).values()]
        assert {r.engine for r in runs} == {"flow"}
        assert promote(session, sweep_id=sweep_id) == []  # still PENDING
    with Session(engine) as session:
        _finish(session, sweep_id, {0: 10.0, 1: None, 2: 30.0, 3: 20.0})
        new = promote(session, sweep_id=sweep_id)
        assert promote(session, sweep_id=sweep_id) == []  # once
        sweep = session.get(Sweep, sweep_id)
        # throughput: higher is better; the failed point is not ranked
        assert sweep.kept == [2, 3]
        packet = {session.get(Run, r).scenario_id: session.get(Run, r) for r in new}
    points = _points(engine, sweep_id)
    assert sorted(new) == sorted(points[i].packet_run_id for i in (2, 3))
    assert {r.engine for r in packet.values()} == {"packet"}
    assert set(packet) == {points[2].scenario_id, points[3].scenario_id}
    assert points[0].packet_run_id is None and points[1].packet_run_id is None
    with Session(engine) as session:
        progress = service.progress(session, sweep=session.get(Sweep, sweep_id))
    assert (progress.total, progress.done, progress.failed, progress.status) == (6, 4, 1, "RUNNING")


def test_the_reconciler_promotes_and_enqueues(api, engine):
    sweep_id = _screening_sweep(engine, api, keep=1, metric="jct_us")
    enqueued: list[tuple[str, bool]] = []
    with Session(engine) as session:
        _finish(session, sweep_id, {0: 1.0, 1: 2.0, 2: 3.0, 3: 4.0})  # jct_us: lower is better
        done = reconciler.reconcile(
            session,
            enqueue_run=lambda r, batch=False, threads=1: enqueued.append((r, batch)),
            enqueue_sweep=lambda s: None,
            held=lambda: set(),
        )
    kept = _points(engine, sweep_id)[0]
    assert kept.packet_run_id in done.promoted_runs
    assert (kept.packet_run_id, True) in enqueued
