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
