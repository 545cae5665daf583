"""Issue 23: who may see and change what. Every route of the live OpenAPI document is called by
the owner of a scenario (and of its runs, sweep and tuning), by another anonymous visitor with a
token of its own, by a visitor without any token, and, on an API server of the same database that
requires sign-in (the local OIDC provider stand-in), by a signed-in member and by an instructor
whose class the owner is not in; per route and caller the status is checked,
and that nothing of the owner's comes back that the caller was not given (enumeration through
lists and search, and direct references by id, sweep points and tuning evaluations included).
Then the probes of the issue as regressions: cancelling someone else's run, search and listing.
"""

import re
import secrets
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from tests.helpers import FINAL, OWNER_TOKEN, create_scenario, start_run, wait_final
from tests.imports.test_router import TOPOLOGY, first_flows
from tests.oidc_provider import Provider, sign_in, signed_stack
from tests.scenarios_data import incast, long_running, two_hosts
from tests.support import Stack, wait_until

MARK = secrets.token_hex(4)
SWEEP = {"seed": 1, "parameters": [{"path": "switch.ecn.kmin_bytes", "values": [0, 5000]}]}
TUNING = {"seeds": [1], "objectives": [{"kind": "metric", "metric": "throughput_gbps"}],
          "strategies": [{"name": "grid"}],
          "space": {"parameters": [{"name": "pmax", "path": "switch.ecn.pmax", "values": [1, 50],
                                    "unit": "percent"}]}}
LISTS = ("/scenarios", "/runs", "/sweeps", "/tunings", "/measurements")
PERFTEST = (Path(__file__).resolve().parents[1] / "data" / "fabric" / "perftest" /
            "ib_write_bw.txt").read_text()
TWO_HOST_PERFTEST = {**two_hosts(name=f"perftest {MARK}"),
                     "traffic": [{"kind": "perftest", "src": "h0", "dst": "h1"}]}


def _wait(api: httpx.Client, path: str) -> dict[str, Any]:
    def final():
        body = api.get(path).json()
        return body if body["status"] in FINAL else None
    return wait_until(final, 300, interval=0.3, what=f"{path} to end")


@pytest.fixture(scope="module")
def world(api: httpx.Client) -> dict[str, Any]:
    """The owner's work: a scenario with a run, a sweep and a tuning (all ended), a scenario it
    never shares (with a run), a long run still going and a scenario to delete."""
    w: dict[str, Any] = {}
    w["S"] = create_scenario(api, incast(name=f"owned {MARK}", duration_us=1000))["id"]
    w["R"] = start_run(api, w["S"])[0]["id"]
    w["W"] = api.post("/sweeps", json={"scenario_id": w["S"], **SWEEP}).json()["id"]
    w["T"] = api.post("/tunings", json={"scenario_ids": [w["S"]], **TUNING}).json()["id"]
    w["S2"] = create_scenario(api, two_hosts(name=f"unshared {MARK}"))["id"]
    w["R2"] = start_run(api, w["S2"], [7])[0]["id"]
    w["L"] = create_scenario(api, long_running(f"long {MARK}"))["id"]
    w["RL"] = start_run(api, w["L"])[0]["id"]
    w["SD"] = create_scenario(api, two_hosts(name=f"to delete {MARK}"))["id"]
    w["SP"] = create_scenario(api, TWO_HOST_PERFTEST)["id"]
    for key in ("M", "MD"):  # a measurement of it, and one to delete
        w[key] = api.post("/measurements", json={"scenario_id": w["SP"], "kind": "perftest",
                                                 "text": PERFTEST}).json()["id"]
    assert wait_final(api, w["R"])["status"] == "SUCCEEDED"
    sweep = _wait(api, f"/sweeps/{w['W']}")
    assert sweep["status"] == "SUCCEEDED", sweep
    assert _wait(api, f"/tunings/{w['T']}")["status"] == "SUCCEEDED"
    results = api.get(f"/tunings/{w['T']}/results").json()
    w["E"] = results["picks"][0]["evaluation_id"]
    # every id of the owner's that only its own lists may show
    w["points"] = [p["scenario_id"] for p in sweep["points"]] + [p["run_id"] for p in sweep["points"]]
    w["evaluation_runs"] = [r for e in results["evaluations"] for r in e["run_ids"]]
    w["evaluation_ids"] = [e["id"] for e in results["evaluations"]]
    return w


@pytest.fixture(scope="module")
def visitor(stack) -> Iterator[httpx.Client]:
    """Another anonymous browser with a token of its own (and a scenario of its own)."""
    with stack.client() as client:
        client.headers["X-Owner-Token"] = secrets.token_urlsafe(24)
        client.own = create_scenario(client, two_hosts(name=f"visitor's {MARK}"))["id"]
        yield client


@pytest.fixture(scope="module")
def nobody(stack) -> Iterator[httpx.Client]:
    """A browser that holds no token at all."""
    with stack.client() as client:
        yield client


@pytest.fixture(scope="module")
def signed(stack) -> Iterator[tuple[Stack, Provider]]:
    """An API server that requires sign-in, on the same database, broker and runs directory as
    the anonymous one (so it serves the owner's work, and the runs it starts are run)."""
    with signed_stack("oidc-owners", stack.env) as pair:
        yield pair


@pytest.fixture(scope="module")
def member(signed) -> Iterator[httpx.Client]:
    """A signed-in member (of the group 'lab')."""
    client = sign_in(*signed, "mallory", groups=["lab"])
    yield client
    client.close()


@pytest.fixture(scope="module")
def instructor(signed) -> Iterator[httpx.Client]:
    """A signed-in instructor of the group 'lab' (the anonymous owner is in no class)."""
    client = sign_in(*signed, "ines", roles=["instructor"], groups=["lab"])
    yield client
    client.close()


def _request(route: str, method: str, w: dict[str, Any]) -> tuple[str, dict[str, Any]]:
    """The concrete path and JSON body of one operation, on the owner's resources."""
    ids = {"/scenarios/": w["SD"] if method == "delete" else w["S"],
           "/runs/": w["RL"] if route.endswith("/cancel") else w["R"],
           "/sweeps/": w["W"], "/tunings/": w["T"],
           "/measurements/": w["MD"] if method == "delete" else w["M"]}
    path = route.removeprefix("/api/v1")
    for prefix, value in ids.items():
        if path.startswith(prefix):
            path = path.replace("{id}", value)
    path = path.replace("{key}", "incast-2to1").replace("{slug}", "lab2-rdma-distance")
    path = path.replace("{evaluation_id}", str(w["E"]))
    if path.endswith("/settings/export"):
        path += "?format=nic_sysfs"
    bodies = {
        "/scenarios/check": {"scenario": two_hosts()}, "/scenarios/validate": {"scenario": two_hosts()},
        "/estimate": {"scenario": two_hosts()},
        "/scenarios": {"scenario": two_hosts(name=f"new {MARK}")},
        f"/scenarios/{w['S']}/fork": {"scenario": incast(name=f"fork {MARK}", duration_us=1000)},
        "/runs": {"scenario_id": w["S"], "seeds": [1]},
        "/sweeps": {"scenario_id": w["S"], **SWEEP},
        "/tunings": {"scenario_ids": [w["S"]], **TUNING},
        f"/tunings/{w['T']}/apply": {"evaluation_id": w["E"]},
        "/topologies/expand": {"topology": incast()["topology"]},
        "/imports/hpcc": {"topology": TOPOLOGY, "flows": first_flows(5), "name": "import"},
        "/measurements": {"scenario_id": w["S"], "kind": "perftest", "text": PERFTEST},
        f"/measurements/{w['M']}/simulate": {},
        f"/scenarios/{w['S']}/settings/import": {"nic_sysfs": "roce_rp/rpg_ai_rate 5\n"},
    }
    assert "{" not in path, f"no id for {route}: classify it in tests/api/test_owners.py"
    path_only = path.split("?")[0]
    if method in ("post", "put", "patch"):
        assert path_only in bodies or path.endswith("/cancel"), f"no body for {method} {route}"
    return path, bodies.get(path_only, {})


def _call(client: httpx.Client, method: str, path: str, body: dict[str, Any]) -> httpx.Response:
    if path.endswith("/events"):  # the streams of ended work send their state and end
        with client.stream("GET", path, timeout=60) as response:
            response.read()
            return response
    if method in ("post", "put", "patch"):
        return client.request(method, path, json=body)
    return client.request(method, path)


def _operations(api: httpx.Client) -> list[tuple[str, str, dict[str, Any]]]:
    spec = api.get("/openapi.json").json()
    return [(route, method, operation) for route, item in spec["paths"].items()
            for method, operation in item.items()]


def _leaks(text: str, ids: list[str]) -> list[str]:
    return [i for i in ids if re.search(rf"(?<![A-Za-z0-9_-]){re.escape(str(i))}(?![A-Za-z0-9_-])",
                                         text)]


# the owner last: its calls delete SD and cancel the long run
@pytest.mark.parametrize("caller", ["visitor", "nobody", "member", "instructor", "owner"])
def test_every_route_by_caller(request, api, world, caller):
    client = api if caller == "owner" else request.getfixturevalue(caller)
    w = world
    never = [w["S2"], w["R2"], f"unshared {MARK}"]  # the owner never gave these out
    # in lists, nothing of the owner's (S itself may appear: the visitor's own sweep and tuning
    # of the shared scenario name it)
    owned = [w["R"], w["W"], w["T"], w["L"], w["RL"], w["SD"], w["M"], w["MD"], *w["points"],
             *w["evaluation_runs"], f"long {MARK}", f"to delete {MARK}"]
    failures = []
    operations = _operations(api)
    assert len(operations) >= 38, len(operations)
    # changes last (the delete of SD, the cancel of the long run), so the reads see everything
    for route, method, operation in sorted(operations, key=lambda o: "403" in o[2]["responses"]):
        path, body = _request(route, method, w)
        response = _call(client, method, path, body)
        owner_only = "403" in operation["responses"]
        status = response.status_code
        assert "401" in operation["responses"], f"{method} {route} documents no 401"
        assert operation["security"], f"{method} {route} states no security"
        if owner_only and caller != "owner":
            ok = status == 403 and len(response.json()["detail"].splitlines()) == 1
        elif owner_only:
            ok = status in (200, 201, 204, 409)
        else:
            ok = 200 <= status < 300
        if not ok:
            failures.append(f"{method.upper()} {path}: {status} {response.text[:200]}")
        if caller != "owner":
            leaked = _leaks(response.text, never)
            if method == "get" and route.removeprefix("/api/v1") in LISTS:
                leaked += _leaks(response.text, owned)
            if leaked:
                failures.append(f"{method.upper()} {path} shows the owner's {leaked}")
    assert not failures, "\n".join(failures)


def test_probe_cancel_someone_elses_running_run(api, visitor, nobody, world):
    run_id = world["RL"] if api.get(f"/runs/{world['RL']}").json()["status"] not in FINAL \
        else start_run(api, create_scenario(api, long_running(f"probe {MARK}"))["id"])[0]["id"]
    for stranger in (visitor, nobody):
        response = stranger.post(f"/runs/{run_id}/cancel")
        assert response.status_code == 403, response.text
        assert f"run '{run_id}'" in response.json()["detail"]
    assert api.get(f"/runs/{run_id}").json()["status"] in ("PENDING", "RUNNING")
    assert api.post(f"/runs/{run_id}/cancel").status_code == 200
    assert api.get(f"/runs/{run_id}").json()["status"] == "CANCELLED"


def test_probe_search_and_lists_find_only_the_callers_own(api, visitor, nobody, world):
    theirs = [world["S"], world["S2"], world["L"], world["SD"], *world["points"]]
    for kind in ("user", "all", "sweep_point", "tuning_point"):
        page = visitor.get("/scenarios", params={"q": MARK, "kind": kind, "limit": 200}).json()
        found = [s["id"] for s in page["data"]]
        assert not _leaks(str(found), theirs), (kind, found)
        assert (visitor.own in found) == (kind in ("user", "all")), (kind, found)
        assert nobody.get("/scenarios", params={"q": MARK, "kind": kind}).json()["count"] == 0
    mine = {s["id"] for s in api.get("/scenarios", params={"q": MARK, "kind": "all",
                                                            "limit": 200}).json()["data"]}
    assert {world["S"], world["S2"], world["L"]} <= mine and visitor.own not in mine
    presets = visitor.get("/scenarios", params={"kind": "preset", "limit": 200}).json()
    assert presets["count"] >= 5  # presets are everyone's
    for path in ("/runs", "/sweeps", "/tunings"):
        for stranger in (visitor, nobody):
            listed = stranger.get(path, params={"limit": 200}).json()
            assert not _leaks(str(listed), [world["R"], world["R2"], world["W"], world["T"]]), path
        assert world[{"/runs": "R", "/sweeps": "W", "/tunings": "T"}[path]] in str(
            api.get(path, params={"limit": 200}).json())
    # a link holder may read the work on the scenario it was given, and only that
    by_link = visitor.get("/runs", params={"scenario_id": world["S"]}).json()
    assert world["R"] in {r["id"] for r in by_link["data"]}
    assert visitor.get("/sweeps", params={"scenario_id": world["S"]}).json()["count"] >= 1
    # a preset's runs are public ids: the caller's own only
    preset = api.get("/presets/incast-2to1").json()["scenario_id"]
    ran = start_run(api, preset, [4242])[0]["id"]
    assert ran in str(api.get("/runs", params={"scenario_id": preset, "limit": 500}).json())
    assert ran not in str(visitor.get("/runs", params={"scenario_id": preset, "limit": 500}).json())


def test_link_holder_reads_forks_and_runs_a_copy(visitor, world):
    assert visitor.get(f"/scenarios/{world['S']}").status_code == 200
    fork = visitor.post(f"/scenarios/{world['S']}/fork",
                        json={"scenario": incast(name=f"copy {MARK}", duration_us=1200)})
    assert fork.status_code == 201 and fork.json()["owner_token"] == visitor.headers["X-Owner-Token"]
    run = start_run(visitor, fork.json()["id"])[0]
    assert wait_final(visitor, run["id"])["status"] == "SUCCEEDED"
    assert visitor.delete(f"/scenarios/{fork.json()['id']}").status_code == 204


def test_evaluations_and_points_of_another_tuning_are_not_reachable(api, visitor, world):
    # the visitor's own tuning of the shared scenario: its apply finds no evaluation of the owner's
    created = visitor.post("/tunings", json={"scenario_ids": [world["S"]], **TUNING})
    assert created.status_code == 201, created.text
    mine = created.json()
    assert mine["owner_token"] == visitor.headers["X-Owner-Token"]
    _wait(visitor, f"/tunings/{mine['id']}")
    own_evaluations = {e["id"] for e in visitor.get(f"/tunings/{mine['id']}/results").json()[
        "evaluations"]}
    theirs = next(e for e in world["evaluation_ids"] if e not in own_evaluations)
    response = visitor.post(f"/tunings/{mine['id']}/apply", json={"evaluation_id": theirs})
    assert response.status_code == 404, response.text
    assert visitor.post(f"/tunings/{world['T']}/apply",
                        json={"evaluation_id": theirs}).status_code == 403
    assert visitor.post(f"/sweeps/{world['W']}/cancel").status_code == 403
    assert visitor.post(f"/tunings/{world['T']}/cancel").status_code == 403


def _history(client: httpx.Client, scenario_id: str) -> dict[str, set[str]]:
    """The ids of each list of GET /scenarios/{id}/history."""
    response = client.get(f"/scenarios/{scenario_id}/history")
    assert response.status_code == 200, response.text
    return {k: {x["id"] for x in v} for k, v in response.json().items() if isinstance(v, list)}


def test_history_of_a_preset_shows_the_callers_own_work_only(api, visitor, nobody, world):
    """A preset is everyone's: its history (the scenario page's comparison picker) shows the
    caller's runs, tunings and forks of it, never another owner's; a saved scenario's shows
    every link holder's work on it, but its preset parent's runs are still the caller's own."""
    preset = api.get("/presets/incast-2to1").json()["scenario_id"]
    seed = 1_000_000 + secrets.randbelow(10**9)  # no other test's run of it to share by cache
    mine = start_run(api, preset, [seed])[0]["id"]
    theirs = start_run(visitor, preset, [seed + 1])[0]["id"]
    tuning = api.post("/tunings", json={"scenario_ids": [preset], **TUNING})
    assert tuning.status_code == 201, tuning.text
    tuning = tuning.json()["id"]
    api.post(f"/tunings/{tuning}/cancel")
    copy = incast(name=f"preset copy {MARK}", duration_us=1000)
    my_fork = api.post(f"/scenarios/{preset}/fork", json={"scenario": copy}).json()["id"]
    my_fork_run = start_run(api, my_fork, [seed])[0]["id"]
    their_fork = visitor.post(f"/scenarios/{preset}/fork", json={"scenario": copy}).json()["id"]

    a = _history(api, preset)
    assert mine in a["runs"] and theirs not in a["runs"]
    assert tuning in a["tunings"]
    assert my_fork in a["forks"] and their_fork not in a["forks"]
    assert my_fork_run in a["fork_runs"]
    b = _history(visitor, preset)
    assert theirs in b["runs"] and mine not in b["runs"]
    assert tuning not in b["tunings"]
    assert their_fork in b["forks"] and my_fork not in b["forks"]
    assert my_fork_run not in b["fork_runs"]
    assert not any(_history(nobody, preset).values())
    # the owner's fork, read by the visitor through its link: the fork's runs (a saved scenario's
    # work is its link holders'), but of its preset parent only the visitor's own run
    f = _history(visitor, my_fork)
    assert my_fork_run in f["runs"]
    assert theirs in f["parent_runs"] and mine not in f["parent_runs"]
    # a saved scenario's sweeps and tunings are its link holders' (as GET /sweeps?scenario_id=)
    s = _history(visitor, world["S"])
    assert world["R"] in s["runs"] and world["W"] in s["sweeps"] and world["T"] in s["tunings"]


def _ids(client: httpx.Client, path: str, **params: Any) -> set[str]:
    response = client.get(path, params={"limit": 200, **params})
    assert response.status_code == 200, response.text
    return {x["id"] for x in response.json()["data"]}


def test_signed_in_roles_list_and_change_what_the_docs_say(api, signed, member, instructor, world):
    """docs/security.md, sign-in roles: a member lists its own work (in every session) and none
    of another member's or of the anonymous owner's; an instructor lists its class's too but
    changes none of it; an admin lists everyone's and may change it."""
    alice = sign_in(*signed, "alice", groups=["lab"])  # in the instructor's class
    design = create_scenario(alice, two_hosts(name=f"alice {MARK}"))["id"]
    long = create_scenario(alice, long_running(f"alice long {MARK}"))["id"]
    run = start_run(alice, long)[0]["id"]
    preset = alice.get("/presets/incast-2to1").json()["scenario_id"]
    preset_run = start_run(alice, preset, [2_000_000 + secrets.randbelow(10**9)])[0]["id"]
    again = sign_in(*signed, "alice", groups=["lab"])  # another session of the same account
    assert {design, long} <= _ids(again, "/scenarios") and run in _ids(again, "/runs")
    assert preset_run in _history(again, preset)["runs"]
    theirs = [world["S"], world["S2"], world["R"], world["R2"], world["W"], world["T"]]
    for path in ("/scenarios", "/runs", "/sweeps", "/tunings"):
        assert not set(theirs) & _ids(alice, path, **({"kind": "all"} if path == "/scenarios" else {}))
    # another member: nothing of alice's listed, not even by the preset's history; no changes
    for path, mine in (("/scenarios", design), ("/runs", run)):
        assert mine not in _ids(member, path) and mine not in _ids(api, path)
    assert preset_run not in _history(member, preset)["runs"]
    assert member.post(f"/runs/{run}/cancel").status_code == 403
    assert member.delete(f"/scenarios/{design}").status_code == 403
    # the instructor of alice's group: lists her work, changes none of it
    assert design in _ids(instructor, "/scenarios") and run in _ids(instructor, "/runs")
    assert preset_run in _history(instructor, preset)["runs"]
    assert world["R2"] not in _ids(instructor, "/runs")  # the anonymous owner is in no class
    assert instructor.post(f"/runs/{run}/cancel").status_code == 403
    assert instructor.delete(f"/scenarios/{design}").status_code == 403
    # an admin: everyone's, and may cancel and delete
    admin = sign_in(*signed, "root", roles=["admin"])
    assert {design, world["S2"]} <= _ids(admin, "/scenarios")
    assert {run, world["R2"]} <= _ids(admin, "/runs")
    assert preset_run in _history(admin, preset)["runs"]
    assert admin.post(f"/runs/{run}/cancel").status_code == 200
    assert admin.delete(f"/scenarios/{design}").status_code == 204
    assert alice.get(f"/runs/{run}").json()["status"] == "CANCELLED"
    for client in (alice, again, admin):
        client.close()


def test_malformed_token_is_401_on_every_route_kind(stack):
    with stack.client() as client:
        for value in ("short", "a" * 65, ",".join(["a" * 32] * 33), "bad token with spaces"):
            response = client.get("/health", headers={"X-Owner-Token": value})
            assert response.status_code == 401 and "X-Owner-Token" in response.json()["detail"]


def _from(stack, address: str, **headers: str) -> httpx.Client:
    """A client connecting from another loopback address: the limit is per address, and the
    other tests' calls (from 127.0.0.1) must not share this one's window."""
    return httpx.Client(base_url=stack.base_url, timeout=30, headers=headers,
                        transport=httpx.HTTPTransport(local_address=address))


def test_failed_token_attempts_are_rate_limited(stack, world):
    """The test stack allows 60 failures in 3 s per address (tests/conftest.py)."""
    with _from(stack, "127.0.0.2") as guesser:
        statuses = [guesser.post(f"/runs/{world['R']}/cancel",
                                 headers={"X-Owner-Token": secrets.token_urlsafe(24)})
                    for _ in range(61)]
    assert [r.status_code for r in statuses] == [403] * 60 + [429]
    limited = statuses[-1]
    assert 1 <= int(limited.headers["Retry-After"]) <= 4
    assert "failed X-Owner-Token attempts" in limited.json()["detail"]
    with _from(stack, "127.0.0.2", **{"X-Owner-Token": OWNER_TOKEN}) as owner:
        # the owner behind the same address waits too, then is answered again
        assert owner.post(f"/runs/{world['R']}/cancel").status_code == 429
        wait_until(lambda: owner.post(f"/runs/{world['R']}/cancel").status_code == 409, 10,
                   interval=0.5, what="the failed-attempt window to pass")
    with _from(stack, "127.0.0.3") as elsewhere:  # another address was never limited
        assert elsewhere.post(f"/runs/{world['R']}/cancel").status_code == 403


def test_access_says_who_may_change_without_counting_a_failed_try(api, visitor, nobody, world):
    """Issue 37: the run and tuning pages ask before offering "Cancel run" and "Apply this pick";
    a caller that may not gets a plain reason (no header named), and asking is no failed attempt."""
    for path in (f"/runs/{world['R']}/access", f"/tunings/{world['T']}/access"):
        assert api.get(path).json() == {"may_change": True, "reason": ""}
        for stranger in (visitor, nobody):
            body = stranger.get(path).json()
            assert body["may_change"] is False and "Someone else started" in body["reason"], body
            assert "Token" not in body["reason"]
    # asking many times is not probing tokens: no 429 for the asker afterwards
    for _ in range(30):
        assert visitor.get(f"/runs/{world['R']}/access").status_code == 200
    assert api.get("/runs/nope/access").status_code == 404
    assert api.get("/tunings/nope/access").status_code == 404
