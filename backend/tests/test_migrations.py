"""Alembic on an empty PostgreSQL: upgrade head, downgrade base, upgrade again."""

from sqlalchemy import create_engine, inspect, text

from tests.support import create_database, drop_database, migrate, require_env, service_env

TABLES = {"scenarios", "runs", "run_results", "sweeps", "sweep_points", "tunings",
          "tuning_evaluations", "accounts", "measurements"}


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


def test_0004_marks_existing_tuning_snapshots_internal(tmp_path):
    """Snapshots a tuning stored before 0004 get its tuning_id; a user's fork does not."""
    url = f"sqlite:///{tmp_path / 'm.db'}"
    env = service_env(DATABASE_URL=url)
    assert migrate(env, "upgrade", "0003").returncode == 0
    engine = create_engine(url)
    scenario = ("INSERT INTO scenarios (id, name, description, content_hash, document, parent_id,"
                " created_at) VALUES (:id, :name, '', 'h', '{}', :parent, :at)")
    try:
        with engine.begin() as connection:
            for row in ({"id": "base", "name": "incast", "parent": None, "at": "2026-11-23 10:00:00"},
                        {"id": "point", "name": "incast [kmin=0, pmax=1]", "parent": "base",
                         "at": "2026-11-23 10:05:00"},
                        {"id": "later", "name": "incast [kmin=0, pmax=1]", "parent": "base",
                         "at": "2026-11-23 12:00:00"},
                        {"id": "fork", "name": "incast (annealing pick: kmin=0)",
                         "parent": "base", "at": "2026-11-23 10:06:00"}):
                connection.execute(text(scenario), row)
            connection.execute(text(
                "INSERT INTO tunings (id, name, scenario_ids, spec, status, cancelled, version,"
                " created_at, finished_at) VALUES ('t1', 't', '[\"base\"]', '{}', 'SUCCEEDED', 0,"
                " 0, '2026-11-23 10:01:00', '2026-11-23 10:10:00')"))
        assert migrate(env).returncode == 0
        with engine.connect() as connection:
            marked = dict(connection.execute(text("SELECT id, tuning_id FROM scenarios")).all())
        assert marked == {"base": None, "point": "t1", "later": None, "fork": None}
    finally:
        engine.dispose()


def test_0013_marks_existing_sweep_points(tmp_path):
    """Snapshots stored as a sweep's points before 0013 get its sweep_id; the sweep's base does
    not."""
    url = f"sqlite:///{tmp_path / 'm.db'}"
    env = service_env(DATABASE_URL=url)
    assert migrate(env, "upgrade", "0012").returncode == 0
    engine = create_engine(url)  # foreign keys off: the points' runs need not exist
    try:
        with engine.begin() as connection:
            for sid in ("base", "p0", "p1", "mine"):
                connection.execute(text(
                    "INSERT INTO scenarios (id, name, description, content_hash, document,"
                    " created_at) VALUES (:id, :id, '', 'h', '{}', '2026-11-29 08:00:00')"),
                    {"id": sid})
            connection.execute(text(
                "INSERT INTO sweeps (id, scenario_id, seed, parameters, linked, total, expanded,"
                " cancelled, created_at) VALUES ('s1', 'base', 1, '[]', 0, 2, 1, 0,"
                " '2026-11-29 08:00:00')"))
            for index, (point, run) in enumerate((("p0", "r0"), ("p1", "r1"))):
                connection.execute(text(
                    "INSERT INTO sweep_points (sweep_id, \"index\", params, scenario_id, run_id)"
                    " VALUES ('s1', :index, '{}', :point, :run)"),
                    {"index": index, "point": point, "run": run})
        assert migrate(env).returncode == 0
        with engine.connect() as connection:
            marked = dict(connection.execute(text("SELECT id, sweep_id FROM scenarios")).all())
        assert marked == {"base": None, "p0": "s1", "p1": "s1", "mine": None}
    finally:
        engine.dispose()
