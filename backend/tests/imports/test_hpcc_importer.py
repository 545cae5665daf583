"""The HPCC importer (files -> scenario) without services: readers, mapping, command line."""

import json
import subprocess
import sys

import pytest

from app.scenarios.importers.hpcc import build
from app.scenarios.importers.hpcc_files import (ImportFileError, parse_rate_gbps, parse_time_us,
                                                read_csv_flows, read_flows, read_topology)
from app.scenarios.document import Scenario
from tests.support import BACKEND, ROOT

DATA = ROOT / "validation" / "data" / "hpcc"
TOPOLOGY = (DATA / "topology-fat.txt").read_text()
FLOWS = (DATA / "flows-websearch30.txt").read_text()
CONFIG = (DATA / "config-dcqcn.txt").read_text()
SMALL_TOPOLOGY = "4 1 3\n3\n0 3 100Gbps 1000ns 0.000000\n1 3 100Gbps 1000ns 0\n2 3 100Gbps 1us 0\n"


def test_units():
    assert parse_rate_gbps("100Gbps") == 100 and parse_rate_gbps("20Mb/s") == 0.02
    assert parse_time_us("1000ns") == 1 and parse_time_us("0.5ms") == 500
    assert parse_rate_gbps("fast") is None and parse_time_us("1000") is None


def test_benchmark_topology_read():
    topo = read_topology(TOPOLOGY)
    assert topo.nodes == 376 and len(topo.switches) == 56 and len(topo.links) == 480
    assert sorted({l.rate_gbps for l in topo.links}) == [100, 400]
    assert {l.delay_us for l in topo.links} == {1.0}


@pytest.mark.parametrize(("text", "line", "words"), [
    ("4 1 3\n3\n0 3 100Gbps 1000ns\n1 3 100Gbps 1000ns 0\n2 3 100Gbps 1us 0\n", 3, "expected 5 fields"),
    ("4 1 3\n3\n0 3 100Gbps 1000ns 0\n1 3 fast 1000ns 0\n2 3 100Gbps 1us 0\n", 4, "rate must be"),
    ("4 1 3\n3\n0 3 100Gbps 1000ns 0\n1 3 100Gbps 1000ns 0.01\n2 3 100Gbps 1us 0\n", 4, "error_rate"),
    ("4 1 3\n3\n0 3 100Gbps 1000ns 0\n1 9 100Gbps 1000ns 0\n2 3 100Gbps 1us 0\n", 4, "b must be"),
    ("4 1 4\n3\n0 3 100Gbps 1000ns 0\n1 3 100Gbps 1000ns 0\n2 3 100Gbps 1us 0\n", 5, "announces 4 links"),
    ("4 2\n3\n", 1, "expected 3 fields"),
])
def test_topology_errors_name_the_line(text, line, words):
    with pytest.raises(ImportFileError) as exc:
        read_topology(text)
    assert exc.value.line == line and words in exc.value.message, str(exc.value)


def test_flow_file_read_exactly():
    flows = read_flows(FLOWS)
    assert len(flows) == 13_634
    first = flows[0]
    assert (first.src, first.dst, first.priority, first.size_bytes, str(first.start)) == (
        "13", "6", 3, 24375, "2.000000962")
    with pytest.raises(ImportFileError) as exc:
        read_flows("2\n0 1 3 100 1000 2.0\n0 1 3 100 x 2.0\n")
    assert exc.value.line == 3 and "size_bytes" in exc.value.message
    with pytest.raises(ImportFileError) as exc:
        read_flows("3\n0 1 3 100 1000 2.0\n")
    assert "announces 3 flows" in exc.value.message


def test_csv_read_with_header_and_errors():
    flows = read_csv_flows("src,dst,size_bytes,start_us,priority\nh0,h1,1000,0.5,3\nh1,h2,20,1\n")
    assert [(f.src, f.dst, f.size_bytes, float(f.start), f.priority) for f in flows] == [
        ("h0", "h1", 1000, 0.5, 3), ("h1", "h2", 20, 1.0, None)]
    with pytest.raises(ImportFileError) as exc:
        read_csv_flows("h0,h1,1000,0.5\nh0,h1,-5,1\n")
    assert exc.value.line == 2 and "size_bytes" in exc.value.message
    with pytest.raises(ImportFileError) as exc:
        read_csv_flows("h0,h1,1000,0.5,9\n")
    assert "priority" in exc.value.message


def test_benchmark_import_maps_the_configuration():
    doc, notes = build(TOPOLOGY, FLOWS, config_text=CONFIG)
    Scenario.model_validate(doc)  # a valid scenario
    flows = doc["traffic"][0]["flows"]
    starts = [float(f.split()[5]) for f in FLOWS.splitlines()[1:]]
    assert len(flows) == sum(1 for s in starts if s < 2.01) == 7010
    assert flows[0] == {"src": "h13", "dst": "h6", "size_bytes": 24375, "start_us": 0.962, "priority": 3}
    assert doc["duration_us"] == 10_000
    sw, nic = doc["switch"], doc["nic"]
    assert sw["buffer_bytes"] == 32 * 1024 * 1024 and sw["ecn_mark_point"] == "dequeue"
    assert sw["ecn_by_rate"] == {"100": {"kmin_bytes": 400_000, "kmax_bytes": 1_600_000, "pmax": 0.2},
                                 "400": {"kmin_bytes": 1_600_000, "kmax_bytes": 6_400_000, "pmax": 0.2}}
    assert sw["pfc"]["alpha"] == 0.125 and sw["pfc"]["alpha_by_rate"] == {"400": 0.5}
    assert (nic["mtu_bytes"], nic["header_bytes"], nic["preamble_ifg_bytes"]) == (1000, 48, 0)
    assert nic["ecn_feedback"] == "ack_flag" and nic["ack_interval_packets"] == 1
    assert nic["ack_priority"] == "data"  # its switches queue ACKs with the data
    cc = nic["cc"]
    assert (cc["algorithm"], cc["alpha_update_us"], cc["rate_decrease_interval_us"],
            cc["rate_increase_timer_us"], cc["byte_counter_bytes"], cc["fast_recovery_steps"],
            cc["rai_mbps"], cc["rhai_mbps"], cc["min_rate_mbps"], cc["clamp_target_rate"]) == (
        "dcqcn_sampled", 1, 4, 300, 0, 1, 20, 200, 1000, False)
    assert any("6624 of 13634 flows" in n for n in notes)
    # Without a config file: the same settings (the benchmark's).
    default_doc, _ = build(TOPOLOGY, FLOWS)
    assert default_doc["switch"] == sw and default_doc["nic"] == nic


def test_config_errors_name_the_line():
    with pytest.raises(ImportFileError) as exc:
        build(TOPOLOGY, FLOWS, config_text=CONFIG.replace("CC_MODE 1", "CC_MODE 3"))
    assert exc.value.file == "config" and "CC_MODE" in exc.value.message
    assert exc.value.line == CONFIG.splitlines().index("CC_MODE 3".replace("3", "1")) + 1
    bad = CONFIG.replace("KMIN_MAP 2 100000000000 400 400000000000 1600", "KMIN_MAP 1 100000000000 400")
    with pytest.raises(ImportFileError) as exc:
        build(TOPOLOGY, FLOWS, config_text=bad)
    assert "400 Gbit/s" in exc.value.message


def test_csv_over_a_base_scenario():
    base = json.loads((ROOT / "docs" / "examples" / "valid" / "leaf-spine-incast.json").read_text())
    doc, _ = build(csv_text="h1,h0,5000,0\nh2,h0,7000,3.5,5\n", base=base, duration_us=100)
    Scenario.model_validate(doc)
    assert doc["topology"] == base["topology"] and doc["duration_us"] == 100
    assert doc["traffic"] == [{"kind": "flows", "name": "imported from csv", "flows": [
        {"src": "h1", "dst": "h0", "size_bytes": 5000, "start_us": 0.0},
        {"src": "h2", "dst": "h0", "size_bytes": 7000, "start_us": 3.5, "priority": 5}]}]


def test_command_line(tmp_path):
    out = tmp_path / "scenario.json"
    cmd = [sys.executable, "-m", "app.scenarios.importers.hpcc", "--topology", str(DATA / "topology-fat.txt"),
           "--flows", str(DATA / "flows-websearch30.txt"), "-o", str(out)]
    proc = subprocess.run(cmd, cwd=BACKEND, capture_output=True, text=True, timeout=120, check=False)
    assert proc.returncode == 0, proc.stderr
    assert len(json.loads(out.read_text())["traffic"][0]["flows"]) == 7010
    bad = tmp_path / "topo.txt"
    bad.write_text(SMALL_TOPOLOGY.replace("1 3 100Gbps", "1 3 100Gbit"))
    proc = subprocess.run([*cmd[:4], str(bad), *cmd[5:]], cwd=BACKEND, capture_output=True,
                          text=True, timeout=120, check=False)
    assert proc.returncode == 2
    assert proc.stderr.strip().splitlines() == [
        "error: topology: line 4: rate must be like '100Gbps' (> 0 and <= 1600 Gbit/s), got '100Gbit'"]
