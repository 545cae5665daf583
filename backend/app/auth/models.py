"""Accounts seen through sign-in: what an instructor's class is made of."""

from datetime import datetime

from sqlalchemy import JSON, DateTime, String
from sqlalchemy.orm import Mapped, mapped_column

from app.core.db import Base, utcnow


class Account(Base):
    """A signed-in account, keyed by the hash of its account token (the owner_hash of its work),
    with the groups (classes, teams) its last ID token named."""

    __tablename__ = "accounts"

    owner_hash: Mapped[str] = mapped_column(String(64), primary_key=True)
    issuer: Mapped[str] = mapped_column(String(300))
    subject: Mapped[str] = mapped_column(String(300))
    name: Mapped[str] = mapped_column(String(200), default="")
    role: Mapped[str] = mapped_column(String(16), default="member")
    groups: Mapped[list[str]] = mapped_column(JSON, default=list)
    seen_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)
