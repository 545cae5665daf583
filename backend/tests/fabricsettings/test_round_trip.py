"""Round trip over every preset: the scenario's SONiC files and NIC sysfs script, imported into
the same topology with default settings, give back the same effective parameters; with one
file per switch the drawn topology has the simulator's nodes and links."""

import json
from pathlib import Path

import pytest

from app.core import simulator
from app.fabricsettings import nic_sysfs, sonic, sonic_export
from app.fabricsettings.effective import nic_settings, switch_by_port_rate, watchdog_settings
from app.fabricsettings.service import import_settings

PRESETS = sorted((Path(__file__).resolve().parents[2] / "app" / "presets" / "data").glob("*.json"))
CARRIED_NIC = [p.field for p in nic_sysfs.PARAMS]


def _dig(node, dotted):
    for part in dotted.split("."):
        node = node[part]
    return node


@pytest.mark.parametrize("path", PRESETS, ids=[p.stem for p in PRESETS])
def test_export_then_import_gives_the_same_parameters(path):
    doc = json.loads(path.read_text())["scenario"]
    expanded = simulator.expand(doc)
    ports = sonic_export.switch_ports(expanded)
    files = []
    for name, switch_ports in ports.items():
        tables, _ = sonic_export.export_switch(doc, name, switch_ports, {"scenario_id": "x"})
        files.append((f"{name}.config_db.json", sonic_export.dumps(tables)))
    script, _ = nic_sysfs.export(doc, ["round trip"])
    blank = {"schema_version": 1, "topology": doc["topology"], "traffic": doc.get("traffic", [])}
    back, report = import_settings(blank, sonic_files=files, sysfs_text=script, nic_host=None,
                                   draw_topology=False)
    for name, switch_ports in ports.items():
        rates = [p.rate_gbps for p in switch_ports]
        assert switch_by_port_rate(back, name, rates) == switch_by_port_rate(doc, name, rates)
    assert watchdog_settings(back)["switch"] == watchdog_settings(doc)["switch"]
    got, want = nic_settings(back), nic_settings(doc)
    assert {f: _dig(got, f) for f in CARRIED_NIC} == {f: _dig(want, f) for f in CARRIED_NIC}
    assert (got["cc"]["algorithm"] == "none") == (want["cc"]["algorithm"] == "none")
    assert report.counts()["mapped"] > 0

    drawn, _ = sonic.import_files(blank, files, draw_topology=True)
    nodes = {(n["id"], n["kind"]) for n in drawn["topology"]["nodes"]}
    assert nodes == {(n["id"], n["kind"]) for n in expanded["nodes"]}
    links = sorted((frozenset((lk["a"], lk["b"])).__hash__(), lk["rate_gbps"],
                    round(lk["length_km"] * 5, 9)) for lk in drawn["topology"]["links"])
    assert links == sorted((frozenset((lk["a"], lk["b"])).__hash__(), lk["rate_gbps"],
                            round(lk["delay_us"], 9)) for lk in expanded["links"])
