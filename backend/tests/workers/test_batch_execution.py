"""Sweep points and tuning evaluations run in chunks: one task and one `fabricsim batch` process
per chunk (workers/batchrun.py). Each stored result must equal a standalone `fabricsim run` of the
same document and seed; a bad point fails alone; the reconciler sees the runs held in a chunk."""

import json
import subprocess
import tempfile
import uuid
from pathlib import Path

import pytest
from celery import Celery
from sqlalchemy import text
from sqlalchemy.orm import Session

from app.core.config import get_settings
from app.core.queue import held_messages
from app.runs.models import Run
from app.scenarios.models import ScenarioRow
from app.scenarios.service import new_id
from tests.helpers import create_scenario, sse_events, wait_final
from tests.scenarios_data import incast
from workers.batchrun import MAX_RUNS_PER_TASK, chunks
from workers.celery_app import celery_app


def _standalone(document: dict, seed: int) -> dict:
    """`fabricsim run` of the document with the seed, in a scratch folder; result without perf."""
    with tempfile.TemporaryDirectory() as scratch:
        path = Path(scratch) / "scenario.json"
        path.write_text(json.dumps(dict(document, seed=seed)))
        out = Path(scratch) / "result.json"
        subprocess.run([str(get_settings().FABRICSIM_BIN), "run", str(path), "--out", str(out)],
                       check=True, capture_output=True, timeout=300)
        result = json.loads(out.read_text())
    result.pop("perf")
    return result


def test_sweep_points_run_in_chunks_and_equal_standalone_runs(api, engine):
    base = create_scenario(api, incast(name="chunked sweep", duration_us=600))
    response = api.post("/sweeps", json={"scenario_id": base["id"], "seed": 3, "parameters": [
        {"path": "switch.ecn.kmin_bytes", "values": [0, 2000, 4000, 6000, 8000, 10000]}],
        "linked": [{"path": "switch.ecn.kmax_bytes", "from": "switch.ecn.kmin_bytes",
                    "scale": 1, "offset": 500}]})
    assert response.status_code == 201, response.text
    sweep_id = response.json()["id"]
    events = sse_events(api, f"/sweeps/{sweep_id}/events", timeout=300)
    assert events[-1][1]["status"] == "SUCCEEDED", events[-1]
    with engine.connect() as connection:
        rows = connection.execute(text(
            "SELECT r.id, r.task_id, r.seed, s.document, rr.result_json FROM sweep_points p "
            "JOIN runs r ON r.id = p.run_id JOIN scenarios s ON s.id = r.scenario_id "
            "JOIN run_results rr ON rr.run_id = r.id WHERE p.sweep_id = :s"), {"s": sweep_id}).all()
    assert len(rows) == 6
    # 6 points in chunks of 2 (4 workers' worth): each chunk's task id prefixes its runs' claims
    tasks = {row.task_id.split(":")[0] for row in rows}
    assert len(tasks) == len(chunks([row.id for row in rows])) == 3
    for row in rows:
        assert row.task_id == f"{row.task_id.split(':')[0]}:{row.id}"
        stored = json.loads(row.result_json)
        stored.pop("perf")
        assert stored == _standalone(row.document, row.seed)


def test_a_bad_point_fails_alone_with_the_simulator_reason(api, engine, stack):
    # A run whose stored document the simulator refuses (Kmin above Kmax, written behind the
    # API's back) shares a chunk with a good run: it ends FAILED with the simulator's one-line
    # reason, its chunk mate SUCCEEDED.
    good = create_scenario(api, incast(name="chunk mate", duration_us=400))
    bad = create_scenario(api, incast(name="refused by the simulator", duration_us=400))
    with Session(engine) as session:
        row = session.get(ScenarioRow, bad["id"])
        document = json.loads(json.dumps(row.document))
        document.setdefault("switch", {}).setdefault("ecn", {}).update(kmin_bytes=90000,
                                                                       kmax_bytes=1000)
        row.document = document
        runs = [Run(id=new_id(), scenario_id=sid, seed=1, status="PENDING")
                for sid in (bad["id"], good["id"])]
        session.add_all(runs)
        session.commit()
        ids = [r.id for r in runs]
    sender = Celery(broker=stack.env["CELERY_BROKER_URL"])
    sender.send_task("runs.execute_batch", args=[ids], queue="sim-batch")
    bad_run = wait_final(api, ids[0])
    good_run = wait_final(api, ids[1])
    assert bad_run["status"] == "FAILED"
    assert bad_run["error"].startswith("invalid scenario: ") and "kmax" in bad_run["error"], bad_run
    assert good_run["status"] == "SUCCEEDED" and good_run["summary"]["throughput_gbps"] > 0


def test_the_reconciler_counts_runs_held_in_chunk_messages():
    queue = f"test-held-{uuid.uuid4().hex[:8]}"  # nobody consumes it
    ids = [uuid.uuid4().hex[:16] for _ in range(3)]
    celery_app.send_task("runs.execute_batch", args=[ids], queue=queue)
    celery_app.send_task("tunings.evaluate", args=["tuning-x", ids[:1]], queue=queue)
    try:
        held = held_messages(queues=(queue,))
        assert {("runs.execute", rid) for rid in ids} <= held
        assert ("tunings.evaluate", "tuning-x") in held
    finally:
        with celery_app.connection_for_write() as connection:
            connection.default_channel.queue_delete(queue)


def test_chunks_share_a_batch_among_workers_and_cap_the_chunk():
    assert chunks([]) == []
    assert chunks(["a", "b"]) == [["a"], ["b"]]
    assert [len(c) for c in chunks([str(i) for i in range(6)])] == [2, 2, 2]
    big = [str(i) for i in range(1000)]
    parts = chunks(big)
    assert max(len(p) for p in parts) == MAX_RUNS_PER_TASK and sum(parts, []) == big


def test_a_chunk_is_one_execution_under_the_concurrency_quota(api, engine):
    """A client with a quota of 1 execution: one worker process may claim a whole chunk (it
    simulates them one after another), a second process is refused until the first is done."""
    from app.runs.execution import OverConcurrency, claim_run

    scenario = create_scenario(api, incast(name="quota of executions", duration_us=400))
    client = f"owner:test-{uuid.uuid4().hex[:8]}"
    with Session(engine) as session:
        runs = [Run(id=new_id(), scenario_id=scenario["id"], seed=seed, status="PENDING",
                    client=client) for seed in (1, 2, 3)]
        session.add_all(runs)
        session.commit()
        ids = [r.id for r in runs]

    def claim(run_id: str, worker: str, quota: int = 1):
        with Session(engine) as session:
            return claim_run(session, run_id=run_id, task_id=f"t-{worker}:{run_id}",
                             worker=worker, stale_after_s=600, max_running=quota)

    assert claim(ids[0], "host-a pid=1") is not None
    assert claim(ids[1], "host-a pid=1") is not None  # same execution: no new slot
    with pytest.raises(OverConcurrency) as refused:
        claim(ids[2], "host-b pid=2")
    assert refused.value.args[0] == client
    assert claim(ids[2], "host-b pid=2", quota=2) is not None
    with Session(engine) as session:
        assert {session.get(Run, i).status for i in ids} == {"RUNNING"}
        for run_id in ids:  # leave nothing RUNNING for the reaper of later tests
            session.get(Run, run_id).status = "CANCELLED"
        session.commit()
