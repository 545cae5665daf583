"""Run a preset's comparison sweep on the local `fabricsim` (no services) and print a table.

    PYTHONPATH=backend:. .venv/bin/python backend/scripts/run_preset_comparison.py ntt-dci-distance

One row per grid point: the swept values and the measured throughput (Gbit/s), FCT mean and
p99 of the finite flows, drops, resends and QPs per NIC (when the result reports them). The figures in
docs/presets.md were produced this way; the API runs the same grid with POST /sweeps.
"""

import json
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path[:0] = [str(ROOT / "backend"), str(ROOT)]

from app.core.config import get_settings  # noqa: E402
from app.presets.service import load_presets  # noqa: E402
from app.sweeps.grid import grid, point_document  # noqa: E402
from app.sweeps.schemas import SweepCreate  # noqa: E402


def run(document: dict, workdir: Path) -> dict:
    """fabricsim run of one document -> its results."""
    src, out = workdir / "point.json", workdir / "result.json"
    src.write_text(json.dumps(document))
    subprocess.run([str(get_settings().FABRICSIM_BIN), "run", str(src), "--out", str(out)],
                   check=True, capture_output=True, timeout=600)
    return json.loads(out.read_text())


def main(key: str) -> None:
    """Every point of the preset's comparison, in grid order."""
    preset = load_presets()[key]
    if preset.comparison is None:
        sys.exit(f"preset {key} has no comparison")
    body = SweepCreate(scenario_id="local", parameters=preset.comparison.parameters,
                       linked=preset.comparison.linked)
    base = json.loads(preset.scenario.model_dump_json(exclude_unset=True))
    paths = [p.path for p in body.parameters]
    print("| " + " | ".join(paths) + " | " + " | ".join(COLUMNS) + " |")
    print("|" + "---|" * (len(paths) + len(COLUMNS)))
    with tempfile.TemporaryDirectory() as tmp:
        for params in grid(body):
            document, _ = point_document(base, body, params)
            cells = figures(run(document, Path(tmp)))
            print("| " + " | ".join(json.dumps(params[p]) for p in paths) + " | "
                  + " | ".join(cells) + " |", flush=True)


COLUMNS = ["throughput (Gbit/s)", "FCT mean / p99 (us)", "drops", "resends", "QPs per NIC"]


def figures(result: dict) -> list[str]:
    """The cells of one row: throughput, FCT (finite flows), drops, resends, QPs per NIC."""
    summary = result["summary"]
    fct = summary.get("fct_us") or {}
    fct_cell = f"{fct['mean']:.1f} / {fct['p99']:.1f}" if fct.get("count") else "-"
    resends = sum(f.get("retransmits", 0) for f in result["flows"])
    qps = result.get("transport", {}).get("max_qps_per_nic", "-")
    return [f"{summary['throughput_gbps']:.3f}", fct_cell, str(summary["drops"]["total"]),
            str(resends), str(qps)]


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else "ntt-dci-distance")
