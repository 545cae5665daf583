"""How evenly a parallel run's partitions share the events (issue 19: "balanced by ports and
expected load").

    python3 bench/partition_balance.py [--threads 2,4,8] [--duration-us 2000]
                                       [--fabricsim simcore/build/fabricsim]
                                       [--baseline OTHER_FABRICSIM] [--only NAME,...]

Runs each scenario at each thread count and reads `perf.parallel.events_per_partition` from the
result: the events each partition ran. A partition's thread waits at every window's barrier for
the busiest one, so max / mean of those counts bounds the speed-up the cut allows (1.00 = even;
1.50 = the run takes 1.5x as long as an even cut would). The counts are exact and repeatable,
so the figure needs neither a quiet machine nor as many cores as partitions: the 8-partition
cut of a fabric is judged on 2 cores (fabricsim allows up to 4x the cores). Every result is
checked against the 1-thread run's bytes outside `perf` (each build against its own). With
--baseline, each run is repeated with another build (a previous commit's fabricsim) for a
before/after table.

Scenarios: Reference A's first DURATION_US (bench/reference-a.json, its flows cut to that
window), the HPCC benchmark's first DURATION_US (validation/data/hpcc imported by the backend's
importer; skipped when the backend's Python is missing), a k=16 fat tree with WebSearch at 30 %
for 300 us (bench/scale_threads.py's scenario), and the presets fat-tree-k4-websearch,
three-tier-podsets, ai-rail-allreduce and ai-two-jobs.
"""

import argparse
import json
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "bench"))
from scale_threads import busiest_over_mean, fat_tree_scenario, without_perf  # noqa: E402

PRESETS = {
    "fat-tree-k4-websearch": "03-fat-tree-k4-websearch.json",
    "three-tier-podsets": "04-three-tier-podsets.json",
    "ai-rail-allreduce": "15-ai-rail-allreduce.json",
    "ai-two-jobs": "17-ai-two-jobs.json",
}


def cut_to(doc: dict, duration_us: float) -> dict:
    doc = dict(doc)
    doc["duration_us"] = duration_us
    traffic = []
    for gen in doc.get("traffic", []):
        if gen.get("kind") == "flows":
            gen = dict(gen)
            gen["flows"] = [f for f in gen["flows"] if f.get("start_us", 0) < duration_us]
        traffic.append(gen)
    doc["traffic"] = traffic
    return doc


def hpcc_scenario(tmp: Path) -> dict | None:
    py = ROOT / ".venv" / "bin" / "python"
    if not py.exists():
        return None
    data = ROOT / "validation" / "data" / "hpcc"
    out = tmp / "hpcc.json"
    proc = subprocess.run(
        [str(py), "-m", "app.scenarios.importers.hpcc", "--topology", str(data / "topology-fat.txt"),
         "--flows", str(data / "flows-websearch30.txt"), "--config", str(data / "config-dcqcn.txt"),
         "--name", "HPCC benchmark", "-o", str(out)],
        cwd=ROOT / "backend", capture_output=True, text=True)
    if proc.returncode != 0:
        print(f"# HPCC import skipped: {proc.stderr.strip()[-200:]}", file=sys.stderr)
        return None
    return json.loads(out.read_text())


def scenarios(tmp: Path, duration_us: float) -> dict[str, dict]:
    out: dict[str, dict] = {}
    ref_a = json.loads((ROOT / "bench" / "reference-a.json").read_text())
    out["reference-a"] = cut_to(ref_a, duration_us)
    hpcc = hpcc_scenario(tmp)
    if hpcc is not None:
        out["hpcc-benchmark"] = cut_to(hpcc, duration_us)
    out["fat-tree-k16"] = fat_tree_scenario(16, 0.3, 300.0, 1)
    for name, file in PRESETS.items():
        doc = json.loads((ROOT / "backend" / "app" / "presets" / "data" / file).read_text())
        out[name] = doc["scenario"]
    return out


def run(binary: Path, scenario: Path, out: Path, threads: int) -> dict:
    proc = subprocess.run([str(binary), "run", str(scenario), "--out", str(out),
                           "--threads", str(threads)], capture_output=True, text=True)
    if proc.returncode != 0:
        sys.exit(f"{binary} --threads {threads} on {scenario.name} failed: {proc.stderr.strip()}")
    parallel = json.loads(out.read_bytes())["perf"].get("parallel", {})
    return {"partitions": parallel.get("partitions", 1), "cut_links": parallel.get("cut_links", 0),
            "events_per_partition": parallel.get("events_per_partition") or [],
            "max_over_mean": busiest_over_mean(parallel)}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    ap.add_argument("--threads", default="2,4,8")
    ap.add_argument("--duration-us", type=float, default=2000.0)
    ap.add_argument("--fabricsim", default=str(ROOT / "simcore" / "build" / "fabricsim"))
    ap.add_argument("--baseline", help="another build's fabricsim, run beside it")
    ap.add_argument("--only", help="comma-separated scenario names")
    args = ap.parse_args()
    threads = [int(t) for t in args.threads.split(",")]
    builds = [("new", Path(args.fabricsim))]
    if args.baseline:
        builds.insert(0, ("baseline", Path(args.baseline)))
    rows = []
    with tempfile.TemporaryDirectory() as tmpdir:
        tmp = Path(tmpdir)
        chosen = scenarios(tmp, args.duration_us)
        if args.only:
            keep = set(args.only.split(","))
            chosen = {k: v for k, v in chosen.items() if k in keep}
        for name, doc in chosen.items():
            scen = tmp / f"{name}.json"
            scen.write_text(json.dumps(doc))
            reference = {}
            for label, binary in builds:
                one = tmp / f"{name}-{label}-1.json"
                run(binary, scen, one, 1)
                reference[label] = without_perf(one)
            for n in threads:
                for label, binary in builds:
                    out = tmp / f"{name}-{label}-{n}.json"
                    row = {"scenario": name, "build": label, "threads": n, **run(binary, scen, out, n)}
                    row["same_bytes_as_1_thread"] = without_perf(out) == reference[label]
                    if not row["same_bytes_as_1_thread"]:
                        sys.exit(f"{name} at {n} threads ({label}) differs from 1 thread")
                    rows.append(row)
                    print(json.dumps(row), flush=True)
    print()
    head = "| scenario | threads | " + " | ".join(
        f"{label}: partitions, max/mean events" for label, _ in builds) + " |"
    print(head)
    print("|---|---|" + "---|" * len(builds))
    for name in dict.fromkeys(r["scenario"] for r in rows):
        for n in threads:
            cells = []
            for label, _ in builds:
                r = next(x for x in rows if x["scenario"] == name and x["threads"] == n
                         and x["build"] == label)
                cells.append(f"{r['partitions']}, {r['max_over_mean']:.3f}")
            print(f"| {name} | {n} | " + " | ".join(cells) + " |")


if __name__ == "__main__":
    main()
