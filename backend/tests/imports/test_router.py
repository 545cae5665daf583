"""POST /imports/hpcc on the live API, and the imported scenario through `fabricsim validate`."""

import subprocess

from app.core.config import get_settings
from tests.support import ROOT

DATA = ROOT / "validation" / "data" / "hpcc"
TOPOLOGY = (DATA / "topology-fat.txt").read_text()


def first_flows(n: int) -> str:
    """The first n flows of the benchmark's flow file (the test API's body limit is 200 KB)."""
    lines = (DATA / "flows-websearch30.txt").read_text().splitlines()[1:n + 1]
    return f"{n}\n" + "\n".join(lines) + "\n"


def test_import_returns_a_scenario_the_simulator_accepts(api, tmp_path):
    response = api.post("/imports/hpcc", json={"topology": TOPOLOGY, "flows": first_flows(300),
                                               "name": "hpcc benchmark head"})
    assert response.status_code == 200, response.text
    body = response.json()
    doc = body["scenario"]
    assert doc["name"] == "hpcc benchmark head" and len(doc["traffic"][0]["flows"]) == 300
    assert len(doc["topology"]["nodes"]) == 376
    path = tmp_path / "imported.json"
    import json
    path.write_text(json.dumps(doc))
    proc = subprocess.run([str(get_settings().FABRICSIM_BIN), "validate", str(path)],
                          capture_output=True, text=True, timeout=60, check=False)
    assert (proc.returncode, proc.stderr) == (0, "")
    saved = api.post("/scenarios", json={"scenario": doc})
    assert saved.status_code == 201, saved.text


def test_bad_line_is_422_with_the_line(api):
    flows = first_flows(3).splitlines()
    flows[2] = "1 2 3 100 12x 2.0"
    response = api.post("/imports/hpcc", json={"topology": TOPOLOGY, "flows": "\n".join(flows)})
    assert response.status_code == 422, response.text
    (detail,) = response.json()["detail"]
    assert detail["loc"] == ["body", "flows"]
    assert detail["msg"] == "line 3: size_bytes must be an integer, got '12x'"
    response = api.post("/imports/hpcc", json={"topology": "1 2", "flows": first_flows(3)})
    assert response.status_code == 422
    assert response.json()["detail"][0]["loc"] == ["body", "topology"]


def test_csv_naming_unknown_host_is_422_in_the_scenario(api):
    base = {"schema_version": 1, "topology": {"kind": "leaf_spine"}}
    response = api.post("/imports/hpcc", json={"base_scenario": base, "flows_csv": "h0,h9,100,0\n"})
    assert response.status_code == 422, response.text
    assert response.json()["detail"][0]["loc"] == ["body", "scenario", "traffic", 0, "flows", 0, "dst"]
    both = api.post("/imports/hpcc", json={"topology": TOPOLOGY, "flows": first_flows(2),
                                           "flows_csv": "h0,h1,1,0\n"})
    assert both.status_code == 422 and "exactly one" in both.json()["detail"][0]["msg"]
