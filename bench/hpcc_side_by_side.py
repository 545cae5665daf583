"""The HPCC simulator and `fabricsim run` side by side on its benchmark (issue 19: CPU per core).

    python3 bench/hpcc_side_by_side.py --hpcc DIR [--stop-time 2.01] [--pairs 1]
                                       [--fabricsim simcore/build/fabricsim] [--baseline OTHER]
                                       [--deadline-s 3600]

DIR is the HPCC simulator's `simulation` folder, built as docs/validation-hpcc.md says (its
`build/scratch/third` and `build/*.so`). Each pair runs theirs once and ours back to back for as
long as theirs runs (with --baseline, another fabricsim build taking turns with it on the same
core, so that both builds' ratios come from the same run of theirs), both started together, each pinned to a core of its own (one CPU per
physical core, read from sysfs), so that both see the same machine all along; with --pairs N,
N such pairs run at once on 2N cores. Inputs are this repository's copy of the benchmark
(validation/data/hpcc: topology, flows, DCQCN configuration) for both: theirs in a folder of its
own per pair, ours imported into a scenario as validation/hpcc_run.sh does. --stop-time cuts
both to the same shorter run (SIMULATOR_STOP_TIME; the benchmark's is 2.01 s, 10 ms of flows).

CPU seconds are each process's user + system time (os.wait4). Prints one JSON line per run and
per pair: theirs' CPU, ours' (and the baseline's) median and minimum over the runs that ran
wholly while theirs ran, the ratios, whether every run gave the same result bytes (outside
`perf`), and, at the
benchmark's own stop time, whether theirs' FCT file is the reference run's
(validation/data/hpcc/fct-dcqcn.txt, compared sorted). Needs the repository's virtual
environment (the importer) and a built simulator.
"""

import argparse
import hashlib
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
DATA = ROOT / "validation/data/hpcc"
BENCH_STOP = "2.01"


def one_cpu_per_core() -> list:
    seen, cpus = set(), []
    for cpu in sorted(os.sched_getaffinity(0)):
        topo = Path(f"/sys/devices/system/cpu/cpu{cpu}/topology")
        try:
            key = ((topo / "physical_package_id").read_text().strip(),
                   (topo / "core_id").read_text().strip())
        except OSError:
            key = (str(cpu),)
        if key not in seen:
            seen.add(key)
            cpus.append(cpu)
    return cpus


def their_folder(work: Path, stop: str) -> Path:
    """mix/bench as their config names it, with the benchmark's inputs and stop time."""
    bench = work / "mix/bench"
    bench.mkdir(parents=True)
    shutil.copy(DATA / "topology-fat.txt", bench / "fat.txt")
    shutil.copy(DATA / "flows-websearch30.txt", bench / "flow_websearch30.txt")
    (bench / "trace.txt").write_text("0\n")
    lines = []
    for line in (DATA / "config-dcqcn.txt").read_text().splitlines():
        key = line.split()[0] if line.split() else ""
        if key == "SIMULATOR_STOP_TIME":
            line = f"SIMULATOR_STOP_TIME {stop}"
        elif key.endswith("_FILE"):
            line = re.sub(r"(\S+)$", lambda m: "mix/bench/" + Path(m.group(1)).name, line)
        lines.append(line)
    (bench / "config-dcqcn.txt").write_text("\n".join(lines) + "\n")
    return work


def our_scenario(work: Path, stop: str) -> Path:
    config = work / "config-dcqcn.txt"
    config.write_text(re.sub(r"(?m)^SIMULATOR_STOP_TIME.*$", f"SIMULATOR_STOP_TIME {stop}",
                             (DATA / "config-dcqcn.txt").read_text()))
    scenario = work / "scenario.json"
    python = os.environ.get("PYTHON", str(ROOT / ".venv/bin/python"))
    subprocess.run([python, "-m", "app.scenarios.importers.hpcc",
                    "--topology", str(DATA / "topology-fat.txt"),
                    "--flows", str(DATA / "flows-websearch30.txt"), "--config", str(config),
                    "--name", f"HPCC DCQCN benchmark until {stop} s", "-o", str(scenario)],
                   cwd=ROOT / "backend", check=True, capture_output=True)
    return scenario


def result_hash(path: Path) -> str:
    doc = json.loads(path.read_bytes())
    doc.pop("perf", None)
    return hashlib.sha256(json.dumps(doc, sort_keys=True).encode()).hexdigest()[:16]


def pinned(cpu: int):
    return lambda: os.sched_setaffinity(0, {cpu})


def reap(pid: int):
    """(exit status, rusage) of a finished child, None while it runs (never blocks)."""
    done, status, usage = os.wait4(pid, os.WNOHANG)
    return None if done == 0 else (status, usage)


def run_pair(tag: str, hpcc: Path, folder: Path, scenario: Path, builds: list, stop: str,
             cores: tuple, deadline: float, lock: threading.Lock, summaries: list) -> None:
    def emit(row: dict) -> None:
        with lock:
            print(json.dumps({"pair": tag, **row}), flush=True)

    env = dict(os.environ, LD_LIBRARY_PATH=str(hpcc / "build"))
    start = time.monotonic()
    with open(folder / "theirs.log", "w") as log:
        theirs = subprocess.Popen([str(hpcc / "build/scratch/third"),
                                   "mix/bench/config-dcqcn.txt"], cwd=folder, env=env,
                                  stdout=log, stderr=subprocess.STDOUT,
                                  preexec_fn=pinned(cores[0]))
    their = None
    runs = []
    while their is None:
        out = folder / f"ours-{len(runs) + 1}.json"
        build = builds[len(runs) % len(builds)]
        ours = subprocess.Popen([str(build), "run", str(scenario), "--out", str(out),
                                 "--threads", "1"], stdout=subprocess.DEVNULL,
                                stderr=subprocess.DEVNULL, preexec_fn=pinned(cores[1]))
        while True:
            if their is None and (got := reap(theirs.pid)):
                theirs.returncode = os.waitstatus_to_exitcode(got[0])  # reaped here, not by Popen
                their = {"theirs_cpu_s": round(got[1].ru_utime + got[1].ru_stime, 2),
                         "theirs_wall_s": round(time.monotonic() - start, 1),
                         "theirs_exit": theirs.returncode,
                         "theirs_peak_rss_mb": got[1].ru_maxrss // 1024}
                emit(their)
            if (mine := reap(ours.pid)):
                ours.returncode = os.waitstatus_to_exitcode(mine[0])
                break
            if time.monotonic() > deadline:
                for proc in (theirs, ours):
                    proc.kill()
                emit({"error": "--deadline-s reached: both stopped, no figure"})
                return
            time.sleep(0.1)
        if ours.returncode != 0:
            theirs.kill()
            emit({"error": f"fabricsim failed (exit {ours.returncode})"})
            return
        runs.append({"build": str(build), "cpu_s": round(mine[1].ru_utime + mine[1].ru_stime, 2),
                     "while_theirs_ran": their is None, "result": result_hash(out)})
        emit({"ours": len(runs), **runs[-1], "load_average": os.getloadavg()[0]})
    summary = dict(their)
    for n, build in enumerate(builds):
        mine = [r for r in runs if r["build"] == str(build)]
        during = sorted(r["cpu_s"] for r in mine if r["while_theirs_ran"]) or sorted(
            r["cpu_s"] for r in mine)
        if not during:
            continue
        median = during[len(during) // 2]
        summary["ours" if n == 0 else "baseline"] = {
            "fabricsim": str(build), "runs": len(during), "cpu_median_s": median,
            "cpu_min_s": during[0], "cpu_max_s": during[-1],
            "ratio_by_median": round(their["theirs_cpu_s"] / median, 2),
            "ratio_by_min": round(their["theirs_cpu_s"] / during[0], 2)}
    summary["same_bytes_every_run"] = len({r["result"] for r in runs}) == 1
    fct = folder / "mix/bench/fct_bench_dcqcn_nomon.txt"
    if fct.exists():
        lines = sorted(fct.read_text().splitlines())
        summary["theirs_fct_lines"] = len(lines)
        reference = DATA / "fct-dcqcn.txt"
        if stop == BENCH_STOP and reference.exists():
            summary["theirs_fct_is_the_reference_run"] = (
                lines == sorted(reference.read_text().splitlines()))
    emit({"summary": summary})
    summaries.append(summary)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--hpcc", type=Path, required=True, help="the HPCC simulator's simulation/")
    ap.add_argument("--stop-time", default=BENCH_STOP)
    ap.add_argument("--pairs", type=int, default=1)
    ap.add_argument("--fabricsim", type=Path, default=ROOT / "simcore/build/fabricsim")
    ap.add_argument("--baseline", type=Path, help="another fabricsim, taking turns with ours")
    ap.add_argument("--deadline-s", type=float, default=3600)
    args = ap.parse_args()
    if not (args.hpcc / "build/scratch/third").exists():
        sys.exit(f"--hpcc: {args.hpcc}/build/scratch/third not found (build it first)")
    cpus = one_cpu_per_core()
    if args.pairs < 1 or 2 * args.pairs > len(cpus):
        sys.exit(f"--pairs must be 1..{len(cpus) // 2} here ({len(cpus)} cores)")
    work = Path(tempfile.mkdtemp(prefix="hpcc-side-by-side-"))
    scenario = our_scenario(work, args.stop_time)
    print(json.dumps({"stop_time": args.stop_time, "pairs": args.pairs, "cores": cpus,
                      "load_average": os.getloadavg(), "work": str(work)}), flush=True)
    builds = [args.fabricsim.resolve()] + ([args.baseline.resolve()] if args.baseline else [])
    deadline = time.monotonic() + args.deadline_s
    lock, summaries, threads = threading.Lock(), [], []
    for n in range(args.pairs):
        folder = their_folder(work / f"pair{n + 1}", args.stop_time)
        t = threading.Thread(target=run_pair, args=(
            f"{n + 1}", args.hpcc.resolve(), folder, scenario, builds, args.stop_time,
            (cpus[2 * n], cpus[2 * n + 1]), deadline, lock, summaries))
        t.start()
        threads.append(t)
    for t in threads:
        t.join()
    if len(summaries) != args.pairs:
        sys.exit("a pair did not finish")
    for key in ("ours", "baseline"):
        if key in summaries[0]:
            print(json.dumps({key: str(summaries[0][key]["fabricsim"]),
                              "ratios_by_median": [s[key]["ratio_by_median"] for s in summaries],
                              "ratios_by_min": [s[key]["ratio_by_min"] for s in summaries]}))
    print(json.dumps({"load_average": os.getloadavg()}))


if __name__ == "__main__":
    main()
