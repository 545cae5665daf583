"""Issue 23, optional sign-in: an API server with OIDC_ISSUER set, against the local provider
stand-in (tests/oidc_provider.py) through the real Authlib client. Signed out: 401 everywhere
but health; a member owns its work by account (in every session), another member gets 403 and
lists nothing of it; an admin lists and may cancel everyone's; a forged provider answer is 401."""

from collections.abc import Iterator

import httpx
import pytest

from tests.helpers import create_scenario
from tests.oidc_provider import Provider, sign_in, signed_stack
from tests.scenarios_data import long_running, two_hosts
from tests.support import Stack, service_env


@pytest.fixture(scope="module")
def signed(pg_url: str) -> Iterator[tuple[Stack, Provider]]:
    env = service_env(DATABASE_URL=pg_url, REAPER_INTERVAL_S="0",
                      CELERY_BROKER_URL="redis://127.0.0.1:1/0")  # no runs start here
    with signed_stack("oidc", env) as pair:
        yield pair


def test_signed_out_gets_401_but_health(signed):
    stack, _provider = signed
    with stack.client() as anonymous:
        assert anonymous.get("/health").status_code == 200
        for path in ("/scenarios", "/runs", "/presets", "/auth/me"):
            response = anonymous.get(path)
            assert response.status_code == 401, (path, response.text)
        assert "sign in" in anonymous.get("/runs").json()["detail"]


def test_members_own_by_account_and_admin_sees_all(signed):
    stack, provider = signed
    alice = sign_in(stack, provider, "alice")
    assert alice.get("/auth/me").json() == {"sub": "alice", "name": "user alice", "role": "member",
                                            "groups": []}
    mine = create_scenario(alice, two_hosts(name="alice's design"))
    assert alice.delete(f"/scenarios/{create_scenario(alice, two_hosts())['id']}").status_code == 204
    # a second session of the same account owns the same work
    again = sign_in(stack, provider, "alice")
    assert mine["id"] in {s["id"] for s in again.get("/scenarios").json()["data"]}
    bob = sign_in(stack, provider, "bob")
    assert mine["id"] not in {s["id"] for s in bob.get("/scenarios", params={"kind": "all",
                                                                           "limit": 200}).json()["data"]}
    assert bob.get(f"/scenarios/{mine['id']}").status_code == 200  # the link still reads
    assert bob.delete(f"/scenarios/{mine['id']}").status_code == 403
    # a run of alice's: bob cannot cancel it, an admin can (and lists it)
    long = create_scenario(alice, long_running("alice's long run"))
    run = alice.post("/runs", json={"scenario_id": long["id"], "seeds": [1]}).json()["data"][0]
    assert bob.post(f"/runs/{run['id']}/cancel").status_code == 403
    admin = sign_in(stack, provider, "carol", roles=["member", "admin"])
    assert admin.get("/auth/me").json()["role"] == "admin"
    assert run["id"] in {r["id"] for r in admin.get("/runs", params={"limit": 500}).json()["data"]}
    assert admin.post(f"/runs/{run['id']}/cancel").status_code == 200
    alice.post("/auth/logout")
    assert alice.get("/scenarios").status_code == 401


def test_a_forged_answer_is_refused(signed):
    stack, provider = signed
    with httpx.Client(base_url=stack.base_url, timeout=30) as client:
        start = client.get("/auth/login")
        assert start.status_code == 302 and start.headers["location"].startswith(provider.issuer)
        forged = client.get("/auth/callback", params={"code": "made-up", "state": "made-up"})
        assert forged.status_code == 401 and "sign-in failed" in forged.json()["detail"]
        assert client.get("/scenarios").status_code == 401


def test_an_instructor_sees_the_class_work_and_changes_none(signed):
    stack, provider = signed
    student = sign_in(stack, provider, "sam", groups=["net101"])
    other = sign_in(stack, provider, "olga", groups=["net202"])
    homework = create_scenario(student, two_hosts(name="sam's homework"))
    elsewhere = create_scenario(other, two_hosts(name="olga's homework"))
    teacher = sign_in(stack, provider, "ivan", roles=["instructor"], groups=["net101"])
    assert teacher.get("/auth/me").json()["role"] == "instructor"
    listed = {s["id"] for s in teacher.get("/scenarios", params={"limit": 200}).json()["data"]}
    assert homework["id"] in listed and elsewhere["id"] not in listed
    assert teacher.delete(f"/scenarios/{homework['id']}").status_code == 403
    # the student sees nothing of the teacher's class beyond its own work
    mine = create_scenario(teacher, two_hosts(name="ivan's example"))
    assert mine["id"] not in {s["id"] for s in student.get("/scenarios").json()["data"]}


def test_sign_in_end_to_end_in_chromium(signed):
    """Headless Chromium opens the app's sign-in, goes through the provider and back, and the
    home page then shows the presets (which a signed-out browser cannot read)."""
    from tests.api.test_security import _chromium_violations

    stack, provider = signed
    provider.next_user = {"sub": "browser-user", "name": "Browser User"}
    root = stack.base_url.removesuffix("/api/v1")
    dom, violations = _chromium_violations(f"{root}/api/v1/auth/login")
    assert violations == []
    assert 'data-preset="incast-2to1"' in dom, dom[:2000]
