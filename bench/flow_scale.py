"""The flow-level engine at scale (issue 36, section 4): rail-optimized ring all-reduces of 1 GiB
from 4,096 to 65,536 GPUs on one core, and the 256-GPU ring both engines run.

    python3 bench/flow_scale.py [--fabricsim simcore/build/fabricsim] [--repeats 3] [--units 2,8,32]

Each point: `fabricsim run --engine flow` (rings of more than a million transfers run as streams,
docs/model.md "Flow-level engine") of bench/flow-65536-ring.json with `units` scalable units of
256 servers of 8 GPUs (256 spines, 400G, MTU 4096), timed from outside (wall and CPU of the whole
process: parsing, topology, routes, the run and the result) with its peak RSS; the least wall of
the repeats is kept. Then bench/ai-256-ring.json on both engines (the flow engine transfer by
transfer and as streams) for the speed-up. Prints a markdown table (docs/benchmarks.md, "Flow-level
engine"). Needs Python 3 and a built simulator.
"""

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def timed(cmd: list[str]) -> tuple[float, float, float]:
    """Wall s, CPU s and peak RSS MB of one child process (its own rusage, from wait4)."""
    start = time.perf_counter()
    proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    _, status, usage = os.wait4(proc.pid, 0)
    wall = time.perf_counter() - start
    if os.waitstatus_to_exitcode(status) != 0:
        raise RuntimeError(proc.stderr.read().decode())
    return wall, usage.ru_utime + usage.ru_stime, usage.ru_maxrss / 1024.0


def run_point(binary: str, scenario: dict, engine: str, extra: list[str], repeats: int, tmp: Path):
    src = tmp / "s.json"
    out = tmp / "r.json"
    src.write_text(json.dumps(scenario))
    best = None
    for _ in range(repeats):
        wall, cpu, rss = timed([binary, "run", str(src), "--out", str(out), "--engine", engine, *extra])
        if best is None or wall < best[0]:
            best = (wall, cpu, rss)
    result = json.loads(out.read_text())
    return best, result


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--fabricsim", default=str(ROOT / "simcore" / "build" / "fabricsim"))
    ap.add_argument("--repeats", type=int, default=3)
    ap.add_argument("--units", default="2,8,32")
    args = ap.parse_args()
    base = json.loads((ROOT / "bench" / "flow-65536-ring.json").read_text())
    print("| GPUs | units | transfers | engine | wall s | CPU s | peak RSS MB | JCT us | busbw Gbit/s | ideal |")
    print("|---|---|---|---|---|---|---|---|---|---|")
    with tempfile.TemporaryDirectory() as d:
        tmp = Path(d)
        for units in (int(u) for u in args.units.split(",")):
            s = json.loads(json.dumps(base))
            s["topology"]["units"] = units
            (wall, cpu, rss), r = run_point(args.fabricsim, s, "flow", [], args.repeats, tmp)
            j = r["jobs"][0]
            gpus = units * 256 * 8
            print(f"| {gpus:,} | {units} | {j['flows']:,} | flow (streams) | {wall:.2f} | {cpu:.2f} | {rss:.0f} | "
                  f"{j['jct_us']:,.1f} | {j['busbw_gbps']:.1f} | {j['ideal_busbw_gbps']:.1f} |")
            sys.stdout.flush()
        ring = json.loads((ROOT / "bench" / "ai-256-ring.json").read_text())
        for engine, extra, label in (("packet", [], "packet"), ("flow", [], "flow (transfers)"),
                                     ("flow", ["--collective-streams", "on"], "flow (streams)")):
            (wall, cpu, rss), r = run_point(args.fabricsim, ring, engine, extra, 1 if engine == "packet" else args.repeats, tmp)
            j = r["jobs"][0]
            print(f"| 256 | ai-256-ring | {j['flows']:,} | {label} | {wall:.2f} | {cpu:.2f} | {rss:.0f} | "
                  f"{j['jct_us']:,.1f} | {j['busbw_gbps']:.1f} | {j['ideal_busbw_gbps']:.1f} |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
