"""Sweeps: a 4-point grid on two workers, the aggregated table, 404 and 422."""

from sqlalchemy import text

from tests.helpers import create_scenario, error_locs, sse_events
from tests.scenarios_data import incast

GRID = {"parameters": [{"path": "switch.ecn.kmin_bytes", "values": [0, 5000]},
                       {"path": "traffic.0.size_bytes", "values": [0, 200000]}],
        "linked": [{"path": "switch.ecn.kmax_bytes", "from": "switch.ecn.kmin_bytes",
                    "scale": 1, "offset": 500}]}


def test_four_point_sweep_on_two_workers(api, engine):
    base = create_scenario(api, incast(name="sweep base", duration_us=1000))
    response = api.post("/sweeps", json={"scenario_id": base["id"], "seed": 1, **GRID})
    assert response.status_code == 201, response.text
    sweep = response.json()
    assert sweep["total"] == 4 and sweep["status"] == "PENDING"
    events = sse_events(api, f"/sweeps/{sweep['id']}/events", timeout=300)
    assert events[-1][0] == "done" and events[-1][1]["status"] == "SUCCEEDED", events[-1]
    body = api.get(f"/sweeps/{sweep['id']}").json()
    assert body["done"] == 4 and body["failed"] == 0 and len(body["points"]) == 4
    table = {(p["params"]["switch.ecn.kmin_bytes"], p["params"]["traffic.0.size_bytes"]): p
             for p in body["points"]}
    assert set(table) == {(0, 0), (0, 200000), (5000, 0), (5000, 200000)}
    for point in body["points"]:
        assert point["params"]["switch.ecn.kmax_bytes"] == point["params"]["switch.ecn.kmin_bytes"] + 500
        assert point["status"] == "SUCCEEDED" and point["metrics"]["throughput_gbps"] > 0
        child = api.get(f"/scenarios/{point['scenario_id']}").json()
        assert child["parent_id"] == base["id"]
        assert child["scenario"]["switch"]["ecn"]["kmax_bytes"] == point["params"]["switch.ecn.kmax_bytes"]
    with engine.connect() as connection:
        workers = connection.execute(text(
            "SELECT DISTINCT r.worker FROM runs r JOIN sweep_points p ON p.run_id = r.id "
            "WHERE p.sweep_id = :s"), {"s": sweep["id"]}).scalars().all()
    assert len(workers) == 2, workers
    listed = api.get("/sweeps", params={"scenario_id": base["id"]}).json()
    assert listed["count"] == 1 and listed["data"][0]["status"] == "SUCCEEDED"
    assert api.post(f"/sweeps/{sweep['id']}/cancel").status_code == 409


def test_sweep_404(api):
    assert api.post("/sweeps", json={"scenario_id": "nope", **GRID}).status_code == 404
    for path in ("/sweeps/nope", "/sweeps/nope/events"):
        assert api.get(path).status_code == 404
    assert api.post("/sweeps/nope/cancel").status_code == 404


def test_sweep_422_points_at_parameter(api):
    base = create_scenario(api, incast())
    bad_path = {"scenario_id": base["id"],
                "parameters": [{"path": "switch.ecn.kmin_bytez", "values": [1]}]}
    typo = api.post("/sweeps", json=bad_path)
    assert error_locs(typo) == [["body", "parameters", 0, "path"]]
    assert typo.json()["detail"][0]["msg"].startswith(
        "switch.ecn.kmin_bytez is not a field of the scenario"), typo.text
    bad_value = {"scenario_id": base["id"],
                 "parameters": [{"path": "switch.ecn.pmax", "values": [0.1, 7]}]}
    response = api.post("/sweeps", json=bad_value)
    assert error_locs(response) == [["body", "parameters", 0, "values", 1]]
    message = response.json()["detail"][0]["msg"]
    assert "{'switch.ecn.pmax': 7}" in message and "{{" not in message, message
    too_many = {"scenario_id": base["id"],
                "parameters": [{"path": "seed", "values": list(range(100))},
                               {"path": "switch.ecmp_seed", "values": list(range(100))}]}
    assert error_locs(api.post("/sweeps", json=too_many)) == [["body", "parameters"]]
    assert error_locs(api.post("/sweeps", json={"scenario_id": base["id"], "parameters": []})) == [
        ["body", "parameters"]]
    twice = {"scenario_id": base["id"],
             "parameters": [{"path": "seed", "values": [1, 2]}, {"path": "seed", "values": [True]}]}
    assert error_locs(api.post("/sweeps", json=twice)) == [["body", "parameters", 1, "path"]]
    huge = api.get("/sweeps", params={"offset": 10**30})
    assert huge.status_code == 422 and huge.json()["detail"][0]["loc"] == ["query", "offset"]
