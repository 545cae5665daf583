"""topology.kind "multi_plane" through the API: expand (ids, links per plane, stats), the 422s
naming the field and its range, a scenario whose faults and traffic name plane links and hosts,
and the configuration check's multi_plane_qp_pinned warning."""

from app.scenarios import limits
from tests.helpers import error_locs

PLANES = {"kind": "multi_plane", "planes": 2, "units": 1, "servers_per_unit": 2,
          "nics_per_server": 2, "spines": 1, "host_rate_gbps": 200, "fabric_rate_gbps": 100}


def test_expand_multi_plane(api):
    # By hand: 2 servers x 2 NICs = 4 hosts; per plane 1 unit x 2 rails = 2 leaves and 1 spine;
    # links per plane 4 host links + 2 leaf-spine = 6, 12 in all. Per leaf 2 servers x 200G down
    # over 1 spine x 100G up = 4:1; the NIC is 2 x 200 = 400 Gbit/s.
    response = api.post("/topologies/expand", json={"topology": PLANES})
    assert response.status_code == 200, response.text
    body = response.json()
    assert [n["id"] for n in body["nodes"]] == [
        "h0", "h1", "h2", "h3", "p0-leaf0_0", "p0-leaf0_1", "p1-leaf0_0", "p1-leaf0_1",
        "p0-spine0", "p1-spine0"]
    assert len(body["links"]) == 12
    stats = body["stats"]
    assert (stats["hosts"], stats["switches"], stats["links"]) == (4, 6, 12)
    assert stats["oversubscription"] == 4
    assert (stats["planes"], stats["nic_rate_gbps"]) == (2, 400)
    assert (stats["servers"], stats["rails"]) == (2, 2)
    hosts = {n["id"]: n for n in body["nodes"] if n["kind"] == "host"}
    assert (hosts["h3"]["server"], hosts["h3"]["rail"]) == ("srv1", 1)
    # Each host has one link per plane, to its rail's leaf in that plane, plane 0 first.
    ports = {}
    for link in body["links"]:
        if link["a"] in hosts:
            ports.setdefault(link["a"], []).append(link["b"])
    assert ports == {"h0": ["p0-leaf0_0", "p1-leaf0_0"], "h1": ["p0-leaf0_1", "p1-leaf0_1"],
                     "h2": ["p0-leaf0_0", "p1-leaf0_0"], "h3": ["p0-leaf0_1", "p1-leaf0_1"]}
    # Planes share nothing: plane 1's leaves link only to plane 1's spine.
    spine_of = {link["a"]: link["b"] for link in body["links"] if link["a"].startswith("p1-leaf")}
    assert spine_of == {"p1-leaf0_0": "p1-spine0", "p1-leaf0_1": "p1-spine0"}


def test_expand_multi_plane_422_names_the_field(api):
    for bad, field in (({"planes": 0}, "planes"), ({"planes": 9}, "planes"),
                       ({"spines": 0}, "spines"), ({"host_rate_gbps": 2000}, "host_rate_gbps"),
                       ({"rails": 2}, "rails")):
        response = api.post("/topologies/expand", json={"topology": {**PLANES, **bad}})
        assert response.status_code == 422, (bad, response.text)
        assert error_locs(response) == [["body", "topology", field]], bad
    detail = api.post("/topologies/expand",
                      json={"topology": {**PLANES, "planes": 9}}).json()["detail"][0]["msg"]
    assert "8" in detail, detail


def test_expand_multi_plane_node_limit(api):
    # 8 planes x (64 units x 16 rails = 1,024 leaves + 256 spines) + 64 x 256 x 16 hosts is far
    # beyond the node limit: refused before anything is built.
    big = {"kind": "multi_plane", "planes": 8, "units": 64, "servers_per_unit": 256,
           "nics_per_server": 16, "spines": 256}
    response = api.post("/topologies/expand", json={"topology": big})
    assert response.status_code == 422, response.text
    assert str(limits.MAX_NODES) in response.text, response.text


def test_scenario_names_plane_links_and_hosts(api):
    scenario = {"schema_version": 1, "duration_us": 100, "topology": PLANES,
                "nic": {"transport": "sprayed"},
                "traffic": [{"kind": "pairs", "pairs": [["h0", "h3"]], "size_bytes": 100000}],
                "faults": [{"kind": "link_down", "link": "h0->p1-leaf0_0", "start_us": 10}]}
    response = api.post("/scenarios/validate", json={"scenario": scenario})
    assert response.status_code == 200, response.text
    scenario["faults"][0]["link"] = "h0->p1-leaf0_1"  # h0's plane-1 port is on rail 0's leaf
    response = api.post("/scenarios/validate", json={"scenario": scenario})
    assert response.status_code == 422, response.text
    assert error_locs(response)[0][-2:] == [0, "link"]


def test_config_check_warns_of_pinned_qps(api):
    scenario = {"schema_version": 1, "duration_us": 100, "topology": PLANES,
                "traffic": [{"kind": "pairs", "pairs": [["h0", "h3"]]}]}
    body = api.post("/scenarios/check", json={"scenario": scenario}).json()
    found = [f for f in body["findings"] if f["rule"] == "multi_plane_qp_pinned"]
    assert len(found) == 1, body
    assert found[0]["where"] == ["h0->h3"]
    assert found[0]["numbers"] == {"nic_gbps": 400, "plane_gbps": 200, "planes": 2, "qps": 1}
    scenario["nic"] = {"transport": "sprayed"}
    body = api.post("/scenarios/check", json={"scenario": scenario}).json()
    assert not [f for f in body["findings"] if f["rule"] == "multi_plane_qp_pinned"]
