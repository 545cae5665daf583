"""One Settings object for the backend and the workers, read from the environment."""

import os
from functools import lru_cache
from pathlib import Path
from typing import Annotated, Literal

from pydantic import Field
from pydantic_settings import BaseSettings, SettingsConfigDict

REPO_ROOT = Path(__file__).resolve().parents[3]


class Settings(BaseSettings):
    """All configuration; every field can be set by an environment variable of the same name."""

    model_config = SettingsConfigDict(env_file=".env", env_file_encoding="utf-8", extra="ignore")

    PROJECT_NAME: str = "FabricTwin"
    API_V1_STR: str = "/api/v1"
    DATABASE_URL: str = f"sqlite:///{REPO_ROOT / '.data' / 'fabrictwin.db'}"
    CELERY_BROKER_URL: str = "redis://127.0.0.1:6390/0"
    FABRICSIM_BIN: Path = REPO_ROOT / "simcore" / "build" / "fabricsim"
    RUNS_DIR: Path = REPO_ROOT / ".data" / "runs"
    FRONTEND_DIST: Path = REPO_ROOT / "frontend" / "dist"
    MAX_BODY_BYTES: int = 2_000_000
    MAX_JSON_DEPTH: int = 32
    RUN_MAX_WALL_S: int = 600
    RUN_MAX_MEMORY_MB: int = 4096
    # CPU niceness of every fabricsim process (0-19; 0: the worker's own). Where simulators share
    # cores with the API, requests then get a core at once (docs/benchmarks-history.md, API under
    # load: "Priorities, API processes and HTTP caching").
    SIM_NICE: Annotated[int, Field(ge=0, le=19)] = 10
    # Threads of one run (issue 19, docs/operations.md "Parallel runs"): POST /runs accepts
    # `threads` from 1 to MAX_RUN_THREADS (0: this machine's cores; the simulator allows up to
    # 4 x its machine's cores). WORKER_SLOTS: the simulator threads a worker machine runs at once
    # (0: its cores), shared through lock files in WORKER_SLOTS_DIR (default RUNS_DIR/.slots).
    MAX_RUN_THREADS: Annotated[int, Field(ge=0, le=4096)] = 0
    WORKER_SLOTS: Annotated[int, Field(ge=0, le=4096)] = 0
    WORKER_SLOTS_DIR: Path | None = None
    MAX_SWEEP_POINTS: int = 5000
    MAX_SEEDS_PER_REQUEST: int = 64
    VALIDATE_TIMEOUT_S: float = 20.0
    SIMULATOR_VALIDATION: bool = True
    PROGRESS_WRITE_INTERVAL_S: float = 0.5
    HEARTBEAT_STALE_S: float = 60.0
    # Reconciler (app/sweeps/reconciler.py), run by the API every REAPER_INTERVAL_S (0: off):
    # requeues stale RUNNING runs and PENDING runs / unexpanded sweeps whose broker message is
    # gone (a Redis restart without persistence, a task acked during a database outage)
    # once they are older than PENDING_GRACE_S.
    REAPER_INTERVAL_S: float = 30.0
    PENDING_GRACE_S: float = 60.0
    # Workers retry database errors with exponential backoff (Celery's retry_backoff) up to this
    # delay between tries, at most DB_RETRY_MAX_TRIES times per task (then the reconciler takes
    # over); a finished simulation keeps trying to store its result for DB_RETRY_WINDOW_S.
    DB_RETRY_MAX_DELAY_S: float = 30.0
    DB_RETRY_MAX_TRIES: int = 40
    DB_RETRY_WINDOW_S: float = 900.0
    # Answered with 503 while the database is unreachable.
    DB_RETRY_AFTER_S: int = 5
    SSE_POLL_INTERVAL_S: float = 0.5
    # Cross-origin requests are refused unless origins are listed here (docs/operations.md).
    CORS_ORIGINS: list[str] = []
    # Fair use per client (app/runs/quotas.py); over a limit -> 429 with Retry-After.
    QUOTA_CLIENT_KEY: Literal["token_or_address", "address"] = "token_or_address"
    QUOTA_CONCURRENT_RUNS: int = 4         # a client's executions at once (a chunk is one; 0: no limit)
    QUOTA_QUEUED_RUNS: int = 10_000        # a client's PENDING runs, sweep points included
    QUOTA_POINTS_PER_SWEEP: int = 5000     # points of one sweep or tuning
    QUOTA_EVENTS_PER_DAY: int = 10**12     # simulated events a client may use in 24 h (0: off)
    QUOTA_RETRY_AFTER_S: int = 30
    QUOTA_DEFER_S: float = 5.0             # a run over the concurrency limit waits this long
    MAX_SSE_PER_CLIENT: int = 16           # open event streams per client and API process
    # Owner tokens (app/core/owners.py, docs/security.md): a client address that presents tokens
    # owning nothing it asked to change this many times within the window gets 429 + Retry-After.
    FAILED_TOKEN_ATTEMPTS: int = 20        # 0: no limit
    FAILED_TOKEN_WINDOW_S: float = 60.0
    # Optional sign-in through OpenID Connect (app/auth, docs/security.md): off while OIDC_ISSUER
    # is empty. When set, every API route but health and /auth needs a signed-in session (401),
    # work is owned by the account, and the ID token's OIDC_ROLES_CLAIM gives the role (member,
    # instructor, admin; member when absent).
    OIDC_ISSUER: str = ""
    OIDC_CLIENT_ID: str = ""
    OIDC_CLIENT_SECRET: str = ""
    OIDC_SCOPES: str = "openid profile email"
    OIDC_ROLES_CLAIM: str = "roles"
    OIDC_GROUPS_CLAIM: str = "groups"      # an instructor lists the work of its groups' members
    SESSION_SECRET: str = ""               # signs the session cookie; required with OIDC_ISSUER
    SESSION_COOKIE_SECURE: bool = True     # the cookie only over HTTPS (false: local testing)


def max_run_threads(settings: Settings) -> int:
    """The most threads one run may ask for (MAX_RUN_THREADS, or this machine's cores)."""
    return settings.MAX_RUN_THREADS or os.cpu_count() or 1


@lru_cache
def get_settings() -> Settings:
    """The process-wide settings (cached; tests clear the cache after changing the env)."""
    return Settings()
