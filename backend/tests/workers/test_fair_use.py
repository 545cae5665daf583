"""Issue 13, fair use with real workers: per-client quotas (429 with Retry-After naming the
limit; concurrent runs held back at the worker) and fair queueing of single runs against sweeps."""

import tempfile
from collections.abc import Iterator

import httpx
import pytest
from sqlalchemy import create_engine, text

from tests.helpers import create_scenario, wait_final
from tests.scenarios_data import incast, long_running, two_hosts
from tests.support import (Stack, create_database, drop_database, migrate, redis_url_with_db,
                           require_env, service_env, wait_until)

FAIR_REDIS_DB = 14


@pytest.fixture(scope="module")
def fair() -> Iterator[tuple[Stack, str]]:
    """API + 2 workers with small quotas: 1 concurrent run, 6 queued runs, 8 points per sweep,
    50,000 simulated events per day, 2 event streams per client."""
    url = create_database(require_env("DATABASE_URL"))
    assert migrate(service_env(DATABASE_URL=url)).returncode == 0
    env = service_env(DATABASE_URL=url, RUNS_DIR=tempfile.mkdtemp(prefix="ft-fair-"),
                      CELERY_BROKER_URL=redis_url_with_db(require_env("CELERY_BROKER_URL"),
                                                          FAIR_REDIS_DB),
                      QUOTA_CONCURRENT_RUNS="1", QUOTA_QUEUED_RUNS="6",
                      QUOTA_POINTS_PER_SWEEP="8", QUOTA_EVENTS_PER_DAY="50000",
                      QUOTA_DEFER_S="1", MAX_SSE_PER_CLIENT="2", PROGRESS_WRITE_INTERVAL_S="0.3",
                      SSE_POLL_INTERVAL_S="0.2")
    stack = Stack("fair", env)
    try:
        stack.start_server()
        stack.start_worker()
        stack.start_worker()
        yield stack, url
    finally:
        stack.stop()
        drop_database(url)


class Client:
    """One user: their own scenario and its owner token, sent with every request."""

    def __init__(self, stack: Stack, document: dict) -> None:
        anonymous = stack.client()
        created = create_scenario(anonymous, document)
        anonymous.close()
        self.scenario = created["id"]
        self.http = httpx.Client(base_url=stack.base_url, timeout=30,
                                 headers={"X-Owner-Token": created["owner_token"]})

    def runs(self, seeds: list[int]) -> httpx.Response:
        return self.http.post("/runs", json={"scenario_id": self.scenario, "seeds": seeds})


def statuses(url: str, scenario_id: str) -> dict[str, int]:
    engine = create_engine(url)
    try:
        with engine.connect() as connection:
            return dict(connection.execute(text(
                "SELECT status, count(*) FROM runs WHERE scenario_id = :s GROUP BY status"),
                {"s": scenario_id}).all())
    finally:
        engine.dispose()


def assert_429(response: httpx.Response, limit: str) -> None:
    assert response.status_code == 429, response.text
    assert response.json()["limit"] == limit and "quota" in response.json()["detail"]
    assert int(response.headers["retry-after"]) >= 1


def test_quotas_and_concurrency_with_real_workers(fair):
    stack, url = fair
    a = Client(stack, long_running("client A"))
    b = Client(stack, long_running("client B"))
    assert_429(a.runs(list(range(1, 8))), "queued runs")  # 7 > 6 queued
    assert a.runs(list(range(1, 7))).status_code == 201
    # Two free workers, but A may run one at a time: one RUNNING, five PENDING (deferred).
    wait_until(lambda: statuses(url, a.scenario) == {"RUNNING": 1, "PENDING": 5}, 120,
               what="A: one run RUNNING, five held back")
    assert_429(a.runs([7, 8]), "queued runs")  # 5 queued + 2 > 6
    # B's single run gets the second worker at once, although A queued first.
    started = b.runs([1])
    assert started.status_code == 201
    wait_until(lambda: statuses(url, b.scenario) == {"RUNNING": 1}, 120, what="B running")
    assert statuses(url, a.scenario) == {"RUNNING": 1, "PENDING": 5}
    # Two event streams per client; the third is refused, another client is not affected.
    run_a = a.http.get("/runs", params={"scenario_id": a.scenario, "status": "RUNNING"}).json()
    run_id = run_a["data"][0]["id"]
    with a.http.stream("GET", f"/runs/{run_id}/events"), a.http.stream("GET", f"/runs/{run_id}/events"):
        assert_429(a.http.get(f"/runs/{run_id}/events"), "SSE connections")
        with b.http.stream("GET", f"/runs/{run_id}/events") as other:
            assert other.status_code == 200
    for client in (a, b):
        for run in client.http.get("/runs", params={"scenario_id": client.scenario}).json()["data"]:
            client.http.post(f"/runs/{run['id']}/cancel")
    # Slots were given back when the streams closed.
    with a.http.stream("GET", f"/runs/{run_id}/events") as again:
        assert again.status_code == 200


def test_points_per_sweep_and_events_per_day(fair):
    stack, _url = fair
    c = Client(stack, two_hosts(name="client C"))
    grid = {"scenario_id": c.scenario, "parameters": [{"path": "seed", "values": list(range(9))}]}
    assert_429(c.http.post("/sweeps", json=grid), "points per sweep")
    run = c.runs([1]).json()["data"][0]
    final = wait_final(c.http, run["id"])
    assert final["status"] == "SUCCEEDED" and final["events"] > 50_000  # one run spends the day
    refused = c.runs([2])
    assert_429(refused, "simulated events per day")
    assert 80_000 < int(refused.headers["retry-after"]) <= 86_400
    d = Client(stack, incast(name="client D"))  # another client still runs
    assert d.runs([1]).status_code == 201


def test_single_run_not_starved_by_a_queued_sweep(fair):
    stack, url = fair
    for worker in list(stack.workers):
        stack.stop_worker(worker)
    # Only the control queue is served: the sweep is expanded, its points wait in sim-batch.
    control = stack.start_worker(queues="celery")
    a = Client(stack, incast(name="client A sweep"))
    response = a.http.post("/sweeps", json={"scenario_id": a.scenario, "seed": 1,
                                            "parameters": [{"path": "seed", "values": [1, 2, 3, 4, 5, 6]}]})
    assert response.status_code == 201, response.text
    sweep_id = response.json()["id"]
    wait_until(lambda: a.http.get(f"/sweeps/{sweep_id}").json()["points"], 60,
               what="sweep expanded")
    b = Client(stack, incast(name="client B single", duration_us=400))
    single = b.runs([1]).json()["data"][0]
    stack.stop_worker(control)
    stack.start_worker()  # one worker, one slot, all queues
    assert wait_final(b.http, single["id"])["status"] == "SUCCEEDED"
    wait_until(lambda: a.http.get(f"/sweeps/{sweep_id}").json()["status"] == "SUCCEEDED", 180,
               what="sweep to finish")
    engine = create_engine(url)
    try:
        with engine.connect() as connection:
            order = connection.execute(text(
                "SELECT id FROM runs WHERE id = :b OR id IN (SELECT run_id FROM sweep_points "
                "WHERE sweep_id = :s) ORDER BY started_at"), {"b": single["id"], "s": sweep_id}
            ).scalars().all()
    finally:
        engine.dispose()
    # FIFO would start it seventh, after all six points queued before it; round robin between
    # the interactive and the batch queue starts it first or second.
    assert order.index(single["id"]) <= 1, order


def test_tuning_streams_count_against_the_sse_limit(fair):
    stack, _url = fair
    with stack.client() as api:  # no owner token: the client is the address
        base = create_scenario(api, long_running("tuning streams"))
        response = api.post("/tunings", json={
            "scenario_ids": [base["id"]],
            "space": {"parameters": [{"name": "pmax", "path": "switch.ecn.pmax", "values": [1],
                                      "unit": "percent"}]},
            "objectives": [{"kind": "metric", "metric": "throughput_gbps"}],
            "strategies": [{"name": "grid"}]})
        assert response.status_code == 201, response.text
        path = f"/tunings/{response.json()['id']}/events"
        # The minutes-long run keeps the tuning open while the streams are held.
        with api.stream("GET", path) as first, api.stream("GET", path) as second:
            assert first.status_code == second.status_code == 200
            assert_429(api.get(path), "SSE connections")
        owner = {"X-Owner-Token": response.json()["owner_token"]}  # minted at creation
        assert api.post(f"/tunings/{response.json()['id']}/cancel",
                        headers=owner).status_code == 200


def test_points_per_tuning(fair):
    stack, _url = fair
    e = Client(stack, two_hosts(name="client E"))
    space = {"parameters": [{"name": "pmax", "path": "switch.ecn.pmax", "values": [1, 5, 10],
                             "unit": "percent"},
                            {"name": "kmin", "path": "switch.ecn.kmin_bytes",
                             "values": [5000, 10000, 20000], "unit": "bytes"}]}

    def tuning(strategies: list[dict], seeds: list[int]) -> httpx.Response:
        return e.http.post("/tunings", json={
            "scenario_ids": [e.scenario], "seeds": seeds, "space": space,
            "objectives": [{"kind": "metric", "metric": "throughput_gbps"}],
            "strategies": strategies})

    # The quota is 8 points: a grid over the 9-point space is refused before anything is stored,
    assert_429(tuning([{"name": "grid"}], [1]), "points per sweep")
    # so are 4 random evaluations and the vendor point on 2 seeds (10 runs),
    assert_429(tuning([{"name": "random", "budget": 4}, {"name": "vendor"}], [1, 2]),
               "points per sweep")
    assert e.http.get("/tunings", params={"scenario_id": e.scenario}).json()["count"] == 0
    # while 4 random evaluations and the vendor point on one seed (5 runs) are admitted.
    admitted = tuning([{"name": "random", "budget": 4}, {"name": "vendor"}], [1])
    assert admitted.status_code == 201, admitted.text
    assert e.http.post(f"/tunings/{admitted.json()['id']}/cancel").status_code == 200


def _tuning_runs(url: str, tuning_id: str) -> list[tuple[str, str, str | None]]:
    """(run id, status, client) of every run a tuning created."""
    engine = create_engine(url)
    try:
        with engine.connect() as connection:
            return [tuple(row) for row in connection.execute(text(
                "SELECT r.id, r.status, r.client FROM runs r JOIN scenarios s "
                "ON s.id = r.scenario_id WHERE s.tuning_id = :t"), {"t": tuning_id}).all()]
    finally:
        engine.dispose()


def _serve_all_queues_with(stack: Stack, count: int) -> None:
    """Start workers on every queue until `count` of them are alive."""
    while sum(proc.poll() is None for proc in stack.workers) < count:
        stack.start_worker()


def _grid_tuning(client: Client, values: list[int]) -> str:
    response = client.http.post("/tunings", json={
        "scenario_ids": [client.scenario],
        "space": {"parameters": [{"name": "pmax", "path": "switch.ecn.pmax", "values": values,
                                  "unit": "percent"}]},
        "objectives": [{"kind": "metric", "metric": "throughput_gbps"}],
        "strategies": [{"name": "grid"}]})
    assert response.status_code == 201, response.text
    return response.json()["id"]


def test_tuning_runs_count_against_their_creator(fair):
    """A tuning's runs are its creator's: one at a time under a concurrency quota of 1 (the
    second worker stays free for another client), and their PENDING runs fill the queue quota."""
    stack, url = fair
    _serve_all_queues_with(stack, 2)  # an earlier test may have left one worker
    f = Client(stack, long_running("client F tuning"))
    tuning_id = _grid_tuning(f, [2, 3, 4])  # three minutes-long runs

    def one_running_rest_held() -> list | None:
        runs = _tuning_runs(url, tuning_id)
        states = [status for _id, status, _client in runs]
        return runs if states.count("RUNNING") == 1 and states.count("PENDING") >= 1 else None

    # Two free workers, but F may run one run at a time: the others are held back.
    runs = wait_until(one_running_rest_held, 120, what="F's tuning: one run RUNNING, rest held")
    clients = {client for _id, _status, client in runs}
    assert len(clients) == 1 and next(iter(clients)).startswith("owner:"), clients
    # The same client as F's own runs: F's queued tuning runs count against F's queue quota.
    pending = sum(status == "PENDING" for _id, status, _client in runs)
    assert_429(f.runs(list(range(1, 8 - pending))), "queued runs")
    # Another client's single run takes the second worker at once.
    g = Client(stack, long_running("client G single"))
    assert g.runs([1]).status_code == 201
    wait_until(lambda: statuses(url, g.scenario) == {"RUNNING": 1}, 120, what="G running")
    assert sum(status == "RUNNING" for _id, status, _c in _tuning_runs(url, tuning_id)) == 1
    assert f.http.post(f"/tunings/{tuning_id}/cancel").status_code == 200
    for run in g.http.get("/runs", params={"scenario_id": g.scenario}).json()["data"]:
        g.http.post(f"/runs/{run['id']}/cancel")


def test_tuning_runs_spend_their_creators_daily_events(fair):
    stack, url = fair
    h = Client(stack, two_hosts(name="client H tuning"))
    tuning_id = _grid_tuning(h, [7])  # one run of over 50,000 events: the day's quota
    wait_until(lambda: h.http.get(f"/tunings/{tuning_id}").json()["status"] == "SUCCEEDED", 180,
               what="H's tuning to finish")
    [(_id, status, client)] = _tuning_runs(url, tuning_id)
    assert status == "SUCCEEDED" and client is not None and client.startswith("owner:")
    assert_429(h.runs([2]), "simulated events per day")
