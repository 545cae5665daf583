"""Alembic environment: the URL from Settings, the metadata from app.models."""

from logging.config import fileConfig

from alembic import context

from app.core.config import get_settings
from app.core.db import make_engine
from app.models import Base

config = context.config
if config.config_file_name is not None:
    fileConfig(config.config_file_name, disable_existing_loggers=False)

target_metadata = Base.metadata


def url() -> str:
    """An explicit -x url=... wins over DATABASE_URL."""
    return context.get_x_argument(as_dictionary=True).get("url") or get_settings().DATABASE_URL


def run_migrations_offline() -> None:
    """Emit SQL without a connection."""
    context.configure(url=url(), target_metadata=target_metadata, literal_binds=True,
                      render_as_batch=True)
    with context.begin_transaction():
        context.run_migrations()


def run_migrations_online() -> None:
    """Migrate through a live connection (batch mode so ALTERs work on SQLite)."""
    engine = make_engine(url())
    with engine.connect() as connection:
        context.configure(connection=connection, target_metadata=target_metadata,
                          render_as_batch=True, compare_type=True)
        with context.begin_transaction():
            context.run_migrations()
    engine.dispose()


if context.is_offline_mode():
    run_migrations_offline()
else:
    run_migrations_online()
