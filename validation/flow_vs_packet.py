"""The flow-level engine against the packet-level model, scenario by scenario (issue 36, section 2).

Runs `fabricsim run --engine packet` and `--engine flow` on every preset, example and bench
scenario the flow engine models, and writes docs/validation-flow.md: per scenario the figures
both engines report (collective JCT, busbw and iteration time; FCT slowdown p50/p95/p99;
throughput; the goodput of long-lived flows), the flow engine's error on each, its speed-up, and
the verdict against the targets below. The pytest backend/tests/test_flow_vs_packet.py runs
QUICK and fails when an error grows past its target.

    python -m validation.flow_vs_packet            # every case, writes docs/validation-flow.md
                                                   # and backend/app/runs/flow-errors.json
    python -m validation.flow_vs_packet --check    # every case, writes nothing; exit 1 when the
                                                   # doc's figures or the errors file are stale
    python -m validation.flow_vs_packet --quick    # the quick cases, prints the table

The errors file is what a flow-level run carries beside its figures (GET /runs/{id}/summary,
`flow_error`; app/runs/flow_errors.py): per kind of scenario (collectives on non-blocking or
oversubscribed fabrics, flows), the largest error measured on each figure over the cases whose
figures are in the targets' scope, the cases themselves, and the caveats those cases ran with (a
run with another caveat is outside what was measured).

Targets (issue 36): collective JCT and iteration time within 5 % of the packet model on
non-blocking fabrics, 10 % on oversubscribed ones; long-flow throughput within 5 %. They are
the targets for what the flow engine models: scenarios whose figures depend on what it leaves
out (DCQCN's dynamics, PFC, faults it does not replay) are reported, with the reason, but carry
no verdict ("-"): the same scenario with `nic.cc.algorithm: "none"` is run beside them to show
how much of the gap is the congestion control's.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
BIN = ROOT / "simcore" / "build" / "fabricsim"
DOC = ROOT / "docs" / "validation-flow.md"
ERRORS = ROOT / "backend" / "app" / "runs" / "flow-errors.json"

JCT_TARGET_NONBLOCKING = 0.05
JCT_TARGET_OVERSUBSCRIBED = 0.10
LONG_FLOW_TARGET = 0.05


@dataclass
class Case:
    """One scenario run by both engines."""

    name: str
    scenario: dict
    quick: bool = False
    # why its figures are outside the targets' scope (the flow engine leaves something out)
    out_of_scope: str = ""
    # the flow engine's extra arguments (e.g. ring streams)
    flow_args: list[str] = field(default_factory=list)


def load(path: Path) -> dict:
    doc = json.loads(path.read_text())
    return doc["scenario"] if "scenario" in doc and "schema_version" not in doc else doc


def no_cc(scenario: dict) -> dict:
    s = json.loads(json.dumps(scenario))
    s.setdefault("nic", {})["cc"] = {"algorithm": "none"}
    return s


def flat_ring() -> dict:
    """8 ranks, one per host, on a non-blocking leaf-spine: the textbook ring (flow-engine-test)."""
    return {"schema_version": 1, "name": "flat ring all-reduce, 8 hosts", "duration_us": 20000,
            "nic": {"mtu_bytes": 4096, "cc": {"algorithm": "none"}},
            "topology": {"kind": "leaf_spine", "leaves": 2, "spines": 4, "hosts_per_leaf": 4,
                         "host_rate_gbps": 100, "fabric_rate_gbps": 100, "link_delay_us": 1},
            "traffic": [{"kind": "collective", "op": "all_reduce", "algorithm": "ring",
                         "message_bytes": 33554432}]}


def rail_ring(units: int, servers: int, channels: int, mb: int = 8) -> dict:
    return {"schema_version": 1, "name": f"rail ring {units}x{servers}x8, {channels} ch", "duration_us": 5000,
            "nic": {"mtu_bytes": 4096, "cc": {"algorithm": "none"}},
            "topology": {"kind": "rail_optimized", "units": units, "servers_per_unit": servers,
                         "nics_per_server": 8, "spines": 8, "host_rate_gbps": 400,
                         "fabric_rate_gbps": 400, "link_delay_us": 1},
            "traffic": [{"kind": "collective", "op": "all_reduce", "algorithm": "ring",
                         "message_bytes": mb * 1048576, "channels": channels}]}


# Why a preset's figures are out of the targets' scope (the flow engine runs it, with caveats).
OUT_OF_SCOPE = {
    "01-incast-2to1": "DCQCN on a 2:1 incast: the packet model's rates swing below the fair share",
    "03-fat-tree-k4-websearch": "queueing and DCQCN under a 60 % WebSearch load set the tail",
    "04-three-tier-podsets": "PFC: pauses behind the ECMP collisions slow the flows that share their uplinks",
    "05-dci-100km-perftest": "DCQCN on a 100 km link",
    "06-pfc-alpha-incast": "PFC pauses decide who sends",
    "09-msft-link-failure": "the frames lost at the failure and their recovery",
    "12-msft-pingmesh": "probe RTTs are queueing delays",
    "13-ntt-dci-distance": "DCQCN at distance; the DCI accelerator",
    "14-erd-vs-rc": "loss repair under congestion",
    "15-ai-rail-allreduce": "DCQCN (the tree job's incasts): see the cc none variant",
    "16-ai-moe-alltoall": "DCQCN on the all-to-all's incasts: see the cc none variant",
    "18-ai-link-failure": "frames lost at the failure, recovered after nic.rto_us (1 ms)",
    "19-ai-multi-plane": "the frames lost at the plane link's failure and their recovery",
}
# Presets the flow engine refuses (exit 2, one line naming the field).
REFUSED = {"07-msft-pfc-storm", "08-msft-pfc-storm-watchdogs", "10-msft-deadlock",
           "11-msft-deadlock-cured"}


def cases() -> list[Case]:
    out = [Case("flat ring, 8 hosts", flat_ring(), quick=True),
           Case("rail ring 1x4x8, 1 ch", rail_ring(1, 4, 1), quick=True),
           Case("rail ring 1x16x8, 4 ch", rail_ring(1, 16, 4, 32)),
           Case("rail ring 2x2x8, 1 ch", rail_ring(2, 2, 1, 32))]
    for path in sorted((ROOT / "backend" / "app" / "presets" / "data").glob("*.json")):
        if path.stem in REFUSED:
            continue
        scenario = load(path)
        quick = path.stem == "17-ai-two-jobs"
        out.append(Case(f"preset {path.stem}", scenario, quick=quick,
                        out_of_scope=OUT_OF_SCOPE.get(path.stem, "")))
        if path.stem in ("01-incast-2to1", "03-fat-tree-k4-websearch", "05-dci-100km-perftest",
                         "15-ai-rail-allreduce", "16-ai-moe-alltoall", "17-ai-two-jobs"):
            scope = "queueing sets the tail" if path.stem.startswith("03") else ""
            out.append(Case(f"preset {path.stem}, cc none", no_cc(scenario), out_of_scope=scope,
                            quick=path.stem in ("16-ai-moe-alltoall", "01-incast-2to1")))
    for path in sorted((ROOT / "docs" / "examples" / "valid").glob("*.json")):
        if path.stem == "faults-pfc-storm-watchdogs":
            continue  # refused: a PFC storm
        out.append(Case(f"example {path.stem}", load(path), out_of_scope=example_scope(load(path))))
        if path.stem in ("leaf-spine-incast", "fat-tree-stride-flow-paths", "fat-tree-permutation"):
            out.append(Case(f"example {path.stem}, cc none", no_cc(load(path)),
                            quick=path.stem == "leaf-spine-incast"))
    for path in sorted((ROOT / "bench" / "scenarios").glob("*.json")):
        out.append(Case(f"bench {path.stem}", load(path), out_of_scope="PFC or drops decide the rates"))
    ring = load(ROOT / "bench" / "ai-256-ring.json")
    out.append(Case("bench ai-256-ring", ring))
    out.append(Case("bench ai-256-ring, streams", ring, flow_args=["--collective-streams", "on"]))
    out.append(Case("preset 15-ai-rail-allreduce, streams", load(
        ROOT / "backend" / "app" / "presets" / "data" / "15-ai-rail-allreduce.json"),
        out_of_scope=OUT_OF_SCOPE["15-ai-rail-allreduce"], flow_args=["--collective-streams", "on"]))
    out.append(Case("rail ring 2x2x8, 1 ch, streams", rail_ring(2, 2, 1, 32),
                    flow_args=["--collective-streams", "on"]))
    return out


def example_scope(s: dict) -> str:
    """Why an example's figures are out of scope: what of it the flow engine leaves out."""
    if s.get("faults"):
        return "faults: loss and lost frames' recovery" + (
            ", the DCI accelerator" if "dci" in json.dumps(s["topology"]) else "")
    if s.get("topology", {}).get("accelerator", {}).get("enabled"):
        return "the DCI accelerator"
    if (s.get("nic", {}).get("cc", {}) or {}).get("algorithm") == "none":
        return ""
    return "DCQCN (the default congestion control)"


def run(binary: Path, scenario: dict, engine: str, extra: list[str], tmp: Path) -> dict:
    src = tmp / "scenario.json"
    out = tmp / f"{engine}.json"
    src.write_text(json.dumps(scenario))
    proc = subprocess.run([str(binary), "run", str(src), "--out", str(out), "--engine", engine, *extra],
                          capture_output=True, text=True, timeout=3600, check=False)
    if proc.returncode != 0:
        raise RuntimeError(f"{engine}: {proc.stderr.strip()}")
    return json.loads(out.read_text())


def oversubscription(binary: Path, scenario: dict, tmp: Path) -> float:
    src = tmp / "scenario.json"
    src.write_text(json.dumps(scenario))
    proc = subprocess.run([str(binary), "expand", str(src)], capture_output=True, text=True, check=True)
    return float(json.loads(proc.stdout)["stats"].get("oversubscription", 1.0))


def rel(flow, packet):
    if flow is None or packet is None or packet == 0:
        return None
    return (flow - packet) / packet


def long_flow_goodput(result: dict) -> float | None:
    rates = [f["goodput_after_warmup_gbps"] for f in result["flows"] if f["size_bytes"] == 0]
    return sum(rates) if rates else None


@dataclass
class Row:
    case: str
    metric: str
    packet: float | None
    flow: float | None
    target: float | None  # None: reported only
    scope: str = ""

    @property
    def error(self):
        return rel(self.flow, self.packet)

    @property
    def verdict(self) -> str:
        if self.target is None or self.scope or self.error is None:
            return "-"
        return "PASS" if abs(self.error) <= self.target else "FAIL"


def compare(case: Case, binary: Path = BIN) -> tuple[list[Row], dict]:
    """Runs both engines on the case; the rows of the table and the timings."""
    with tempfile.TemporaryDirectory() as d:
        tmp = Path(d)
        packet = run(binary, case.scenario, "packet", [], tmp)
        flow = run(binary, case.scenario, "flow", case.flow_args, tmp)
        over = oversubscription(binary, case.scenario, tmp)
    jct_target = JCT_TARGET_NONBLOCKING if over <= 1.0 else JCT_TARGET_OVERSUBSCRIBED
    rows = []
    for jp, jf in zip(packet.get("jobs", []), flow.get("jobs", [])):
        label = f"job {jp['name']} ({jp['algorithm']})"
        rows.append(Row(case.name, f"{label} JCT us", jp["jct_us"], jf["jct_us"], jct_target, case.out_of_scope))
        rows.append(Row(case.name, f"{label} busbw Gbit/s", jp["busbw_gbps"], jf["busbw_gbps"], None,
                        case.out_of_scope))
        its_p = [i["time_us"] for i in jp["iterations"] if i["time_us"] is not None]
        its_f = [i["time_us"] for i in jf["iterations"] if i["time_us"] is not None]
        if len(its_p) > 1 and len(its_f) == len(its_p):
            rows.append(Row(case.name, f"{label} mean iteration us", sum(its_p) / len(its_p),
                            sum(its_f) / len(its_f), jct_target, case.out_of_scope))
    sp, sf = packet["summary"]["slowdown"], flow["summary"]["slowdown"]
    if sp["count"] and sf["count"] and not packet.get("jobs"):
        for p in ("p50", "p95", "p99"):
            rows.append(Row(case.name, f"FCT slowdown {p}", sp[p], sf[p], None, case.out_of_scope))
    rows.append(Row(case.name, "throughput Gbit/s", packet["summary"]["throughput_gbps"],
                    flow["summary"]["throughput_gbps"], None, case.out_of_scope))
    gp, gf = long_flow_goodput(packet), long_flow_goodput(flow)
    if gp is not None:
        rows.append(Row(case.name, "long-lived flows' goodput Gbit/s", gp, gf, LONG_FLOW_TARGET,
                        case.out_of_scope))
    timing = {"packet_s": packet["perf"]["wall_s"], "flow_s": flow["perf"]["wall_s"],
              "oversubscription": over,
              "caveats": sorted({c["feature"] for c in flow.get("caveats", [])}),
              "kind": kind_of(bool(flow.get("jobs")), over)}
    return rows, timing


def kind_of(has_jobs: bool, oversubscription: float) -> str:
    """The kind of scenario a measured error applies to (app/runs/flow_errors.py reads it)."""
    if has_jobs:
        return "collective_nonblocking" if oversubscription <= 1.0 else "collective_oversubscribed"
    return "flows"


# The figure of a table row, as the errors file and the run page name it.
FIGURE_KEYS = {"JCT us": "jct_us", "busbw Gbit/s": "busbw_gbps", "mean iteration us": "iteration_us",
               "FCT slowdown p50": "slowdown_p50", "FCT slowdown p95": "slowdown_p95",
               "FCT slowdown p99": "slowdown_p99", "throughput Gbit/s": "throughput_gbps",
               "long-lived flows' goodput Gbit/s": "goodput_gbps"}
KIND_LABELS = {"collective_nonblocking": "collectives on non-blocking fabrics",
               "collective_oversubscribed": "collectives on oversubscribed fabrics",
               "flows": "flows (no collective job)"}


def figure_key(metric: str) -> str:
    return next(key for suffix, key in FIGURE_KEYS.items() if metric.endswith(suffix))


def errors_file(results) -> dict:
    """The measured error per kind of scenario and figure, from the cases in the targets' scope
    (no out-of-scope reason), with the cases listed (backend/tests/test_flow_errors.py holds
    them to docs/validation-flow.md's table)."""
    kinds: dict[str, dict] = {}
    for case, rows, timing in results:
        if case.out_of_scope:
            continue
        kind = kinds.setdefault(timing["kind"], {"label": KIND_LABELS[timing["kind"]],
                                                 "measured_with": set(), "figures": {}})
        kind["measured_with"].update(timing["caveats"])
        for row in rows:
            if row.error is None:
                continue
            figure = kind["figures"].setdefault(figure_key(row.metric), {
                "max_abs_error": 0.0, "target": row.target, "cases": []})
            figure["max_abs_error"] = max(figure["max_abs_error"], round(abs(row.error), 6))
            figure["cases"].append({"case": case.name, "figure": row.metric,
                                    "error": round(row.error, 6)})
    for kind in kinds.values():
        kind["measured_with"] = sorted(kind["measured_with"])
    return {"source": "docs/validation-flow.md (python -m validation.flow_vs_packet)",
            "kinds": dict(sorted(kinds.items()))}


def fmt(x, digits=4):
    if x is None:
        return "-"
    if abs(x) >= 1000:
        return f"{x:,.1f}"
    return f"{x:.{digits}g}"


def table(results: list[tuple[Case, list[Row], dict]]) -> str:
    lines = ["| scenario | figure | packet | flow | error | target | verdict |",
             "|---|---|---|---|---|---|---|"]
    for case, rows, _ in results:
        for r in rows:
            err = "-" if r.error is None else f"{100 * r.error:+.1f} %"
            target = "-" if r.target is None else f"+-{100 * r.target:.0f} %"
            if r.scope:
                target = f"({r.scope})"
            lines.append(f"| {case.name} | {r.metric} | {fmt(r.packet)} | {fmt(r.flow)} | {err} | {target} | "
                         f"{r.verdict} |")
    return "\n".join(lines)


def speed_table(results) -> str:
    lines = ["| scenario | oversubscription | packet wall s | flow wall s | speed-up |",
             "|---|---|---|---|---|"]
    for case, _, t in results:
        speedup = t["packet_s"] / max(t["flow_s"], 1e-6)
        lines.append(f"| {case.name} | {t['oversubscription']:g} | {t['packet_s']:.3f} | "
                     f"{t['flow_s']:.4f} | {speedup:,.0f}x |")
    return "\n".join(lines)


def generated(results) -> str:
    """The doc's generated part up to its speed table (the figures: deterministic)."""
    verdicts = [r.verdict for _, rows, _ in results for r in rows]
    summary = f"**{verdicts.count('PASS')} PASS, {verdicts.count('FAIL')} FAIL**, {verdicts.count('-')} reported."
    return summary + "\n\n## Figures\n\n" + table(results)


def stale(results, doc_text: str, errors_text: str) -> list[str]:
    """What a regeneration would change: the doc's figures (not its timings) and the errors file."""
    out = []
    if generated(results) not in doc_text:
        out.append(f"{DOC.relative_to(ROOT)}: its figures differ from a regeneration")
    if errors_text != errors_json(results):
        out.append(f"{ERRORS.relative_to(ROOT)}: differs from a regeneration")
    return out


def errors_json(results) -> str:
    return json.dumps(errors_file(results), indent=1) + "\n"


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--quick", action="store_true", help="the quick cases only; print, write nothing")
    ap.add_argument("--check", action="store_true",
                    help="write nothing; exit 1 when the doc's figures or the errors file are stale")
    ap.add_argument("--bin", type=Path, default=BIN)
    args = ap.parse_args(argv)
    results = []
    for case in cases():
        if args.quick and not case.quick:
            continue
        rows, timing = compare(case, args.bin)
        results.append((case, rows, timing))
        print(f"{case.name}: " + ", ".join(f"{r.metric} {r.verdict}" for r in rows if r.target), file=sys.stderr)
    if args.quick:
        print(table(results))
        return 0
    text = DOC.read_text() if DOC.exists() else ""
    if args.check:
        problems = stale(results, text, ERRORS.read_text() if ERRORS.exists() else "")
        for problem in problems:
            print(problem, file=sys.stderr)
        return 1 if problems else 0
    head, _, _ = text.partition("<!-- generated -->")
    DOC.write_text(head.rstrip() + "\n\n<!-- generated -->\n\n" + generated(results) +
                   "\n\n## Speed\n\n" + speed_table(results) + "\n")
    ERRORS.write_text(errors_json(results))
    print(generated(results).splitlines()[0])
    return 0


if __name__ == "__main__":
    sys.exit(main())
