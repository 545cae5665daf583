"""The API's list of what the flow engine does not model (app/scenarios/flow_model.py) holds the
simulator's own: every caveat `fabricsim run --engine flow` reports, on every preset and example
it runs, names a declared feature, and its field is a path the declaration covers."""

import json
import subprocess
from pathlib import Path

import pytest

from app.core.config import get_settings
from app.scenarios.flow_model import FLOW_UNMODELLED, unmodelled
from validation import flow_vs_packet as fvp

ROOT = Path(__file__).resolve().parents[3]
SCENARIOS = sorted((ROOT / "backend" / "app" / "presets" / "data").glob("*.json")) + sorted(
    (ROOT / "docs" / "examples" / "valid").glob("*.json")
)


def _caveats(document: dict, tmp_path: Path) -> list[dict] | None:
    """The flow engine's caveats, None when it refuses the scenario."""
    src, out = tmp_path / "s.json", tmp_path / "r.json"
    src.write_text(json.dumps(document))
    proc = subprocess.run(
        [
            str(get_settings().FABRICSIM_BIN),
            "run",
            str(src),
            "--out",
            str(out),
            "--engine",
            "flow",
            "--max-wall-s",
            "20",
        ],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    if proc.returncode == 2:
        return None
    assert proc.returncode == 0, proc.stderr
    return json.loads(out.read_text()).get("caveats", [])


def test_every_reported_caveat_is_declared(tmp_path):
    seen: set[str] = set()
    for path in SCENARIOS:
        caveats = _caveats(fvp.load(path), tmp_path)
        for caveat in caveats or []:
            feature, field = caveat["feature"], caveat["field"]
            seen.add(feature)
            assert feature in FLOW_UNMODELLED, f"{path.name}: caveat {feature} is not declared"
            if feature != "pingmesh":  # probes' RTTs; sweeping the traffic stays modelled
                assert unmodelled(field) is not None, f"{path.name}: {field} ({feature}) not covered"
    # the scenarios exercise most of the list (a feature no scenario reports cannot be checked)
    assert {"queues", "pfc", "congestion_control", "loss", "fault"} <= seen, seen


@pytest.mark.parametrize(
    "path, feature",
    [
        ("switch.ecn.kmin_bytes", "ecn"),
        ("switch_overrides.spine0.pfc.alpha", "pfc"),
        ("nic_overrides.h0.cc.algorithm", "congestion_control"),
        ("faults.0.at_us", "fault"),
        ("topology.accelerator.enabled", "dci_accelerator"),
        ("switch.buffer_bytes", "queues"),
    ],
)
def test_unmodelled_paths(path, feature):
    assert unmodelled(path)[0] == feature


@pytest.mark.parametrize(
    "path",
    [
        "topology.spines",
        "topology.leaves",
        "traffic.0.message_bytes",
        "traffic.0.channels",
        "switch.load_balancing",
        "nic.mtu_bytes",
        "switch.ecnx",
        "seed",
    ],
)
def test_modelled_paths(path):
    assert unmodelled(path) is None
