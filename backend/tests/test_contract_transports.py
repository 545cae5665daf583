"""Contract for the transport and load-balancing fields (issue 10): the API (Pydantic) and
`fabricsim validate` accept the same bounds and refuse one step beyond them at the same path."""

import json
import subprocess

import pytest

from app.core.config import get_settings
from app.core.validation import parse_dotted
from app.scenarios.devices import Erd
from tests.test_contract import fabricsim, post_raw, scenario_with

# (dotted path, lowest accepted, highest accepted, a value just outside on each side)
BOUNDS = [
    ("nic.processes_per_host", 1, 1024, (0, 1025)),
    ("nic.qp_cache_entries", 0, 1_048_576, (-1, 1_048_577)),
    ("nic.qp_cache_miss_ns", 0, 100_000, (-0.5, 100_000.5)),
    ("nic.sprayed.reorder_window_packets", 1, 65_536, (0, 65_537)),
    ("nic.sprayed.sack_interval_packets", 1, 64, (0, 65)),
    ("nic.erd.paths", 1, 16, (0, 17)),
    ("nic.erd.nack_interval_us", 0.1, 1_000_000, (0.05, 1_000_000.5)),
]
ENUMS = [
    ("nic.transport", ["rc", "xrc", "sprayed", "erd"], ["rd", "ud", 1]),
    ("nic.erd.nack_interval_us", ["auto"], ["rtt", "", None]),
    ("switch.load_balancing", ["ecmp", "per_packet", "adaptive"], ["random", "ECMP", None]),
    ("switch_overrides.leaf0.load_balancing", ["per_packet"], ["spray"]),
    ("nic_overrides.h1.transport", ["sprayed", "erd"], ["ERD"]),
    ("nic_overrides.h1.erd.paths", [2], [0]),
]


def assert_both(api, path, dotted, accepted):
    code, stderr = fabricsim(path)
    response = post_raw(api, path.read_bytes())
    if accepted:
        assert (code, stderr) == (0, ""), stderr
        assert response.status_code == 200, response.text
        return
    assert code == 2 and stderr.startswith(f"{dotted}:") and "\n" not in stderr, stderr
    assert response.status_code == 422, response.text
    locs = [item["loc"] for item in response.json()["detail"]]
    assert ["body", "scenario", *parse_dotted(dotted)] in locs, locs


@pytest.mark.parametrize(("dotted", "low", "high", "outside"), BOUNDS, ids=lambda v: str(v))
def test_bounds_agree(api, tmp_path, dotted, low, high, outside):
    for value in (low, high):
        assert_both(api, scenario_with(tmp_path, dotted, value), dotted, accepted=True)
    for value in outside:
        assert_both(api, scenario_with(tmp_path, dotted, value), dotted, accepted=False)


@pytest.mark.parametrize(("dotted", "good", "bad"), ENUMS, ids=lambda v: str(v))
def test_enums_agree(api, tmp_path, dotted, good, bad):
    for value in good:
        assert_both(api, scenario_with(tmp_path, dotted, value), dotted, accepted=True)
    for value in bad:
        assert_both(api, scenario_with(tmp_path, dotted, value), dotted, accepted=False)


def test_erd_defaults_agree():
    """`fabricsim schema` fills nic.erd with the defaults the Pydantic model declares."""
    proc = subprocess.run([str(get_settings().FABRICSIM_BIN), "schema"], capture_output=True,
                          text=True, timeout=30, check=True)
    assert json.loads(proc.stdout)["nic"]["erd"] == Erd().model_dump() == {
        "paths": 4, "nack_interval_us": "auto"}
