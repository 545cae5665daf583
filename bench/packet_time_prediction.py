"""The estimate panel's "a packet-level run would take about N s" against the packet-level runs it
predicts (issue 36, section 3).

  python bench/packet_time_prediction.py BASE_URL [--json OUT.json]

BASE_URL is a running API with a worker. Every preset the flow engine answers is run at packet
level on one thread (POST /runs, threads 1; a cached run is reused), then estimated (POST
/estimate): the prediction (payload frames x events per frame over events per second, the
medians of this instance's 20 most recent one-thread packet runs, app/runs/speed.py) beside the
run's measured wall time and events. The presets' own runs are among those the medians come from;
the ratio column is what a designer would be told against what the run took. Load average printed.
"""

import argparse
import json
import os
import sys
import time
from pathlib import Path

import httpx


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("base")
    ap.add_argument("--json", type=Path)
    args = ap.parse_args(argv)
    api = httpx.Client(base_url=args.base.rstrip("/") + "/api/v1", timeout=120)
    presets = []
    for preset in api.get("/presets").json()["data"]:
        detail = api.get(f"/presets/{preset['key']}").json()
        if api.post("/estimate", json={"scenario": detail["scenario"]}).status_code != 200:
            continue  # refused by the flow engine (a PFC storm, a deadlock)
        run = api.post("/runs", json={"scenario_id": detail["scenario_id"], "threads": 1}).json()["data"][0]
        presets.append((preset["key"], detail["scenario"], run["id"]))
    runs = {}
    for key, _document, run_id in presets:
        while (run := api.get(f"/runs/{run_id}").json())["status"] not in ("SUCCEEDED", "FAILED", "CANCELLED"):
            time.sleep(0.5)
        runs[key] = run
    rows = []
    for key, document, _run_id in presets:
        predicted = api.post("/estimate", json={"scenario": document}).json()["packet_run"]
        run = runs[key]
        rows.append(
            {
                "preset": key,
                "predicted_s": predicted["seconds"],
                "measured_s": run["wall_s"],
                "predicted_events": predicted["events"],
                "measured_events": run["events"],
                "ratio": predicted["seconds"] / run["wall_s"] if run["wall_s"] else None,
                "calibration_runs": predicted["runs"],
            }
        )
    load = os.getloadavg()
    print(f"load average {load[0]:.2f} {load[1]:.2f} {load[2]:.2f}; {os.cpu_count()} cores")
    print("| preset | predicted s | measured s | predicted / measured | predicted events | measured events |")
    print("|---|---|---|---|---|---|")
    for r in rows:
        print(
            f"| {r['preset']} | {r['predicted_s']:.3f} | {r['measured_s']:.3f} | {r['ratio']:.2f} | "
            f"{r['predicted_events']:,.0f} | {r['measured_events']:,} |"
        )
    ratios = sorted(r["ratio"] for r in rows if r["ratio"])
    print(f"median ratio {ratios[len(ratios) // 2]:.2f}, range {ratios[0]:.2f}-{ratios[-1]:.2f}")
    if args.json:
        args.json.write_text(json.dumps({"load_average": load, "rows": rows}, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
