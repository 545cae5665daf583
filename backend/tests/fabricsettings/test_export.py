"""SONiC and NVUE exports of settings that vary by link rate, priority and switch, with the
values a device cannot hold exactly listed (and the round trip of what they can)."""

from app.core import simulator
from app.fabricsettings import nvue, sonic, sonic_export
from app.fabricsettings.effective import switch_by_port_rate

DOC = {
    "schema_version": 1,
    "topology": {"kind": "leaf_spine", "leaves": 2, "spines": 1, "hosts_per_leaf": 2,
                 "host_rate_gbps": 100, "fabric_rate_gbps": 400, "link_delay_us": 0.5},
    "switch": {"buffer_bytes": 16_000_000,
               "pfc": {"alpha": 0.125, "alpha_by_rate": {"400": 0.5}, "headroom_bytes": 50_000,
                       "xon_offset_bytes": 2048},
               "ecn": {"kmin_bytes": 100_000, "kmax_bytes": 400_000, "pmax": 0.2},
               "ecn_by_rate": {"400": {"kmin_bytes": 400_000, "kmax_bytes": 1_600_000}},
               "ecn_by_priority": {"1": {"enabled": False}}},
    "switch_overrides": {"spine0": {"ecn": {"pmax": 0.1}}},
    "watchdogs": {"switch": {"enabled": True, "detect_us": 300_000, "restore_us": 600_000,
                             "ports": "all"}},
}


def _files():
    ports = sonic_export.switch_ports(simulator.expand(DOC))
    out = {}
    for name, switch_ports in ports.items():
        tables, approx = sonic_export.export_switch(DOC, name, switch_ports, {"scenario_id": "s1"})
        assert approx == []
        out[name] = tables
    return ports, out


def test_sonic_tables_of_a_leaf():
    _, files = _files()
    leaf = files["leaf0"]
    assert leaf["FABRICTWIN_EXPORT"] == {"header": {"scenario_id": "s1", "switch": "leaf0"}}
    assert leaf["PORT"]["Ethernet0"] == {"speed": "100000", "admin_status": "up"}
    assert leaf["PORT"]["Ethernet8"] == {"speed": "400000", "admin_status": "up"}
    assert leaf["CABLE_LENGTH"]["AZURE"]["Ethernet0"] == "100m"   # 0.5 us x 200 m/us
    assert leaf["DEVICE_NEIGHBOR"]["Ethernet8"] == {"name": "spine0", "port": "Ethernet0"}
    assert leaf["BUFFER_PG"]["Ethernet0|3"] == {"profile": "pg_lossless_dtm3_profile"}
    assert leaf["BUFFER_PG"]["Ethernet8|3"] == {"profile": "pg_lossless_dtm1_profile"}
    assert leaf["BUFFER_PROFILE"]["pg_lossless_dtm3_profile"] == {
        "pool": "ingress_lossless_pool", "dynamic_th": "-3", "xon_offset": "2048", "size": "0",
        "xoff": "50000", "xon": "2048"}
    assert leaf["QUEUE"]["Ethernet0|3"] == {"wred_profile": "FT_ECN_100000_400000_20"}
    assert leaf["QUEUE"]["Ethernet8|3"] == {"wred_profile": "FT_ECN_400000_1600000_20"}
    assert leaf["QUEUE"]["Ethernet0|1"] == {"wred_profile": "FT_ECN_OFF_100000_400000_20"}
    assert leaf["WRED_PROFILE"]["FT_ECN_100000_400000_20"] == {
        "wred_green_enable": "true", "ecn": "ecn_all", "green_min_threshold": "100000",
        "green_max_threshold": "400000", "green_drop_probability": "20"}
    assert leaf["PFC_WD"]["Ethernet8"] == {"action": "drop", "detection_time": "300",
                                           "restoration_time": "600"}
    assert files["spine0"]["WRED_PROFILE"]["FT_ECN_400000_1600000_10"]["green_drop_probability"] \
        == "10"


def test_rate_priority_and_switch_variations_come_back():
    ports, files = _files()
    blank = {"schema_version": 1, "topology": DOC["topology"]}
    back, _ = sonic.import_files(blank, [(f"{n}.json", sonic_export.dumps(t))
                                         for n, t in files.items()], draw_topology=False)
    for name, switch_ports in ports.items():
        rates = [p.rate_gbps for p in switch_ports]
        assert switch_by_port_rate(back, name, rates) == switch_by_port_rate(DOC, name, rates)
    assert back["watchdogs"]["switch"] == DOC["watchdogs"]["switch"]


def test_values_sonic_cannot_hold_are_listed():
    doc = {**DOC, "switch": {**DOC["switch"], "pfc": {"alpha": 0.1}, "ecn": {"pmax": 0.005}},
           "watchdogs": {"switch": {"enabled": True, "detect_us": 150}}}
    ports = sonic_export.switch_ports(simulator.expand(doc))
    _, approx = sonic_export.export_switch(doc, "leaf0", ports["leaf0"], {})
    assert approx == [
        "dynamic_th -3 (alpha 0.125) for pfc.alpha 0.1: SONiC takes alpha as a power of two",
        "green_drop_probability 0 % for ecn pmax 0.005",
        "PFC_WD detection_time 0.15 ms: sonic-pfcwd.yang takes whole ms in 100..5000; SONiC "
        "will refuse it",
        "PFC_WD restoration_time 1 ms: sonic-pfcwd.yang takes whole ms in 100..60000; SONiC "
        "will refuse it"]


def test_nvue_commands():
    ports = sonic_export.switch_ports(simulator.expand(DOC))
    text, approx = nvue.export_switch(DOC, "leaf0", ports["leaf0"], ["header line"])
    lines = text.splitlines()
    assert lines[0] == "# header line"
    for expected in [
        "nv set qos pfc default-global switch-priority 3",
        "nv set qos pfc default-global xoff-threshold 50000   # switch.pfc.headroom_bytes",
        "nv set qos pfc default-global xon-threshold 2048   # switch.pfc.xon_offset_bytes",
        "# switch.pfc.alpha 0.125: no nv command; in /etc/mlx/datapath/qos/qos_infra.conf: "
        "flow_control.ingress_buffer.dynamic_quota = ALPHA_1_8",
        "nv set qos congestion-control default-global traffic-class 3 min-threshold 100000",
        "nv set qos congestion-control default-global traffic-class 3 max-threshold 400000",
        "nv set qos congestion-control default-global traffic-class 3 probability 20",
        "nv set qos congestion-control default-global traffic-class 1 ecn disable",
        "nv set qos congestion-control ft-400g traffic-class 3 min-threshold 400000",
        "nv set interface swp3 qos congestion-control profile ft-400g",
        "nv set qos pfc-watchdog polling-interval 100",
        "nv set interface swp1,swp2,swp3 qos pfc-watchdog",
        "nv config apply",
    ]:
        assert expected in lines, expected
    assert approx[0].startswith("PFC watchdog: detection after 3 polls of 100 ms (300 ms)")
