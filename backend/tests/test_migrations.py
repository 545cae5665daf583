"""Alembic on an empty PostgreSQL: upgrade head, downgrade base, upgrade again."""

from sqlalchemy import create_engine, inspect

from tests.support import create_database, drop_database, migrate, require_env, service_env

TABLES = {"scenarios", "runs", "run_results", "sweeps", "sweep_points", "tunings",
          "tuning_evaluations"}


def _tables(url: str) -> set[str]:
    """Tables present (without alembic's own)."""
    engine = create_engine(url)
    try:
        return set(inspect(engine).get_table_names()) - {"alembic_version"}
    finally:
        engine.dispose()


def test_upgrade_downgrade_upgrade_on_empty_postgres():
    url = create_database(require_env("DATABASE_URL"))
    env = service_env(DATABASE_URL=url)
    try:
        assert _tables(url) == set()
        for args, expected in ((("upgrade", "head"), TABLES), (("downgrade", "base"), set()),
                               (("upgrade", "head"), TABLES)):
            result = migrate(env, *args)
            assert result.returncode == 0, result.stderr
            assert _tables(url) == expected
        check = migrate(env, "check")
        assert check.returncode == 0, check.stdout + check.stderr
    finally:
        drop_database(url)


def test_upgrade_on_sqlite(tmp_path):
    url = f"sqlite:///{tmp_path / 'm.db'}"
    env = service_env(DATABASE_URL=url)
    assert migrate(env).returncode == 0
    assert _tables(url) == TABLES
    assert migrate(env, "downgrade", "base").returncode == 0
    assert _tables(url) == set()
