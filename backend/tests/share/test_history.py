"""GET /scenarios/{id}/history: a scenario's runs, sweeps, tunings and forks, and its parent's
runs, read by the scenario's id (no list endpoint involved)."""

from tests.helpers import create_scenario, start_run, wait_final
from tests.scenarios_data import incast


def test_history_lists_runs_sweeps_tunings_and_forks(api):
    base = create_scenario(api, incast(name="history base", duration_us=200))
    fork = api.post(f"/scenarios/{base['id']}/fork",
                    json={"scenario": incast(name="history fork", duration_us=300)})
    assert fork.status_code == 201, fork.text
    fork = fork.json()
    base_run = start_run(api, base["id"])[0]
    fork_run = start_run(api, fork["id"])[0]
    sweep = api.post("/sweeps", json={"scenario_id": base["id"], "seed": 1, "parameters": [
        {"path": "switch.ecn.pmax", "values": [0.1, 0.5]}]})
    assert sweep.status_code == 201, sweep.text
    tuning = api.post("/tunings", json={
        "scenario_ids": [fork["id"]], "space": {"named": "bytetuning"},
        "objectives": [{"kind": "bytetuning_throughput"}], "strategies": [{"name": "vendor"}]})
    assert tuning.status_code == 201, tuning.text
    wait_final(api, base_run["id"])
    wait_final(api, fork_run["id"])

    h = api.get(f"/scenarios/{fork['id']}/history")
    assert h.status_code == 200, h.text
    h = h.json()
    assert h["parent"]["id"] == base["id"] and h["parent"]["name"] == "history base"
    assert [r["id"] for r in h["runs"]] == [fork_run["id"]]
    assert base_run["id"] in [r["id"] for r in h["parent_runs"]]
    assert [t["id"] for t in h["tunings"]] == [tuning.json()["id"]]
    assert h["sweeps"] == [] and h["forks"] == []

    b = api.get(f"/scenarios/{base['id']}/history").json()
    assert b["parent"] is None and b["parent_runs"] == []
    assert [s["id"] for s in b["sweeps"]] == [sweep.json()["id"]]
    # the sweep's point snapshots are not forks; the person's fork is, with its runs
    assert [f["id"] for f in b["forks"]] == [fork["id"]]
    assert [r["id"] for r in b["fork_runs"]] == [fork_run["id"]]
    assert b["tunings"] == []

    api.post(f"/sweeps/{sweep.json()['id']}/cancel")
    api.post(f"/tunings/{tuning.json()['id']}/cancel")
    assert api.get("/scenarios/nope/history").status_code == 404


def test_a_scenarios_tunings_are_found_by_a_query_on_sqlite_too(tmp_path):
    """The embedded instance (SQLite) finds the tunings naming a scenario with json_each, as
    PostgreSQL does with JSONB containment (the test above): only those naming it, none by a
    prefix of its id."""
    from sqlalchemy import create_engine, select
    from sqlalchemy.orm import Session

    from app.core.db import Base
    from app.share.history import _tuning_of
    from app.tunings.models import Tuning

    engine = create_engine(f"sqlite:///{tmp_path / 'h.db'}")
    Base.metadata.create_all(engine)
    with Session(engine) as session:
        session.add_all([Tuning(id="t1", scenario_ids=["abc", "xyz"], spec={}),
                         Tuning(id="t2", scenario_ids=["abcd"], spec={}),
                         Tuning(id="t3", scenario_ids=[], spec={})])
        session.commit()
        found = lambda sid: session.scalars(select(Tuning.id).where(_tuning_of(session, sid))
                                            .order_by(Tuning.id)).all()  # noqa: E731
        assert found("abc") == ["t1"] and found("xyz") == ["t1"] and found("abcd") == ["t2"]
        assert found("ab") == []
    engine.dispose()
