"""ConnectX sysfs dumps (backend/tests/data/fabric/nic-sysfs) -> nic.cc and nic.cnp_interval_us,
and the export script read back."""

from pathlib import Path

import pytest

from app.core.textfile import TextFileError
from app.fabricsettings import nic_sysfs
from app.fabricsettings.effective import nic_settings
from app.fabricsettings.service import import_settings
from app.scenarios.cc_presets import CC_PRESETS

DATA = Path(__file__).resolve().parents[1] / "data" / "fabric"
BASE = {"schema_version": 1, "topology": {"kind": "leaf_spine"},
        "nic": {"cc": {"algorithm": "dcqcn", "preset": "dcqcn-paper"}}}


def test_a_default_connectx_dump_is_the_nvidia_default_preset():
    text = (DATA / "nic-sysfs" / "cx6dx_eth2_defaults.txt").read_text()
    doc, report = import_settings(BASE, sonic_files=[], sysfs_text=text, nic_host=None,
                                  draw_topology=False)
    nic = nic_settings(doc)
    expected = {k: v for k, v in CC_PRESETS["nvidia-default"].items() if k != "alpha_timer"}
    assert {k: nic["cc"][k] for k in expected} == expected
    assert nic["cnp_interval_us"] == 4 and nic["cc"]["algorithm"] == "dcqcn"
    by_source = {e.source: e for e in report.entries if e.source}
    g = by_source["line 16: roce_rp/dce_tcp_g"]
    assert (g.status, g.value, g.parameter, g.converted, g.conversion) == (
        "mapped", "1019", "nic.cc.g", 5 / 1024, "g = (1024 - dce_tcp_g) / 1024")
    assert by_source["line 23: roce_rp/rpg_gd"].status == "ignored"
    assert by_source["line 3: roce_np/cnp_802p_prio"].note == \
        "CNPs travel at the control priority (7) in the model"
    kept = {e.parameter: e.note for e in report.entries if e.status == "kept"}
    assert kept["nic.cc.alpha_timer"].startswith("the NIC's alpha timer is periodic")


def test_name_value_lines_into_one_host():
    text = (DATA / "nic-sysfs" / "cx7_tuned.txt").read_text()
    doc, _ = import_settings(BASE, sonic_files=[], sysfs_text=text, nic_host="h1",
                             draw_topology=False)
    assert doc["nic"] == BASE["nic"]
    tuned = nic_settings(doc, "h1")["cc"]
    assert (tuned["rai_mbps"], tuned["rhai_mbps"], tuned["max_decrease"], tuned["g"],
            tuned["rate_decrease_interval_us"], tuned["byte_counter_bytes"]) == \
        (40, 400, 0.75, 1 / 256, 8, 65536)
    assert nic_settings(doc, "h1")["cnp_interval_us"] == 8
    assert nic_settings(doc, "h0")["cc"]["rai_mbps"] == 40   # the paper preset's, untouched


def test_enable_off_turns_dcqcn_off():
    patch, _ = nic_sysfs.to_patch(nic_sysfs.read("roce_rp/enable/3 0\n"), 3, "dcqcn", "nic")
    assert patch == {"cc": {"algorithm": "none"}}
    patch, report = nic_sysfs.to_patch(nic_sysfs.read("roce_rp/enable/5 1\n"), 3, "none", "nic")
    assert patch == {} and report.entries[0].status == "ignored"
    patch, _ = nic_sysfs.to_patch(nic_sysfs.read("roce_rp/enable/3 1\n"), 3, "none", "nic")
    assert patch == {"cc": {"algorithm": "dcqcn_sampled"}}


@pytest.mark.parametrize(("file", "line", "message"), [
    ("sysfs_not_integer.txt", 2, "roce_rp/rpg_hai_rate must be an integer, got 'fifty'"),
    ("sysfs_out_of_range.txt", 2, "roce_rp/rpg_min_rate 0 gives nic.cc.min_rate_mbps = 0.0: Input "
                                  "should be greater than or equal to 1"),
    ("sysfs_garbage.txt", 2, "expected 'name value', 'roce_rp/name value', the 'path:value' lines "
                             "of grep . /sys/class/net/<if>/ecn/roce_rp/*, or 'echo value > path'"),
])
def test_malformed_dumps_name_the_line(file, line, message):
    with pytest.raises(TextFileError) as caught:
        import_settings(BASE, sonic_files=[], sysfs_text=(DATA / "malformed" / file).read_text(),
                        nic_host=None, draw_topology=False)
    assert (caught.value.line, caught.value.message) == (line, message)


def test_two_interfaces_that_disagree():
    text = ("/sys/class/net/eth2/ecn/roce_rp/rpg_ai_rate:5\n"
            "/sys/class/net/eth3/ecn/roce_rp/rpg_ai_rate:10\n")
    with pytest.raises(TextFileError, match=r"^line 2: roce_rp/rpg_ai_rate is 10 here and 5 on "
                                            r"line 1 \(interfaces eth2, eth3"):
        nic_sysfs.to_patch(nic_sysfs.read(text), 3, "dcqcn", "nic")


def test_export_writes_effective_values_and_rounds_visibly():
    doc = {**BASE, "nic": {"cc": {"algorithm": "dcqcn", "preset": "nvidia-default",
                                  "rai_mbps": 12.5}}}
    text, approx = nic_sysfs.export(doc, ["a header"])
    assert "echo 12 > $RP/rpg_ai_rate   # nic.cc.rai_mbps 12.5" in text   # half to even
    assert "echo 0 > $RP/clamp_tgt_rate   # nic.cc.clamp_target_rate false" in text
    assert "echo 1019 > $RP/dce_tcp_g   # nic.cc.g 0.00488281" in text
    assert "echo 4 > $NP/min_time_between_cnps   # nic.cnp_interval_us 4" in text
    assert approx == ["rpg_ai_rate 12 for nic.cc.rai_mbps 12.5 (rounded)"]
    assert text.splitlines()[:2] == ["#!/bin/sh", "# a header"]
