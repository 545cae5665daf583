"""POST /scenarios/check: the configuration check through the API (the same `fabricsim check` the
CLI runs; rules and hand-worked numbers in simcore/test/scenario-config-check-test.cc)."""

import copy

BASE = {
    "schema_version": 1, "duration_us": 200,
    "topology": {"kind": "leaf_spine", "leaves": 2, "spines": 1, "hosts_per_leaf": 2},
    "traffic": [{"kind": "pairs", "pairs": [["h0", "h2"], ["h1", "h3"]]}],
}


def check(api, scenario):
    return api.post("/scenarios/check", json={"scenario": scenario})


def test_clean_scenario_has_no_findings(api):
    response = check(api, BASE)
    assert response.status_code == 200, response.text
    body = response.json()
    assert body["findings"] == [] and body["counts"] == {"error": 0, "warning": 0, "info": 0}


def test_short_headroom_and_low_rto_are_found_with_numbers_and_fix(api):
    scenario = copy.deepcopy(BASE)
    scenario["switch"] = {"pfc": {"headroom_bytes": 20000}}
    scenario["nic"] = {"rto_us": 5}
    body = check(api, scenario).json()
    rules = {f["rule"]: f for f in body["findings"]}
    headroom = rules["headroom_below_cable"]
    assert headroom["severity"] == "error"
    assert headroom["numbers"]["required_bytes"] == 39728  # 2x12500x1 + 2x1082 + 12500, cells
    assert "39,728" in headroom["fix"]  # numbers as the app prints them (issue 22 §4)
    assert rules["rto_below_rtt"]["numbers"]["rto_us"] == 5
    assert body["counts"]["error"] >= 2


def test_timed_set_reports_intended_and_effective(api):
    scenario = copy.deepcopy(BASE)
    scenario["faults"] = [{"kind": "set", "start_us": 100, "nodes": ["leaf0"], "param": "pfc.alpha",
                           "value": 0.015625}]
    body = check(api, scenario).json()
    assert body["effective"] == [{"node": "leaf0", "param": "pfc.alpha", "intended": 0.0625,
                                  "effective": 0.015625, "from_us": 100.0, "until_us": None}]


def test_invalid_scenario_is_422_at_the_field(api):
    scenario = copy.deepcopy(BASE)
    scenario["faults"] = [{"kind": "pfc_storm", "start_us": 0, "host": "leaf0"}]
    response = check(api, scenario)
    assert response.status_code == 422
    locs = [d["loc"] for d in response.json()["detail"]]
    assert ["body", "scenario", "faults", 0, "host"] in locs
