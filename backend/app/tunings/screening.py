"""A screening tuning's second stage (spec.screening, app/runs/screening.py): when every strategy
has finished at flow level, the best `keep` feasible full-duration evaluations (one per point,
by the first objective) run again at packet level, and their packet-level objectives are stored
beside the flow-level ones. The tuning succeeds when those runs have ended."""

import json
from types import SimpleNamespace

from sqlalchemy import select
from sqlalchemy.orm import Session

from app.runs.models import FINAL_STATES, Run, RunResult, RunStatus
from app.runs.service import reusable_run
from app.scenarios.models import ScenarioRow
from app.scenarios.service import new_id
from app.tunings import objectives as O
from app.tunings.models import Tuning, TuningEvaluation
from app.tunings.schemas import TuningCreate
from app.tunings.scoring import score
from app.tunings.spec import constraints_of, objectives_of, request_from_json


def second_stage(session: Session, tuning: Tuning, spec: TuningCreate, outcome) -> bool:
    """One step of the packet-level stage; True when it has ended (the tuning may succeed)."""
    if tuning.kept is None:
        kept = _best(session, tuning.id, spec)
        tuning.kept = [row.id for row in kept]
        outcome.dispatch += _packet_runs(session, tuning, kept)
        return not kept
    rows = list(session.scalars(select(TuningEvaluation).where(TuningEvaluation.id.in_(tuning.kept))).all())
    run_ids = {rid for row in rows for rid in row.packet_run_ids or []}
    runs = {run.id: run for run in session.scalars(select(Run).where(Run.id.in_(run_ids))).all()}
    if any(runs.get(rid) is None or runs[rid].status not in FINAL_STATES for rid in run_ids):
        return False
    _score_packet(session, spec, rows, runs)
    return True


def _best(session: Session, tuning_id: str, spec: TuningCreate) -> list[TuningEvaluation]:
    """The best `keep` feasible full-duration evaluations, one per distinct setting, best first
    (the first objective's loss; ties: the earlier evaluation)."""
    rows = session.scalars(
        select(TuningEvaluation)
        .where(
            TuningEvaluation.tuning_id == tuning_id,
            TuningEvaluation.status == "DONE",
            TuningEvaluation.feasible.is_(True),
        )
        .order_by(TuningEvaluation.id)
    ).all()
    best: dict[str, TuningEvaluation] = {}
    for row in rows:
        request = request_from_json(row.request)
        if request.fidelity < 1 or not row.losses:
            continue
        key = json.dumps([row.params, dict(request.overrides)], sort_keys=True, default=str)
        if key not in best or row.losses[0] < best[key].losses[0]:
            best[key] = row
    ranked = sorted(best.values(), key=lambda r: (r.losses[0], r.id))
    return ranked[: spec.screening.keep]


def _packet_runs(session: Session, tuning: Tuning, rows: list[TuningEvaluation]) -> list[str]:
    """Per kept evaluation, one packet-level run per flow-level run (same snapshot and seed; an
    existing one is reused); returns the new run ids."""
    flow = {
        run.id: run
        for run in session.scalars(select(Run).where(Run.id.in_({rid for row in rows for rid in row.run_ids}))).all()
    }
    new: list[str] = []
    made: dict[tuple[str, int], Run] = {}
    for row in rows:
        ids = []
        for rid in row.run_ids:
            key = (flow[rid].scenario_id, flow[rid].seed)
            run = made.get(key) or reusable_run(session, scenario_id=key[0], seed=key[1], engine="packet")
            if run is None:
                run = Run(
                    id=new_id(),
                    scenario_id=key[0],
                    seed=key[1],
                    status=RunStatus.PENDING,
                    client=tuning.client,
                    owner_hash=tuning.owner_hash,
                    engine="packet",
                )
                session.add(run)
                session.flush()
                new.append(run.id)
            made[key] = run
            ids.append(run.id)
        row.packet_run_ids = ids
    return new


def _score_packet(session: Session, spec: TuningCreate, rows: list[TuningEvaluation], runs: dict[str, Run]) -> None:
    """The objectives and metrics of each kept evaluation at packet level (the driver's scoring,
    on the packet-level runs)."""

    documents = dict(
        session.execute(
            select(ScenarioRow.id, ScenarioRow.document).where(
                ScenarioRow.id.in_({run.scenario_id for run in runs.values()})
            )
        ).all()
    )
    results = dict(
        session.execute(select(RunResult.run_id, RunResult.result_json).where(RunResult.run_id.in_(set(runs)))).all()
    )
    objectives, constraints = objectives_of(spec), constraints_of(spec)
    for row in rows:
        mine = [runs[rid] for rid in row.packet_run_ids or []]
        metrics = [
            O.derive_metrics(json.loads(results[run.id]) if run.id in results else {}, documents[run.scenario_id])
            for run in mine
        ]
        scored = SimpleNamespace()
        score(spec, objectives, constraints, scored, mine, metrics)
        row.packet_objectives = getattr(scored, "objectives", None)
        row.packet_metrics = getattr(scored, "metrics", None)
