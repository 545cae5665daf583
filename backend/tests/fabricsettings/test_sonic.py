"""A SONiC ToR's config_db.json (backend/tests/data/fabric/sonic, written from SONiC's
Configuration Database Manual and YANG models) into a scenario, field by field, and malformed
files; several switches' files redraw the topology."""

import json
from pathlib import Path

import pytest

from app.core.textfile import TextFileError
from app.fabricsettings import sonic
from app.fabricsettings.effective import switch_settings

DATA = Path(__file__).resolve().parents[1] / "data" / "fabric"
BASE = {"schema_version": 1, "topology": {"kind": "leaf_spine"}}


def tor1() -> tuple[str, str]:
    return "tor1.config_db.json", (DATA / "sonic" / "tor1.config_db.json").read_text()


def test_a_tor_switch_settings():
    doc, report = sonic.import_files(BASE, [tor1()])
    s = switch_settings(doc)
    # pool 10,875,072 + shared headroom pool 4,194,112 bytes
    assert s["buffer_bytes"] == 15_069_184
    assert s["data_priority"] == 3 and s["pfc"]["enabled"] is True
    # dynamic_th -3 on the four 100G ports, -2 on the two 400G uplinks: 2^-3 and 2^-2
    assert (s["pfc"]["alpha"], s["pfc"]["alpha_by_rate"]) == (0.125, {"400": 0.25})
    assert (s["pfc"]["headroom_bytes"], s["pfc"]["xon_offset_bytes"]) == (29696, 19456)
    assert s["ecn"] == {"enabled": True, "kmin_bytes": 250_000, "kmax_bytes": 2_097_152,
                        "pmax": 0.05}
    wd = doc["watchdogs"]["switch"]
    assert wd == {"enabled": True, "detect_us": 200_000, "restore_us": 400_000,
                  "ports": "servers"}
    assert doc["topology"] == BASE["topology"]   # one file: the topology is kept
    entries = [(e.status, e.source, e.parameter, e.converted, e.conversion)
               for e in report.entries]
    assert ("mapped", "tor1.config_db.json: BUFFER_PROFILE|pg_lossless_400000_40m_profile."
            "dynamic_th", "switch.pfc.alpha", 0.25, "alpha = 2^dynamic_th = 2^-2") in entries
    assert ("mapped", "tor1.config_db.json: WRED_PROFILE|AZURE_LOSSLESS.green_drop_probability",
            "switch.ecn.pmax", 0.05, "pmax = percent / 100") in entries
    assert ("mapped", "tor1.config_db.json: PFC_WD.restoration_time",
            "watchdogs.switch.restore_us", 400_000, "us = ms x 1000") in entries
    notes = {(e.status, e.source): e.note for e in report.entries}
    assert notes[("ignored", "tor1.config_db.json: LOOPBACK_INTERFACE")] == \
        "not a table the model has settings for"
    priority = next(e for e in report.entries if e.parameter == "switch.data_priority")
    assert priority.note == ("priorities [3, 4] are lossless: the model's data goes at one "
                             "priority, the lowest")
    kept = [e.parameter for e in report.entries if e.status == "kept"]
    assert kept == ["switch.cell_bytes", "switch.pfc.pause_mode", "switch.pfc.pause_quanta",
                    "switch.ecmp_seed", "switch.ecn_mark_point", "switch.load_balancing",
                    "switch.trimming"]


@pytest.mark.parametrize(("file", "line", "message"), [
    ("sonic_syntax.config_db.json", 45, "sonic_syntax.config_db.json: expected JSON: Expecting ',' "
                                        "delimiter (column 9)"),
    ("sonic_undefined_profile.config_db.json", 0, "sonic_undefined_profile.config_db.json: "
     "BUFFER_PG names profile 'pg_lossless_400000_300m_profile', which BUFFER_PROFILE does not "
     "define"),
    ("sonic_alpha_out_of_range.config_db.json", 0, "sonic_alpha_out_of_range.config_db.json: "
     "BUFFER_PROFILE|pg_lossless_400000_40m_profile.dynamic_th 7 gives pfc.alpha = 128.0: Input "
     "should be less than or equal to 64"),
])
def test_malformed_files(file, line, message):
    with pytest.raises(TextFileError) as caught:
        sonic.import_files(BASE, [(file, (DATA / "malformed" / file).read_text())])
    assert (caught.value.line, caught.value.message) == (line, message)


def test_two_files_of_one_switch_are_refused():
    with pytest.raises(TextFileError, match="switch 'tor1' is also tor1.config_db.json"):
        sonic.import_files(BASE, [tor1(), ("again.json", tor1()[1])])


def _switch(name: str, peers: list[tuple[str, str, str, str]], dynamic_th: str) -> str:
    """A minimal config_db: ports to `peers` (port, peer, peer port, speed Mbit/s)."""
    return json.dumps({
        "DEVICE_METADATA": {"localhost": {"hostname": name}},
        "PORT": {p: {"speed": speed} for p, _, _, speed in peers},
        "CABLE_LENGTH": {"AZURE": {p: "10m" for p, *_ in peers}},
        "DEVICE_NEIGHBOR": {p: {"name": peer, "port": pp} for p, peer, pp, _ in peers},
        "DEVICE_NEIGHBOR_METADATA": {peer: {"type": "Server" if peer.startswith("gpu") else
                                            "LeafRouter"} for _, peer, _, _ in peers},
        "BUFFER_POOL": {"ingress_lossless_pool": {"size": "12000000", "type": "ingress"}},
        "BUFFER_PROFILE": {"lossless": {"pool": "ingress_lossless_pool", "dynamic_th": dynamic_th,
                                        "xoff": "40000", "xon_offset": "4160"}},
        "BUFFER_PG": {",".join(p for p, *_ in peers) + "|3": {"profile": "lossless"}},
        "PORT_QOS_MAP": {",".join(p for p, *_ in peers): {"pfc_enable": "3"}}})


def test_one_file_per_switch_draws_the_topology_and_overrides_the_odd_switch():
    files = [
        ("leafA.json", _switch("leafA", [("Ethernet0", "gpu0", "eth0", "200000"),
                                         ("Ethernet4", "gpu1", "eth0", "200000"),
                                         ("Ethernet8", "spine", "Ethernet0", "400000")], "-4")),
        ("leafB.json", _switch("leafB", [("Ethernet0", "gpu2", "eth0", "200000"),
                                         ("Ethernet8", "spine", "Ethernet4", "400000")], "-4")),
        ("spine.json", _switch("spine", [("Ethernet0", "leafA", "Ethernet8", "400000"),
                                         ("Ethernet4", "leafB", "Ethernet8", "400000")], "-1")),
    ]
    doc, report = sonic.import_files(BASE, files)
    topo = doc["topology"]
    assert topo["kind"] == "explicit"
    assert [(n["id"], n["kind"], n.get("tier")) for n in topo["nodes"]] == [
        ("gpu0", "host", None), ("gpu1", "host", None), ("gpu2", "host", None),
        ("leafA", "switch", 1), ("leafB", "switch", 1), ("spine", "switch", 2)]
    assert sorted((lk["a"], lk["b"], lk["rate_gbps"], lk["length_km"]) for lk in topo["links"]) == [
        ("leafA", "gpu0", 200, 0.01), ("leafA", "gpu1", 200, 0.01), ("leafA", "spine", 400, 0.01),
        ("leafB", "gpu2", 200, 0.01), ("leafB", "spine", 400, 0.01)]
    assert doc["switch"]["pfc"]["alpha"] == 0.0625                # two of three switches
    assert doc["switch_overrides"] == {"spine": {"pfc": {"alpha": 0.5}}}
    drawn = next(e for e in report.entries if e.parameter == "topology")
    assert drawn.converted == {"kind": "explicit", "nodes": 6, "links": 5}
