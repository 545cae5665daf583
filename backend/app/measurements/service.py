"""Measurements: store, list, delete, simulate (the matching sweep or run), compare."""

import copy
import logging
from typing import Any

from sqlalchemy import select
from sqlalchemy.orm import Session

from app.core import simulator
from app.core.db import newest_first_page
from app.core.queue import enqueue_run, enqueue_sweep
from app.measurements import compare, matching, reading
from app.measurements.models import Measurement
from app.measurements.nccl_tests import TOOLS as NCCL_TOOLS
from app.measurements.schemas import (ComparedPoint, Comparison, MeasurementPublic,
                                      MeasurementSummary)
from app.measurements.units import nccl_gbs_to_gbps
from app.runs import service as runs
from app.runs.models import FINAL_STATES, Run, RunStatus
from app.scenarios.document import Scenario
from app.scenarios.models import ScenarioRow
from app.scenarios.service import create_scenario, new_id
from app.sweeps import service as sweeps
from app.sweeps.grid import set_path
from app.sweeps.models import Sweep, SweepPoint
from app.sweeps.schemas import SweepCreate

log = logging.getLogger(__name__)
DEFAULT_HOST_RATE_GBPS = 100.0


def create(session: Session, *, scenario: ScenarioRow, kind: str, text: str, tool: str | None,
           name: str, owner_hash: str) -> Measurement:
    """Parse and store (TextFileError before anything is stored)."""
    found_tool, parsed = reading.read(kind, text, tool)
    row = Measurement(id=new_id(), scenario_id=scenario.id, kind=kind, tool=found_tool,
                      name=name or found_tool, text=text, parsed=parsed, owner_hash=owner_hash)
    session.add(row)
    session.commit()
    return row


def summary(row: Measurement) -> MeasurementSummary:
    return MeasurementSummary(id=row.id, scenario_id=row.scenario_id, kind=row.kind, tool=row.tool,
                              name=row.name, created_at=row.created_at,
                              points=len(row.parsed["rows"]), sweep_id=row.sweep_id,
                              run_id=row.run_id)


def public(row: Measurement) -> MeasurementPublic:
    return MeasurementPublic(**summary(row).model_dump(),
                             header=reading.header(row.kind, row.parsed),
                             rows=reading.rows(row.kind, row.parsed), notes=row.parsed["notes"],
                             sim_scenario_id=row.sim_scenario_id, generator=row.generator)


def list_measurements(session: Session, *, scenario_id: str | None, limit: int, offset: int,
                      owned_by: tuple[str, ...] | None) -> tuple[list[Measurement], int]:
    query = select(Measurement)
    if scenario_id:
        query = query.where(Measurement.scenario_id == scenario_id)
    if owned_by is not None:
        query = query.where(Measurement.owner_hash.in_(owned_by))
    return newest_first_page(session, query, Measurement, limit=limit, offset=offset)


def host_rate_gbps(document: dict[str, Any]) -> float:
    """The slowest host link's rate (the NIC a collective or perftest is bound by)."""
    try:
        expanded = simulator.expand(document)
    except (simulator.SimulatorUnavailable, simulator.SimulatorRejected) as exc:
        log.warning("host rate not read (%s): %g Gbit/s assumed", exc, DEFAULT_HOST_RATE_GBPS)
        return DEFAULT_HOST_RATE_GBPS
    hosts = {n["id"] for n in expanded["nodes"] if n["kind"] == "host"}
    rates = [link["rate_gbps"] for link in expanded["links"]
             if link["a"] in hosts or link["b"] in hosts]
    return min(rates) if rates else DEFAULT_HOST_RATE_GBPS


def plan(row: Measurement, scenario: ScenarioRow, generator: int | None) -> matching.Plan:
    rate = host_rate_gbps(scenario.document)
    if row.kind == "nccl_tests":
        return matching.nccl_plan(scenario.document, row.parsed, generator, rate)
    return matching.perftest_plan(scenario.document, row.parsed, generator, rate)


def start(session: Session, *, row: Measurement, scenario: ScenarioRow, the_plan: matching.Plan,
          seed: int, client: str, owner_hash: str) -> None:
    """Store the snapshot (when the plan changes the scenario), the sweep or run, and enqueue it;
    the measurement links to them. Raises ValidationError for a point the scenario refuses."""
    base = scenario
    if the_plan.fork:
        document = copy.deepcopy(scenario.document)
        for path, value in the_plan.fork.items():
            set_path(document, path, value)
        document["name"] = f"{scenario.name} [{row.tool} {row.name}]"[:200]
        base, _ = create_scenario(session, scenario=Scenario.model_validate(document),
                                  parent_id=scenario.id, owner_hash=owner_hash)
    row.sim_scenario_id, row.generator = base.id, the_plan.generator
    row.sweep_id = row.run_id = None
    if the_plan.kind == "sweep":
        body = SweepCreate(scenario_id=base.id, seed=seed, parameters=the_plan.parameters,
                           linked=the_plan.linked)
        sweep = sweeps.create_sweep(session, base=base, body=body, client=client,
                                    owner_hash=owner_hash)
        row.sweep_id = sweep.id
        session.commit()
        _quietly(enqueue_sweep, sweep.id)
        return
    ((run, cached),) = runs.create_runs(session, scenario_id=base.id, seeds=[seed], client=client,
                                        owner_hash=owner_hash)
    row.run_id = run.id
    session.commit()
    if not cached and run.status == RunStatus.PENDING and run.task_id is None:
        _quietly(lambda rid: enqueue_run(rid), run.id)


def _quietly(send, item_id: str) -> None:
    """Enqueue; when the broker is down the reconciler enqueues it later."""
    try:
        send(item_id)
    except Exception as exc:  # noqa: BLE001 - any broker error: the reconciler takes over
        log.warning("%s: broker unreachable (%s); the reconciler will enqueue it", item_id,
                    type(exc).__name__)


def _runs_by_size(session: Session,
                  row: Measurement) -> tuple[dict[int, Run], str | None, int, int]:
    """Each simulated size's run, the simulation's status, points done and total."""
    path = f"traffic.{row.generator}.message_bytes"
    if row.sweep_id is not None:
        sweep = session.get(Sweep, row.sweep_id)
        found = session.execute(select(SweepPoint.params, Run)
                                .join(Run, SweepPoint.run_id == Run.id)
                                .where(SweepPoint.sweep_id == row.sweep_id)).all()
        by_size = {int(params[path]): run for params, run in found if path in params}
        progress = sweeps.progress(session, sweep=sweep)
        return by_size, progress.status, progress.done, progress.total
    if row.run_id is not None:
        run = session.get(Run, row.run_id)
        size = row.parsed["rows"][0]["size_bytes"]
        done = int(run.status in FINAL_STATES)
        return {size: run}, run.status, done, 1
    return {}, None, 0, len(row.parsed["rows"])


def _result(session: Session, run: Run | None) -> dict[str, Any] | None:
    if run is None or run.status != RunStatus.SUCCEEDED:
        return None
    sha = runs.result_sha256(session, run=run)
    return runs.parsed_result(run.id, sha) if sha else None


def comparison(session: Session, row: Measurement) -> Comparison:
    by_size, status, done, total = _runs_by_size(session, row)
    if row.kind == "nccl_tests":
        return _nccl(session, row, by_size, status, done, total)
    return _perftest(session, row, by_size, status, done, total)


def _job(row: Measurement, session: Session) -> str | None:
    scenario = session.get(ScenarioRow, row.sim_scenario_id) if row.sim_scenario_id else None
    if scenario is None or row.generator is None:
        return None
    gen = scenario.document["traffic"][row.generator]
    return gen.get("job") or gen.get("name") or f"job{row.generator}"


def _nccl(session: Session, row: Measurement, by_size: dict[int, Run], status: str | None,
          done: int, total: int) -> Comparison:
    job = _job(row, session)
    measured_ranks = row.parsed.get("ranks")
    simulated_ranks = ideal = None
    points = []
    for measured in row.parsed["rows"]:
        size = measured["size_bytes"]
        run = by_size.get(size)
        simulated, completed = None, True
        if run is not None and run.status == RunStatus.SUCCEEDED:
            metrics = (run.job_metrics or {}).get(job or "", {})
            simulated = metrics.get("busbw_gbps")
            completed = simulated is not None
            if simulated_ranks is None:
                info = _job_info(session, run, job)
                simulated_ranks, ideal = info.get("ranks"), info.get("ideal_busbw_gbps")
        oop, ip = measured["out_of_place"], measured["in_place"]
        point = compare.Point(
            size, None if oop["busbw_gbs"] is None else nccl_gbs_to_gbps(oop["busbw_gbs"]),
            simulated, None if ip["busbw_gbs"] is None else nccl_gbs_to_gbps(ip["busbw_gbs"]),
            max(oop["wrong"] or 0, ip["wrong"] or 0), completed, ideal)
        points.append(_compared(point, compare.nccl_reasons(point, measured_ranks, simulated_ranks),
                                run))
    notes = list(row.parsed["notes"])
    if NCCL_TOOLS[row.tool] is None:
        notes.append("sendrecv_perf has no collective in the model: nothing is simulated")
    return Comparison(measurement_id=row.id, tool=row.tool, metric="busbw_gbps", unit="Gbit/s",
                      threshold=compare.THRESHOLD, status=status, done=done, total=total,
                      points=points, reasons=compare.REASONS, measured_ranks=measured_ranks,
                      simulated_ranks=simulated_ranks, notes=notes)


def _job_info(session: Session, run: Run, job: str | None) -> dict[str, Any]:
    result = _result(session, run) or {}
    return next((j for j in result.get("jobs", []) if j.get("name") == job), {})


def _perftest(session: Session, row: Measurement, by_size: dict[int, Run], status: str | None,
              done: int, total: int) -> Comparison:
    parsed = row.parsed
    kind, tool = parsed["kind"], parsed["tool"]
    mtu = parsed["settings"].get("mtu_bytes")
    points = []
    for measured in parsed["rows"]:
        size = measured["size_bytes"]
        run = by_size.get(size)
        flow = None
        result = _result(session, run)
        if result is not None:
            flow = next((f for f in result.get("flows", []) if f.get("generator") == row.generator),
                        None)
        simulated, completed = compare.perftest_simulated(kind, tool, flow)
        if run is None or run.status != RunStatus.SUCCEEDED:
            completed = True  # not run yet: nothing to say
        value = measured["bw_average_gbps"] if kind == "bw" else measured["t_avg_us"]
        point = compare.Point(size, value, simulated, completed=completed,
                              measured_p99=measured.get("p99_us"),
                              measured_p999=measured.get("p999_us"))
        points.append(_compared(point, compare.perftest_reasons(point, kind, mtu), run))
    return Comparison(measurement_id=row.id, tool=tool,
                      metric="bw_gbps" if kind == "bw" else "latency_us",
                      unit="Gbit/s" if kind == "bw" else "us", threshold=compare.THRESHOLD,
                      status=status, done=done, total=total, points=points,
                      reasons=compare.REASONS, notes=list(parsed["notes"]))


def _compared(point: compare.Point, reasons: list[str], run: Run | None) -> ComparedPoint:
    return ComparedPoint(size_bytes=point.size_bytes, measured=point.measured,
                         measured_in_place=point.measured_in_place, simulated=point.simulated,
                         ratio=compare.ratio(point), differs=compare.differs(point),
                         reasons=reasons, run_id=run.id if run else None,
                         status=run.status if run else None, measured_p99=point.measured_p99,
                         measured_p999=point.measured_p999)
