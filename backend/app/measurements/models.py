"""Measurements of a real fabric attached to a scenario, and the simulation that matches them."""

from datetime import datetime
from typing import Any

from sqlalchemy import JSON, DateTime, ForeignKey, Integer, String, Text
from sqlalchemy.orm import Mapped, mapped_column

from app.core.db import Base, utcnow


class Measurement(Base):
    """One benchmark output (NCCL-tests or perftest) as imported, what was read from it, and the
    sweep or run that simulates it. Owned like a run; read by anyone with the scenario's link."""

    __tablename__ = "measurements"

    id: Mapped[str] = mapped_column(String(16), primary_key=True)
    scenario_id: Mapped[str] = mapped_column(
        ForeignKey("scenarios.id", ondelete="CASCADE"), index=True)
    kind: Mapped[str] = mapped_column(String(16))        # "nccl_tests" or "perftest"
    tool: Mapped[str] = mapped_column(String(32))        # all_reduce_perf, ib_write_bw, ...
    name: Mapped[str] = mapped_column(String(200), default="")
    text: Mapped[str] = mapped_column(Text)              # the file, as imported
    parsed: Mapped[dict[str, Any]] = mapped_column(JSON)
    owner_hash: Mapped[str | None] = mapped_column(String(64), index=True)
    # the simulation of it (POST /measurements/{id}/simulate): a sweep over the measured sizes,
    # or one run, of `sim_scenario_id` (this scenario with the measured settings), generator index
    sim_scenario_id: Mapped[str | None] = mapped_column(
        ForeignKey("scenarios.id", ondelete="SET NULL"))
    sweep_id: Mapped[str | None] = mapped_column(ForeignKey("sweeps.id", ondelete="SET NULL"))
    run_id: Mapped[str | None] = mapped_column(ForeignKey("runs.id", ondelete="SET NULL"))
    generator: Mapped[int | None] = mapped_column(Integer)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow,
                                                 index=True)
