"""Expanding a sweep slice by slice (app/sweeps/service.expand_sweep): each slice is committed
and handed to the workers at once; an expansion that dies midway resumes where it stopped, with
no point stored twice; an identical simulation is one run. Direct calls on PostgreSQL (no
worker sees these sweeps: nothing is enqueued)."""

import pytest
from sqlalchemy import select, update
from sqlalchemy.orm import Session

from app.runs.models import Run
from app.scenarios.models import ScenarioRow
from app.sweeps import service
from app.sweeps.models import Sweep, SweepPoint
from app.sweeps.schemas import SweepCreate
from tests.helpers import create_scenario
from tests.scenarios_data import incast

KMIN = [0, 1000, 2000, 3000, 4000]


class Crash(Exception):
    pass


def _sweep(engine, api, name: str) -> str:
    base = create_scenario(api, incast(name=name, duration_us=300))
    body = SweepCreate.model_validate({
        "scenario_id": base["id"], "seed": 7,
        "parameters": [{"path": "switch.ecn.kmin_bytes", "values": KMIN}],
        "linked": [{"path": "switch.ecn.kmax_bytes", "from": "switch.ecn.kmin_bytes",
                    "offset": 500}]})
    with Session(engine) as session:
        return service.create_sweep(session, base=session.get(ScenarioRow, base["id"]),
                                    body=body).id


def _expand(engine, sweep_id: str, dispatch) -> list[str]:
    with Session(engine) as session:
        return service.expand_sweep(session, sweep=session.get(Sweep, sweep_id),
                                    dispatch=dispatch)


def _points(engine, sweep_id: str) -> list[SweepPoint]:
    with Session(engine) as session:
        return list(session.scalars(select(SweepPoint).where(SweepPoint.sweep_id == sweep_id)
                                    .order_by(SweepPoint.index)).all())


def test_expansion_streams_slices_and_resumes_after_a_crash(api, engine, monkeypatch):
    monkeypatch.setattr(service, "EXPAND_SLICE", 2)
    sweep_id = _sweep(engine, api, "expanded in slices")
    handed: list[list[str]] = []

    def crash_after_first(run_ids: list[str]) -> None:
        handed.append(run_ids)
        raise Crash  # the broker went away after the first slice was committed

    with pytest.raises(Crash):
        _expand(engine, sweep_id, crash_after_first)
    first = _points(engine, sweep_id)
    assert [p.index for p in first] == [0, 1] and handed == [[p.run_id for p in first]]
    with Session(engine) as session:
        assert session.get(Sweep, sweep_id).expanded is False

    handed.clear()
    left = _expand(engine, sweep_id, handed.append)
    points = _points(engine, sweep_id)
    # The first slice's runs come back (their messages may be lost), the rest went out in
    # slices of 2 and 1 as they were committed; every index once.
    assert left == [p.run_id for p in first]
    assert [len(s) for s in handed] == [2, 1]
    assert [p.index for p in points] == list(range(len(KMIN)))
    assert [p.params["switch.ecn.kmin_bytes"] for p in points] == KMIN
    assert sum(handed, []) == [p.run_id for p in points[2:]]
    with Session(engine) as session:
        assert session.get(Sweep, sweep_id).expanded is True

    # Expanded: nothing new is stored; the PENDING runs are returned for another fan-out.
    handed.clear()
    assert sorted(_expand(engine, sweep_id, handed.append)) == sorted(p.run_id for p in points)
    assert handed == [] and len(_points(engine, sweep_id)) == len(KMIN)

    # The same grid again: the same simulations, so the same runs and nothing to dispatch.
    again = _sweep(engine, api, "expanded in slices")
    assert _expand(engine, again, handed.append) == [] and handed == []
    assert [p.run_id for p in _points(engine, again)] == [p.run_id for p in points]

    with Session(engine) as session:  # leave nothing PENDING for the reconciler
        session.execute(update(Run).where(Run.id.in_([p.run_id for p in points]))
                        .values(status="CANCELLED"))
        session.execute(update(Sweep).where(Sweep.id.in_([sweep_id, again]))
                        .values(cancelled=True))
        session.commit()
