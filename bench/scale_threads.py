"""The parallel engine's thread-scaling curve (issue 19): one scenario at 1, 2, 4, ... threads.

    python3 bench/scale_threads.py [--k 16] [--load 0.3] [--duration-us 500]
                                   [--threads 1,2,4,8,16] [--repeats 1] [--scenario FILE]
                                   [--fabricsim simcore/build/fabricsim] [--out DIR]

Default scenario: a k=16 fat tree (1,024 hosts, 320 switches, 100 Gbit/s, 1 us links) with
WebSearch at 30 % load, seed 1. Each thread count runs `fabricsim run --threads N` (the same
binary, one run at a time, nothing else should run on the machine), and the script checks
every result is the same bytes outside `perf` as the 1-thread one. Prints one JSON line per
run (threads, partitions, wall_s, cpu_s, speedup over 1 thread, events/s, windows, frames
between partitions, the busiest partition's events over the mean) and a markdown table for
docs/benchmarks.md, with the machine's cores and load average. A fabric of 2,048 ports or more
runs in partitions of about 384 ports at every thread count, 1 included (docs/model.md, "A large
fabric runs in partitions"), so the speedup is the threads' alone; with FABRICSIM_PARTITIONS=1 in
the environment one thread runs the fabric whole, as the curves before 2026-11-27 (fourth session)
did. Needs only Python 3 and a built
simulator (scripts/setup.sh or cmake), so it runs as it is on a machine lent for the
measurement.
"""

import argparse
import json
import os
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def fat_tree_scenario(k: int, load: float, duration_us: float, seed: int) -> dict:
    return {
        "schema_version": 1,
        "name": f"k={k} fat tree, WebSearch at {load:.0%} (bench/scale_threads.py)",
        "seed": seed,
        "duration_us": duration_us,
        "topology": {"kind": "fat_tree", "k": k, "host_rate_gbps": 100,
                     "fabric_rate_gbps": 100, "link_delay_us": 1},
        "traffic": [{"kind": "workload", "distribution": "websearch", "load": load}],
    }


def without_perf(path: Path) -> bytes:
    doc = json.loads(path.read_bytes())
    doc.pop("perf", None)
    return json.dumps(doc, sort_keys=True).encode()


def run_once(binary: Path, scenario: Path, out: Path, threads: int) -> dict:
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.monotonic()
    proc = subprocess.run([str(binary), "run", str(scenario), "--out", str(out),
                           "--threads", str(threads)], capture_output=True, text=True)
    wall = time.monotonic() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if proc.returncode != 0:
        sys.exit(f"fabricsim --threads {threads} failed ({proc.returncode}): {proc.stderr.strip()}")
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    result = json.loads(out.read_bytes())
    parallel = result["perf"].get("parallel", {})
    return {"threads": threads, "partitions": parallel.get("partitions", 1),
            "wall_s": round(wall, 3), "cpu_s": round(cpu, 3),
            "events": result["run_info"]["events"],
            "events_per_s": round(result["run_info"]["events"] / wall),
            "windows": parallel.get("windows", 0),
            "frames_between_partitions": parallel.get("frames_between_partitions", 0),
            "busiest_partition_over_mean": busiest_over_mean(parallel),
            "peak_rss_mb": result["perf"].get("peak_rss_mb")}


def busiest_over_mean(parallel: dict) -> float:
    """Events of the busiest partition over the mean (1.0 = even; bench/partition_balance.py)."""
    events = parallel.get("events_per_partition") or []
    return round(max(events) * len(events) / sum(events), 3) if events and sum(events) else 1.0


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--k", type=int, default=16)
    ap.add_argument("--load", type=float, default=0.3)
    ap.add_argument("--duration-us", type=float, default=500)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--threads", default="1,2,4,8,16")
    ap.add_argument("--repeats", type=int, default=1, help="runs per thread count (min wall kept)")
    ap.add_argument("--scenario", type=Path, help="a scenario file instead of the fat tree")
    ap.add_argument("--fabricsim", type=Path, default=ROOT / "simcore/build/fabricsim")
    ap.add_argument("--out", type=Path, help="keep scenario and results here")
    args = ap.parse_args()
    counts = sorted({int(t) for t in args.threads.split(",")} | {1})
    work = args.out or Path(tempfile.mkdtemp(prefix="scale-threads-"))
    work.mkdir(parents=True, exist_ok=True)
    scenario = args.scenario
    if scenario is None:
        scenario = work / "scenario.json"
        scenario.write_text(json.dumps(
            fat_tree_scenario(args.k, args.load, args.duration_us, args.seed), indent=1))
    rows = []
    reference = None
    for threads in counts:
        best = None
        for rep in range(args.repeats):
            out = work / f"result-{threads}-{rep}.json"
            row = run_once(args.fabricsim, scenario, out, threads)
            same = without_perf(out)
            if reference is None:
                reference = same
            row["same_bytes_as_1_thread"] = same == reference
            if best is None or row["wall_s"] < best["wall_s"]:
                best = row
        rows.append(best)
    base = rows[0]["wall_s"]
    for row in rows:
        row["speedup"] = round(base / row["wall_s"], 2) if row["wall_s"] > 0 else None
        print(json.dumps(row), flush=True)
    load1, _, _ = os.getloadavg()
    print(f"\nmachine: {os.cpu_count()} cores, load average {load1:.2f} after the runs; "
          f"scenario {scenario}")
    print("| threads | partitions | busiest / mean events | wall s | CPU s | speedup | events/s "
          "| same bytes |")
    print("|---|---|---|---|---|---|---|---|")
    for r in rows:
        print(f"| {r['threads']} | {r['partitions']} | {r['busiest_partition_over_mean']:.3f} | "
              f"{r['wall_s']} | {r['cpu_s']} | {r['speedup']}x | {r['events_per_s']:,} | "
              f"{'yes' if r['same_bytes_as_1_thread'] else 'NO'} |")
    if not all(r["same_bytes_as_1_thread"] for r in rows):
        sys.exit("results differ between thread counts")


if __name__ == "__main__":
    main()
