"""A flow-level run's summary carries the error measured for its kind of scenario
(backend/app/runs/flow-errors.json, from docs/validation-flow.md); a packet-level run's none."""

import json

from app.runs.flow_errors import ERRORS
from tests.helpers import create_scenario, wait_final
from validation.flow_vs_packet import flat_ring


def test_a_flow_runs_summary_carries_the_measured_error(api):
    ring = flat_ring()
    ring["traffic"][0]["message_bytes"] = 1048576
    scenario = create_scenario(api, ring)
    measured = json.loads(ERRORS.read_text())["kinds"]["collective_nonblocking"]
    for engine in ("flow", "packet"):
        response = api.post("/runs", json={"scenario_id": scenario["id"], "engine": engine})
        assert response.status_code == 201, response.text
        run = wait_final(api, response.json()["data"][0]["id"])
        assert run["status"] == "SUCCEEDED" and run["engine"] == engine
        error = api.get(f"/runs/{run['id']}/summary").json()["flow_error"]
        if engine == "packet":
            assert error is None
            continue
        assert error["kind"] == "collective_nonblocking" and error["applies"], error
        assert error["figures"]["jct_us"] == {
            "max_abs_error": measured["figures"]["jct_us"]["max_abs_error"],
            "target": 0.05,
            "cases": len(measured["figures"]["jct_us"]["cases"]),
        }


def test_the_error_is_found_when_the_monitor_names_the_traffics_flows(api):
    """The fabric's oversubscription is read from the fabric alone: a monitor that names flows
    of the traffic (flow ids, valid only with it) does not hide the error."""
    ring = flat_ring()
    ring["traffic"][0]["message_bytes"] = 1048576
    ring["monitor"] = {"flows": [0, 1]}
    scenario = create_scenario(api, ring)
    response = api.post("/runs", json={"scenario_id": scenario["id"], "engine": "flow"})
    assert response.status_code == 201, response.text
    run = wait_final(api, response.json()["data"][0]["id"])
    assert run["status"] == "SUCCEEDED", run
    error = api.get(f"/runs/{run['id']}/summary").json()["flow_error"]
    assert error is not None and error["kind"] == "collective_nonblocking", error
