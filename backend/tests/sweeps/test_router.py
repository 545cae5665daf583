"""Sweeps: a 4-point grid on two workers, the aggregated table, 404 and 422."""

from sqlalchemy import text

from tests.helpers import create_scenario, error_locs, sse_events
from tests.scenarios_data import incast, long_running
from tests.support import wait_until

GRID = {"parameters": [{"path": "switch.ecn.kmin_bytes", "values": [0, 5000]},
                       {"path": "traffic.0.size_bytes", "values": [0, 200000]}],
        "linked": [{"path": "switch.ecn.kmax_bytes", "from": "switch.ecn.kmin_bytes",
                    "scale": 1, "offset": 500}]}


def test_four_point_sweep_on_two_workers(api, engine):
    base = create_scenario(api, incast(name="sweep base", duration_us=1000))
    response = api.post("/sweeps", json={"scenario_id": base["id"], "seed": 1, **GRID})
    assert response.status_code == 201, response.text
    sweep = response.json()
    # A fast worker may already have started a point when the response is built.
    assert sweep["total"] == 4 and sweep["status"] in ("PENDING", "RUNNING")
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
    assert (body["points_count"], body["offset"], body["next_offset"]) == (4, 0, None)
    _check_pages(api, sweep["id"], body)
    listed = api.get("/sweeps", params={"scenario_id": base["id"]}).json()
    assert listed["count"] == 1 and listed["data"][0]["status"] == "SUCCEEDED"
    assert api.post(f"/sweeps/{sweep['id']}/cancel").status_code == 409


def _check_pages(api, sweep_id: str, whole: dict) -> None:
    """Pages of the points table: index order, counts over the whole sweep, next_offset chain."""
    first = api.get(f"/sweeps/{sweep_id}", params={"limit": 3}).json()
    assert [p["index"] for p in first["points"]] == [0, 1, 2]
    assert (first["offset"], first["next_offset"], first["points_count"]) == (0, 3, 4)
    assert (first["done"], first["total"], first["status"]) == (4, 4, "SUCCEEDED")
    last = api.get(f"/sweeps/{sweep_id}", params={"limit": 3, "offset": 3}).json()
    assert [p["index"] for p in last["points"]] == [3] and last["next_offset"] is None
    assert first["points"] + last["points"] == whole["points"]
    beyond = api.get(f"/sweeps/{sweep_id}", params={"offset": 10}).json()
    assert beyond["points"] == [] and beyond["next_offset"] is None and beyond["done"] == 4
    for bad in ({"limit": 0}, {"limit": 1001}, {"offset": -1}, {"limit": "x"}):
        response = api.get(f"/sweeps/{sweep_id}", params=bad)
        assert response.status_code == 422, (bad, response.text)
        assert response.json()["detail"][0]["loc"] == ["query", next(iter(bad))]


def test_sweep_points_run_at_once_on_two_workers(api, engine):
    # Which worker takes which short point depends on speed; two long points are guaranteed to run
    # at the same time on both workers (each takes one message at a time: prefetch 1, acks late).
    base = create_scenario(api, long_running("parallel sweep"))
    response = api.post("/sweeps", json={"scenario_id": base["id"], "seed": 1,
                                         "parameters": [{"path": "seed", "values": [1, 2]}]})
    assert response.status_code == 201, response.text
    sweep_id = response.json()["id"]

    def running_workers():
        with engine.connect() as connection:
            rows = connection.execute(text(
                "SELECT r.worker FROM runs r JOIN sweep_points p ON p.run_id = r.id "
                "WHERE p.sweep_id = :s AND r.status = 'RUNNING'"), {"s": sweep_id}).scalars().all()
        return rows if len(set(rows)) == 2 else None

    wait_until(running_workers, 120, what="both points running on two workers")
    assert api.post(f"/sweeps/{sweep_id}/cancel").status_code == 200
    body = wait_until(lambda: (lambda b: b if b["status"] == "CANCELLED" else None)(
        api.get(f"/sweeps/{sweep_id}").json()), 30, what="sweep cancelled")
    assert body["done"] == 2 and [p["status"] for p in body["points"]] == ["CANCELLED"] * 2


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


def test_a_sweep_reads_every_job_by_name(api):
    """Each point's metrics carry every collective job's JCT and busbw by name (`jobs`), so the
    heatmap can show job B's, not only the first job's columns; B's follow its swept size."""
    from tests.tunings.test_job_objectives import TWO_JOBS

    base = create_scenario(api, TWO_JOBS)
    grid = {"parameters": [{"path": "traffic.1.message_bytes", "values": [524288, 1048576]}]}
    response = api.post("/sweeps", json={"scenario_id": base["id"], "seed": 1, **grid})
    assert response.status_code == 201, response.text
    events = sse_events(api, f"/sweeps/{response.json()['id']}/events", timeout=300)
    assert events[-1][0] == "done" and events[-1][1]["status"] == "SUCCEEDED", events[-1]
    points = api.get(f"/sweeps/{response.json()['id']}").json()["points"]
    by_size = {p["params"]["traffic.1.message_bytes"]: p for p in points}
    for point in points:
        jobs = {j["name"]: j for j in api.get(f"/runs/{point['run_id']}/jobs").json()}
        metrics = point["metrics"]
        assert metrics["jobs"] == {name: {"jct_us": j["jct_us"], "busbw_gbps": j["busbw_gbps"]}
                                   for name, j in jobs.items()}
        assert metrics["jct_us"] == jobs["A"]["jct_us"]  # the first job's columns, as before
    # twice the bytes over the same ring: B takes longer, A (unchanged) does not move much
    assert by_size[1048576]["metrics"]["jobs"]["B"]["jct_us"] > by_size[524288]["metrics"]["jobs"]["B"]["jct_us"]
