"""Runs: every endpoint's happy path (end to end with the real simulator), 404, 409 and 422."""

import pytest
from sqlalchemy import text

from app.runs.router import RESULT_VIEWS_VERSION
from tests.helpers import FINAL, create_scenario, error_locs, start_run, wait_final
from tests.runs.e2e import run_two_hosts_end_to_end
from tests.scenarios_data import incast, long_running
from tests.support import wait_until

RUN_PATHS = ["", "/summary", "/flows", "/flows.csv", "/series", "/jobs", "/result", "/events"]


def test_end_to_end_on_postgres(api):
    run = run_two_hosts_end_to_end(api, "e2e postgres")
    assert run["status"] == "SUCCEEDED" and run["wall_s"] > 0


def test_several_seeds_and_list(api):
    scenario = create_scenario(api, incast(name="seeds"))
    runs = start_run(api, scenario["id"], seeds=[1, 2])
    assert [r["seed"] for r in runs] == [1, 2]
    for run in runs:
        assert wait_final(api, run["id"])["status"] == "SUCCEEDED"
    listed = api.get("/runs", params={"scenario_id": scenario["id"], "status": "SUCCEEDED"}).json()
    assert listed["count"] == 2
    assert api.get("/runs", params={"scenario_id": scenario["id"], "limit": 1}).json()["count"] == 2


def test_result_views_are_cacheable_and_revalidated(api, engine):
    """A stored result never changes: its views carry an ETag and Cache-Control, and a client
    holding the view gets 304 with no body, whatever the view."""
    scenario = create_scenario(api, incast(name="cached views"))
    runs = start_run(api, scenario["id"], seeds=[1, 2])
    for run in runs:
        assert wait_final(api, run["id"])["status"] == "SUCCEEDED"
    with engine.connect() as connection:
        sha = connection.execute(text("SELECT sha256 FROM run_results WHERE run_id = :r"),
                                 {"r": runs[0]["id"]}).scalar_one()
    tags = set()
    for view in ("/summary", "/flows?limit=5", "/series", "/diagnostics"):
        path = f"/runs/{runs[0]['id']}{view}"
        first = api.get(path)
        assert first.status_code == 200, first.text
        etag = first.headers["etag"]
        assert etag == f'"{RESULT_VIEWS_VERSION}-{sha[:40]}"' and first.headers["cache-control"] == "private, max-age=3600"
        for held in (etag, f"W/{etag}", f'"other", {etag}', "*"):
            again = api.get(path, headers={"If-None-Match": held})
            assert again.status_code == 304 and again.content == b"", (view, held)
            assert again.headers["etag"] == etag
        stale = api.get(path, headers={"If-None-Match": '"1-0000"'})
        assert stale.status_code == 200 and stale.json() == first.json()
        tags.add(etag)
    assert len(tags) == 1  # one result, one tag; the URL tells the views apart
    other = api.get(f"/runs/{runs[1]['id']}/summary", headers={"If-None-Match": tags.pop()})
    assert other.status_code == 200 and other.headers["etag"] != first.headers["etag"]
    # Nothing cacheable before the result exists
    pending = start_run(api, create_scenario(api, long_running("not yet cached"))["id"])[0]
    refused = api.get(f"/runs/{pending['id']}/summary", headers={"If-None-Match": "*"})
    assert refused.status_code == 409 and "etag" not in refused.headers
    assert api.post(f"/runs/{pending['id']}/cancel").status_code == 200


def test_collective_job_and_its_metric_columns(api):
    """A run with a collective: /jobs lists its job as the result has it, and the run's jct_us and
    busbw_gbps columns (what sweeps read) are that job's; a run without one has an empty list."""
    document = {"schema_version": 1, "name": "ring of four", "duration_us": 2000,
                "topology": {"kind": "leaf_spine", "leaves": 2, "spines": 1, "hosts_per_leaf": 2},
                "traffic": [{"kind": "collective", "op": "all_reduce", "message_bytes": 400000,
                             "job": "ar"}]}
    run = start_run(api, create_scenario(api, document)["id"])[0]
    assert wait_final(api, run["id"])["status"] == "SUCCEEDED"
    jobs = api.get(f"/runs/{run['id']}/jobs").json()
    raw = api.get(f"/runs/{run['id']}/result").json()
    assert jobs == raw["jobs"] and [j["name"] for j in jobs] == ["ar"]
    assert jobs[0]["completed"] and jobs[0]["jct_us"] > 0
    metrics = api.get(f"/runs/{run['id']}").json()["summary"]
    assert metrics["jct_us"] == jobs[0]["jct_us"] and metrics["busbw_gbps"] == jobs[0]["busbw_gbps"]
    plain = start_run(api, create_scenario(api, incast())["id"])[0]
    assert wait_final(api, plain["id"])["status"] == "SUCCEEDED"
    assert api.get(f"/runs/{plain['id']}/jobs").json() == []
    assert api.get(f"/runs/{plain['id']}").json()["summary"]["jct_us"] is None


@pytest.mark.parametrize("suffix", RUN_PATHS)
def test_unknown_run_is_404(api, suffix):
    assert api.get(f"/runs/nope{suffix}").status_code == 404


def test_cancel_unknown_is_404(api):
    assert api.post("/runs/nope/cancel").status_code == 404


def test_create_404_and_422(api):
    assert api.post("/runs", json={"scenario_id": "nope", "seeds": [1]}).status_code == 404
    scenario = create_scenario(api, incast())
    locs = error_locs(api.post("/runs", json={"scenario_id": scenario["id"], "seeds": [-1]}))
    assert locs == [["body", "seeds", 0]]
    locs = error_locs(api.post("/runs", json={"scenario_id": scenario["id"], "seeds": [3, 3]}))
    assert locs == [["body", "seeds"]]
    assert error_locs(api.get("/runs", params={"status": "DONE"})) == [["query", "status"]]


def test_cancel_running_run_then_409(api):
    scenario = create_scenario(api, long_running("to cancel"))
    run = start_run(api, scenario["id"])[0]
    wait_until(lambda: api.get(f"/runs/{run['id']}").json()["status"] == "RUNNING", 60,
               what="run to start")
    response = api.post(f"/runs/{run['id']}/cancel")
    assert response.status_code == 200 and response.json()["status"] == "CANCELLED"
    assert api.post(f"/runs/{run['id']}/cancel").status_code == 409
    assert api.get(f"/runs/{run['id']}/summary").status_code == 409
    wait_until(lambda: api.get(f"/runs/{run['id']}").json()["status"] in FINAL, 10)
    assert api.get(f"/runs/{run['id']}").json()["status"] == "CANCELLED"


def test_flow_engine_run_names_its_engine_and_caveats(api):
    """POST /runs with engine "flow": the real worker runs `fabricsim run --engine flow` on one
    thread; the run, its result and its summary say which engine answered and what it left out; a
    packet run of the same scenario and seed is another run (a cached result serves only its own
    engine); an unknown engine is a 422 naming the field."""
    document = {"schema_version": 1, "name": "ring of four, both engines", "duration_us": 2000,
                "topology": {"kind": "leaf_spine", "leaves": 2, "spines": 1, "hosts_per_leaf": 2},
                "traffic": [{"kind": "collective", "op": "all_reduce", "message_bytes": 400000,
                             "job": "ar"}]}
    scenario = create_scenario(api, document)
    created = api.post("/runs", json={"scenario_id": scenario["id"], "engine": "flow", "threads": 4})
    assert created.status_code == 201, created.text
    flow = created.json()["data"][0]
    assert flow["engine"] == "flow" and flow["threads"] == 1
    assert wait_final(api, flow["id"])["status"] == "SUCCEEDED"
    summary = api.get(f"/runs/{flow['id']}/summary").json()
    assert summary["run_info"]["engine"] == "flow"
    assert {"queues", "pfc", "congestion_control"} <= {c["feature"] for c in summary["caveats"]}
    assert api.get(f"/runs/{flow['id']}/result").json()["perf"]["engine"] == "flow"
    assert api.get(f"/runs/{flow['id']}").json()["summary"]["jct_us"] > 0
    packet = start_run(api, scenario["id"])[0]
    assert packet["id"] != flow["id"] and packet["engine"] == "packet"
    assert wait_final(api, packet["id"])["status"] == "SUCCEEDED"
    assert api.get(f"/runs/{packet['id']}/summary").json()["caveats"] == []
    again = api.post("/runs", json={"scenario_id": scenario["id"], "engine": "flow"}).json()["data"][0]
    assert again["id"] == flow["id"] and again["cached"]
    bad = api.post("/runs", json={"scenario_id": scenario["id"], "engine": "fluid"})
    assert error_locs(bad) == [["body", "engine"]]
