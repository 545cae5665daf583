"""Test support: real services (PostgreSQL, Redis), a live API server and real Celery workers."""

import os
import secrets
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import httpx
import pytest
from sqlalchemy import create_engine, text
from sqlalchemy.engine import make_url

ROOT = Path(__file__).resolve().parents[2]
BACKEND = ROOT / "backend"
VENV_BIN = Path(sys.executable).parent
LOGS = ROOT / ".test-run" / "pytest-logs"


def require_env(name: str) -> str:
    """The variable's value; the test run FAILS (not skips) when a service is not configured."""
    value = os.environ.get(name)
    if not value:
        pytest.fail(f"{name} is not set: start the services first "
                    f'(eval "$(scripts/services.sh start)")', pytrace=False)
    return value


def create_database(url: str) -> str:
    """A new, empty PostgreSQL database next to the one in `url`; returns its URL."""
    base = make_url(url)
    if not base.drivername.startswith("postgresql"):
        pytest.fail(f"DATABASE_URL must be PostgreSQL for the test suite, got {base.drivername}")
    name = f"ft_test_{secrets.token_hex(4)}"
    admin = create_engine(base.set(database="postgres"), isolation_level="AUTOCOMMIT")
    try:
        with admin.connect() as connection:
            connection.execute(text(f'CREATE DATABASE "{name}"'))
    except Exception as exc:  # noqa: BLE001 - report the service problem as a failure
        pytest.fail(f"PostgreSQL at {base.host}:{base.port} not usable: {exc}", pytrace=False)
    finally:
        admin.dispose()
    return base.set(database=name).render_as_string(hide_password=False)


def drop_database(url: str) -> None:
    """Drop a database made by create_database (terminating its connections)."""
    base = make_url(url)
    admin = create_engine(base.set(database="postgres"), isolation_level="AUTOCOMMIT")
    with admin.connect() as connection:
        connection.execute(text("SELECT pg_terminate_backend(pid) FROM pg_stat_activity "
                                "WHERE datname = :n AND pid <> pg_backend_pid()"),
                           {"n": base.database})
        connection.execute(text(f'DROP DATABASE IF EXISTS "{base.database}"'))
    admin.dispose()


def redis_url_with_db(url: str, db: int) -> str:
    """The broker URL pointed at database `db`, flushed (so no stale messages)."""
    import redis

    target = url.rsplit("/", 1)[0] + f"/{db}" if url.count("/") >= 3 else f"{url}/{db}"
    try:
        redis.Redis.from_url(target).flushdb()
    except Exception as exc:  # noqa: BLE001
        pytest.fail(f"Redis at {url} not usable: {exc}", pytrace=False)
    return target


def free_port() -> int:
    """An unused TCP port on loopback."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def service_env(**overrides: str) -> dict[str, str]:
    """Environment for the API server, workers and migrations."""
    env = dict(os.environ)
    env["PYTHONPATH"] = f"{BACKEND}:{ROOT}"
    env.update(overrides)
    return env


def migrate(env: dict[str, str], *args: str) -> subprocess.CompletedProcess:
    """`alembic <args>` (default `upgrade head`) against env's DATABASE_URL."""
    return subprocess.run([str(VENV_BIN / "alembic"), "-c", str(BACKEND / "alembic.ini"),
                           *(args or ("upgrade", "head"))], cwd=BACKEND, env=env,
                          capture_output=True, text=True, timeout=120, check=False)


def wait_until(check: Callable[[], Any], timeout: float, interval: float = 0.2,
               what: str = "condition") -> Any:
    """Poll `check` until it returns something truthy; fail after `timeout` seconds."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        value = check()
        if value:
            return value
        time.sleep(interval)
    pytest.fail(f"timed out after {timeout}s waiting for {what}")


class Stack:
    """A live uvicorn API server plus Celery worker processes sharing one environment."""

    def __init__(self, name: str, env: dict[str, str]) -> None:
        self.name = name
        self.env = env
        self.port = free_port()
        self.base_url = f"http://127.0.0.1:{self.port}/api/v1"
        self.server: subprocess.Popen | None = None
        self.workers: list[subprocess.Popen] = []
        LOGS.mkdir(parents=True, exist_ok=True)

    def _spawn(self, argv: list[str], log_name: str) -> subprocess.Popen:
        """Start a process with its output in .test-run/pytest-logs/."""
        log = open(LOGS / f"{self.name}-{log_name}.log", "wb")
        return subprocess.Popen(argv, cwd=ROOT, env=self.env, stdout=log, stderr=subprocess.STDOUT,
                                start_new_session=True)

    def start_server(self, *uvicorn_args: str) -> None:
        """uvicorn app.main:app on a free port (with `uvicorn_args`); waits for /health."""
        self.server = self._spawn([str(VENV_BIN / "uvicorn"), "app.main:app", "--host",
                                   "127.0.0.1", "--port", str(self.port), *uvicorn_args], "api")
        wait_until(self._healthy, 30, what=f"{self.name} API on port {self.port}")

    def _healthy(self) -> bool:
        """True once /health answers."""
        if self.server.poll() is not None:
            pytest.fail(f"API server exited: see {LOGS}/{self.name}-api.log")
        try:
            return httpx.get(f"{self.base_url}/health", timeout=2).status_code == 200
        except httpx.HTTPError:
            return False

    def start_worker(self, queues: str = "sim,sim-batch,celery",
                     node: str | None = None) -> subprocess.Popen:
        """One Celery worker (prefork, concurrency 1) on `queues` (default: all), named `node`
        (default: unique to this stack)."""
        index = len(self.workers)
        log = LOGS / f"{self.name}-worker{index}.log"
        proc = self._spawn([str(VENV_BIN / "celery"), "-A", "workers.celery_app", "worker",
                            "-Q", queues, "-c", "1", "--pool", "prefork",
                            "-n", node or f"{self.name}{index}-{secrets.token_hex(3)}@%h",
                            "--loglevel", "INFO", "--without-gossip", "--without-mingle",
                            "--without-heartbeat"], f"worker{index}")
        self.workers.append(proc)
        wait_until(lambda: log.exists() and b"ready." in log.read_bytes(), 60,
                   what=f"worker {index} ready ({log})")
        return proc

    def stop_worker(self, proc: subprocess.Popen) -> None:
        """Stop one worker (warm shutdown: its unfinished message goes back to the queue)."""
        os.killpg(proc.pid, signal.SIGTERM)
        try:
            proc.wait(timeout=60)
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()

    def worker_logs(self) -> list[Path]:
        """The log files of this stack's workers."""
        return [LOGS / f"{self.name}-worker{i}.log" for i in range(len(self.workers))]

    def client(self) -> httpx.Client:
        """An HTTP client for the API."""
        return httpx.Client(base_url=self.base_url, timeout=30)

    def stop(self) -> None:
        """Terminate every process (by its own id and process group)."""
        for proc in [*self.workers, self.server]:
            if proc is not None and proc.poll() is None:
                os.killpg(proc.pid, signal.SIGTERM)
        for proc in [*self.workers, self.server]:
            if proc is None:
                continue
            try:
                proc.wait(timeout=15)
            except subprocess.TimeoutExpired:
                os.killpg(proc.pid, signal.SIGKILL)
                proc.wait()
