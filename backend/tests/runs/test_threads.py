"""Runs on several simulator threads (issue 19) against the real services: POST /runs `threads`,
the sim-parallel worker, the threads and partitions the run records, and the 422s."""

import json
import uuid

import pytest
from sqlalchemy import text

from app.core.config import REPO_ROOT
from app.core.queue import PARALLEL_QUEUE, SIM_QUEUE, celery_app, enqueue_run, held_messages
from tests.helpers import create_scenario, error_locs, wait_final
from tests.scenarios_data import incast


def small_fat_tree(name: str) -> dict:
    """k=4 (16 hosts), a line-rate permutation for 200 us: two partitions on two threads."""
    return {"schema_version": 1, "name": name, "duration_us": 200,
            "topology": {"kind": "fat_tree", "k": 4, "link_delay_us": 1},
            "traffic": [{"kind": "permutation", "size_bytes": 0}],
            "monitor": {"sample_interval_us": 20}}


def post_runs(api, scenario_id: str, **body):
    return api.post("/runs", json={"scenario_id": scenario_id, **body})


def test_two_threads_on_a_small_fat_tree(api, stack, engine):
    """A 2-thread run is served by the sim-parallel worker, SUCCEEDS and records 2 threads and 2
    partitions; the same scenario+seed asked on 1 thread reuses its result (same bytes)."""
    scenario = create_scenario(api, small_fat_tree("two threads"))
    created = post_runs(api, scenario["id"], threads=2)
    assert created.status_code == 201, created.text
    run = created.json()["data"][0]
    assert run["threads"] == 2 and run["partitions"] is None
    done = wait_final(api, run["id"])
    assert done["status"] == "SUCCEEDED", done["error"]
    assert (done["threads"], done["partitions"]) == (2, 2)
    parallel = json.loads(api.get(f"/runs/{run['id']}/result").content)["perf"]["parallel"]
    assert parallel["threads"] == 2 and parallel["partitions"] == 2
    with engine.connect() as connection:
        task_id = connection.execute(text("SELECT task_id FROM runs WHERE id = :r"),
                                     {"r": run["id"]}).scalar_one()
    parallel_log = stack.worker_logs()[2]  # conftest: the third worker serves sim-parallel only
    assert f"runs.execute[{task_id}]" in parallel_log.read_text()
    again = post_runs(api, scenario["id"], threads=1)
    assert again.status_code == 201, again.text
    reused = again.json()["data"][0]
    assert reused["id"] == run["id"] and reused["cached"] is True and reused["threads"] == 2


def test_default_threads_on_a_small_fabric_is_one(api):
    scenario = create_scenario(api, incast(name="auto threads"))
    run = post_runs(api, scenario["id"]).json()["data"][0]
    assert run["threads"] == 1
    done = wait_final(api, run["id"])
    assert done["status"] == "SUCCEEDED" and (done["threads"], done["partitions"]) == (1, 1)


@pytest.mark.parametrize("threads", [0, -1, 5, 2.5, "2", True, 10**12])
def test_threads_out_of_range_or_not_an_integer(api, threads):
    """422 naming `threads` and the range (conftest sets MAX_RUN_THREADS=4); nothing is created."""
    scenario = create_scenario(api, incast(name=f"bad threads {threads!r}"))
    response = post_runs(api, scenario["id"], threads=threads)
    assert error_locs(response) == [["body", "threads"]]
    assert "from 1 to 4" in response.json()["detail"][0]["msg"]
    assert api.get("/runs", params={"scenario_id": scenario["id"]}).json()["count"] == 0


def test_dci_accelerator_on_two_threads_is_refused_and_a_collective_is_not(api):
    """The simulator runs the DCI accelerator on one thread: the API says so at `threads` (and
    runs it on one thread by default). A collective, whose steps wait for steps, is accepted."""
    document = json.loads((REPO_ROOT / "docs/examples/valid/dci-accelerator-bdp.json").read_text())
    scenario = create_scenario(api, document)
    response = post_runs(api, scenario["id"], threads=2)
    assert error_locs(response) == [["body", "threads"]]
    assert "the DCI accelerator runs on one thread" in response.json()["detail"][0]["msg"]
    assert api.get("/runs", params={"scenario_id": scenario["id"]}).json()["count"] == 0
    assert post_runs(api, scenario["id"], threads=1).status_code == 201
    collective = json.loads((REPO_ROOT / "docs/examples/valid/collective-hierarchical-iterations.json")
                            .read_text())
    scenario = create_scenario(api, collective)
    assert post_runs(api, scenario["id"], threads=2).status_code == 201


def test_a_parallel_run_is_sent_to_sim_parallel_and_the_reconciler_sees_it():
    """enqueue_run routes threads > 1 to sim-parallel, and held_messages (the reconciler's view of
    the broker) looks there by default, so a run waiting there is not sent twice. The pytest
    process's broker database has no worker: the message stays where it was sent."""
    run_id = uuid.uuid4().hex[:16]
    enqueue_run(run_id, threads=2)
    try:
        assert ("runs.execute", run_id) in held_messages(queues=(PARALLEL_QUEUE,))
        assert ("runs.execute", run_id) not in held_messages(queues=(SIM_QUEUE,))
        assert ("runs.execute", run_id) in held_messages()
    finally:
        with celery_app.connection_for_write() as connection:
            connection.default_channel.queue_delete(PARALLEL_QUEUE)
