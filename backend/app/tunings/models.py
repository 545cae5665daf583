"""Tunings: a search over a space of scenario settings by several strategies, and each
strategy's evaluations (every evaluation is one run per scenario and seed)."""

from datetime import datetime
from typing import Any

from sqlalchemy import JSON, Boolean, DateTime, Float, ForeignKey, Integer, String, Text, UniqueConstraint
from sqlalchemy.orm import Mapped, mapped_column

from app.core.db import Base, utcnow
from app.runs.models import RunStatus


class Tuning(Base):
    """The request as submitted (so the work can be rebuilt after a restart) and its state."""

    __tablename__ = "tunings"

    id: Mapped[str] = mapped_column(String(16), primary_key=True)
    name: Mapped[str] = mapped_column(String(200), default="")
    scenario_ids: Mapped[list[str]] = mapped_column(JSON)
    spec: Mapped[dict[str, Any]] = mapped_column(JSON)  # TuningCreate as JSON
    status: Mapped[str] = mapped_column(String(16), default=RunStatus.PENDING, index=True)
    error: Mapped[str | None] = mapped_column(Text)
    cancelled: Mapped[bool] = mapped_column(Boolean, default=False)
    version: Mapped[int] = mapped_column(Integer, default=0)  # optimistic lock of the step task
    stepped_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))
    chain_token: Mapped[str | None] = mapped_column(String(32))  # the live chain of step tasks
    # Who created it (app/runs/quotas.client_key); its runs carry it like sweep points do.
    client: Mapped[str | None] = mapped_column(String(80), index=True)
    # sha256 of the creator's owner token (app/core/owners.py): who may cancel it and list it.
    owner_hash: Mapped[str | None] = mapped_column(String(64), index=True)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow, index=True)
    finished_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))
    # screening (spec.screening): the evaluation ids run again at packet level, best first;
    # null until every strategy has finished at flow level
    kept: Mapped[list[int] | None] = mapped_column(JSON(none_as_null=True))


class TuningEvaluation(Base):
    """One request of one strategy: the settings it evaluated, its runs and what they gave."""

    __tablename__ = "tuning_evaluations"
    __table_args__ = (UniqueConstraint("tuning_id", "strategy", "seq"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    tuning_id: Mapped[str] = mapped_column(ForeignKey("tunings.id", ondelete="CASCADE"), index=True)
    strategy: Mapped[str] = mapped_column(String(32))
    seq: Mapped[int] = mapped_column(Integer)      # order of asking within the strategy
    batch: Mapped[int] = mapped_column(Integer)    # the ask() call that produced it
    request: Mapped[dict[str, Any]] = mapped_column(JSON)   # point, fidelity, overrides
    params: Mapped[dict[str, Any]] = mapped_column(JSON)    # vendor-unit settings by name
    run_ids: Mapped[list[str]] = mapped_column(JSON)        # scenario-major, then seed
    status: Mapped[str] = mapped_column(String(16), default=RunStatus.PENDING, index=True)
    feasible: Mapped[bool | None] = mapped_column(Boolean)
    objectives: Mapped[list[dict[str, float]] | None] = mapped_column(JSON)  # [{mean, ci}]
    losses: Mapped[list[float] | None] = mapped_column(JSON)
    metrics: Mapped[dict[str, Any] | None] = mapped_column(JSON)   # mean over runs
    run_metrics: Mapped[list[dict[str, Any]] | None] = mapped_column(JSON)
    error: Mapped[str | None] = mapped_column(Text)
    wall_s: Mapped[float] = mapped_column(Float, default=0.0)
    # screening: a kept evaluation's packet-level runs (as run_ids) and what they gave
    packet_run_ids: Mapped[list[str] | None] = mapped_column(JSON(none_as_null=True))
    packet_objectives: Mapped[list[dict[str, float]] | None] = mapped_column(JSON(none_as_null=True))
    packet_metrics: Mapped[dict[str, Any] | None] = mapped_column(JSON(none_as_null=True))
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)
