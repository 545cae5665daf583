"""Stored scenario snapshots."""

from datetime import datetime
from typing import Any

from sqlalchemy import JSON, DateTime, ForeignKey, String, Text
from sqlalchemy.orm import Mapped, mapped_column

from app.core.db import Base, utcnow


class ScenarioRow(Base):
    """An immutable scenario snapshot (presets are snapshots with a preset_key)."""

    __tablename__ = "scenarios"

    id: Mapped[str] = mapped_column(String(16), primary_key=True)
    name: Mapped[str] = mapped_column(String(200), index=True)
    description: Mapped[str] = mapped_column(Text, default="")
    content_hash: Mapped[str] = mapped_column(String(64), index=True)
    # What the simulator sees (every default filled in, name and description left out): runs of
    # equal sim_hash and seed are the same simulation, reused by sweeps and tunings.
    sim_hash: Mapped[str | None] = mapped_column(String(64), index=True)
    document: Mapped[dict[str, Any]] = mapped_column(JSON)
    parent_id: Mapped[str | None] = mapped_column(
        ForeignKey("scenarios.id", ondelete="SET NULL"), index=True)
    preset_key: Mapped[str | None] = mapped_column(String(64), unique=True)
    owner_token_hash: Mapped[str | None] = mapped_column(String(64), index=True)
    # Set on the snapshots a tuning stores for its evaluations: internal, so `kind=user` (the
    # "My scenarios" list) leaves them out. No foreign key: a snapshot outlives its tuning's
    # deletion and stays internal.
    tuning_id: Mapped[str | None] = mapped_column(String(16), index=True)
    # Set on the snapshots a sweep stores for its points (`kind=sweep_point`), so the library's
    # lists tell them apart without reading the sweeps' tables. No foreign key, as tuning_id.
    sweep_id: Mapped[str | None] = mapped_column(String(16), index=True)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow, index=True)
