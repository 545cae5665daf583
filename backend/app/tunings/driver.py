"""One step of a tuning: finish evaluations whose runs ended, replay each strategy to where it
stands (told results come from the database, so a restart loses nothing), store the next batch
of each strategy that is ready, and say which runs to dispatch.

Strategies are deterministic for a seed and a sequence of tells, so replaying the stored
evaluations batch by batch rebuilds them exactly; a per-process cache keeps replay cheap.
A step commits only if the tuning row's `version` is unchanged (optimistic lock), so two steps
running at once cannot both store the same batch.
"""

import json
from collections import defaultdict
from dataclasses import dataclass, field
from typing import Any

from pydantic import ValidationError
from sqlalchemy import func, select, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session

from app.core.db import utcnow
from app.runs.models import FINAL_STATES, Run, RunResult, RunStatus
from app.runs.service import reusable_runs_by_content
from app.scenarios.models import ScenarioRow
from app.scenarios.document import Scenario
from app.scenarios.service import create_scenario, new_id
from app.tunings import objectives as O
from app.tunings import screening
from app.tunings.scoring import score
from app.tunings.models import Tuning, TuningEvaluation
from app.tunings.schemas import TuningCreate
from app.tunings.space import Space, SpaceError
from app.tunings.spec import (build_space, constraints_of, document_for, objectives_of,
                              params_of, request_from_json, request_to_json, strategy_of)
from app.tunings.strategies import PENALTY, Request, Strategy

class ReplayDiverged(RuntimeError):
    """A strategy asked something other than what was stored (code changed under a tuning)."""


@dataclass
class Replay:
    """A strategy as far as the stored evaluations take it."""

    strategy: Strategy
    batch: int = 0                      # index of the next batch to tell
    asked: list[list[Request]] = field(default_factory=list)  # batches asked, not yet told
    exhausted: bool = False             # the strategy asked its last batch
    finished: bool = False              # ... and every batch has been told


@dataclass
class StepOutcome:
    dispatch: list[str] = field(default_factory=list)
    final: bool = False
    committed: bool = True


_REPLAYS: dict[tuple[str, str], Replay] = {}


def forget(tuning_id: str) -> None:
    """Drop the cached strategies of a tuning (it ended)."""
    for key in [k for k in _REPLAYS if k[0] == tuning_id]:
        del _REPLAYS[key]


def step(session: Session, tuning_id: str, redispatch: bool = False) -> StepOutcome:
    """Advance the tuning as far as finished runs allow; commits (or rolls back on a race).

    `redispatch` (a resumed tuning) also returns the runs of unfinished evaluations that no
    worker has claimed: their messages may have died with the process that was to send them;
    a duplicate message is harmless (the claim lets one execution through)."""
    # The row lock serialises steps on PostgreSQL; elsewhere the version check and the unique
    # (tuning, strategy, seq) key turn a concurrent step into a rolled-back no-op.
    tuning = session.get(Tuning, tuning_id, with_for_update=True)
    if tuning is None or tuning.status in FINAL_STATES:
        forget(tuning_id)
        return StepOutcome(final=True)
    version = tuning.version
    spec = TuningCreate.model_validate(tuning.spec)
    space = build_space(spec.space)
    # Only the PENDING evaluations are scored; the replay reads only the batches its cached
    # strategies have not yet been told (all of them after a restart): a step costs what changed,
    # not the size of the tuning (with 3,300 evaluations, reading every row each step was most
    # of a worker's time).
    pending = list(session.scalars(select(TuningEvaluation).where(
        TuningEvaluation.tuning_id == tuning_id, TuningEvaluation.status == RunStatus.PENDING)
        .order_by(TuningEvaluation.id)).all())
    _finish_evaluations(session, spec, pending)
    outcome = StepOutcome()
    if tuning.cancelled:
        tuning.status, tuning.finished_at = RunStatus.CANCELLED, utcnow()
        outcome.final = True
    else:
        try:
            outcome = _advance(session, tuning, spec, space)
            if redispatch:
                outcome.dispatch += _unclaimed(session, pending)
        except IntegrityError:  # another step stored the same batch first
            session.rollback()
            return StepOutcome(committed=False)
        except (ReplayDiverged, SpaceError, ValueError) as exc:
            tuning.status, tuning.error, tuning.finished_at = RunStatus.FAILED, str(exc)[:2000], utcnow()
            outcome = StepOutcome(final=True)
    try:
        moved = session.execute(update(Tuning).where(
            Tuning.id == tuning_id, Tuning.version == version).values(
            version=version + 1, stepped_at=utcnow()))
        if moved.rowcount != 1:
            session.rollback()
            return StepOutcome(committed=False)
        session.commit()
    except IntegrityError:
        session.rollback()
        return StepOutcome(committed=False)
    if outcome.final:
        forget(tuning_id)
    return outcome


def _stored_batches(session: Session, tuning_id: str, strategy: str,
                    first_batch: int) -> dict[int, list[TuningEvaluation]]:
    """The stored evaluations of one strategy from `first_batch` on, by batch, in order."""
    by_batch: dict[int, list[TuningEvaluation]] = defaultdict(list)
    for row in session.scalars(select(TuningEvaluation).where(
            TuningEvaluation.tuning_id == tuning_id, TuningEvaluation.strategy == strategy,
            TuningEvaluation.batch >= first_batch).order_by(TuningEvaluation.id)).all():
        by_batch[row.batch].append(row)
    return by_batch


def _advance(session: Session, tuning: Tuning, spec: TuningCreate, space: Space) -> StepOutcome:
    """Replay every strategy; store new batches; mark the tuning finished when all are."""
    next_seq = dict(session.execute(select(TuningEvaluation.strategy, func.count()).where(
        TuningEvaluation.tuning_id == tuning.id).group_by(TuningEvaluation.strategy)).all())
    bases = [session.get(ScenarioRow, sid) for sid in tuning.scenario_ids]
    outcome, all_done = StepOutcome(), True
    for sspec in spec.strategies:
        replay = _REPLAYS.get((tuning.id, sspec.name))
        if replay is None:
            replay = Replay(strategy_of(spec, sspec, space))
        stored_batches = (_stored_batches(session, tuning.id, sspec.name, replay.batch)
                          if not replay.finished else {})
        stored_new = _replay(session, tuning, space, bases, sspec.name, replay, stored_batches,
                             next_seq.get(sspec.name, 0), outcome)
        all_done = all_done and replay.finished and not stored_new
        _REPLAYS[(tuning.id, sspec.name)] = replay
    if tuning.status == RunStatus.PENDING:
        tuning.status = RunStatus.RUNNING
    if all_done and (spec.screening is None or screening.second_stage(session, tuning, spec, outcome)):
        tuning.status, tuning.finished_at = RunStatus.SUCCEEDED, utcnow()
        outcome.final = True
    return outcome


def _replay(session: Session, tuning: Tuning, space: Space, bases: list[ScenarioRow],
            name: str, replay: Replay, stored_batches: dict[int, list[TuningEvaluation]],
            seq: int, outcome: StepOutcome) -> bool:
    """Tell the strategy every stored batch that has ended, in order, and ask (storing what is
    new) until it waits for results; returns whether a new batch was stored.

    A strategy whose batches do not depend on results (`lookahead` > 0: grid, random) is asked
    up to `lookahead` batches beyond the oldest untold one, so the workers never wait for the
    last chunk of a batch (or for the step) before the next batch is there to run."""
    stored_new = False
    while not replay.finished:
        if replay.asked:
            stored = stored_batches.get(replay.batch)
            if stored is not None and not any(r.status == RunStatus.PENDING for r in stored):
                for request, row in zip(replay.asked.pop(0), stored):
                    replay.strategy.tell(request, tuple(row.losses))
                replay.batch += 1
                continue
        if replay.exhausted:
            replay.finished = not replay.asked
            break
        if len(replay.asked) > replay.strategy.lookahead:
            break  # waiting for results
        index = replay.batch + len(replay.asked)
        batch = replay.strategy.ask()
        if not batch:
            replay.exhausted = True
            continue
        replay.asked.append(batch)
        stored = stored_batches.get(index)
        if stored is None:
            outcome.dispatch += _store_batch(session, tuning, space, bases, name, index,
                                             seq, batch)
            seq += len(batch)
            stored_new = True
            continue
        if [request_from_json(r.request).key for r in stored] != [r.key for r in batch]:
            raise ReplayDiverged(f"strategy {name} diverged from its stored evaluations "
                                 f"at batch {index}")
    return stored_new


def _unclaimed(session: Session, rows: list[TuningEvaluation]) -> list[str]:
    """PENDING runs of PENDING evaluations."""
    ids = {rid for r in rows if r.status == RunStatus.PENDING for rid in r.run_ids}
    if not ids:
        return []
    return sorted(session.scalars(select(Run.id).where(Run.id.in_(ids),
                                                       Run.status == RunStatus.PENDING)).all())


def _store_batch(session: Session, tuning: Tuning, space: Space, bases: list[ScenarioRow],
                 strategy: str, batch_index: int, seq: int, batch: list[Request]) -> list[str]:
    """Evaluation rows for a new batch, each with one run per scenario and seed (reused by
    content when the same simulation exists); returns the run ids that need executing.

    The whole batch shares its round trips (one flush of the snapshots, one query for reusable
    runs, one flush of the new runs and rows): per point they were most of a step's time."""
    spec = TuningCreate.model_validate(tuning.spec)
    rows: list[TuningEvaluation] = []
    snapshots: dict[int, list[ScenarioRow]] = {}
    for offset, request in enumerate(batch):
        row = TuningEvaluation(tuning_id=tuning.id, strategy=strategy, seq=seq + offset,
                               batch=batch_index, request=request_to_json(request),
                               params=params_of(space, request), run_ids=[], status=RunStatus.PENDING)
        rows.append(row)
        try:
            snapshots[offset] = [_snapshot(session, tuning, space, base, request, row.params)
                                 for base in bases]
        except (ValidationError, SpaceError, KeyError, TypeError) as exc:
            row.status, row.error = RunStatus.FAILED, f"invalid point: {str(exc)[:1500]}"
            row.losses, row.feasible = [PENALTY] * len(spec.objectives), False
    session.flush()
    engine = spec.screening.engine if spec.screening else "packet"
    runs = reusable_runs_by_content(session, {s.sim_hash for group in snapshots.values() for s in group},
                                    spec.seeds, engine=engine)
    dispatch: list[str] = []
    for offset, group in snapshots.items():
        run_ids = []
        for snapshot in group:
            for seed in spec.seeds:
                run = runs.get((snapshot.sim_hash, seed))
                if run is None:
                    run = Run(id=new_id(), scenario_id=snapshot.id, seed=seed, status=RunStatus.PENDING,
                              client=tuning.client, owner_hash=tuning.owner_hash, engine=engine)
                    session.add(run)
                    runs[(snapshot.sim_hash, seed)] = run  # the same simulation twice: one run
                    dispatch.append(run.id)
                run_ids.append(run.id)
        rows[offset].run_ids = run_ids
    session.add_all(rows)
    session.flush()
    return dispatch


def _snapshot(session: Session, tuning: Tuning, space: Space, base: ScenarioRow,
              request: Request, params: dict[str, Any]) -> ScenarioRow:
    """The scenario one request simulates on one base scenario (added, not yet flushed)."""
    scenario = Scenario.model_validate(document_for(base.document, space, request))
    label = ", ".join(f"{k}={v}" for k, v in params.items())
    scenario = scenario.model_copy(update={
        "name": f"{base.name} [{label}]"[:200] if label else base.name})
    snapshot, _ = create_scenario(session, scenario=scenario, parent_id=base.id,
                                  tuning_id=tuning.id, commit=False, owner_hash=tuning.owner_hash)
    return snapshot


def _finish_evaluations(session: Session, spec: TuningCreate, rows: list[TuningEvaluation]) -> None:
    """Score every PENDING evaluation whose runs have all ended (the runs, their scenarios and
    their results read in one query each)."""
    pending = [r for r in rows if r.status == RunStatus.PENDING]
    run_ids = {rid for r in pending for rid in r.run_ids}
    if not run_ids:
        return
    runs = {run.id: run for run in session.scalars(select(Run).where(Run.id.in_(run_ids))).all()}
    ready = [r for r in pending if all(
        runs.get(rid) is not None and runs[rid].status in FINAL_STATES for rid in r.run_ids)]
    ended = [runs[rid] for r in ready for rid in r.run_ids]
    documents = dict(session.execute(select(ScenarioRow.id, ScenarioRow.document).where(
        ScenarioRow.id.in_({run.scenario_id for run in ended}))).all())
    results = dict(session.execute(select(RunResult.run_id, RunResult.result_json).where(
        RunResult.run_id.in_({run.id for run in ended if run.status == RunStatus.SUCCEEDED}))).all())
    objectives, constraints = objectives_of(spec), constraints_of(spec)
    for row in ready:
        mine = [runs[rid] for rid in row.run_ids]
        metrics = [O.derive_metrics(json.loads(results[run.id]) if run.id in results else {},
                                    documents[run.scenario_id]) for run in mine]
        score(spec, objectives, constraints, row, mine, metrics)
