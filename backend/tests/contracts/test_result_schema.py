"""docs/result.schema.json is the result contract: every example's and bench scenario's result
from `fabricsim run` validates against it, and a result that breaks it does not."""

import json
import subprocess

import jsonschema_rs
import pytest

from app.core.config import get_settings
from tests.support import ROOT

SCHEMA = json.loads((ROOT / "docs" / "result.schema.json").read_text())
SCENARIOS = sorted((ROOT / "docs" / "examples" / "valid").glob("*.json")) + sorted(
    (ROOT / "bench" / "scenarios").glob("*.json"))


def run(scenario, out, engine="packet"):
    """`fabricsim run SCENARIO --out OUT --engine ENGINE` -> the result document."""
    proc = subprocess.run([str(get_settings().FABRICSIM_BIN), "run", str(scenario), "--out", str(out),
                           "--engine", engine],
                          capture_output=True, text=True, timeout=600, check=False)
    assert proc.returncode == 0, proc.stderr
    return json.loads(out.read_text())


def errors(document):
    return [f"{'/'.join(map(str, e.instance_path))}: {e.message}"
            for e in jsonschema_rs.validator_for(SCHEMA).iter_errors(document)]


def test_there_are_examples_of_every_optional_block():
    assert len(SCENARIOS) >= 20


@pytest.mark.parametrize("scenario", SCENARIOS, ids=lambda p: f"{p.parent.name}/{p.name}")
def test_result_matches_the_schema(scenario, tmp_path):
    assert errors(run(scenario, tmp_path / "result.json")) == []


# Examples the flow-level engine refuses (exit 2, one line naming the field): a PFC storm.
FLOW_REFUSED = {"faults-pfc-storm-watchdogs.json": "faults[0].kind: "}


@pytest.mark.parametrize("scenario", SCENARIOS, ids=lambda p: f"{p.parent.name}/{p.name}")
def test_flow_engine_result_matches_the_schema(scenario, tmp_path):
    """The flow-level engine writes the same format, with its caveats."""
    if scenario.name in FLOW_REFUSED:
        proc = subprocess.run([str(get_settings().FABRICSIM_BIN), "run", str(scenario), "--out",
                               str(tmp_path / "r.json"), "--engine", "flow"],
                              capture_output=True, text=True, timeout=600, check=False)
        assert proc.returncode == 2 and proc.stderr.count("\n") == 1, proc.stderr
        assert proc.stderr.startswith(FLOW_REFUSED[scenario.name]), proc.stderr
        return
    result = run(scenario, tmp_path / "result.json", engine="flow")
    assert errors(result) == []
    assert result["perf"]["engine"] == "flow" and result["run_info"]["engine"] == "flow"
    assert any(c["feature"] == "queues" for c in result["caveats"])


def test_a_broken_result_is_refused(tmp_path):
    result = run(ROOT / "docs" / "examples" / "valid" / "leaf-spine-incast.json", tmp_path / "r.json")
    assert errors(result) == []
    for breakage in (lambda r: r.pop("summary"), lambda r: r["flows"][0].update(src=3),
                     lambda r: r["summary"].update(surprise=1), lambda r: r.update(status="done")):
        broken = json.loads(json.dumps(result))
        breakage(broken)
        assert errors(broken), breakage
