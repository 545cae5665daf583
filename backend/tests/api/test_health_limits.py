"""Health, body limits (413), operation ids, docs and SPA fallback."""

import httpx

from tests.scenarios_data import incast


def test_health_reports_simulator_and_db(api):
    body = api.get("/health").json()
    assert body["status"] == "ok" and body["database"] == "ok"
    assert body["simulator"].startswith("fabricsim ")


def test_who_am_i_without_sign_in_is_no_error(api):
    """Issue 37: the app asks /auth/me on every page; with sign-in off it was a 404 the browser
    logged as an error each time. It answers that sign-in is off; the rest of /auth is absent."""
    response = api.get("/auth/me")
    assert response.status_code == 200
    assert response.json() == {"sign_in": False}
    assert api.get("/auth/login", follow_redirects=False).status_code == 404


def test_body_over_limit_is_413_by_content_length(api):
    document = incast(description="x" * 4000)
    padding = {"scenario": document, "parent_id": None}
    payload = httpx.Request("POST", "http://x", json=padding).content + b" " * 250_000
    response = api.post("/scenarios", content=payload, headers={"content-type": "application/json"})
    assert response.status_code == 413


def test_body_over_limit_is_413_when_streamed(api):
    def chunks():
        yield b'{"scenario": {"schema_version": 1, "description": "'
        for _ in range(30):
            yield b"y" * 10_000
        yield b'"}}'

    response = api.post("/scenarios/validate", content=chunks(),
                        headers={"content-type": "application/json"})
    assert response.status_code == 413


def test_openapi_operation_ids(api, stack):
    spec = httpx.get(f"{stack.base_url}/openapi.json").json()
    ids = {op["operationId"] for path in spec["paths"].values() for op in path.values()}
    assert {"scenarios-create", "runs-create", "sweeps-get", "presets-list",
            "topologies-expand", "runs-events"} <= ids
    root = stack.base_url.removesuffix("/api/v1")
    assert httpx.get(f"{root}/docs").status_code == 200


def test_spa_fallback_and_api_404(stack):
    root = stack.base_url.removesuffix("/api/v1")
    response = httpx.get(f"{root}/runs/abc123")
    assert response.status_code == 200 and "html" in response.headers["content-type"]
    # a share link is rendered by the server (its preview card): an unknown one is the app's
    # page with status 404 (tests/share/test_share_card.py)
    response = httpx.get(f"{root}/s/abc123")
    assert response.status_code == 404 and "html" in response.headers["content-type"]
    assert httpx.get(f"{root}/api/v1/nothing-here").status_code == 404
