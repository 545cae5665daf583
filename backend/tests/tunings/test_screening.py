"""Flow-level screening of a tuning (issue 36): every evaluation at flow level, the best `keep`
again at packet level with both objectives stored; refused over settings the flow engine does not
model and for objectives it does not answer."""

from tests.helpers import create_scenario, error_locs, sse_events
from validation.flow_vs_packet import flat_ring

SPACE = {"parameters": [{"name": "rate", "path": "topology.fabric_rate_gbps", "values": [25, 50, 100]}]}


def _ring_id(api) -> str:
    ring = flat_ring()
    ring["traffic"][0]["message_bytes"] = 1048576
    ring["duration_us"] = 5000
    return create_scenario(api, ring)["id"]


def test_screening_tuning_runs_its_best_points_at_packet_level(api):
    body = {
        "scenario_ids": [_ring_id(api)],
        "space": SPACE,
        "objectives": [{"kind": "metric", "metric": "jct_us"}],
        "strategies": [{"name": "grid"}],
        "screening": {"keep": 2},
    }
    response = api.post("/tunings", json=body)
    assert response.status_code == 201, response.text
    tuning_id = response.json()["id"]
    events = sse_events(api, f"/tunings/{tuning_id}/events", timeout=300)
    assert events[-1][0] == "done" and events[-1][1]["status"] == "SUCCEEDED", events[-1]
    results = api.get(f"/tunings/{tuning_id}/results").json()
    by_id = {e["id"]: e for e in results["evaluations"]}
    assert len(by_id) == 3
    for evaluation in by_id.values():
        assert api.get(f"/runs/{evaluation['run_ids'][0]}").json()["engine"] == "flow"
    jct = {i: e["objectives"][0]["mean"] for i, e in by_id.items()}
    assert results["kept"] == sorted(jct, key=lambda i: (jct[i], i))[:2]
    for i, evaluation in by_id.items():
        if i in results["kept"]:
            packet = evaluation["packet_objectives"][0]["mean"]
            assert abs(jct[i] - packet) / packet < 0.10, (jct[i], packet)
            run = api.get(f"/runs/{evaluation['packet_run_ids'][0]}").json()
            assert run["engine"] == "packet" and run["summary"]["jct_us"] == packet
        else:
            assert evaluation["packet_run_ids"] is None and evaluation["packet_objectives"] is None


def test_screening_tuning_is_refused_over_what_the_flow_engine_does_not_model(api):
    base = {
        "scenario_ids": [_ring_id(api)],
        "space": SPACE,
        "strategies": [{"name": "grid"}],
        "objectives": [{"kind": "metric", "metric": "jct_us"}],
        "screening": {"keep": 2},
    }

    def locs(**changes):
        return error_locs(api.post("/tunings", json={**base, **changes}))

    ecn = {"parameters": [{"name": "kmin", "path": "switch.ecn.kmin_bytes", "values": [0, 5000]}]}
    assert locs(space=ecn) == [["body", "space", "parameters", 0, "path"]]
    assert locs(space={"named": "bytetuning"}) == [["body", "space", "named"]]
    assert locs(objectives=[{"kind": "metric", "metric": "max_queue_bytes"}]) == [["body", "objectives", 0, "metric"]]
    assert locs(objectives=[{"kind": "bytetuning_throughput"}]) == [["body", "objectives", 0, "kind"]]
    message = api.post("/tunings", json={**base, "space": ecn}).json()["detail"][0]["msg"]
    assert "switch.ecn.kmin_bytes" in message and "ECN" in message, message
