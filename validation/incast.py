"""N-to-1 incast of long-lived DCQCN flows through the packet model (fabricsim), measured the way
the fluid model is read: mean bottleneck queue, utilization, Jain fairness, goodput per ms."""

from __future__ import annotations

import json
import os
import subprocess
import tempfile
from dataclasses import dataclass
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
WIRE_OVERHEAD_BYTES = 82


def fabricsim_path() -> Path:
    return Path(os.environ.get("FABRICSIM_BIN", REPO / "simcore" / "build" / "fabricsim"))


@dataclass(frozen=True)
class IncastSpec:
    """The DCQCN paper's set-up: 40 Gbit/s hosts on one switch, Kmin 5 KB, Kmax 200 KB, Pmax 1 %,
    the `dcqcn-paper` preset (g 1/256, 55 us timers, 10 MB byte counter, F 5, Rai 40 Mbit/s),
    CNP interval 50 us."""

    n: int
    duration_ms: float = 100.0
    warmup_ms: float = 20.0
    seed: int = 1
    mark_point: str = "enqueue"
    cnp_mode: str = "window"
    cc: tuple = ()  # extra nic.cc fields as (key, value) pairs
    pfc: tuple = ()  # extra switch.pfc fields as (key, value) pairs
    rate_gbps: float = 40.0
    mtu_bytes: int = 1000

    def scenario(self) -> dict:
        cc = {"preset": "dcqcn-paper", **dict(self.cc)}
        return {
            "schema_version": 1,
            "name": f"{self.n}-to-1 DCQCN incast at {self.rate_gbps:g}G",
            "seed": self.seed,
            "duration_us": self.duration_ms * 1000,
            "warmup_us": self.warmup_ms * 1000,
            "topology": {"kind": "leaf_spine", "leaves": 1, "spines": 1,
                         "hosts_per_leaf": self.n + 1, "host_rate_gbps": self.rate_gbps,
                         "fabric_rate_gbps": 100, "link_delay_us": 1},
            "switch": {"ecn": {"kmin_bytes": 5000, "kmax_bytes": 200000, "pmax": 0.01},
                       "ecn_mark_point": self.mark_point, **({"pfc": dict(self.pfc)} if self.pfc else {})},
            "nic": {"mtu_bytes": self.mtu_bytes, "cc": cc, "cnp_interval_us": 50,
                    "cnp_mode": self.cnp_mode},
            "traffic": [{"kind": "incast", "senders": [f"h{i}" for i in range(1, self.n + 1)],
                         "receiver": "h0", "size_bytes": 0}],
            "monitor": {"sample_interval_us": 1000, "queues": ["leaf0->h0"],
                        "flows": list(range(self.n))},
        }


@dataclass(frozen=True)
class IncastResult:
    n: int
    mean_queue_bytes: float
    max_queue_bytes: float
    utilization: float
    jain: float
    worst_ms_goodput: float  # fraction of the payload line rate, every ms after the first
    worst_ms_at: float       # end of that ms (ms)
    per_ms_goodput: tuple
    max_queue_whole_run: float = 0.0
    pauses: int = 0


def jain_index(values) -> float:
    values = list(values)
    total = sum(values)
    squares = sum(v * v for v in values)
    return total * total / (len(values) * squares) if squares > 0 else 0.0


def analyze(result: dict, spec: IncastSpec) -> IncastResult:
    summary, series = result["summary"], result["series"]
    queue = next(q for q in summary["queues"] if q["queue"] == "leaf0->h0")
    util = next(u["utilization"] for u in summary["link_utilization"] if u["link"] == "leaf0->h0")
    rates = series["flow_rates_gbps"]
    t_us = series["t_us"]
    payload_line = spec.rate_gbps * spec.mtu_bytes / (spec.mtu_bytes + WIRE_OVERHEAD_BYTES)
    # the sample at t covers the interval (t - 1 ms, t]; the first millisecond is exempt
    per_ms = [sum(rates[k][i] for k in rates) / payload_line for i in range(len(t_us))
              if t_us[i] >= 2000]
    worst = min(range(len(per_ms)), key=per_ms.__getitem__)
    after = [i for i, t in enumerate(t_us) if t > spec.warmup_ms * 1000]
    means = [sum(rates[k][i] for i in after) / len(after) for k in rates]
    return IncastResult(spec.n, queue["mean_bytes"], queue["max_bytes"], util, jain_index(means),
                        per_ms[worst], 2.0 + worst, tuple(per_ms), queue["max_bytes_whole_run"],
                        summary["pfc_pauses_sent"])


def run_incast(spec: IncastSpec) -> IncastResult:
    """Runs fabricsim on the scenario (the command users run) and measures it."""
    with tempfile.TemporaryDirectory(prefix="ft-incast-") as tmp:
        scenario = Path(tmp) / "scenario.json"
        out = Path(tmp) / "result.json"
        scenario.write_text(json.dumps(spec.scenario()))
        proc = subprocess.run([str(fabricsim_path()), "run", str(scenario), "--out", str(out)],
                              capture_output=True, text=True, timeout=600)
        if proc.returncode != 0:
            raise RuntimeError(f"fabricsim failed ({proc.returncode}): {proc.stderr.strip()}")
        return analyze(json.loads(out.read_text()), spec)
