"""Small API helpers shared by the tests."""

import json
import secrets
from typing import Any

import httpx

from tests.support import wait_until

FINAL = {"SUCCEEDED", "FAILED", "CANCELLED"}
# The owner token the session's `api` client sends (tests/conftest.py): it owns what it creates.
OWNER_TOKEN = secrets.token_urlsafe(24)


def create_scenario(api: httpx.Client, document: dict[str, Any], **extra: Any) -> dict[str, Any]:
    """POST /scenarios and return the created body (asserting 201)."""
    response = api.post("/scenarios", json={"scenario": document, **extra})
    assert response.status_code == 201, response.text
    return response.json()


def start_run(api: httpx.Client, scenario_id: str, seeds: list[int] | None = None) -> list[dict]:
    """POST /runs; returns the runs."""
    response = api.post("/runs", json={"scenario_id": scenario_id, "seeds": seeds or [1]})
    assert response.status_code == 201, response.text
    return response.json()["data"]


def wait_final(api: httpx.Client, run_id: str, timeout: float = 180) -> dict[str, Any]:
    """Poll GET /runs/{id} until a final status."""
    def check():
        run = api.get(f"/runs/{run_id}").json()
        return run if run["status"] in FINAL else None

    return wait_until(check, timeout, interval=0.3, what=f"run {run_id} to finish")


def sse_events(api: httpx.Client, path: str, timeout: float = 180) -> list[tuple[str, dict]]:
    """Read a Server-Sent Events stream to its `done` event; returns (event, data) pairs."""
    events, name = [], None
    with api.stream("GET", path, timeout=timeout) as response:
        assert response.status_code == 200
        assert response.headers["content-type"].startswith("text/event-stream")
        for line in response.iter_lines():
            if line.startswith("event:"):
                name = line.split(":", 1)[1].strip()
            elif line.startswith("data:"):
                events.append((name, json.loads(line.split(":", 1)[1].strip())))
                if name == "done":
                    break
    return events


def error_locs(response: httpx.Response) -> list[list]:
    """The `loc` of every 422 detail."""
    assert response.status_code == 422, response.text
    return [item["loc"] for item in response.json()["detail"]]
