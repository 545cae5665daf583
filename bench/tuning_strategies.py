"""Evaluations each strategy needs to come within 2% of the grid's best objective.

Usage: PYTHONPATH=backend:. .venv/bin/python bench/tuning_strategies.py [TABLE.json]

Without TABLE: the synthetic objective of backend/tests/tunings/synthetic.py over the 3,300-point
ByteTuning grid (no simulator). With TABLE (a JSON list of {"point": [i, j, k, l], "loss": x}
covering the grid, e.g. exported from a finished grid tuning) the same on simulated losses.
Prints, per strategy, the median over 10 seeds of the evaluations (full-duration equivalents)
spent until the best loss is within 2% of the grid's best, and the best-so-far curves.
"""

import json
import statistics
import sys

from app.tunings.engine import drive
from app.tunings.strategies import make
from tests.tunings.synthetic import SPACE, loss as synthetic_loss

SEEDS = range(10)
BUDGETS = {"annealing": 165, "tpe": 99, "random": 330}  # 5%, 3%, 10% of the grid


def load_table(path: str):
    rows = json.load(open(path))
    table = {tuple(r["point"]): float(r["loss"]) for r in rows}
    return lambda point: table[point]


def to_target(curve: list[tuple[float, float]], target: float) -> float | None:
    """Cost at which best-so-far first reaches `target` (losses are minimised)."""
    for cost, best in curve:
        if best <= target:
            return cost
    return None


def main() -> None:
    loss = load_table(sys.argv[1]) if len(sys.argv) > 1 else synthetic_loss
    best = min(loss(p) for p in SPACE.points())
    target = best + 0.02 * abs(best)
    print(f"grid best loss {best:.6g}; target within 2%: <= {target:.6g}; grid size {SPACE.size}")
    for name, budget in BUDGETS.items():
        costs, curves = [], []
        for seed in SEEDS:
            strategy = make(name, space=SPACE, budget=budget, seed=seed)
            cost, curve, running = 0.0, [], float("inf")

            def evaluate(requests):
                return [(loss(r.point),) for r in requests]

            for record in drive([strategy], evaluate).records:
                cost += record.request.fidelity
                if record.request.fidelity >= 1.0:
                    running = min(running, record.losses[0])
                curve.append((round(cost, 2), running))
            curves.append(curve)
            costs.append(to_target(curve, target))
        reached = [c for c in costs if c is not None]
        median = statistics.median(c if c is not None else float("inf") for c in costs)
        print(f"{name:10s} budget {budget:4d}: reached in {len(reached)}/10 seeds, median "
              f"{median:.1f} evaluations ({100 * median / SPACE.size:.2f} % of the grid)")
        marks = [10, 25, 50, 100, 165, 330]
        row = [statistics.median(next((b for c, b in cv if c >= m), cv[-1][1]) for cv in curves)
               for m in marks]
        print("   best-so-far (median over seeds) at " + ", ".join(
            f"{m}: {v:.4g}" for m, v in zip(marks, row)))


if __name__ == "__main__":
    main()
