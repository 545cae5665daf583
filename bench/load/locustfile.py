"""Locust users for bench/load.py: people browsing FabricTwin while workers run a sweep.

Each user lists scenarios, opens a finished run's results (run, summary, flows page, series) and
follows event streams (a finished run's: progress then done; the running sweep's: its first
event, then the user closes it, as a page left open a moment). Locust times a streamed request
to its response headers, so an event stream's figure is the time to the stream's start; the time
to the first event is reported separately under "SSE first event".
"""

import json
import os
import random
import time

from locust import HttpUser, between, events, task

TARGETS = json.loads(os.environ["LOAD_TARGETS"])  # written by bench/load.py
# With LOAD_BROWSER_CACHE=1 each user keeps the ETag of every result view it has read and sends
# If-None-Match on the next read, as a browser does when it revalidates a page (a browser within
# the view's max-age would not ask at all, so this still overstates the requests).
BROWSER_CACHE = os.environ.get("LOAD_BROWSER_CACHE") == "1"
PREFIX = "/api/v1"


class Browser(HttpUser):
    wait_time = between(0.5, 2.0)  # a person reading a page between clicks

    def on_start(self) -> None:
        self.etags: dict[str, str] = {}

    def _result_view(self, path: str, name: str) -> None:
        """GET of a finished run's result view, revalidated when the browser cache is on."""
        held = self.etags.get(path) if BROWSER_CACHE else None
        response = self.client.get(path, name=name,
                                   headers={"If-None-Match": held} if held else None)
        if BROWSER_CACHE and "etag" in response.headers:
            self.etags[path] = response.headers["etag"]

    @task(4)
    def list_scenarios(self) -> None:
        self.client.get(f"{PREFIX}/scenarios?limit=20", name="GET /scenarios")

    @task(4)
    def open_results(self) -> None:
        run = random.choice(TARGETS["runs"])
        self.client.get(f"{PREFIX}/runs/{run}", name="GET /runs/{id}")
        self._result_view(f"{PREFIX}/runs/{run}/summary", "GET /runs/{id}/summary")
        self._result_view(f"{PREFIX}/runs/{run}/flows?limit=50", "GET /runs/{id}/flows")
        self._result_view(f"{PREFIX}/runs/{run}/series", "GET /runs/{id}/series")

    @task(2)
    def list_runs_and_sweep(self) -> None:
        self.client.get(f"{PREFIX}/runs?limit=20", name="GET /runs")
        self.client.get(f"{PREFIX}/sweeps/{TARGETS['sweep']}", name="GET /sweeps/{id}")

    @task(1)
    def follow_finished_run(self) -> None:
        run = random.choice(TARGETS["runs"])
        self._follow(f"{PREFIX}/runs/{run}/events", "SSE /runs/{id}/events", until_done=True)

    @task(1)
    def follow_running_sweep(self) -> None:
        self._follow(f"{PREFIX}/sweeps/{TARGETS['sweep']}/events", "SSE /sweeps/{id}/events",
                     until_done=False)

    def _follow(self, path: str, name: str, until_done: bool) -> None:
        started = time.perf_counter()
        with self.client.get(path, name=name, stream=True, catch_response=True) as response:
            if response.status_code != 200:
                response.failure(f"status {response.status_code}")
                return
            first = None
            for line in response.iter_lines(decode_unicode=True):
                if line.startswith("data:") and first is None:
                    first = (time.perf_counter() - started) * 1000
                    events.request.fire(request_type="SSE", name="SSE first event",
                                        response_time=first, response_length=0,
                                        exception=None, context={})
                    if not until_done:
                        break
                if line.startswith("event: done") or line.startswith("event:done"):
                    break
            response.success()
