"""Speed of fault-free runs, today's build against an older one, side by side (issue 9: "a run
without faults must stay exactly as fast as today").

    # the commit before faults landed, built apart (slow: one core)
    git worktree add --detach /tmp/before 68e6d47
    cmake -S /tmp/before/simcore -B /tmp/before/simcore/build -G Ninja -DCMAKE_BUILD_TYPE=Release
    cmake --build /tmp/before/simcore/build -j1 --target fabricsim
    python3 bench/fault_free_speed.py --before /tmp/before/simcore/build/fabricsim [--reps 5]

Runs every fault-free benchmark scenario (bench/scenarios/*.json, docs/examples/valid/*.json and
the presets without `faults`, Reference A cut to 1 ms; runs under --min-events skipped, their CPU
time being mostly start-up) with both binaries, alternating which goes first, and reports simulated events
per CPU second (user + system time of the child: steadier than wall time on a shared machine)
as the median over the repetitions, and the ratio today / before. A scenario the older reader
refuses (a field added since) is listed as such. Without --before it reports today's build only.
"""

import argparse
import json
import resource
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
TODAY = ROOT / "simcore" / "build" / "fabricsim"


def scenarios(workdir: Path, reference_a_us: float) -> list[Path]:
    """The fault-free scenarios: bench/, docs/examples/valid/, the presets (their `scenario`),
    and Reference A cut to `reference_a_us` of simulated time (the per-packet path at scale)."""
    candidates = sorted((ROOT / "bench" / "scenarios").glob("*.json"))
    candidates += sorted((ROOT / "docs" / "examples" / "valid").glob("*.json"))
    for preset in sorted((ROOT / "backend" / "app" / "presets" / "data").glob("*.json")):
        target = workdir / f"preset-{preset.name}"
        target.write_text(json.dumps(json.loads(preset.read_text())["scenario"]))
        candidates.append(target)
    if reference_a_us:
        reference = json.loads((ROOT / "bench" / "reference-a.json").read_text())
        reference["duration_us"] = reference_a_us
        target = workdir / f"reference-a-{reference_a_us:g}us.json"
        target.write_text(json.dumps(reference))
        candidates.append(target)
    return [p for p in candidates if not json.loads(p.read_text()).get("faults")]


def run_once(binary: Path, scenario: Path) -> dict | str:
    """{'events', 'cpu_s'} of one run, or the first error line when the binary refuses it."""
    with tempfile.TemporaryDirectory() as tmp:
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        proc = subprocess.run([str(binary), "run", str(scenario), "--out", f"{tmp}/r.json"],
                              capture_output=True, text=True, timeout=1800, check=False)
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        if proc.returncode != 0:
            return (proc.stderr.strip().splitlines() or [f"exit {proc.returncode}"])[0][:120]
        result = json.loads(Path(f"{tmp}/r.json").read_text())
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return {"events": result["run_info"]["events"], "cpu_s": cpu,
            "wall_s": result["perf"]["wall_s"]}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--before", type=Path, help="fabricsim of the older build")
    parser.add_argument("--today", type=Path, default=TODAY,
                        help="fabricsim of the newer build (default: this checkout's)")
    parser.add_argument("--reps", type=int, default=5)
    parser.add_argument("--min-events", type=int, default=200_000,
                        help="skip smaller runs: their CPU time is mostly start-up")
    parser.add_argument("--reference-a-us", type=float, default=1000)
    args = parser.parse_args()
    builds = {"today": args.today, **({"before": args.before} if args.before else {})}
    rows = []
    workdir = Path(tempfile.mkdtemp(prefix="ft-speed-"))
    for scenario in scenarios(workdir, args.reference_a_us):
        probe = run_once(args.today, scenario)
        if isinstance(probe, str) or probe["events"] < args.min_events:
            continue
        samples: dict[str, list] = {name: [] for name in builds}
        for rep in range(args.reps):
            order = list(builds) if rep % 2 == 0 else list(reversed(builds))
            for name in order:
                samples[name].append(run_once(builds[name], scenario))
        row = {"scenario": scenario.name}
        for name, runs in samples.items():
            if isinstance(runs[0], str):
                row[name] = {"refused": runs[0]}
                continue
            rates = [r["events"] / r["cpu_s"] for r in runs if r["cpu_s"] > 0]
            row[name] = {"events": runs[0]["events"], "cpu_s": statistics.median(r["cpu_s"] for r in runs),
                         "events_per_cpu_s": statistics.median(rates) if rates else None}
        if all("events_per_cpu_s" in row.get(n, {}) and row[n]["events_per_cpu_s"]
               for n in ("today", "before")):
            row["ratio"] = row["today"]["events_per_cpu_s"] / row["before"]["events_per_cpu_s"]
            row["same_events"] = row["today"]["events"] == row["before"]["events"]
        rows.append(row)
        print(json.dumps(row), flush=True)
    bench_rows = compare_references(builds, args.reps, args.reference_a_us)
    print(f"\n{'scenario':40} {'events today':>13} {'Mev/cpu-s today':>16} "
          f"{'Mev/cpu-s before':>17} {'ratio':>6} same events")
    for row in rows:
        today, before = row["today"], row.get("before", {})
        fmt = lambda b: (f"{b['events_per_cpu_s'] / 1e6:.2f}" if b.get("events_per_cpu_s")
                         else ("refused" if "refused" in b else "-"))
        print(f"{row['scenario'][:40]:40} {today.get('events', '-'):>13} {fmt(today):>16} "
              f"{fmt(before):>17} {row.get('ratio', float('nan')):>6.3f} {row.get('same_events', '-')}")
    for row in bench_rows:
        print(f"{row['reference']:40} {row['today']['events']:>13} "
              f"{row['today']['events_per_s'] / 1e6:>16.2f} "
              + (f"{row['before']['events_per_s'] / 1e6:>17.2f} {row['ratio']:>6.3f} "
                 f"{row['today']['events'] == row['before']['events']}  (per CPU s: "
                 f"{row['today']['events_per_cpu_s'] / 1e6:.2f} / "
                 f"{row['before']['events_per_cpu_s'] / 1e6:.2f} = {row['ratio_cpu']:.3f})"
                 if "before" in row else ""))
    print("(Reference rows: fabric-bench, events per wall second of the event loop, and per CPU "
          "second of the process in brackets; others: fabricsim run, events per CPU second of "
          "the whole process, start-up included)")
    return 0


def compare_references(builds: dict[str, Path], reps: int, a_us: float) -> list[dict]:
    """fabric-bench (built next to each fabricsim, as bench/run-bench.sh builds it) on
    Reference A (first `a_us`) and B (10 ms): the per-packet path without parsing or start-up.
    Its events/s is over the event loop's wall time: the median of `reps` alternating runs."""
    benches = {n: b.parent / "fabric-bench" for n, b in builds.items()}
    benches = {n: b for n, b in benches.items() if b.is_file()}
    rows = []
    for reference, argv in ((f"fabric-bench A {a_us:g} us", ["A", f"{a_us:g}", "0.3"]),
                            ("fabric-bench B 10 ms", ["B", "10000"])):
        samples: dict[str, list[dict]] = {n: [] for n in benches}
        for rep in range(reps):
            for name in (list(benches) if rep % 2 == 0 else list(reversed(benches))):
                before = resource.getrusage(resource.RUSAGE_CHILDREN)
                out = subprocess.run([str(benches[name]), *argv], capture_output=True, text=True,
                                     timeout=1800, check=True).stdout
                after = resource.getrusage(resource.RUSAGE_CHILDREN)
                line = json.loads(out.strip().splitlines()[-1])
                line["cpu_s"] = ((after.ru_utime - before.ru_utime)
                                 + (after.ru_stime - before.ru_stime))
                samples[name].append(line)
        row: dict = {"reference": reference}
        for name, runs in samples.items():
            row[name] = {"events": runs[0]["events"],
                         "events_per_s": statistics.median(r["events_per_s"] for r in runs),
                         "packets_per_s": statistics.median(r["packets_per_s"] for r in runs),
                         "events_per_cpu_s": statistics.median(r["events"] / r["cpu_s"]
                                                               for r in runs)}
        if "today" in row and "before" in row:
            row["ratio"] = row["today"]["events_per_s"] / row["before"]["events_per_s"]
            row["ratio_cpu"] = (row["today"]["events_per_cpu_s"]
                                / row["before"]["events_per_cpu_s"])
        print(json.dumps(row), flush=True)
        rows.append(row)
    return rows


if __name__ == "__main__":
    sys.exit(main())
