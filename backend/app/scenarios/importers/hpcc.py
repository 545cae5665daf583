"""HPCC simulator files (topology, flows, optional config) or a CSV of flows -> a scenario.

    python -m app.scenarios.importers.hpcc --topology fat.txt --flows flow.txt \\
        [--config config.txt] [--duration-us 10000] [-o scenario.json]
    python -m app.scenarios.importers.hpcc --topology fat.txt --csv flows.csv -o scenario.json
    python -m app.scenarios.importers.hpcc --base scenario.json --csv flows.csv -o out.json

Hosts become `h<n>` and switches `s<n>` (the simulator's node numbers). The simulator's
configuration maps onto scenario fields as docs/validation-hpcc.md describes; without a config file
the settings are those of its DCQCN benchmark (validation/data/hpcc/config-dcqcn.txt).
Exit 2 with one line naming the file and line on bad input.
"""

import argparse
import copy
import json
import sys
from collections import deque
from decimal import Decimal, ROUND_FLOOR
from pathlib import Path
from typing import Any

from app.scenarios.importers.hpcc_files import (FlowLine, HpccTopology, ImportFileError,
                                                parse_rate_gbps, read_config, read_csv_flows,
                                                read_flows, read_topology)

MIB = 1024 * 1024
MAX_MESSAGE_BYTES = 2**31  # one message as large as a flow can be: no window (HAS_WIN 0)

# The benchmark's configuration (config-dcqcn.txt), used when no config file is given.
BENCHMARK_CONFIG = """CC_MODE 1
ENABLE_QCN 1
USE_DYNAMIC_PFC_THRESHOLD 1
PACKET_PAYLOAD_SIZE 1000
SIMULATOR_STOP_TIME 2.01
ALPHA_RESUME_INTERVAL 1
RATE_DECREASE_INTERVAL 4
CLAMP_TARGET_RATE 0
RP_TIMER 300
EWMA_GAIN 0.00390625
FAST_RECOVERY_TIMES 1
RATE_AI 20Mb/s
RATE_HAI 200Mb/s
MIN_RATE 1000Mb/s
ERROR_RATE_PER_LINK 0.0000
L2_ACK_INTERVAL 1
HAS_WIN 0
ACK_HIGH_PRIO 1
KMAX_MAP 2 100000000000 1600 400000000000 6400
KMIN_MAP 2 100000000000 400 400000000000 1600
PMAX_MAP 2 100000000000 0.20 400000000000 0.20
BUFFER_SIZE 32
"""

# Keys that only name files, traces or other CC modes' parameters: nothing to map.
IGNORED_KEYS = {
    "TOPOLOGY_FILE", "FLOW_FILE", "TRACE_FILE", "TRACE_OUTPUT_FILE", "FCT_OUTPUT_FILE",
    "PFC_OUTPUT_FILE", "QLEN_MON_FILE", "QLEN_MON_START", "QLEN_MON_END", "ENABLE_TRACE",
    "LINK_DOWN", "DCTCP_RATE_AI", "L2_CHUNK_SIZE", "L2_BACK_TO_ZERO", "GLOBAL_T", "VAR_WIN",
    "FAST_REACT", "U_TARGET", "MI_THRESH", "INT_MULTI", "MULTI_RATE", "SAMPLE_FEEDBACK",
    "PINT_LOG_BASE", "PINT_PROB", "RATE_BOUND", "ERROR_RATE_PER_LINK",
}


class Config:
    """Typed access to the simulator's configuration, errors naming the key's line."""

    def __init__(self, text: str, file: str):
        self.file, self.values = file, read_config(text, file)

    def line(self, key: str) -> int:
        return self.values[key][0] if key in self.values else 0

    def raw(self, key: str, default: str | None = None) -> list[str]:
        if key not in self.values:
            if default is None:
                raise ImportFileError(self.file, 0, f"{key} missing")
            return [default]
        return self.values[key][1]

    def number(self, key: str, default: str | None = None, lo: float = 0,
               hi: float = 1e12) -> float:
        fields = self.raw(key, default)
        try:
            value = float(fields[0]) if len(fields) == 1 else float("nan")
        except ValueError:
            value = float("nan")
        if not lo <= value <= hi:
            raise ImportFileError(self.file, self.line(key),
                                  f"{key} must be one number >= {lo:g} and <= {hi:g}")
        return value

    def rate_mbps(self, key: str) -> float:
        fields = self.raw(key)
        gbps = parse_rate_gbps(fields[0]) if len(fields) == 1 else None
        if gbps is None or gbps <= 0:
            raise ImportFileError(self.file, self.line(key), f"{key} must be a rate like '20Mb/s'")
        return gbps * 1000

    def rate_map(self, key: str) -> dict[float, float]:
        """`KEY n rate_bps value ...` -> {Gbit/s: value}."""
        fields = self.raw(key)
        try:
            n = int(fields[0])
            pairs = {float(fields[1 + 2 * i]) / 1e9: float(fields[2 + 2 * i]) for i in range(n)}
            ok = n >= 1 and len(fields) == 1 + 2 * n
        except (ValueError, IndexError):
            ok = False
        if not ok:
            raise ImportFileError(self.file, self.line(key),
                                  f"{key} must be 'n rate_bps value' with n pairs")
        return pairs


def _rate_key(gbps: float) -> str:
    return f"{gbps:g}"


def _settings(cfg: Config, rates: set[float], host_rate: float) -> tuple[dict, dict, list[str]]:
    """Switch and NIC settings of the configuration, and notes on what is not mapped."""
    notes = []
    if cfg.number("CC_MODE", lo=0, hi=100) != 1:
        raise ImportFileError(cfg.file, cfg.line("CC_MODE"),
                              "CC_MODE must be 1 (DCQCN); HPCC, TIMELY and DCTCP are not modelled")
    if cfg.number("ERROR_RATE_PER_LINK", "0", 0, 1) != 0:
        raise ImportFileError(cfg.file, cfg.line("ERROR_RATE_PER_LINK"),
                              "ERROR_RATE_PER_LINK must be 0 (random loss is not modelled)")
    ack_interval = int(cfg.number("L2_ACK_INTERVAL", "1", 1, 1024))
    if cfg.number("HAS_WIN", "0", 0, 1) == 1:
        notes.append("HAS_WIN 1: the simulator's BDP window is not modelled; the QP has no window")
    if cfg.number("ACK_HIGH_PRIO", "1", 0, 1) == 0:
        notes.append("ACK_HIGH_PRIO 0: the hosts' ACK queue is not paused by PFC here (the "
                     "simulator pauses it with the data priority)")
    kmin, kmax = cfg.rate_map("KMIN_MAP"), cfg.rate_map("KMAX_MAP")
    pmax = cfg.rate_map("PMAX_MAP")
    for rate in sorted(rates):
        for key, table in (("KMIN_MAP", kmin), ("KMAX_MAP", kmax), ("PMAX_MAP", pmax)):
            if rate not in table:
                raise ImportFileError(cfg.file, cfg.line(key),
                                      f"{key} has no entry for the {rate:g} Gbit/s links")
    ecn_on = cfg.number("ENABLE_QCN", "1", 0, 1) == 1
    by_rate = {_rate_key(r): {"kmin_bytes": int(kmin[r] * 1000), "kmax_bytes": int(kmax[r] * 1000),
                              "pmax": pmax[r]} for r in sorted(rates)}
    base = by_rate[_rate_key(min(rates))]
    pfc: dict[str, Any] = {"enabled": True, "headroom_bytes": "auto", "xon_offset_bytes": 3072}
    if cfg.number("USE_DYNAMIC_PFC_THRESHOLD", "1", 0, 1) == 1:
        # Its alpha: 1/8 on ports at the NIC rate, doubled per doubling of the port rate.
        alphas = {}
        for rate in sorted(rates):
            shift, r = 3, rate
            while r > host_rate and shift > 0:
                shift, r = shift - 1, r / 2
            alphas[_rate_key(rate)] = 1 / 2**shift
        pfc["alpha"] = alphas[_rate_key(min(rates))]
        pfc["alpha_by_rate"] = {k: a for k, a in alphas.items() if a != pfc["alpha"]}
    else:
        notes.append("USE_DYNAMIC_PFC_THRESHOLD 0: the static threshold is not modelled; "
                     "the dynamic one (alpha 1/8) is used")
        pfc["alpha"] = 0.125
    switch = {
        "buffer_bytes": int(cfg.number("BUFFER_SIZE", lo=1, hi=1024) * MIB),
        "cell_bytes": 64,
        "ecn": {"enabled": ecn_on, **base},
        "ecn_by_rate": by_rate,
        "ecn_mark_point": "dequeue",
        "pfc": pfc,
    }
    cc = {
        "algorithm": "dcqcn_sampled",
        "preset": "hpcc-dcqcn",
        "g": cfg.number("EWMA_GAIN", lo=1e-9, hi=1),
        "alpha_update_us": cfg.number("ALPHA_RESUME_INTERVAL", lo=1e-3, hi=1e6),
        "rate_decrease_interval_us": cfg.number("RATE_DECREASE_INTERVAL", lo=1e-3, hi=1e6),
        "rate_increase_timer_us": cfg.number("RP_TIMER", lo=1e-3, hi=1e6),
        "byte_counter_bytes": 0,
        "fast_recovery_steps": int(cfg.number("FAST_RECOVERY_TIMES", lo=0, hi=100)),
        "rai_mbps": cfg.rate_mbps("RATE_AI"),
        "rhai_mbps": cfg.rate_mbps("RATE_HAI"),
        "min_rate_mbps": cfg.rate_mbps("MIN_RATE"),
        "clamp_target_rate": cfg.number("CLAMP_TARGET_RATE", lo=0, hi=1) == 1,
        "clamp_target_after_timer_increase": True,
    }
    nic = {
        "mtu_bytes": int(cfg.number("PACKET_PAYLOAD_SIZE", lo=256, hi=9000)),
        "header_bytes": 48,
        "preamble_ifg_bytes": 0,
        "message_bytes": MAX_MESSAGE_BYTES,
        "qp_depth": 1,
        "ack_interval_packets": ack_interval,
        "ecn_feedback": "ack_flag",
        # Its switches queue ACKs with the data (SwitchNode's AckHighPrio is never set; the
        # ACK_HIGH_PRIO key only keeps the hosts' own ACK queue out of PFC pauses).
        "ack_priority": "data",
        "rto_us": 10000,
        "cc": cc,
    }
    unknown = sorted(k for k in cfg.values if k not in IGNORED_KEYS and k not in _MAPPED_KEYS)
    if unknown:
        notes.append("not mapped: " + ", ".join(unknown))
    return switch, nic, notes


_MAPPED_KEYS = {
    "CC_MODE", "ENABLE_QCN", "USE_DYNAMIC_PFC_THRESHOLD", "PACKET_PAYLOAD_SIZE",
    "SIMULATOR_STOP_TIME", "ALPHA_RESUME_INTERVAL", "RATE_DECREASE_INTERVAL", "CLAMP_TARGET_RATE",
    "RP_TIMER", "EWMA_GAIN", "FAST_RECOVERY_TIMES", "RATE_AI", "RATE_HAI", "MIN_RATE",
    "L2_ACK_INTERVAL", "HAS_WIN", "ACK_HIGH_PRIO", "KMAX_MAP", "KMIN_MAP", "PMAX_MAP",
    "BUFFER_SIZE",
}


def topology_document(topo: HpccTopology, file: str = "topology") -> dict:
    """The explicit topology: hosts h<n>, switches s<n>, tiers by distance from the hosts."""
    adjacency: dict[int, list[int]] = {n: [] for n in range(topo.nodes)}
    for link in topo.links:
        adjacency[link.a].append(link.b)
        adjacency[link.b].append(link.a)
    hosts = [n for n in range(topo.nodes) if n not in topo.switches]
    for h in hosts:
        if len(adjacency[h]) != 1:
            raise ImportFileError(file, 0, f"host {h} has {len(adjacency[h])} links (needs 1)")
    tier = {h: 0 for h in hosts}
    queue = deque(hosts)
    while queue:
        n = queue.popleft()
        for m in adjacency[n]:
            if m not in tier:
                tier[m] = min(tier[n] + 1, 4)
                queue.append(m)
    def node_id(n: int) -> str:
        return f"s{n}" if n in topo.switches else f"h{n}"
    nodes = [{"id": node_id(n), "kind": "switch" if n in topo.switches else "host",
              "tier": tier.get(n, 1)} for n in range(topo.nodes)]
    links = [{"a": node_id(l.a), "b": node_id(l.b), "rate_gbps": l.rate_gbps,
              "delay_us": l.delay_us} for l in topo.links]
    return {"kind": "explicit", "nodes": nodes, "links": links}


def flow_items(flows: list[FlowLine], hosts: set[str] | None, *, origin: Decimal,
               scale_to_us: Decimal, duration_us: float, file: str) -> tuple[list[dict], int]:
    """Listed flows relative to origin, in microseconds; flows at or after the end are left out."""
    items, late = [], 0
    for f in flows:
        src = f"h{f.src}" if f.src.isdigit() else f.src
        dst = f"h{f.dst}" if f.dst.isdigit() else f.dst
        for end, name in (("src", src), ("dst", dst)):
            if hosts is not None and name not in hosts:
                raise ImportFileError(file, f.line, f"{end} {name} is not a host of the topology")
        if src == dst:
            raise ImportFileError(file, f.line, "src and dst are the same host")
        start_us = (f.start - origin) * scale_to_us
        if start_us < 0:
            raise ImportFileError(file, f.line, "starts before the origin")
        if start_us >= Decimal(str(duration_us)):
            late += 1
            continue
        item: dict[str, Any] = {"src": src, "dst": dst, "size_bytes": f.size_bytes,
                                "start_us": float(start_us.quantize(Decimal("0.001")))}
        if f.priority is not None and f.priority <= 6:
            item["priority"] = f.priority
        elif f.priority is not None:
            raise ImportFileError(file, f.line, "priority 7 is the control priority here (0..6)")
        items.append(item)
    items.sort(key=lambda i: i["start_us"])
    return items, late


def build(topology_text: str | None = None, flows_text: str | None = None,
          csv_text: str | None = None, config_text: str | None = None,
          base: dict | None = None, duration_us: float | None = None,
          name: str = "") -> tuple[dict, list[str]]:
    """The scenario document and notes on what was left out or approximated."""
    if (flows_text is None) == (csv_text is None):
        raise ImportFileError("flows", 0, "give exactly one of a flow file and a CSV of flows")
    if (topology_text is None) == (base is None):
        raise ImportFileError("topology", 0, "give exactly one of a topology file and a base scenario")
    notes: list[str] = []
    if base is not None:
        doc = copy.deepcopy(base)
        hosts = None  # checked when the scenario is validated
    else:
        topo = read_topology(topology_text or "", "topology")
        topology = topology_document(topo)
        hosts = {n["id"] for n in topology["nodes"] if n["kind"] == "host"}
        rates = {l.rate_gbps for l in topo.links}
        host_rate = next(l.rate_gbps for l in topo.links
                         if l.a not in topo.switches or l.b not in topo.switches)
        cfg = Config(config_text if config_text is not None else BENCHMARK_CONFIG,
                     "config" if config_text is not None else "built-in benchmark config")
        switch, nic, cfg_notes = _settings(cfg, rates, host_rate)
        notes += cfg_notes
        doc = {"schema_version": 1, "name": "", "description": "", "seed": 1,
               "duration_us": 10_000, "topology": topology, "switch": switch, "nic": nic,
               "monitor": {"sample_interval_us": 100}}
    if flows_text is not None:
        flows = read_flows(flows_text, "flows")
        origin = min(f.start for f in flows).quantize(Decimal("0.001"), rounding=ROUND_FLOOR)
        scale, file = Decimal(1_000_000), "flows"
        if duration_us is None and base is None:
            stop = Decimal(str(cfg.number("SIMULATOR_STOP_TIME", lo=0, hi=1e6)))
            duration_us = float((stop - origin) * scale)
            notes.append(f"origin {origin} s, run until SIMULATOR_STOP_TIME {stop} s")
    else:
        flows = read_csv_flows(csv_text or "", "csv")
        origin, scale, file = Decimal(0), Decimal(1), "csv"
    if duration_us is None:
        duration_us = float(doc.get("duration_us", 10_000))
    if not 0 < duration_us <= 1_000_000:
        raise ImportFileError(file, 0, f"the run would last {duration_us:g} us (0 < us <= 1e6)")
    doc["duration_us"] = duration_us
    items, late = flow_items(flows, hosts, origin=origin, scale_to_us=scale,
                             duration_us=duration_us, file=file)
    if not items:
        raise ImportFileError(file, 0, f"no flow starts within the run ({duration_us:g} us)")
    if late:
        notes.append(f"{late} of {len(flows)} flows start at or after the end of the run "
                     f"({duration_us:g} us) and are left out")
    doc["traffic"] = [{"kind": "flows", "name": f"imported from {file}", "flows": items}]
    doc["name"] = name or doc.get("name") or "imported flows"
    doc["description"] = ("Imported (app.scenarios.importers.hpcc). " + " ".join(notes))[:5000]
    return doc, notes


def main(argv: list[str] | None = None) -> int:
    """Command line: write the scenario JSON; exit 2 with one line on bad input."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--topology", type=Path, help="the simulator's topology file")
    parser.add_argument("--base", type=Path, help="a scenario whose topology and settings to keep")
    parser.add_argument("--flows", type=Path, help="the simulator's flow file")
    parser.add_argument("--csv", type=Path, help="CSV: src,dst,size_bytes,start_us[,priority]")
    parser.add_argument("--config", type=Path, help="the simulator's config (default: benchmark)")
    parser.add_argument("--duration-us", type=float, help="default: SIMULATOR_STOP_TIME - origin")
    parser.add_argument("--name", default="")
    parser.add_argument("-o", "--out", type=Path, help="default: standard output")
    args = parser.parse_args(argv)
    try:
        read = lambda p: p.read_text() if p else None  # noqa: E731
        base = json.loads(args.base.read_text()) if args.base else None
        doc, notes = build(read(args.topology), read(args.flows), read(args.csv),
                           read(args.config), base, args.duration_us, args.name)
    except (ImportFileError, OSError, json.JSONDecodeError) as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    text = json.dumps(doc, separators=(",", ":")) + "\n"
    if args.out:
        args.out.write_text(text)
    else:
        sys.stdout.write(text)
    for note in notes:
        print(f"note: {note}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
