"""Database engine, session factory and the declarative base with a naming convention."""

from collections.abc import Iterator
from datetime import datetime, timezone
from functools import lru_cache
from typing import Any

from pydantic_core import from_json
from sqlalchemy import MetaData, Select, create_engine, event, exc, func, select
from sqlalchemy.engine import Engine
from sqlalchemy.orm import DeclarativeBase, Session, sessionmaker

from app.core.config import get_settings

NAMING_CONVENTION = {
    "ix": "ix_%(column_0_label)s",
    "uq": "uq_%(table_name)s_%(column_0_name)s",
    "ck": "ck_%(table_name)s_%(constraint_name)s",
    "fk": "fk_%(table_name)s_%(column_0_name)s_%(referred_table_name)s",
    "pk": "pk_%(table_name)s",
}


class Base(DeclarativeBase):
    """Declarative base of every table."""

    metadata = MetaData(naming_convention=NAMING_CONVENTION)


def utcnow() -> datetime:
    """Timezone-aware now (UTC)."""
    return datetime.now(timezone.utc)


def _sqlite_pragmas(dbapi_connection, _record) -> None:
    """WAL and a busy timeout let the API and a worker write the same SQLite file."""
    cursor = dbapi_connection.cursor()
    cursor.execute("PRAGMA journal_mode=WAL")
    cursor.execute("PRAGMA busy_timeout=30000")
    cursor.execute("PRAGMA foreign_keys=ON")
    cursor.close()


def make_engine(url: str) -> Engine:
    """An engine for `url`; SQLite gets its parent directory created and concurrency pragmas."""
    if url.startswith("sqlite"):
        path = url.split("///", 1)[-1]
        if path and path != ":memory:":
            from pathlib import Path

            Path(path).parent.mkdir(parents=True, exist_ok=True)
        engine = create_engine(url, connect_args={"check_same_thread": False, "timeout": 30},
                               json_deserializer=from_json)
        event.listen(engine, "connect", _sqlite_pragmas)
        return engine
    # connect_timeout: during an outage a request fails fast (503) instead of hanging.
    # JSON columns (a sweep's point parameters, a run's job metrics: hundreds per page) are
    # parsed by pydantic-core's JSON reader, several times faster than the json module's.
    return create_engine(url, pool_pre_ping=True, pool_size=5, max_overflow=10,
                         connect_args={"connect_timeout": 5}, json_deserializer=from_json)


# Errors that mean "the database is unreachable right now" (not a bad statement): callers answer
# 503 or retry later. SQLite's "database is locked" is an OperationalError too.
DB_UNAVAILABLE = (exc.OperationalError, exc.InterfaceError, exc.TimeoutError)


@lru_cache
def get_engine() -> Engine:
    """The process-wide engine for settings.DATABASE_URL."""
    return make_engine(get_settings().DATABASE_URL)


@lru_cache
def get_sessionmaker() -> sessionmaker[Session]:
    """Session factory bound to the process engine."""
    return sessionmaker(bind=get_engine(), expire_on_commit=False)


def get_session() -> Iterator[Session]:
    """FastAPI dependency: one session per request."""
    with get_sessionmaker()() as session:
        yield session


def newest_first_page(session: Session, query: Select, model: Any, *, limit: int,
                      offset: int) -> tuple[list[Any], int]:
    """One page of a list endpoint, newest first (ties by id), and the count of the whole list."""
    count = session.scalar(select(func.count()).select_from(query.subquery())) or 0
    rows = session.scalars(query.order_by(model.created_at.desc(), model.id)
                           .limit(limit).offset(offset)).all()
    return list(rows), count
