"""POST /estimate: the flow-level engine's synchronous answer (issue 36, section 3): the headline
figures of a collective and of plain flows (checked by hand), what it leaves out, and its 422s:
an invalid scenario at its field, a scenario the flow engine refuses at the field it names, a
fabric past ESTIMATE_MAX_HOSTS with the limit in words. Nothing is stored."""

from app.scenarios import limits
from tests.helpers import error_locs

RING = {"schema_version": 1, "name": "ring of four", "duration_us": 2000,
        "nic": {"cc": {"algorithm": "none"}},
        "topology": {"kind": "leaf_spine", "leaves": 2, "spines": 1, "hosts_per_leaf": 2},
        "traffic": [{"kind": "collective", "op": "all_reduce", "message_bytes": 400000, "job": "ar"}]}


def test_estimate_of_a_collective_and_of_a_flow(api):
    response = api.post("/estimate", json={"scenario": RING})
    assert response.status_code == 200, response.text
    body = response.json()
    assert body["engine"] == "flow" and body["status"] == "ok"
    [job] = body["jobs"]
    assert job["name"] == "ar" and job["algorithm"] == "ring" and job["jct_us"] > 0
    assert job["iteration_us"] == job["jct_us"] and 0 < job["busbw_gbps"] <= job["ideal_busbw_gbps"]
    assert {"queues", "pfc"} <= {c["feature"] for c in body["caveats"]}
    # the error measured for its kind: a ring on 2:1 oversubscribed leaves (docs/validation-flow.md)
    assert body["flow_error"]["kind"] == "collective_oversubscribed" and body["flow_error"]["applies"]
    assert body["flow_error"]["figures"]["jct_us"]["target"] == 0.10
    # one 1 MB flow alone on 100G (MTU 1000): its ideal FCT, 86.56 us + 4 us + 3 frames = 90.82 us
    one = {"schema_version": 1, "duration_us": 500, "nic": {"cc": {"algorithm": "none"}},
           "topology": {"kind": "leaf_spine", "leaves": 2, "spines": 2, "hosts_per_leaf": 2},
           "traffic": [{"kind": "pairs", "pairs": [["h0", "h2"]], "size_bytes": 1000000}]}
    flow = api.post("/estimate", json={"scenario": one}).json()
    assert abs(flow["fct_p50_us"] - 90.82) < 0.01 and flow["slowdown_p50"] == 1
    assert flow["flows_completed"] == flow["flows_total"] == 1 and flow["jobs"] == []
    assert flow["flow_error"]["kind"] == "flows"


def test_estimate_refusals_name_the_field(api):
    bad = dict(RING, duration_us=-1)
    assert error_locs(api.post("/estimate", json={"scenario": bad})) == [["body", "scenario", "duration_us"]]
    storm = dict(RING, faults=[{"kind": "pfc_storm", "host": "h3", "start_us": 10}])
    response = api.post("/estimate", json={"scenario": storm})
    assert response.status_code == 422, response.text
    assert error_locs(response) == [["body", "scenario", "faults", 0, "kind"]]
    assert "PFC storm" in response.text
    # 40 leaves of 256 hosts: 10,240 hosts, past the estimate's limit
    big = dict(RING, topology={"kind": "leaf_spine", "leaves": 40, "spines": 4, "hosts_per_leaf": 256},
               switch={"buffer_bytes": 200000000}, traffic=[])
    response = api.post("/estimate", json={"scenario": big})
    assert response.status_code == 422, response.text
    assert error_locs(response) == [["body", "scenario", "topology"]]
    assert f"{limits.ESTIMATE_MAX_HOSTS:,} hosts" in response.text and "10,240 hosts" in response.text


def test_estimate_predicts_a_packet_level_runs_time_from_this_instances_runs(api):
    from tests.helpers import create_scenario, wait_final

    scenario = create_scenario(api, RING)
    response = api.post("/runs", json={"scenario_id": scenario["id"], "threads": 1})
    assert response.status_code == 201, response.text
    run = wait_final(api, response.json()["data"][0]["id"])
    assert run["status"] == "SUCCEEDED" and run["engine"] == "packet"
    body = api.post("/estimate", json={"scenario": RING}).json()
    predicted = body["packet_run"]
    assert predicted is not None and predicted["runs"] >= 1, body
    # the frames the estimate delivers (MTU 1000, no warm-up), its events and their time
    assert abs(predicted["frames"] - body["throughput_gbps"] * RING["duration_us"] * 1000 / 8 / 1000) <= 1
    assert abs(predicted["events"] - predicted["frames"] * predicted["events_per_frame"]) <= 0.01 * predicted["events"] + 1
    assert abs(predicted["seconds"] - predicted["events"] / predicted["events_per_s"]) <= 0.001
    assert predicted["seconds"] > 0
