"""The end-to-end scenario shared by the PostgreSQL stack and the embedded (SQLite) stack."""

import csv
import io
import json

import httpx

from tests.helpers import create_scenario, sse_events, start_run
from tests.scenarios_data import two_hosts


# Wire bytes per RoCEv2 data packet besides the payload (docs/model.md): preamble + SFD + inter-frame
# gap, Ethernet header + FCS, IPv4, UDP, InfiniBand BTH, ICRC.
WIRE_OVERHEAD_BYTES = (8 + 12) + (14 + 4) + 20 + 8 + 12 + 4

# A run only moves forward through these states.
STATE_ORDER = {"PENDING": 0, "RUNNING": 1, "SUCCEEDED": 2}


def data_overhead_bytes() -> int:
    """Per-packet wire bytes besides the payload, computed from the standard header sizes."""
    return WIRE_OVERHEAD_BYTES


def expected_line_rate_gbps(rate_gbps: float, mtu: int) -> float:
    """Goodput of a saturated link: rate x payload / (payload + headers)."""
    return rate_gbps * mtu / (mtu + data_overhead_bytes())


def run_two_hosts_end_to_end(api: httpx.Client, name: str) -> dict:
    """Create, run with SSE progress, check the summary against line rate; returns the run."""
    # The SSE stream polls the row, so which intermediate states it shows depends on the machine's
    # speed (a fast machine can finish before the first poll). What the protocol guarantees: states
    # only move forward, the stream ends with `done` at the final state, and progress never drops.
    scenario = create_scenario(api, two_hosts(name=name, duration_us=30_000,
                                              monitor={"sample_interval_us": 50}))
    run = start_run(api, scenario["id"])[0]
    assert run["status"] in ("PENDING", "RUNNING") and run["cached"] is False
    events = sse_events(api, f"/runs/{run['id']}/events")
    names = [e for e, _ in events]
    assert names[-1] == "done" and names.count("done") == 1 and "progress" in names, names
    statuses = [data["status"] for _, data in events]
    assert statuses[-1] == "SUCCEEDED", events[-1]
    order = [STATE_ORDER[s] for s in statuses]
    assert order == sorted(order), statuses
    progress = [data["progress"] for e, data in events if e == "progress"]
    assert progress == sorted(progress) and progress[-1] == 1.0

    summary = api.get(f"/runs/{run['id']}/summary").json()
    expected = expected_line_rate_gbps(100, 1000)
    measured = summary["summary"]["throughput_gbps"]
    assert abs(measured - expected) <= 0.02 * expected, (measured, expected)
    final = api.get(f"/runs/{run['id']}").json()
    assert final["summary"]["throughput_gbps"] == measured and final["attempts"] == 1
    _check_result_views(api, run["id"])
    again = start_run(api, scenario["id"])[0]
    assert again["id"] == run["id"] and again["cached"] is True
    return final


def _check_result_views(api: httpx.Client, run_id: str) -> None:
    """flows (paginated), flows.csv, series and the raw result agree with each other."""
    flows = api.get(f"/runs/{run_id}/flows", params={"limit": 1}).json()
    assert flows["count"] == 1 and flows["data"][0]["src"] == "h0"
    rows = list(csv.DictReader(io.StringIO(api.get(f"/runs/{run_id}/flows.csv").text)))
    assert len(rows) == 1 and rows[0]["dst"] == "h1"
    series = api.get(f"/runs/{run_id}/series").json()
    assert len(series["t_us"]) > 10
    raw = api.get(f"/runs/{run_id}/result")
    assert raw.headers["content-type"].startswith("application/json")
    assert json.loads(raw.content)["summary"]["throughput_gbps"] > 0
