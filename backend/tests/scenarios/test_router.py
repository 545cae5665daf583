"""Scenarios: create, get, list, fork, delete, validate — happy path, 404, 422."""

from tests.helpers import create_scenario, error_locs, start_run, wait_final
from tests.support import wait_until
from tests.scenarios_data import incast, two_hosts


def test_create_returns_snapshot_with_token_and_hash(api):
    created = create_scenario(api, incast(name="create-me"))
    assert len(created["id"]) >= 11 and created["share_url"] == f"/s/{created['id']}"
    assert len(created["content_hash"]) == 64 and created["owner_token"]
    fetched = api.get(f"/scenarios/{created['id']}").json()
    assert "owner_token" not in fetched
    assert fetched["scenario"]["topology"]["hosts_per_leaf"] == 3
    again = create_scenario(api, incast(name="create-me"))
    assert again["id"] != created["id"] and again["content_hash"] == created["content_hash"]


def test_create_422_names_path_and_range(api):
    document = incast()
    document["switch"]["ecn"]["pmax"] = 1.5
    response = api.post("/scenarios", json={"scenario": document})
    assert error_locs(response) == [["body", "scenario", "switch", "ecn", "pmax"]]
    assert "1" in response.json()["detail"][0]["msg"]


def test_create_with_unknown_parent_is_404(api):
    response = api.post("/scenarios", json={"scenario": incast(), "parent_id": "nope"})
    assert response.status_code == 404


def test_get_unknown_is_404(api):
    assert api.get("/scenarios/doesnotexist").status_code == 404


def test_list_paginates_and_searches(api):
    for i in range(3):
        create_scenario(api, incast(name=f"zebra-search {i}"))
    page = api.get("/scenarios", params={"q": "ZEBRA-search", "limit": 2}).json()
    assert page["count"] == 3 and len(page["data"]) == 2
    assert page["data"][0]["name"] == "zebra-search 2"  # newest first
    assert "scenario" not in page["data"][0]
    rest = api.get("/scenarios", params={"q": "zebra-search", "limit": 2, "offset": 2}).json()
    assert [s["name"] for s in rest["data"]] == ["zebra-search 0"]


def test_list_422_on_bad_limit(api):
    assert error_locs(api.get("/scenarios", params={"limit": 0})) == [["query", "limit"]]


def test_list_kind_filters_presets_and_sweep_points(api):
    base = create_scenario(api, incast(name="kind-filter base", duration_us=200))
    grid = {"parameters": [{"path": "switch.ecn.kmin_bytes", "values": [1000, 2000]}],
            "linked": [{"path": "switch.ecn.kmax_bytes", "from": "switch.ecn.kmin_bytes",
                        "scale": 1, "offset": 500}]}
    response = api.post("/sweeps", json={"scenario_id": base["id"], "seed": 1, **grid})
    assert response.status_code == 201, response.text
    sweep_id = response.json()["id"]
    points = wait_until(lambda: api.get(f"/sweeps/{sweep_id}").json()["points"] or None, 60,
                        interval=0.3, what="the sweep's point snapshots")
    point_ids = {p["scenario_id"] for p in points}
    assert len(point_ids) == 2

    def ids(**params):
        page = api.get("/scenarios", params={"q": "kind-filter", "limit": 200, **params})
        assert page.status_code == 200, page.text
        body = page.json()
        assert body["count"] == len(body["data"])
        return {s["id"] for s in body["data"]}

    assert ids() == {base["id"]} == ids(kind="user")
    assert ids(kind="sweep_point") == point_ids
    assert ids(kind="all") == point_ids | {base["id"]}
    pages = {kind: api.get("/scenarios", params={"kind": kind, "limit": 200}).json()
             for kind in ("user", "preset", "sweep_point", "tuning_point", "all")}
    assert all(s["preset_key"] for s in pages["preset"]["data"])
    assert not any(s["preset_key"] for s in pages["user"]["data"] + pages["sweep_point"]["data"])
    # The four kinds partition everything.
    assert pages["all"]["count"] == sum(pages[k]["count"]
                                        for k in ("user", "preset", "sweep_point", "tuning_point"))


def test_list_422_on_bad_kind(api):
    response = api.get("/scenarios", params={"kind": "sweep"})
    assert error_locs(response) == [["query", "kind"]]
    assert "user" in response.json()["detail"][0]["msg"]


def test_fork_keeps_parent(api):
    parent = create_scenario(api, incast(name="parent"))
    response = api.post(f"/scenarios/{parent['id']}/fork", json={"scenario": incast(name="child")})
    assert response.status_code == 201
    child = response.json()
    assert child["parent_id"] == parent["id"] and child["id"] != parent["id"]


def test_fork_404_and_422(api):
    assert api.post("/scenarios/nope/fork", json={"scenario": incast()}).status_code == 404
    parent = create_scenario(api, incast())
    bad = incast(duration_us=-1)
    locs = error_locs(api.post(f"/scenarios/{parent['id']}/fork", json={"scenario": bad}))
    assert locs == [["body", "scenario", "duration_us"]]


def test_delete_needs_owner_token(api, stack):
    created = create_scenario(api, incast())
    path = f"/scenarios/{created['id']}"
    with stack.client() as stranger:  # no token of its own
        assert stranger.delete(path).status_code == 403
        assert stranger.delete(path, headers={"X-Owner-Token": "wrong"}).status_code == 401
        assert stranger.delete(path, headers={"X-Owner-Token": "w" * 32}).status_code == 403
        assert stranger.delete(path, headers={"X-Owner-Token": created["owner_token"]}
                               ).status_code == 204
        assert stranger.get(path).status_code == 404
        assert stranger.delete(path, headers={"X-Owner-Token": created["owner_token"]}
                               ).status_code == 404


def test_delete_takes_the_scenarios_runs_with_it(api):
    """The database's cascade removes a deleted scenario's runs (the scenarios package no longer
    deletes them itself: it imports nothing of the runs)."""
    created = create_scenario(api, two_hosts())
    run = start_run(api, created["id"])[0]
    wait_final(api, run["id"])
    assert api.get(f"/runs/{run['id']}").status_code == 200
    assert api.delete(f"/scenarios/{created['id']}").status_code == 204
    assert api.get(f"/runs/{run['id']}").status_code == 404


def test_validate_ok_and_422(api):
    response = api.post("/scenarios/validate", json={"scenario": two_hosts()})
    assert response.status_code == 200 and response.json()["ok"] is True
    assert response.json()["simulator_checked"] is True
    bad = two_hosts()
    bad["topology"]["links"][1]["b"] = "s9"
    locs = error_locs(api.post("/scenarios/validate", json={"scenario": bad}))
    assert locs == [["body", "scenario", "topology", "links", 1, "b"]]


def test_validate_simulator_only_rule_becomes_422(api):
    document = incast()
    document["monitor"] = {"queues": ["leaf0->nowhere"]}
    locs = error_locs(api.post("/scenarios/validate", json={"scenario": document}))
    assert locs == [["body", "scenario", "monitor", "queues", 0]]


def test_validate_rejects_unknown_fields_and_garbage(api):
    assert error_locs(api.post("/scenarios/validate", json={"scenario": incast(duraton_us=5)})) == [
        ["body", "scenario", "duraton_us"]]
    response = api.post("/scenarios/validate", content=b"{not json",
                        headers={"content-type": "application/json"})
    assert response.status_code == 422
