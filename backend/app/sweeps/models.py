"""Parameter sweeps: a grid of scenario variants, one run per point."""

from datetime import datetime
from typing import Any

from sqlalchemy import JSON, BigInteger, Boolean, DateTime, ForeignKey, Integer, String, UniqueConstraint
from sqlalchemy.orm import Mapped, mapped_column

from app.core.db import Base, utcnow


class Sweep(Base):
    """A base scenario, a seed and a grid; its status is derived from its points' runs."""

    __tablename__ = "sweeps"

    id: Mapped[str] = mapped_column(String(16), primary_key=True)
    scenario_id: Mapped[str] = mapped_column(
        ForeignKey("scenarios.id", ondelete="CASCADE"), index=True)
    seed: Mapped[int] = mapped_column(BigInteger)
    parameters: Mapped[list[dict[str, Any]]] = mapped_column(JSON)
    linked: Mapped[list[dict[str, Any]]] = mapped_column(JSON)
    total: Mapped[int] = mapped_column(Integer)
    # flow-level screening (app/runs/screening.py): its options, and once every point has its
    # flow-level answer, the indexes of the points kept for packet level, best first
    # (SQL NULL when absent, not JSON null: the reconciler selects on it)
    screening: Mapped[dict[str, Any] | None] = mapped_column(JSON(none_as_null=True))
    kept: Mapped[list[int] | None] = mapped_column(JSON(none_as_null=True))
    expanded: Mapped[bool] = mapped_column(Boolean, default=False)
    cancelled: Mapped[bool] = mapped_column(Boolean, default=False)
    client: Mapped[str | None] = mapped_column(String(80), index=True)
    # sha256 of the creator's owner token (app/core/owners.py): who may cancel it and list it.
    owner_hash: Mapped[str | None] = mapped_column(String(64), index=True)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow, index=True)


class SweepPoint(Base):
    """One grid point: its parameter values, its scenario snapshot and its run."""

    __tablename__ = "sweep_points"
    __table_args__ = (UniqueConstraint("sweep_id", "index"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    sweep_id: Mapped[str] = mapped_column(ForeignKey("sweeps.id", ondelete="CASCADE"), index=True)
    index: Mapped[int] = mapped_column(Integer)
    params: Mapped[dict[str, Any]] = mapped_column(JSON)
    # Indexed: the scenario list leaves sweep points out with NOT EXISTS on this column.
    scenario_id: Mapped[str] = mapped_column(ForeignKey("scenarios.id", ondelete="CASCADE"),
                                             index=True)
    run_id: Mapped[str] = mapped_column(ForeignKey("runs.id", ondelete="CASCADE"), index=True)
    # screening: the packet-level run of a point kept (run_id is then its flow-level run)
    packet_run_id: Mapped[str | None] = mapped_column(ForeignKey("runs.id", ondelete="CASCADE"),
                                                      index=True)
