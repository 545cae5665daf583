"""A finished ByteTuning tuning with every grid point, stored in a database, for the page benchmark.

  PYTHONPATH=backend:. DATABASE_URL=sqlite:///X.db .venv/bin/python bench/tuning_page_seed.py \
      FULL.json [--short SHORT.json] [--strategies vendor,experience,annealing]

FULL.json (and SHORT.json, the 20%-duration losses TPE's pruning looks at) are the tables
`bench/tuning_grid.py table` writes from simulated results of the 2-to-1 incast. The strategies
(vendor, experience, grid, random 330, annealing 165, TPE 99) are driven by the tuning engine
against those tables, and every evaluation is stored as the tuning driver stores a finished one
(params, request, objective, metrics), without runs: the page draws from evaluations only. The
database must be migrated and seeded (backend/scripts/prestart.sh). `--strategies` keeps a
subset (a small tuning to compare the page's cost against). Prints the tuning id.
"""

import argparse
import json
from pathlib import Path

from sqlalchemy import select

from app.core.db import get_sessionmaker, utcnow
from app.scenarios.models import ScenarioRow
from app.scenarios.service import new_id
from bench.tuning_drive import drive
from app.tunings.models import Tuning, TuningEvaluation
from app.tunings.schemas import TuningCreate
from app.tunings.space import bytetuning_space
from app.tunings.spec import params_of, request_to_json
from app.tunings.strategies import make
from app.tunings.strategies.fixed import EXPERIENCE_SETTINGS, VENDOR_SETTINGS

STRATEGIES = [("vendor", 1), ("experience", 1), ("grid", 3300), ("random", 330),
              ("annealing", 165), ("tpe", 99)]
FIXED = {tuple(sorted(VENDOR_SETTINGS.items())): "vendor",
         tuple(sorted(EXPERIENCE_SETTINGS.items())): "experience"}


def load(path: str) -> dict:
    rows = json.loads(Path(path).read_text())
    return {(tuple(r["point"]) if r["point"] is not None else r["name"]): r for r in rows}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("full")
    parser.add_argument("--short")
    parser.add_argument("--strategies", default=",".join(n for n, _ in STRATEGIES))
    args = parser.parse_args()
    chosen = [(n, b) for n, b in STRATEGIES if n in args.strategies.split(",")]
    full = load(args.full)
    short = load(args.short) if args.short else full
    space = bytetuning_space()

    def row_of(request):
        key = request.point if request.point is not None else FIXED[tuple(request.overrides)]
        return (full if request.fidelity >= 1.0 else short)[key]

    with get_sessionmaker()() as session:
        base_id = session.scalars(select(ScenarioRow.id).where(
            ScenarioRow.preset_key == "incast-2to1")).one()
        spec = TuningCreate.model_validate({
            "name": f"ByteTuning {'+'.join(n for n, _ in chosen)}, 2-to-1 incast (page benchmark)",
            "scenario_ids": [base_id],
            "space": {"named": "bytetuning"},
            "objectives": [{"kind": "bytetuning_throughput", "beta": 0.5}],
            "strategies": [{"name": n, "budget": b, "seed": 1} if n not in FIXED.values()
                           else {"name": n} for n, b in chosen]})
        tuning = Tuning(id=new_id(), name=spec.name, scenario_ids=[base_id],
                        spec=spec.model_dump(mode="json", by_alias=True), status="SUCCEEDED",
                        finished_at=utcnow())
        session.add(tuning)
        for name, budget in chosen:
            strategy = make(name, space=space, budget=budget, seed=1, n_objectives=1)
            outcome = drive([strategy], lambda reqs: [(row_of(r)["loss"],) for r in reqs])
            for seq, record in enumerate(outcome.records):
                row = row_of(record.request)
                value = -row["loss"]
                session.add(TuningEvaluation(
                    tuning_id=tuning.id, strategy=name, seq=seq, batch=seq,
                    request=request_to_json(record.request),
                    params=params_of(space, record.request), run_ids=[], status="DONE",
                    feasible=True, objectives=[{"mean": value, "ci": 0.0}], losses=[-value],
                    metrics=row["metrics"], run_metrics=[row["metrics"]]))
        session.commit()
        print(tuning.id)


if __name__ == "__main__":
    main()
