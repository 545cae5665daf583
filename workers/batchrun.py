"""Executing a chunk of runs in one worker task with one `fabricsim batch` process.

Per point, a run executed on its own pays a Celery message, a database session and three
commits (claim, last progress, result), a fork of the (large) worker process and the simulator's
process start. Here a chunk pays them once: the claims share a session, one `fabricsim batch`
process forks a pristine child per run (each result byte-identical to a standalone run), the
heartbeat is one write per tick for the whole chunk, and every outcome is stored in one commit.
Each run keeps its own claim, so a cancelled or superseded run is never overwritten.
"""

import json
import logging
import math
import shutil
import uuid
from dataclasses import dataclass, field
from pathlib import Path

from app.core.config import get_settings
from app.core.db import DB_UNAVAILABLE, get_sessionmaker
from app.runs import execution
from workers import slots
from workers.dbretry import with_db_retry
from workers.simprocess import command, run_simulator

log = logging.getLogger(__name__)
MAX_RUNS_PER_TASK = 16  # a chunk per task: small enough to share a sweep among many workers
EXIT_KINDS = {2: "invalid scenario", 3: "limit reached", 1: "simulator error"}


@dataclass
class BatchOutcome:
    """What became of a chunk: runs stored (done), runs left for later (deferred: their client
    already runs its quota), runs skipped (final or held by another execution)."""

    done: list[str] = field(default_factory=list)
    deferred: list[str] = field(default_factory=list)
    skipped: list[str] = field(default_factory=list)


def batch_command(binary: Path, manifest: Path, wall_s: int, memory_mb: int) -> list[str]:
    """The argument list of one batch (the per-run limits apply to every entry)."""
    return [str(binary), "batch", str(manifest), "--max-wall-s", str(wall_s),
            "--max-memory-mb", str(memory_mb)]


def chunks(run_ids: list[str], workers_hint: int = 4) -> list[list[str]]:
    """Split runs so that several workers share them, at most MAX_RUNS_PER_TASK per task."""
    size = max(1, min(MAX_RUNS_PER_TASK, math.ceil(len(run_ids) / workers_hint)))
    return [run_ids[i:i + size] for i in range(0, len(run_ids), size)]


def _claim_all(run_ids: list[str], *, task_id: str,
               worker: str) -> tuple[list[execution.Claim], BatchOutcome]:
    settings = get_settings()
    outcome, claims = BatchOutcome(), []
    with get_sessionmaker()() as session:
        for run_id in run_ids:
            try:
                claim = execution.claim_run(
                    session, run_id=run_id, task_id=f"{task_id}:{run_id}"[:64], worker=worker,
                    stale_after_s=settings.HEARTBEAT_STALE_S,
                    max_running=settings.QUOTA_CONCURRENT_RUNS)
            except execution.OverConcurrency:
                outcome.deferred.append(run_id)
                continue
            if claim is None:
                outcome.skipped.append(run_id)
            else:
                claims.append(claim)
    return claims, outcome


def _write_manifest(claims: list[execution.Claim], runs_dir: Path) -> tuple[Path, list[Path]]:
    """Per-run directories with scenario.json (the seed applied) and the batch's manifest."""
    workdirs = []
    for claim in claims:
        workdir = (runs_dir / claim.run_id).resolve()
        if workdir.parent != runs_dir.resolve():  # ids are server-made; never trust one blindly
            raise ValueError(f"run id {claim.run_id!r} is not a plain name")
        shutil.rmtree(workdir, ignore_errors=True)
        workdir.mkdir(parents=True)
        (workdir / "scenario.json").write_text(json.dumps(dict(claim.document, seed=claim.seed)))
        workdirs.append(workdir)
    batch_dir = runs_dir.resolve() / f"batch-{uuid.uuid4().hex[:12]}"
    batch_dir.mkdir(parents=True)
    manifest = batch_dir / "manifest.json"
    manifest.write_text(json.dumps({"runs": [
        {"scenario": str(w / "scenario.json"), "out": str(w / "result.json")} for w in workdirs]}))
    return manifest, workdirs


def execute_runs(run_ids: list[str], *, task_id: str, worker: str) -> BatchOutcome:
    """Claim, simulate and store a chunk of runs.

    A database outage at claim propagates (the caller's task retries the chunk: runs already
    claimed by this task id are taken over by the retry)."""
    settings = get_settings()
    with slots.hold(1, *slots.slots_of(settings)):  # one simulation at a time: one slot
        return _execute_chunk(run_ids, task_id=task_id, worker=worker)


def _execute_chunk(run_ids: list[str], *, task_id: str, worker: str) -> BatchOutcome:
    """execute_runs, holding a slot."""
    settings = get_settings()
    claims, outcome = _claim_all(run_ids, task_id=task_id, worker=worker)
    if not claims:
        return outcome
    manifest, workdirs = _write_manifest(claims, Path(settings.RUNS_DIR))
    lines: dict[int, dict] = {}
    held = {c.run_id for c in claims}
    sessions = get_sessionmaker()

    def tick(_line) -> bool:
        nonlocal held
        live = [c for i, c in enumerate(claims) if i not in lines]
        try:
            with sessions() as session:
                held = execution.heartbeat_many(session, claims=live) | {
                    c.run_id for i, c in enumerate(claims) if i in lines}
        except DB_UNAVAILABLE as exc:
            log.warning("batch: database unavailable (%s); heartbeat skipped", type(exc).__name__)
            return True
        return any(c.run_id in held for c in live) or not live  # all cancelled: stop

    def on_line(line: dict) -> None:
        if isinstance(line.get("index"), int) and 0 <= line["index"] < len(claims):
            lines[line["index"]] = line

    per_run_wall = settings.RUN_MAX_WALL_S
    batch_error = ""
    if any(c.engine != "packet" for c in claims):
        # `fabricsim batch` runs the packet engine: flow-level runs (a screening sweep's first
        # stage; each takes milliseconds) run one `fabricsim run --engine flow` each
        for index, (claim, workdir) in enumerate(zip(claims, workdirs)):
            argv = command(Path(settings.FABRICSIM_BIN), workdir, per_run_wall,
                           settings.RUN_MAX_MEMORY_MB, 1, claim.engine)
            try:
                sim = run_simulator(argv, workdir, hard_wall_s=per_run_wall + 30,
                                    tick_s=settings.PROGRESS_WRITE_INTERVAL_S, on_tick=tick,
                                    nice=settings.SIM_NICE)
                lines[index] = {"exit": sim.returncode, "error": sim.killed_reason or sim.error}
            except OSError as exc:
                batch_error = f"cannot start fabricsim: {exc}"
    else:
        argv = batch_command(Path(settings.FABRICSIM_BIN), manifest, per_run_wall,
                             settings.RUN_MAX_MEMORY_MB)
        try:
            sim = run_simulator(argv, manifest.parent, hard_wall_s=per_run_wall * len(claims) + 30,
                                tick_s=settings.PROGRESS_WRITE_INTERVAL_S, on_tick=tick,
                                on_line=on_line, nice=settings.SIM_NICE)
            batch_error = sim.killed_reason or sim.error
        except OSError as exc:
            batch_error = f"cannot start fabricsim: {exc}"
    results = []
    for index, (claim, workdir) in enumerate(zip(claims, workdirs)):
        line = lines.get(index)
        if line is None:
            results.append((claim, None, f"simulator error: batch ended before this run "
                                         f"({batch_error or 'no message'})"))
        elif line.get("exit") == 0:
            results.append((claim, (workdir / "result.json").read_text(), ""))
        else:
            kind = EXIT_KINDS.get(line.get("exit"), f"exit {line.get('exit')}")
            results.append((claim, None, f"{kind}: {line.get('error') or 'no message'}"))

    def store() -> int:
        with sessions() as session:
            return execution.finish_many(session, outcomes=results)

    with_db_retry(store, what=f"batch of {len(results)} runs: storing the outcomes")
    shutil.rmtree(manifest.parent, ignore_errors=True)
    outcome.done.extend(c.run_id for c in claims)
    return outcome
