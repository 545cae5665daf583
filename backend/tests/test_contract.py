"""Contract: docs/examples are accepted/refused alike by the API and by `fabricsim validate`,
and the API's 422 names the same JSON path as docs/examples/invalid/expected.json."""

import json
import subprocess

import pytest

from app.core.config import get_settings
from app.core.validation import parse_dotted
from tests.support import ROOT

EXAMPLES = ROOT / "docs" / "examples"
VALID = sorted((EXAMPLES / "valid").glob("*.json"))
EXPECTED = json.loads((EXAMPLES / "invalid" / "expected.json").read_text())


def fabricsim(path):
    """`fabricsim validate PATH` -> (exit code, stderr)."""
    proc = subprocess.run([str(get_settings().FABRICSIM_BIN), "validate", str(path)],
                          capture_output=True, text=True, timeout=30, check=False)
    return proc.returncode, proc.stderr.strip()


def post_raw(api, raw: bytes):
    """POST /scenarios/validate with the file's bytes as the scenario (even when not JSON)."""
    return api.post("/scenarios/validate", content=b'{"scenario": ' + raw + b"}",
                    headers={"content-type": "application/json"})


def test_examples_exist():
    assert len(VALID) >= 5 and len(EXPECTED) >= 10


@pytest.mark.parametrize("path", VALID, ids=lambda p: p.name)
def test_valid_example_accepted_by_both(api, path):
    assert fabricsim(path) == (0, "")
    response = post_raw(api, path.read_bytes())
    assert response.status_code == 200, response.text


@pytest.mark.parametrize("name", sorted(EXPECTED), ids=str)
def test_invalid_example_refused_by_both_at_same_path(api, name):
    path = EXAMPLES / "invalid" / name
    code, stderr = fabricsim(path)
    assert code == 2 and stderr
    expected = EXPECTED[name]
    if expected != "(root)":
        assert stderr.startswith(f"{expected}:"), stderr
    response = post_raw(api, path.read_bytes())
    assert response.status_code == 422, response.text
    locs = [item["loc"] for item in response.json()["detail"]]
    if expected == "(root)":
        assert all(loc[:1] == ["body"] and all(not isinstance(p, str) or p in ("body", "scenario")
                                               for p in loc) for loc in locs), locs
    else:
        assert ["body", "scenario", *parse_dotted(expected)] in locs, locs


COERCIONS = [  # (path, value of the wrong JSON type): neither side converts types
    ("seed", "5"),
    ("duration_us", "1000"),
    ("switch.pfc.enabled", 1),
    ("nic.qp_depth", 16.5),
    ("switch.ecn.kmin_bytes", "5000"),
    ("telemetry.flow_paths", "yes"),
]


def scenario_with(tmp_path, dotted, value):
    """The leaf-spine incast example with `value` set at a dotted path, written to a file."""
    document = json.loads((EXAMPLES / "valid" / "leaf-spine-incast.json").read_text())
    *parents, leaf = dotted.split(".")
    node = document
    for key in parents:
        node = node.setdefault(key, {})
    node[leaf] = value
    path = tmp_path / "scenario.json"
    path.write_text(json.dumps(document))
    return path


@pytest.mark.parametrize(("dotted", "value"), COERCIONS, ids=lambda v: str(v))
def test_wrong_json_type_refused_by_both(api, tmp_path, dotted, value):
    path = scenario_with(tmp_path, dotted, value)
    code, stderr = fabricsim(path)
    assert code == 2 and stderr.startswith(f"{dotted}:"), stderr
    response = post_raw(api, path.read_bytes())
    assert response.status_code == 422, response.text
    locs = [item["loc"] for item in response.json()["detail"]]
    assert ["body", "scenario", *parse_dotted(dotted)] in locs, locs
