"""Evaluations each strategy needs to come within 2% of the grid's best objective.

Usage:
  PYTHONPATH=backend:. .venv/bin/python bench/tuning_strategies.py
  PYTHONPATH=backend:. .venv/bin/python bench/tuning_strategies.py --table FULL.json \
      [--table-short SHORT.json] [--json OUT.json] [--svg OUT.svg]

Without --table: the synthetic objective of backend/tests/tunings/synthetic.py over the
3,300-point ByteTuning grid (no simulator). With --table (rows {"name", "point", "loss",
"metrics"} covering the grid, as `bench/tuning_grid.py table` writes them from simulated
results): the same on the simulated objective; --table-short gives the losses of the 20%-duration
runs that TPE's pruning looks at (without it a short look returns the full loss). Rows named
`vendor` and `experience` are the fixed points, reported beside the strategies.
Per strategy: the median over 10 seeds of the evaluations (full-duration equivalents) spent until
the best loss is within 2% of the grid's best, how many seeds got there, and the best-so-far
curves (median over seeds). NSGA-II optimises two objectives (the loss and queue_p99_bytes) and
is judged on the first.
"""

import argparse
import json
import statistics
from pathlib import Path

from bench.tuning_drive import drive
from app.tunings.space import bytetuning_space
from bench.tuning_grid import bench_space
from app.tunings.strategies import make

SEEDS = range(10)
# Budgets as shares of the grid (3,300 points: 330, 165, 99, 165), the targets.
SHARES = {"grid": 1.0, "random": 0.10, "annealing": 0.05, "tpe": 0.03, "nsga2": 0.05}
MARKS = [10, 25, 50, 100, 165, 330, 1000, 3300]
SPACE = bytetuning_space()  # --params narrows it (bench/tuning_grid.py write --params)


def budgets(size: int) -> dict[str, int]:
    return {name: max(1, int(share * size + 0.5)) for name, share in SHARES.items()}


def load_rows(path: str) -> dict[tuple, dict]:
    rows = json.loads(Path(path).read_text())
    return {(tuple(r["point"]) if r["point"] is not None else r["name"]): r for r in rows}


def synthetic():
    from tests.tunings.synthetic import loss

    return (lambda point, fidelity: (loss(point), loss(point))), {}


def simulated(full: dict, short: dict | None):
    def losses(point, fidelity):
        rows = short if fidelity < 1.0 and short is not None else full
        row = rows[point]
        queue = (row.get("metrics") or {}).get("queue_p99_bytes")
        return row["loss"], float(queue if queue is not None else 1e30)
    fixed = {name: full[name]["loss"] for name in ("vendor", "experience") if name in full}
    return losses, fixed


def to_target(curve: list[tuple[float, float]], target: float) -> float | None:
    """Cost at which best-so-far first reaches `target` (losses are minimised)."""
    for cost, best in curve:
        if best <= target:
            return cost
    return None


def curve_of(name: str, seed: int, losses) -> list[tuple[float, float]]:
    space = SPACE
    n_objectives = 2 if name == "nsga2" else 1
    strategy = make(name, space=space, budget=budgets(space.size)[name], seed=seed,
                    n_objectives=n_objectives)

    def evaluate(requests):
        return [losses(r.point, r.fidelity)[:n_objectives] for r in requests]

    cost, curve, running = 0.0, [], float("inf")
    for record in drive([strategy], evaluate).records:
        cost += record.request.fidelity
        if record.request.fidelity >= 1.0:
            running = min(running, record.losses[0])
        curve.append((round(cost, 2), running))
    return curve


def at(curve: list[tuple[float, float]], mark: float) -> float:
    """Best-so-far once `mark` evaluations are spent (the final best if the budget is smaller)."""
    best = curve[-1][1]
    for cost, value in curve:
        if cost >= mark:
            return value
    return best


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--table")
    parser.add_argument("--table-short")
    parser.add_argument("--json")
    parser.add_argument("--svg")
    parser.add_argument("--params", help="the axes the table was written with (tuning_grid.py)")
    args = parser.parse_args()
    global SPACE
    SPACE = bench_space(args.params)
    if args.table:
        full = load_rows(args.table)
        losses, fixed = simulated(full, load_rows(args.table_short) if args.table_short else None)
    else:
        losses, fixed = synthetic()
    space = SPACE
    best = min(losses(p, 1.0)[0] for p in space.points())
    target = best + 0.02 * abs(best)
    print(f"grid best loss {best:.6g}; target within 2%: <= {target:.6g}; grid size {space.size}")
    for name, loss in fixed.items():
        gap = 100 * (loss - best) / abs(best)
        print(f"{name:10s} fixed point: loss {loss:.6g} ({gap:+.1f} % from the grid's best)")
    report = {"grid_best": best, "target": target, "fixed": fixed, "strategies": {}}
    for name, budget in budgets(space.size).items():
        seeds = [0] if name == "grid" else SEEDS  # the grid's order does not depend on a seed
        curves = [curve_of(name, seed, losses) for seed in seeds]
        costs = [to_target(c, target) for c in curves]
        reached = [c for c in costs if c is not None]
        median = statistics.median(c if c is not None else float("inf") for c in costs)
        finals = [c[-1][1] for c in curves]
        marks = sorted({m for m in MARKS if m <= budget} | {budget})
        row = [statistics.median(at(c, m) for c in curves) for m in marks]
        print(f"{name:10s} budget {budget:4d}: reached in {len(reached)}/{len(seeds)} seeds, median "
              f"{median:.1f} evaluations ({100 * median / space.size:.2f} % of the grid); "
              f"final best median {statistics.median(finals):.6g}")
        print("   best-so-far (median over seeds) at " + ", ".join(
            f"{m}: {v:.4g}" for m, v in zip(marks, row)))
        report["strategies"][name] = {
            "budget": budget, "seeds": len(seeds), "reached": len(reached),
            "median_evaluations": None if median == float("inf") else median,
            "final_best_median": statistics.median(finals),
            "curve_median": [[m, v] for m, v in zip(marks, row)],
            "curve_dense": _dense_median(curves, budget)}
    if args.json:
        Path(args.json).write_text(json.dumps(report, indent=1))
    if args.svg:
        from bench.svg_chart import best_so_far_svg

        Path(args.svg).write_text(best_so_far_svg(report))


def _dense_median(curves: list[list[tuple[float, float]]], budget: int) -> list[list[float]]:
    """Median best-so-far at 1, 2, 3, ... evaluations (for the chart)."""
    steps = min(budget, SPACE.size)
    out = []
    for m in range(1, steps + 1):
        values = [at(c, m) for c in curves]
        finite = [v for v in values if v != float("inf")]
        if len(finite) == len(values):
            out.append([m, statistics.median(values)])
    return out


if __name__ == "__main__":
    main()
