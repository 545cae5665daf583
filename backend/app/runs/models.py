"""Simulation runs and their stored results."""

from datetime import datetime
from enum import StrEnum
from typing import Any

from sqlalchemy import JSON, BigInteger, DateTime, Float, ForeignKey, Integer, String, Text
from sqlalchemy.orm import Mapped, mapped_column

from app.core.db import Base, utcnow


class RunStatus(StrEnum):
    """The life of a run, and of a sweep or tuning (same states): PENDING -> RUNNING -> one of the
    final three. A StrEnum, so the database column and the JSON keep the plain names."""

    PENDING = "PENDING"
    RUNNING = "RUNNING"
    SUCCEEDED = "SUCCEEDED"
    FAILED = "FAILED"
    CANCELLED = "CANCELLED"


FINAL_STATES = (RunStatus.SUCCEEDED, RunStatus.FAILED, RunStatus.CANCELLED)


class Run(Base):
    """One simulation of one scenario with one seed; the truth about its state."""

    __tablename__ = "runs"

    id: Mapped[str] = mapped_column(String(16), primary_key=True)
    scenario_id: Mapped[str] = mapped_column(
        ForeignKey("scenarios.id", ondelete="CASCADE"), index=True)
    seed: Mapped[int] = mapped_column(BigInteger)
    status: Mapped[str] = mapped_column(String(16), default=RunStatus.PENDING, index=True)
    progress: Mapped[float] = mapped_column(Float, default=0.0)
    sim_time_ns: Mapped[int] = mapped_column(BigInteger, default=0)
    duration_ns: Mapped[int] = mapped_column(BigInteger, default=0)
    events: Mapped[int] = mapped_column(BigInteger, default=0)
    wall_s: Mapped[float] = mapped_column(Float, default=0.0)
    attempts: Mapped[int] = mapped_column(Integer, default=0)
    error: Mapped[str | None] = mapped_column(Text)
    task_id: Mapped[str | None] = mapped_column(String(64))
    worker: Mapped[str | None] = mapped_column(String(200))
    # Who asked for it (app/runs/quotas.client_key: a hashed owner token or an address).
    client: Mapped[str | None] = mapped_column(String(80), index=True)
    # sha256 of the creator's owner token (app/core/owners.py): who may cancel it and list it.
    owner_hash: Mapped[str | None] = mapped_column(String(64), index=True)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow, index=True)
    started_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))
    finished_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))
    heartbeat_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))
    throughput_gbps: Mapped[float | None] = mapped_column(Float, index=True)
    fct_p50_us: Mapped[float | None] = mapped_column(Float)
    fct_p99_us: Mapped[float | None] = mapped_column(Float, index=True)
    slowdown_p99: Mapped[float | None] = mapped_column(Float)
    max_queue_bytes: Mapped[float | None] = mapped_column(Float)
    ecn_marked_packets: Mapped[int | None] = mapped_column(BigInteger)
    cnps_sent: Mapped[int | None] = mapped_column(BigInteger)
    pfc_pauses_sent: Mapped[int | None] = mapped_column(BigInteger)
    drops_total: Mapped[int | None] = mapped_column(BigInteger)
    # the first collective job's (result.jobs[0]); null for runs without one
    jct_us: Mapped[float | None] = mapped_column(Float)
    busbw_gbps: Mapped[float | None] = mapped_column(Float)
    # the first training job's (app/runs/metrics.py); null for runs without one
    iteration_us: Mapped[float | None] = mapped_column(Float)
    tokens_per_s: Mapped[float | None] = mapped_column(Float)
    exposed_dp_us: Mapped[float | None] = mapped_column(Float)
    exposed_tp_us: Mapped[float | None] = mapped_column(Float)
    # every job's, by name: {"B": {"jct_us": ..., "busbw_gbps": ...}}; null without a job
    job_metrics: Mapped[dict[str, Any] | None] = mapped_column(JSON)
    summary: Mapped[dict[str, Any] | None] = mapped_column(JSON)
    # simulator threads asked for (`fabricsim run --threads`) and the partitions it made
    # (result perf.parallel; null until SUCCEEDED)
    threads: Mapped[int] = mapped_column(Integer, default=1, server_default="1")
    partitions: Mapped[int | None] = mapped_column(Integer)
    # the engine that simulates it (`fabricsim run --engine`): "packet" or "flow"
    engine: Mapped[str] = mapped_column(String(8), default="packet", server_default="packet")


class RunResult(Base):
    """The raw result JSON exactly as the simulator wrote it; one row per run (upserted)."""

    __tablename__ = "run_results"

    run_id: Mapped[str] = mapped_column(
        ForeignKey("runs.id", ondelete="CASCADE"), primary_key=True)
    result_json: Mapped[str] = mapped_column(Text)
    sha256: Mapped[str] = mapped_column(String(64))
    stored_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)
