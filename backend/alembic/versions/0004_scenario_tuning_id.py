"""scenarios.tuning_id: a tuning evaluation's snapshot is internal (not in "My scenarios")

Revision ID: 0004
Revises: 0003
Create Date: 2026-11-23

Issue 8. Existing tuning snapshots are found by how the tuning driver made them: a child of one
of the tuning's base scenarios, named "<base name> [<settings>]", created while the tuning ran.
"""
import sqlalchemy as sa
from alembic import op

revision = "0004"
down_revision = "0003"
branch_labels = None
depends_on = None

scenarios = sa.table("scenarios", sa.column("id", sa.String), sa.column("name", sa.String),
                     sa.column("parent_id", sa.String), sa.column("created_at", sa.DateTime),
                     sa.column("tuning_id", sa.String))
tunings = sa.table("tunings", sa.column("id", sa.String), sa.column("scenario_ids", sa.JSON),
                   sa.column("created_at", sa.DateTime), sa.column("finished_at", sa.DateTime))


def upgrade() -> None:
    with op.batch_alter_table("scenarios") as batch:
        batch.add_column(sa.Column("tuning_id", sa.String(length=16), nullable=True))
        batch.create_index(batch.f("ix_scenarios_tuning_id"), ["tuning_id"], unique=False)
    connection = op.get_bind()
    for tuning in connection.execute(sa.select(tunings)).all():
        for base_id in tuning.scenario_ids or []:
            base_name = connection.execute(sa.select(scenarios.c.name).where(
                scenarios.c.id == base_id)).scalar()
            if base_name is None:
                continue
            where = [scenarios.c.parent_id == base_id, scenarios.c.tuning_id.is_(None),
                     scenarios.c.name.startswith(f"{base_name} [", autoescape=True),
                     scenarios.c.created_at >= tuning.created_at]
            if tuning.finished_at is not None:
                where.append(scenarios.c.created_at <= tuning.finished_at)
            connection.execute(sa.update(scenarios).where(*where).values(tuning_id=tuning.id))


def downgrade() -> None:
    with op.batch_alter_table("scenarios") as batch:
        batch.drop_index(batch.f("ix_scenarios_tuning_id"))
        batch.drop_column("tuning_id")
