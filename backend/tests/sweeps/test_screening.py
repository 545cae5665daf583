"""Flow-level screening of a sweep (issue 36): every point at flow level, the best `keep` again at
packet level, both figures in the table; refused over what the flow engine does not model."""

from tests.helpers import create_scenario, error_locs, sse_events
from validation.flow_vs_packet import flat_ring


def _ring() -> dict:
    """The 8-host ring all-reduce of the flow-engine validation, 1 MiB: milliseconds per run."""
    ring = flat_ring()
    ring["traffic"][0]["message_bytes"] = 1048576
    ring["duration_us"] = 5000
    return ring


def test_screening_sweep_runs_the_best_points_at_packet_level(api):
    base = create_scenario(api, _ring())
    body = {
        "scenario_id": base["id"],
        "seed": 1,
        "parameters": [{"path": "topology.fabric_rate_gbps", "values": [25, 100, 50]}],
        "screening": {"keep": 2, "metric": "jct_us"},
    }
    response = api.post("/sweeps", json=body)
    assert response.status_code == 201, response.text
    sweep = response.json()
    # three flow-level runs and the two kept points' packet-level runs
    assert sweep["total"] == 5 and sweep["screening"]["engine"] == "flow"
    events = sse_events(api, f"/sweeps/{sweep['id']}/events", timeout=300)
    assert events[-1][0] == "done" and events[-1][1]["status"] == "SUCCEEDED", events[-1]
    table = api.get(f"/sweeps/{sweep['id']}").json()
    assert (table["done"], table["total"], table["failed"]) == (5, 5, 0)
    points = {p["index"]: p for p in table["points"]}
    assert all(p["engine"] == "flow" and p["status"] == "SUCCEEDED" for p in points.values())
    flow_jct = {i: p["metrics"]["jct_us"] for i, p in points.items()}
    # the ring's two cross-leaf steps set its pace: the slowest fabric links are left out
    assert table["kept"] == sorted(flow_jct, key=lambda i: (flow_jct[i], i))[:2] == [1, 2]
    for index, point in points.items():
        if index in table["kept"]:
            assert point["packet_status"] == "SUCCEEDED" and point["packet_run_id"] != point["run_id"]
            packet = point["packet_metrics"]["jct_us"]
            # the figures side by side: the flow engine's error on a flat ring is well under 10 %
            assert abs(flow_jct[index] - packet) / packet < 0.10, (flow_jct[index], packet)
            assert api.get(f"/runs/{point['packet_run_id']}").json()["engine"] == "packet"
        else:
            assert point["packet_run_id"] is None and point["packet_metrics"] is None
        assert api.get(f"/runs/{point['run_id']}").json()["engine"] == "flow"


def test_screening_is_refused_over_what_the_flow_engine_does_not_model(api):
    base = create_scenario(api, _ring())
    for path, feature in (
        ("switch.ecn.kmin_bytes", "ECN"),
        ("nic.cc.algorithm", "DCQCN"),
        ("switch.pfc.enabled", "PFC"),
        ("switch.buffer_bytes", "queues"),
        ("switch_overrides.leaf0.trimming", "trimming"),
    ):
        response = api.post(
            "/sweeps",
            json={
                "scenario_id": base["id"],
                "screening": {"keep": 1},
                "parameters": [{"path": "topology.spines", "values": [2, 4]}, {"path": path, "values": [1]}],
            },
        )
        assert error_locs(response) == [["body", "parameters", 1, "path"]], (path, response.text)
        message = response.json()["detail"][0]["msg"]
        assert path in message and feature in message, message
    linked = api.post(
        "/sweeps",
        json={
            "scenario_id": base["id"],
            "screening": {"keep": 1},
            "parameters": [{"path": "topology.spines", "values": [2, 4]}],
            "linked": [{"path": "switch.ecn.kmax_bytes", "from": "topology.spines", "scale": 1000}],
        },
    )
    assert error_locs(linked) == [["body", "linked", 0, "path"]]
    for bad in ({"keep": 0}, {"keep": 65}, {"engine": "packet"}, {"metric": "drops_total"}):
        response = api.post(
            "/sweeps",
            json={
                "scenario_id": base["id"],
                "screening": bad,
                "parameters": [{"path": "topology.spines", "values": [2, 4]}],
            },
        )
        assert response.status_code == 422, (bad, response.text)
        assert error_locs(response)[0][:3] == ["body", "screening", next(iter(bad))], response.text
