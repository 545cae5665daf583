"""Objectives and constraints that name a collective job (jct_us, busbw_gbps of job "B" rather
than the first job), through the API with real workers and the real simulator; 422s that name
the field and list the scenario's jobs."""

from tests.helpers import create_scenario, error_locs, sse_events
from tests.scenarios_data import incast

# 2 units x 2 servers x 2 NICs; job A all-reduces 256 KiB on unit 0's hosts, job B 1 MiB on unit 1's
TWO_JOBS = {
    "schema_version": 1, "name": "two small jobs", "duration_us": 2000, "nic": {"mtu_bytes": 4096},
    "topology": {"kind": "rail_optimized", "units": 2, "servers_per_unit": 2, "nics_per_server": 2,
                 "spines": 2, "host_rate_gbps": 100, "fabric_rate_gbps": 100, "link_delay_us": 1},
    "traffic": [
        {"kind": "collective", "op": "all_reduce", "algorithm": "ring", "message_bytes": 262144,
         "hosts": ["h0", "h1", "h2", "h3"], "job": "A"},
        {"kind": "collective", "op": "all_reduce", "algorithm": "ring", "message_bytes": 1048576,
         "hosts": ["h4", "h5", "h6", "h7"], "job": "B"}],
}
SPACE = {"parameters": [{"name": "kmin", "path": "switch.ecn.kmin_bytes", "values": [20000, 40000]}],
         "linked": [{"name": "kmax", "path": "switch.ecn.kmax_bytes", "from": "kmin", "offset": 200000}]}


def test_an_objective_on_the_second_job_reads_that_job(api):
    base = create_scenario(api, TWO_JOBS)
    body = {"scenario_ids": [base["id"]], "space": SPACE,
            "objectives": [{"kind": "metric", "metric": "jct_us", "job": "B"}],
            "constraints": [{"metric": "busbw_gbps", "op": ">", "value": 0, "job": "B"}],
            "strategies": [{"name": "grid"}]}
    response = api.post("/tunings", json=body)
    assert response.status_code == 201, response.text
    tuning_id = response.json()["id"]
    events = sse_events(api, f"/tunings/{tuning_id}/events", timeout=600)
    assert events[-1][0] == "done" and events[-1][1]["status"] == "SUCCEEDED", events[-1]
    results = api.get(f"/tunings/{tuning_id}/results").json()
    assert results["objectives"] == ["jct_us of B"] and results["goals"] == ["min"]
    assert results["objective_specs"][0]["job"] == "B"
    done = [e for e in results["evaluations"] if e["status"] == "DONE"]
    assert len(done) == 2
    for e in done:
        assert e["feasible"] is True
        jobs = {j["name"]: j for j in api.get(f"/runs/{e['run_ids'][0]}/jobs").json()}
        # the named job's, not the first job's: B moves 4 x A's bytes, so its JCT is longer
        assert e["objectives"][0]["mean"] == jobs["B"]["jct_us"]
        assert e["metrics"]["jct_us of B"] == jobs["B"]["jct_us"]
        assert e["metrics"]["jct_us"] == jobs["A"]["jct_us"] < jobs["B"]["jct_us"]


def test_naming_a_job_422s_name_the_field_and_the_jobs(api):
    base = create_scenario(api, TWO_JOBS)
    plain = create_scenario(api, incast())
    ok = {"scenario_ids": [base["id"]], "space": SPACE,
          "objectives": [{"kind": "metric", "metric": "jct_us", "job": "B"}],
          "strategies": [{"name": "vendor"}]}

    def post(**changes):
        return api.post("/tunings", json={**ok, **changes})

    unknown = post(objectives=[{"kind": "metric", "metric": "busbw_gbps", "job": "C"}])
    assert error_locs(unknown) == [["body", "objectives", 0, "job"]]
    message = unknown.json()["detail"][0]["msg"]
    assert '"C"' in message and '"A", "B"' in message
    # a job metric only: throughput has no job
    assert error_locs(post(objectives=[{"kind": "metric", "metric": "throughput_gbps", "job": "A"}])) == [
        ["body", "objectives", 0, "job"]]
    assert error_locs(post(constraints=[{"metric": "drops_total", "op": "<=", "value": 0, "job": "A"}])) == [
        ["body", "constraints", 0, "job"]]
    assert error_locs(post(constraints=[{"metric": "jct_us", "op": "<=", "value": 1e6, "job": "Z"}])) == [
        ["body", "constraints", 0, "job"]]
    # every scenario must have the job: the incast has no collective at all
    both = post(scenario_ids=[base["id"], plain["id"]])
    assert error_locs(both) == [["body", "objectives", 0, "job"]]
    assert "no collective or training generator" in both.json()["detail"][0]["msg"]
    assert error_locs(post(objectives=[{"kind": "metric", "metric": "jct_us", "job": ""}])) == [
        ["body", "objectives", 0, "job"]]
    assert post().status_code == 201
