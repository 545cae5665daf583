"""Measurements through the API with real workers and the real simulator: import an NCCL-tests
output, run the sweep of the scenario's collective over exactly its sizes, read measured against
simulated; a perftest output and its run; 404, 403 and 422 (one line naming the line)."""

from pathlib import Path

from tests.helpers import create_scenario, error_locs
from tests.support import wait_until

DATA = Path(__file__).resolve().parents[1] / "data" / "fabric"
EIGHT_RANKS = {
    "schema_version": 1, "name": "8 ranks, one leaf per 4", "duration_us": 200,
    "topology": {"kind": "leaf_spine", "leaves": 2, "spines": 2, "hosts_per_leaf": 4,
                 "host_rate_gbps": 100, "fabric_rate_gbps": 100, "link_delay_us": 1},
    "traffic": [{"kind": "collective", "name": "ar", "op": "all_reduce", "algorithm": "ring",
                 "hosts": [f"h{i}" for i in range(8)], "message_bytes": 65536}],
}
PERFTEST = {
    "schema_version": 1, "name": "two hosts, ib_write_bw", "duration_us": 100,
    "topology": {"kind": "leaf_spine", "leaves": 1, "spines": 1, "hosts_per_leaf": 2,
                 "host_rate_gbps": 100, "fabric_rate_gbps": 100, "link_delay_us": 1},
    "nic": {"mtu_bytes": 4096},
    "traffic": [{"kind": "perftest", "src": "h0", "dst": "h1"}],
}


def text(kind: str, name: str) -> str:
    return (DATA / kind / name).read_text()


def _final(api, path: str) -> dict:
    def check():
        body = api.get(path).json()
        return body if body["status"] in ("SUCCEEDED", "FAILED", "CANCELLED") else None
    return wait_until(check, 300, interval=0.3, what=f"{path} to finish")


def test_nccl_tests_against_the_matching_sweep(api):
    scenario = create_scenario(api, EIGHT_RANKS)
    created = api.post("/measurements", json={
        "scenario_id": scenario["id"], "kind": "nccl_tests",
        "text": text("nccl-tests", "small_allreduce_8ranks.txt")})
    assert created.status_code == 201, created.text
    m = created.json()
    assert (m["tool"], m["points"], m["header"]["ranks"], m["header"]["iters"]) == \
        ("all_reduce_perf", 4, 8, 1)
    assert [r["size_bytes"] for r in m["rows"]] == [16384, 65536, 262144, 1048576]
    assert m["rows"][0]["busbw_gbps"] == 1.98 * 8   # 1.98 GB/s printed
    listed = api.get("/measurements", params={"scenario_id": scenario["id"]}).json()
    assert [x["id"] for x in listed["data"]] == [m["id"]]

    started = api.post(f"/measurements/{m['id']}/simulate", json={})
    assert started.status_code == 201, started.text
    sim = started.json()
    assert (sim["kind"], sim["generator"], sim["sim_scenario_id"]) == ("sweep", 0, scenario["id"])
    sweep = _final(api, f"/sweeps/{sim['sweep_id']}")
    assert sweep["status"] == "SUCCEEDED"
    assert sweep["parameters"] == [{"path": "traffic.0.message_bytes",
                                    "values": [16384, 65536, 262144, 1048576]}]
    comparison = api.get(f"/measurements/{m['id']}/comparison").json()
    assert (comparison["metric"], comparison["unit"], comparison["status"]) == \
        ("busbw_gbps", "Gbit/s", "SUCCEEDED")
    assert (comparison["measured_ranks"], comparison["simulated_ranks"]) == (8, 8)
    points = comparison["points"]
    assert [p["size_bytes"] for p in points] == [16384, 65536, 262144, 1048576]
    for p in points:
        assert 0 < p["simulated"] < 100 and p["ratio"] == p["simulated"] / p["measured"]
        assert p["differs"] == (abs(p["ratio"] - 1) > 0.1)
    # the sample's numbers are a fast NCCL's: the single-channel ring over 1 us links is slower,
    # and each point that differs by more than 10 % lists the reasons the model gives
    assert all(p["reasons"] for p in points if p["differs"])
    assert "small_message" in points[0]["reasons"]
    assert all("small_message" not in p["reasons"] for p in points[1:])
    largest = points[-1]
    assert largest["ratio"] < 0.9 and largest["reasons"] == ["channels", "link_delays"]
    assert set(comparison["reasons"]) >= {"small_message", "channels", "rank_count"}


def test_perftest_against_its_run(api):
    scenario = create_scenario(api, PERFTEST)
    created = api.post("/measurements", json={
        "scenario_id": scenario["id"], "kind": "perftest",
        "text": text("perftest", "ib_write_bw.txt"), "name": "rack 3"})
    assert created.status_code == 201, created.text
    m = created.json()
    assert (m["tool"], m["name"], m["header"]["tx_depth"], m["rows"][0]["bw_average_gbps"]) == \
        ("ib_write_bw", "rack 3", 128, 98.51)
    sim = api.post(f"/measurements/{m['id']}/simulate", json={"seed": 3}).json()
    assert sim["kind"] == "run" and sim["sim_scenario_id"] != scenario["id"]
    fork = api.get(f"/scenarios/{sim['sim_scenario_id']}").json()
    gen = fork["scenario"]["traffic"][0]
    assert (gen["message_bytes"], gen["iterations"], gen["tx_depth"], gen["qps"]) == \
        (65536, 5000, 128, 1)
    assert fork["parent_id"] == scenario["id"]
    run = _final(api, f"/runs/{sim['run_id']}")
    assert run["status"] == "SUCCEEDED"
    (point,) = api.get(f"/measurements/{m['id']}/comparison").json()["points"]
    # 64 KiB messages at MTU 4096 over 100 Gbit/s: the goodput is the payload share of the line
    assert 90 < point["simulated"] < 100 and abs(point["ratio"] - 1) < 0.1


def test_perftest_latency_against_its_sweep(api):
    scenario = create_scenario(api, {**PERFTEST, "name": "two hosts, ib_write_lat"})
    m = api.post("/measurements", json={"scenario_id": scenario["id"], "kind": "perftest",
                                        "text": text("perftest", "ib_write_lat.txt")}).json()
    sim = api.post(f"/measurements/{m['id']}/simulate", json={}).json()
    assert sim["kind"] == "sweep"
    fork = api.get(f"/scenarios/{sim['sim_scenario_id']}").json()["scenario"]["traffic"][0]
    assert (fork["iterations"], fork["tx_depth"]) == (1, 1)   # one message: one round trip
    assert _final(api, f"/sweeps/{sim['sweep_id']}")["status"] == "SUCCEEDED"
    c = api.get(f"/measurements/{m['id']}/comparison").json()
    assert (c["metric"], c["unit"]) == ("latency_us", "us")
    assert [p["size_bytes"] for p in c["points"]] == [2, 64, 4096]
    for p in c["points"]:
        # half a round trip over two 1 us links each way, with the frames' serialization
        assert 2 < p["simulated"] < 3 and p["measured_p99"] > p["measured"]
    # bigger messages take longer on the wire
    assert c["points"][2]["simulated"] > c["points"][0]["simulated"]


def test_a_wrong_file_is_one_line_and_stores_nothing(api):
    scenario = create_scenario(api, EIGHT_RANKS)
    truncated = (DATA / "malformed" / "nccl_truncated.txt").read_text()
    response = api.post("/measurements", json={"scenario_id": scenario["id"], "kind": "nccl_tests",
                                               "text": truncated})
    assert error_locs(response) == [["body", "text"]]
    assert response.json()["detail"][0]["msg"] == (
        "line 30: expected '# Avg bus bandwidth : ...' after the last row: the file is truncated")
    assert api.get("/measurements", params={"scenario_id": scenario["id"]}).json()["count"] == 0
    response = api.post("/measurements", json={"scenario_id": scenario["id"], "kind": "perftest",
                                               "text": text("perftest", "ib_write_bw.txt"),
                                               "tool": "ib_read_lat"})
    assert error_locs(response) == [["body", "tool"]]
    response = api.post("/measurements", json={"scenario_id": scenario["id"], "kind": "iperf",
                                               "text": "x"})
    assert error_locs(response) == [["body", "kind"]]


def test_no_matching_generator_is_422(api):
    scenario = create_scenario(api, {**EIGHT_RANKS, "traffic": []})
    m = api.post("/measurements", json={"scenario_id": scenario["id"], "kind": "nccl_tests",
                                        "text": text("nccl-tests", "all_gather_perf.txt")}).json()
    response = api.post(f"/measurements/{m['id']}/simulate", json={})
    assert error_locs(response) == [["body", "generator"]]
    assert response.json()["detail"][0]["msg"] == (
        "the scenario has no collective generator with op all_gather: add one to its traffic")
    send = api.post("/measurements", json={"scenario_id": scenario["id"], "kind": "nccl_tests",
                                           "text": text("nccl-tests", "sendrecv_perf.txt")}).json()
    response = api.post(f"/measurements/{send['id']}/simulate", json={})
    assert "the model has no send/receive collective" in response.json()["detail"][0]["msg"]


def test_404_and_owner_only_changes(api, stack):
    assert api.get("/measurements/nope").status_code == 404
    assert api.get("/measurements/nope/comparison").status_code == 404
    assert api.post("/measurements", json={"scenario_id": "nope", "kind": "nccl_tests",
                                           "text": "x"}).status_code == 404
    scenario = create_scenario(api, EIGHT_RANKS)
    m = api.post("/measurements", json={"scenario_id": scenario["id"], "kind": "nccl_tests",
                                        "text": text("nccl-tests",
                                                     "small_allreduce_8ranks.txt")}).json()
    with stack.client() as stranger:   # holds the link (the ids), not the token
        assert stranger.get(f"/measurements/{m['id']}").status_code == 200
        listed = stranger.get("/measurements", params={"scenario_id": scenario["id"]}).json()
        assert listed["count"] == 1
        assert stranger.delete(f"/measurements/{m['id']}").status_code == 403
        assert stranger.post(f"/measurements/{m['id']}/simulate", json={}).status_code == 403
    assert api.delete(f"/measurements/{m['id']}").status_code == 204
    assert api.get(f"/measurements/{m['id']}").status_code == 404
