"""POST /topologies/expand through `fabricsim expand`."""

from tests.helpers import error_locs


def test_expand_leaf_spine(api):
    response = api.post("/topologies/expand", json={"topology": {
        "kind": "leaf_spine", "leaves": 2, "spines": 2, "hosts_per_leaf": 2}})
    assert response.status_code == 200, response.text
    body = response.json()
    assert body["stats"]["hosts"] == 4 and body["stats"]["switches"] == 4
    assert len(body["links"]) == 8
    assert {n["id"] for n in body["nodes"]} >= {"h0", "h3", "leaf1", "spine1"}


def test_expand_422(api):
    locs = error_locs(api.post("/topologies/expand", json={"topology": {"kind": "fat_tree", "k": 3}}))
    assert locs == [["body", "topology", "k"]]
    locs = error_locs(api.post("/topologies/expand", json={"topology": {"kind": "ring"}}))
    assert locs[0][:2] == ["body", "topology"]


def test_expand_unknown_route_is_404(api):
    assert api.post("/topologies/nope", json={}).status_code in (404, 405)
