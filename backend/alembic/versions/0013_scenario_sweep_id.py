"""scenarios.sweep_id: the sweep whose point a snapshot is

Revision ID: 0013
Revises: 0012
Create Date: 2026-11-29

Issue 39: the scenario list told sweep points apart by reading the sweeps' table (the scenarios
package imported the sweeps'). A snapshot now says it is a sweep's point, as `tuning_id` says it
is a tuning's evaluation; the existing points are marked from sweep_points.
"""
import sqlalchemy as sa
from alembic import op

revision = "0013"
down_revision = "0012"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("scenarios") as batch:
        batch.add_column(sa.Column("sweep_id", sa.String(16), nullable=True))
        batch.create_index(batch.f("ix_scenarios_sweep_id"), ["sweep_id"], unique=False)
    op.execute("UPDATE scenarios SET sweep_id = (SELECT sweep_points.sweep_id FROM sweep_points "
               "WHERE sweep_points.scenario_id = scenarios.id LIMIT 1) "
               "WHERE EXISTS (SELECT 1 FROM sweep_points WHERE sweep_points.scenario_id = scenarios.id)")


def downgrade() -> None:
    with op.batch_alter_table("scenarios") as batch:
        batch.drop_index(batch.f("ix_scenarios_sweep_id"))
        batch.drop_column("sweep_id")
