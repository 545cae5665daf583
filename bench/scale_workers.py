"""Points per minute of the ByteTuning grid against the number of parallel simulator workers.

  python3 bench/scale_workers.py GRID_DIR --fabricsim PATH [--workers 1,2,4,8,16]
      [--points N] [--modes batch,process] [--json OUT.json]

GRID_DIR is what `bench/tuning_grid.py write` made (scenario files and manifest.json). Python's
standard library only, so it runs where the project's virtual environment does not (the 16-core
device machine). Two ways to run N workers:
- `batch`: `fabricsim batch` with `--jobs N` (one process forking a pristine child per point);
- `process`: N threads each starting `fabricsim run` per point (one process per point).
Each run writes the results into a fresh folder; the figure is points / wall minute over the
first N points of the manifest. The database and the broker are not part of this measurement
(bench/batch_throughput.py measures them on the full stack).
"""

import argparse
import json
import os
import shutil
import subprocess
import tempfile
import threading
import time
from pathlib import Path


def run_batch(fabricsim: str, grid: Path, entries: list[dict], workers: int, out: Path) -> int:
    manifest = out / "manifest.json"
    manifest.write_text(json.dumps({"runs": [
        {"scenario": str(grid / e["scenario"]), "out": str(out / e["out"])} for e in entries]}))
    done = subprocess.run([fabricsim, "batch", str(manifest), "--jobs", str(workers)],
                          capture_output=True, text=True, check=True)
    lines = [json.loads(line) for line in done.stdout.splitlines() if line.strip()]
    return sum(1 for line in lines if line["exit"] == 0)


def run_processes(fabricsim: str, grid: Path, entries: list[dict], workers: int, out: Path) -> int:
    todo = list(entries)
    lock = threading.Lock()
    ok = [0]

    def worker() -> None:
        while True:
            with lock:
                if not todo:
                    return
                entry = todo.pop()
            code = subprocess.run([fabricsim, "run", str(grid / entry["scenario"]), "--out",
                                   str(out / entry["out"])], capture_output=True).returncode
            with lock:
                ok[0] += code == 0
    threads = [threading.Thread(target=worker) for _ in range(workers)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    return ok[0]


MODES = {"batch": run_batch, "process": run_processes}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("grid")
    parser.add_argument("--fabricsim", required=True)
    parser.add_argument("--workers", default="1,2,4,8,16")
    parser.add_argument("--points", type=int, default=0, help="0: all of the manifest")
    parser.add_argument("--points-per-worker", type=int, default=0,
                        help="if set, use min(points, this x workers) points per measurement")
    parser.add_argument("--modes", default="batch,process")
    parser.add_argument("--json", default="")
    args = parser.parse_args()
    grid = Path(args.grid).resolve()
    entries = json.loads((grid / "manifest.json").read_text())["runs"]
    if args.points:
        entries = entries[:args.points]
    rows = []
    print(f"cpus {os.cpu_count()}; {len(entries)} points available", flush=True)
    base = {}
    for mode in args.modes.split(","):
        for workers in [int(w) for w in args.workers.split(",")]:
            n = len(entries)
            if args.points_per_worker:
                n = min(n, args.points_per_worker * workers)
            out = Path(tempfile.mkdtemp(prefix=f"scale-{mode}-{workers}-"))
            started = time.monotonic()
            ok = MODES[mode](args.fabricsim, grid, entries[:n], workers, out)
            wall = time.monotonic() - started
            shutil.rmtree(out, ignore_errors=True)
            rate = 60.0 * n / wall
            base.setdefault(mode, rate / workers)
            row = {"mode": mode, "workers": workers, "points": n, "ok": ok,
                   "wall_s": round(wall, 3), "points_per_min": round(rate, 1),
                   "speedup": round(rate / base[mode], 2),
                   "efficiency": round(rate / (base[mode] * workers), 3),
                   "full_grid_s_estimate": round(3300 * wall / n, 1)}
            rows.append(row)
            print(json.dumps(row), flush=True)
    if args.json:
        Path(args.json).write_text(json.dumps(rows, indent=1))


if __name__ == "__main__":
    main()
