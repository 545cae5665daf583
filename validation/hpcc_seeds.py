"""The HPCC benchmark's slowdown percentiles over several ECMP seeds: is the reference's p99
inside our seed-to-seed spread?

    python -m validation.hpcc_seeds SCENARIO.json OUT_DIR [--seeds 0 1 2 3 4] [--jobs 2]
        [--set KEY=JSON ...]

SCENARIO.json is the imported benchmark (validation/hpcc_run.sh writes it). For each seed the
scenario's `switch.ecmp_seed` is set (nothing else changes: the same flows, the same marking
stream), `fabricsim run` runs it (at most --jobs at a time), and validation/hpcc_compare.py
compares it with the reference. `--set nic.ack_bytes=60` edits the scenario the same way for
every seed (an A/B of a model choice). Writes OUT_DIR/seeds.json and prints a markdown table.
The seeds are a fixed list chosen before looking at the results: never pick one to pass.
"""

import argparse
import json
import os
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import numpy as np

from validation.hpcc_compare import ROOT, compare


def fabricsim() -> str:
    return os.environ.get("FABRICSIM_BIN", str(ROOT / "simcore" / "build" / "fabricsim"))


def apply_setting(scenario: dict, assignment: str) -> None:
    key, _, value = assignment.partition("=")
    *parents, leaf = key.split(".")
    node = scenario
    for p in parents:
        node = node.setdefault(p, {})
    node[leaf] = json.loads(value)


def run_seed(scenario: dict, seed: int, out: Path, data: Path) -> dict:
    out.mkdir(parents=True, exist_ok=True)
    doc = json.loads(json.dumps(scenario))
    doc["switch"]["ecmp_seed"] = seed
    (out / "scenario.json").write_text(json.dumps(doc))
    if not (out / "result.json").exists():  # a run already made (e.g. by hpcc_run.sh) is reused
        subprocess.run([fabricsim(), "run", str(out / "scenario.json"), "--out", str(out / "result.json")],
                       check=True, capture_output=True, text=True)
    c = compare(json.loads((out / "result.json").read_text()), data)
    (out / "compare.json").write_text(json.dumps(c, indent=1) + "\n")
    s = c["slowdown_ours"]
    return {"ecmp_seed": seed, "p50": s["p50"], "p95": s["p95"], "p99": s["p99"],
            "completed": c["ours_completed"], "all_pass": c["all_pass"]}


def summary(rows: list[dict], reference: dict) -> dict:
    out = {}
    for key in ("p50", "p95", "p99", "completed"):
        values = np.array([r[key] for r in rows], dtype=float)
        out[key] = {"min": float(values.min()), "max": float(values.max()),
                    "mean": float(values.mean()), "std": float(values.std(ddof=1)) if len(values) > 1 else 0.0,
                    "reference": reference[key],
                    "reference_inside": bool(values.min() <= reference[key] <= values.max())}
    return out


def markdown(rows: list[dict], s: dict) -> str:
    lines = ["| switch.ecmp_seed | p50 | p95 | p99 | completed | all four targets |", "|---|---|---|---|---|---|"]
    for r in rows:
        lines.append(f"| {r['ecmp_seed']} | {r['p50']:.3f} | {r['p95']:.3f} | {r['p99']:.3f} | "
                     f"{r['completed']:,} | {'PASS' if r['all_pass'] else 'FAIL'} |")
    lines.append("| min .. max (mean +- sd) | " + " | ".join(
        f"{s[k]['min']:.3f} .. {s[k]['max']:.3f} ({s[k]['mean']:.3f} +- {s[k]['std']:.3f})"
        for k in ("p50", "p95", "p99")) + f" | {s['completed']['min']:,.0f} .. {s['completed']['max']:,.0f} | |")
    lines.append("| reference | " + " | ".join(f"{s[k]['reference']:.3f}" for k in ("p50", "p95", "p99"))
                 + f" | {s['completed']['reference']:,} | |")
    return "\n".join(lines) + "\n"


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("scenario", type=Path)
    parser.add_argument("out", type=Path)
    parser.add_argument("--seeds", type=int, nargs="+", default=[0, 1, 2, 3, 4])
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--set", action="append", default=[], dest="settings")
    parser.add_argument("--data", type=Path, default=ROOT / "validation" / "data" / "hpcc")
    args = parser.parse_args(argv)
    scenario = json.loads(args.scenario.read_text())
    for assignment in args.settings:
        apply_setting(scenario, assignment)
    with ThreadPoolExecutor(max_workers=max(1, args.jobs)) as pool:
        rows = list(pool.map(lambda s: run_seed(scenario, s, args.out / f"ecmp-{s}", args.data), args.seeds))
    first = json.loads((args.out / f"ecmp-{args.seeds[0]}" / "compare.json").read_text())
    reference = {**{k: first["slowdown_reference"][k] for k in ("p50", "p95", "p99")},
                 "completed": first["reference_completed"]}
    s = summary(rows, reference)
    (args.out / "seeds.json").write_text(json.dumps({"settings": args.settings, "runs": rows,
                                                      "summary": s}, indent=1) + "\n")
    sys.stdout.write(markdown(rows, s))
    return 0


if __name__ == "__main__":
    sys.exit(main())
