"""backend/app/scenarios/cc_presets.py against the simulator's presets: for each preset, a DCQCN
incast run with the preset and one with every field written out from the table (and another
preset named) give byte-identical results; the notification point follows the preset likewise."""

import json
import subprocess
from pathlib import Path

import pytest
from typing import get_args

from app.core.config import get_settings
from app.fabricsettings.effective import CC_FIELDS
from app.scenarios.cc_presets import CC_PRESETS, CNP_PRESETS
from app.scenarios.devices import CcPreset

INCAST = {"schema_version": 1, "duration_us": 1000, "seed": 1,
          "topology": {"kind": "leaf_spine", "leaves": 2, "spines": 1, "hosts_per_leaf": 2,
                       "host_rate_gbps": 25, "fabric_rate_gbps": 100, "link_delay_us": 1},
          "switch": {"ecn": {"kmin_bytes": 5000, "kmax_bytes": 5500, "pmax": 0.01}},
          "traffic": [{"kind": "incast", "senders": ["h2", "h3"], "receiver": "h0"}]}


def test_the_table_names_every_preset_and_field():
    assert set(CC_PRESETS) == set(get_args(CcPreset)) == set(CNP_PRESETS)
    for values in CC_PRESETS.values():
        assert set(values) == set(CC_FIELDS)


def _run(tmp_path: Path, document: dict, tag: str) -> dict:
    scenario, out = tmp_path / f"{tag}.json", tmp_path / f"{tag}.result.json"
    scenario.write_text(json.dumps(document))
    subprocess.run([str(get_settings().FABRICSIM_BIN), "run", str(scenario), "--out", str(out)],
                   check=True, timeout=120, capture_output=True)
    result = json.loads(out.read_text())
    result.pop("run_info")   # names the scenario file's hash
    result.pop("perf", None)  # wall times
    return result


@pytest.mark.parametrize("preset", sorted(CC_PRESETS))
def test_each_preset_is_the_table(tmp_path, preset):
    other = "dcqcn-paper" if preset != "dcqcn-paper" else "nvidia-default"
    named = {**INCAST, "nic": {"cc": {"algorithm": "dcqcn", "preset": preset}}}
    written = {**INCAST, "nic": {"cc": {"algorithm": "dcqcn", "preset": other,
                                        **CC_PRESETS[preset]}, **CNP_PRESETS[preset]}}
    a, b = _run(tmp_path, named, "named"), _run(tmp_path, written, "written")
    assert a["summary"]["cnps_sent"] > 0   # DCQCN acted: the parameters mattered
    assert a == b
