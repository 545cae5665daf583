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


def test_expand_rail_optimized(api):
    # 2 units x 2 servers x 2 NICs, 2 spines; by hand: 8 hosts, 4 rail leaves, 16 links, and per
    # leaf 2 servers x 400G down over 2 spines x 200G up = 2:1.
    response = api.post("/topologies/expand", json={"topology": {
        "kind": "rail_optimized", "units": 2, "servers_per_unit": 2, "nics_per_server": 2,
        "spines": 2, "host_rate_gbps": 400, "fabric_rate_gbps": 200}})
    assert response.status_code == 200, response.text
    body = response.json()
    assert [n["id"] for n in body["nodes"]] == [
        "h0", "h1", "h2", "h3", "h4", "h5", "h6", "h7",
        "leaf0_0", "leaf0_1", "leaf1_0", "leaf1_1", "spine0", "spine1"]
    assert len(body["links"]) == 16
    assert body["stats"]["oversubscription"] == 2
    assert body["stats"]["servers"] == 4 and body["stats"]["rails"] == 2
    hosts = {n["id"]: n for n in body["nodes"] if n["kind"] == "host"}
    assert (hosts["h5"]["server"], hosts["h5"]["rail"]) == ("srv2", 1)
    leaf_of = {link["a"]: link["b"] for link in body["links"] if link["a"] in hosts}
    assert leaf_of == {"h0": "leaf0_0", "h1": "leaf0_1", "h2": "leaf0_0", "h3": "leaf0_1",
                       "h4": "leaf1_0", "h5": "leaf1_1", "h6": "leaf1_0", "h7": "leaf1_1"}
    switch = next(n for n in body["nodes"] if n["id"] == "leaf0_0")
    assert switch["server"] is None and switch["rail"] is None


def test_expand_rail_optimized_422_names_the_field(api):
    bad = {"kind": "rail_optimized", "servers_per_unit": 0}
    assert error_locs(api.post("/topologies/expand", json={"topology": bad})) == [
        ["body", "topology", "servers_per_unit"]]
    bad = {"kind": "rail_optimized", "servers_per_unit": 257}
    assert error_locs(api.post("/topologies/expand", json={"topology": bad})) == [
        ["body", "topology", "servers_per_unit"]]
    bad = {"kind": "rail_optimized", "gpus_per_server": 8}
    assert error_locs(api.post("/topologies/expand", json={"topology": bad})) == [
        ["body", "topology", "gpus_per_server"]]


def test_explicit_hosts_carry_their_server(api):
    response = api.post("/topologies/expand", json={"topology": {
        "kind": "explicit",
        "nodes": [{"id": "sw", "kind": "switch"}, {"id": "g0", "kind": "host", "server": "box"},
                  {"id": "g1", "kind": "host", "server": "box"}],
        "links": [{"a": "g0", "b": "sw", "rate_gbps": 400, "delay_us": 1},
                  {"a": "g1", "b": "sw", "rate_gbps": 400, "delay_us": 1}]}})
    assert response.status_code == 200, response.text
    assert [(n.get("server"), n.get("rail")) for n in response.json()["nodes"]] == [
        (None, None), ("box", 0), ("box", 1)]
    locs = error_locs(api.post("/topologies/expand", json={"topology": {
        "kind": "explicit", "nodes": [{"id": "sw", "kind": "switch", "server": "box"}]}}))
    assert locs == [["body", "topology", "nodes", 0, "server"]]
