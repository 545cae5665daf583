"""Every preset's flow-level estimate against issue 36's target (<= 200 ms), end to end and in the
simulator alone.

  python bench/estimate_presets.py BASE_URL [--repeats 5] [--json OUT.json]

BASE_URL is a running API (uvicorn app.main:app). Per preset: the median over `repeats` of
POST /api/v1/estimate's wall time as the client sees it (HTTP, validation, `fabricsim run --engine
flow --result headline`, parsing), the estimate's own `wall_s`, and the flow engine's
`perf.wall_s` in the result (a direct `fabricsim run --engine flow`). A preset the flow engine
refuses (a PFC storm, a deadlock) is listed with its 422. The load average is printed with the
table: on a shared machine wall times swell with it (docs/benchmarks.md).
"""

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import httpx

ROOT = Path(__file__).resolve().parent.parent
BIN = ROOT / "simcore" / "build" / "fabricsim"
TARGET_MS = 200


def engine_wall(document: dict) -> float:
    """The flow engine's own wall time (perf.wall_s) on the preset; NaN when it refuses it."""
    with tempfile.TemporaryDirectory() as d:
        src, out = Path(d) / "s.json", Path(d) / "r.json"
        src.write_text(json.dumps(document))
        proc = subprocess.run(
            [str(BIN), "run", str(src), "--out", str(out), "--engine", "flow"],
            capture_output=True,
            text=True,
            check=False,
        )
        return json.loads(out.read_text())["perf"]["wall_s"] if proc.returncode == 0 else float("nan")


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("base")
    ap.add_argument("--repeats", type=int, default=5)
    ap.add_argument("--json", type=Path)
    args = ap.parse_args(argv)
    client = httpx.Client(base_url=args.base.rstrip("/") + "/api/v1", timeout=60)
    rows = []
    for preset in client.get("/presets").json()["data"]:
        document = client.get(f"/presets/{preset['key']}").json()["scenario"]
        client.post("/estimate", json={"scenario": document})  # warm the page cache
        times, status, inner = [], None, []
        for _ in range(args.repeats):
            start = time.perf_counter()
            response = client.post("/estimate", json={"scenario": document})
            times.append(time.perf_counter() - start)
            status = response.status_code
            if status == 200:
                inner.append(response.json()["wall_s"])
        rows.append(
            {
                "preset": preset["key"],
                "status": status,
                "http_ms": round(1000 * statistics.median(times), 1),
                "estimate_ms": round(1000 * statistics.median(inner), 1) if inner else None,
                "engine_ms": round(1000 * engine_wall(document), 2),
                "within_target": status != 200 or statistics.median(times) * 1000 <= TARGET_MS,
            }
        )
    load = os.getloadavg()
    print(f"load average {load[0]:.2f} {load[1]:.2f} {load[2]:.2f}; {os.cpu_count()} cores; median of {args.repeats}")
    print("| preset | POST /estimate ms | of which the estimate ms | flow engine ms | <= 200 ms |")
    print("|---|---|---|---|---|")
    for r in rows:
        if r["status"] != 200:
            print(f"| {r['preset']} | 422 (refused) | - | - | - |")
            continue
        print(
            f"| {r['preset']} | {r['http_ms']:,} | {r['estimate_ms']:,} | {r['engine_ms']:,} | "
            f"{'yes' if r['within_target'] else 'NO'} |"
        )
    answered = [r for r in rows if r["status"] == 200]
    print(
        f"{sum(r['within_target'] for r in answered)} of {len(answered)} answered presets within "
        f"{TARGET_MS} ms; slowest {max(r['http_ms'] for r in answered):,} ms"
    )
    if args.json:
        args.json.write_text(json.dumps({"load_average": load, "rows": rows}, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
