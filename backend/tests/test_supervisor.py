"""Issue 13, defect 4: in the embedded stack (scripts/run-embedded.sh, what scripts/start.sh
runs), the death of the worker's main process or of uvicorn restarts that process (logged) instead
of stopping the app; a run then still finishes."""

import os
import re
import shutil
import signal
import subprocess
import tempfile
from pathlib import Path

import httpx

from tests.helpers import create_scenario, start_run, wait_final
from tests.scenarios_data import two_hosts
from tests.support import LOGS, ROOT, free_port, service_env, wait_until


def _started_pid(log: Path, name: str, after: int = 0) -> int:
    """The pid of the `after`+1-th start of `name` in the supervisor log."""
    def check():
        text = log.read_text() if log.exists() else ""
        found = re.findall(rf"{name} (?:started|restarted) \(pid (\d+)\)", text)
        return int(found[after]) if len(found) > after else None

    return wait_until(check, 60, what=f"{name} start #{after + 1} in {log}")


def test_worker_and_api_restarted_after_kill_9():
    data = Path(tempfile.mkdtemp(prefix="ft-supervised-"))
    port, broker = free_port(), free_port()
    env = service_env(PORT=str(port), FT_BROKER_PORT=str(broker), FT_DATA_DIR=str(data),
                      FT_HOST="127.0.0.1", PROGRESS_WRITE_INTERVAL_S="0.3")
    for name in ("DATABASE_URL", "CELERY_BROKER_URL", "REDIS_URL", "RUNS_DIR"):
        env.pop(name, None)
    LOGS.mkdir(parents=True, exist_ok=True)
    out = open(LOGS / "supervisor-stdout.log", "wb")
    proc = subprocess.Popen([str(ROOT / "scripts" / "run-embedded.sh")], env=env, cwd=ROOT,
                            stdout=out, stderr=subprocess.STDOUT, start_new_session=True)
    log = data / "supervisor.log"
    base = f"http://127.0.0.1:{port}/api/v1"

    def healthy():
        try:
            return httpx.get(f"{base}/health", timeout=2).status_code == 200
        except httpx.HTTPError:
            return False

    try:
        wait_until(healthy, 120, what="embedded API")
        worker = _started_pid(log, "worker")
        os.kill(worker, signal.SIGKILL)
        assert _started_pid(log, "worker", after=1) != worker
        assert re.search(rf"worker \(pid {worker}\) exited with status \d+: restarting it",
                         log.read_text())
        api_pid = _started_pid(log, "api")
        os.kill(api_pid, signal.SIGKILL)
        assert _started_pid(log, "api", after=1) != api_pid
        wait_until(healthy, 120, what="API back after its restart")
        with httpx.Client(base_url=base, timeout=30) as api:
            scenario = create_scenario(api, two_hosts(name="after restarts"))
            run = start_run(api, scenario["id"])[0]
            assert wait_final(api, run["id"])["status"] == "SUCCEEDED"
        assert proc.poll() is None  # the app kept running throughout
    finally:
        os.killpg(proc.pid, signal.SIGTERM)
        proc.wait(timeout=60)
        out.close()
        shutil.rmtree(data, ignore_errors=True)
    assert "FabricTwin stopped." in (LOGS / "supervisor-stdout.log").read_text()
