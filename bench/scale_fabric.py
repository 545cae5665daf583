"""Cost per event against fabric size on one thread (issue 19, section 3): fat trees k=8, 16, 32.

    python3 bench/scale_fabric.py [--k 8,16,32] [--load 0.3] [--duration-us 200] [--repeats 1]
                                  [--rounds 1] [--fabricsim simcore/build/fabricsim]
                                  [--baseline OTHER_FABRICSIM] [--baseline-partitions N]
                                  [--cache-sim K,...]
                                  [--l2-bytes 1048576]

Each k: the fat tree of bench/scale_threads.py (k^3/4 hosts, 100 Gbit/s, 1 us links) with
WebSearch at 30 % load, seed 1, run by `fabricsim run --threads 1`. Prints one JSON line per run
(events, CPU seconds, events per CPU second, peak RSS) and, per k, the events per CPU second
relative to the smallest k. --rounds R goes over all k R times, --repeats runs per k and
round (one number, or one per k: "--k 8,32 --repeats 5,1 --rounds 3" measures k=8's 50 ms runs
five times to each k=32 run, in turn, so that both sides of the ratio see the same machine; the
least CPU of each k is kept, the median shown beside it). With --baseline, the other binary runs the same scenario right after
each run of ours (interleaved, so both see the same machine) and the line gives both, the ratio
and the baseline's own events per CPU second relative to its smallest k; their results must be the same bytes outside `perf` (checked).
--baseline-partitions N runs the baseline with FABRICSIM_PARTITIONS=N: "--baseline
simcore/build/fabricsim --baseline-partitions 1" measures a large fabric split into partitions
(the rule, docs/model.md) against the same build running it whole.

CPU time on a shared virtual machine moves with its neighbours; the exact, repeatable measure of
what grows with the fabric is the cache misses per event: --cache-sim K,... runs those k once
more under valgrind's callgrind with its cache simulation (first level as the machine's, second
level --l2-bytes, 16-way) and reports instructions, first-level and second-level data misses per
event (slow: about 100x a plain run; k=16 at 200 us takes about two minutes). Needs Python 3, a
built simulator and, for --cache-sim, valgrind.
"""

import argparse
import json
import os
import re
import resource
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "bench"))
from scale_threads import fat_tree_scenario, without_perf  # noqa: E402


def run(binary: Path, scenario: Path, out: Path, env: dict | None = None) -> dict:
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    proc = subprocess.run([str(binary), "run", str(scenario), "--out", str(out), "--threads", "1"],
                          capture_output=True, text=True, env=env)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if proc.returncode != 0:
        sys.exit(f"{binary} failed ({proc.returncode}): {proc.stderr.strip()}")
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    result = json.loads(out.read_bytes())
    events = result["run_info"]["events"]
    return {"cpu_s": round(cpu, 3), "events": events, "events_per_cpu_s": round(events / cpu),
            "peak_rss_mb": result["perf"].get("peak_rss_mb")}


def cache_sim(binary: Path, scenario: Path, out: Path, l2_bytes: int) -> dict:
    cg = out.with_suffix(".callgrind")
    proc = subprocess.run(["valgrind", "--tool=callgrind", "--cache-sim=yes",
                           f"--LL={l2_bytes},16,64", f"--callgrind-out-file={cg}",
                           str(binary), "run", str(scenario), "--out", str(out)],
                          capture_output=True, text=True)
    if proc.returncode != 0:
        sys.exit(f"callgrind failed ({proc.returncode}): {proc.stderr.strip()[-400:]}")
    m = re.search(r"Collected : ([\d ]+)", proc.stderr)
    # Ir Dr Dw I1mr D1mr D1mw ILmr DLmr DLmw
    ir, _dr, _dw, _i1, d1r, d1w, _il, dlr, dlw = (int(x) for x in m.group(1).split())
    events = json.loads(out.read_bytes())["run_info"]["events"]
    cg.unlink(missing_ok=True)
    return {"events": events, "instructions_per_event": round(ir / events),
            "l1d_misses_per_event": round((d1r + d1w) / events, 2),
            "l2_misses_per_event": round((dlr + dlw) / events, 2),
            "l2_read_misses_per_event": round(dlr / events, 2)}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--k", default="8,16,32")
    ap.add_argument("--load", type=float, default=0.3)
    ap.add_argument("--duration-us", type=float, default=200)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--repeats", default="1",
                    help="runs per k and round (least CPU kept): one number, or one per --k "
                         "(\"5,1\": five k=8 runs to each k=32 run)")
    ap.add_argument("--rounds", type=int, default=1,
                    help="rounds over all k: k=8 and k=32 measured in turn, so a change in the "
                         "machine's speed reaches both (the ratio's two sides)")
    ap.add_argument("--fabricsim", type=Path, default=ROOT / "simcore/build/fabricsim")
    ap.add_argument("--baseline", type=Path, help="another fabricsim, run interleaved")
    ap.add_argument("--baseline-partitions", type=int,
                    help="FABRICSIM_PARTITIONS for the baseline's runs only (1: the whole fabric; "
                         "with --baseline simcore/build/fabricsim, split against whole in one build)")
    ap.add_argument("--cache-sim", default="", help="k values to run under callgrind too")
    ap.add_argument("--l2-bytes", type=int, default=1 << 20)
    args = ap.parse_args()
    ks = [int(k) for k in args.k.split(",") if k]
    reps = [int(r) for r in args.repeats.split(",") if r]
    reps = reps * len(ks) if len(reps) == 1 else reps
    if len(reps) != len(ks) or min(reps) < 1 or args.rounds < 1:
        sys.exit("--repeats: one number >= 1, or one per --k; --rounds >= 1")
    if args.baseline_partitions is not None and (not args.baseline or args.baseline_partitions < 1):
        sys.exit("--baseline-partitions: an integer >= 1, with --baseline")
    base_env = None
    if args.baseline_partitions is not None:
        base_env = dict(os.environ, FABRICSIM_PARTITIONS=str(args.baseline_partitions))
    cache_ks = [int(k) for k in args.cache_sim.split(",") if k]
    print(json.dumps({"cpus": os.cpu_count(), "load_average": os.getloadavg()}))
    first = None
    first_base = None
    with tempfile.TemporaryDirectory() as tmp:
        work = Path(tmp)
        ours_by_k = {k: [] for k in ks}
        theirs_by_k = {k: [] for k in ks}
        for k in ks:
            (work / f"k{k}.json").write_text(json.dumps(fat_tree_scenario(k, args.load,
                                                                          args.duration_us,
                                                                          args.seed)))
        for _ in range(args.rounds):
            for k, n in zip(ks, reps):
                scen = work / f"k{k}.json"
                for _ in range(n):
                    ours_by_k[k].append(run(args.fabricsim, scen, work / "ours.json"))
                    if args.baseline:
                        theirs_by_k[k].append(run(args.baseline, scen, work / "base.json",
                                                  base_env))
                        if without_perf(work / "ours.json") != without_perf(work / "base.json"):
                            sys.exit(f"k={k}: the two builds' results differ outside perf")
        for k in ks:
            scen = work / f"k{k}.json"
            ours, theirs = ours_by_k[k], theirs_by_k[k]
            best = min(ours, key=lambda r: r["cpu_s"])
            line = {"k": k, "hosts": k ** 3 // 4, "duration_us": args.duration_us, **best,
                    "runs": len(ours), "median_cpu_s": round(statistics.median(r["cpu_s"] for r in ours), 3)}
            if first is None:
                first = best["events_per_cpu_s"]
            line["relative_to_first_k"] = round(best["events_per_cpu_s"] / first, 3)
            if theirs:
                b = min(theirs, key=lambda r: r["cpu_s"])
                if first_base is None:
                    first_base = b["events_per_cpu_s"]
                line["baseline_cpu_s"] = b["cpu_s"]
                line["baseline_events_per_cpu_s"] = b["events_per_cpu_s"]
                line["baseline_relative_to_first_k"] = round(b["events_per_cpu_s"] / first_base, 3)
                line["baseline_over_ours"] = round(b["cpu_s"] / best["cpu_s"], 3)
            line["load_average"] = round(os.getloadavg()[0], 2)
            print(json.dumps(line), flush=True)
            if k in cache_ks:
                sim = {"k": k, "cache_sim": "ours",
                       **cache_sim(args.fabricsim, scen, work / "cs.json", args.l2_bytes)}
                print(json.dumps(sim), flush=True)
                if args.baseline:
                    sim = {"k": k, "cache_sim": "baseline",
                           **cache_sim(args.baseline, scen, work / "cs.json", args.l2_bytes)}
                    print(json.dumps(sim), flush=True)


if __name__ == "__main__":
    main()
