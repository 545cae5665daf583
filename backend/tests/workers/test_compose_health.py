"""Issue 13: every long-running compose service has a health check, and the checks of the
backend and the worker are the commands of docker-compose.yml run against a real API server and
a real Celery worker (healthy while they are up, unhealthy once the worker is gone). There is no
Docker daemon here, so the frontend's check (nginx) is checked against nginx.conf as text."""

import os
import re
import secrets
import shlex
import subprocess
import tempfile
from collections.abc import Iterator

import pytest
import yaml

from tests.support import ROOT, VENV_BIN, Stack, redis_url_with_db, require_env, service_env

HEALTH_REDIS_DB = 10
COMPOSE = yaml.safe_load((ROOT / "docker-compose.yml").read_text())
SERVICES = COMPOSE["services"]


@pytest.fixture(scope="module")
def stack() -> Iterator[Stack]:
    env = service_env(RUNS_DIR=tempfile.mkdtemp(prefix="ft-health-"),
                      CELERY_BROKER_URL=redis_url_with_db(require_env("CELERY_BROKER_URL"),
                                                          HEALTH_REDIS_DB))
    stack = Stack("health", env)
    try:
        stack.start_server()
        yield stack
    finally:
        stack.stop()


def _check(service: str) -> list[str]:
    """The service's health check test, as compose writes it: ["CMD" | "CMD-SHELL", ...]."""
    return SERVICES[service]["healthcheck"]["test"]


def _unescape(text: str) -> str:
    """Compose turns `$$` into a literal `$` (left for the container's shell)."""
    return text.replace("$$", "$")


def test_every_long_running_service_has_a_health_check():
    assert set(SERVICES) == {"postgres", "redis", "backend", "worker", "worker-parallel", "frontend"}
    # the worker of runs on several threads is the worker on its own queue (issue 19)
    assert SERVICES["worker-parallel"]["healthcheck"] == SERVICES["worker"]["healthcheck"]
    assert SERVICES["worker-parallel"]["command"][-8:-4] == ["-Q", "sim-parallel", "-c", "1"]
    for name, service in SERVICES.items():
        check = service.get("healthcheck")
        assert check and check["test"][0] in ("CMD", "CMD-SHELL"), name
        assert service.get("restart") == "unless-stopped", name


def test_backend_check_passes_against_a_running_api(stack: Stack):
    kind, *argv = _check("backend")
    assert kind == "CMD" and argv[0] == "python3"
    # The container listens on 8000; this server on a free port.
    argv = [a.replace("127.0.0.1:8000", f"127.0.0.1:{stack.port}") for a in argv]
    assert any(f"127.0.0.1:{stack.port}/api/v1/health" in a for a in argv)
    done = subprocess.run(argv, capture_output=True, text=True, timeout=30, check=False)
    assert done.returncode == 0, done.stderr


def _worker_check(stack: Stack, hostname: str) -> subprocess.CompletedProcess:
    """The worker's CMD-SHELL check, run by sh as in the container, with HOSTNAME set."""
    kind, command = _check("worker")
    assert kind == "CMD-SHELL"
    env = {**stack.env, "HOSTNAME": hostname, "PATH": f"{VENV_BIN}{os.pathsep}{os.environ['PATH']}"}
    return subprocess.run(["sh", "-c", _unescape(command)], cwd=ROOT, env=env,
                          capture_output=True, text=True, timeout=60, check=False)


def test_worker_check_healthy_while_it_answers_and_unhealthy_once_stopped(stack: Stack):
    command = _unescape(_check("worker")[1])
    assert "celery@${HOSTNAME}" in command, command
    assert re.search(r"--timeout \d+", command), command
    hostname = f"ft-health-{secrets.token_hex(4)}"
    worker = stack.start_worker(node=f"celery@{hostname}")  # compose's default node name
    healthy = _worker_check(stack, hostname)
    assert healthy.returncode == 0, healthy.stdout + healthy.stderr
    # Another container's name: no such node answers.
    assert _worker_check(stack, f"{hostname}-other").returncode != 0
    stack.stop_worker(worker)  # returns once the process has exited
    assert _worker_check(stack, hostname).returncode != 0


def test_frontend_check_fetches_a_page_nginx_serves():
    kind, *argv = _check("frontend")
    assert kind == "CMD" and argv[0] == "wget", shlex.join(argv)
    url = argv[-1]
    assert url == "http://127.0.0.1/"
    conf = (ROOT / "frontend" / "nginx.conf").read_text()
    assert re.search(r"^\s*listen 80;", conf, re.M)
    assert re.search(r"location / \{[^}]*try_files[^}]*index\.html", conf)
