"""tunings.client: a tuning's runs count against its creator's quotas; sweep_points.scenario_id index

Revision ID: 0005
Revises: 0004
Create Date: 2026-11-23

Issue 13 (fair use). The runs a tuning creates carry the client of the request that created the
tuning, like sweep points, so they count against that client's queued and concurrent runs and
simulated events per day. Existing tunings keep client NULL (their runs count for nobody).
The scenario list (kind=user) leaves sweep points out with NOT EXISTS on sweep_points.scenario_id,
which had no index: every list request scanned all points (bench/load.py).
"""
import sqlalchemy as sa
from alembic import op

revision = "0005"
down_revision = "0004"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("tunings") as batch:
        batch.add_column(sa.Column("client", sa.String(length=80), nullable=True))
        batch.create_index(batch.f("ix_tunings_client"), ["client"], unique=False)
    with op.batch_alter_table("sweep_points") as batch:
        batch.create_index(batch.f("ix_sweep_points_scenario_id"), ["scenario_id"], unique=False)


def downgrade() -> None:
    with op.batch_alter_table("sweep_points") as batch:
        batch.drop_index(batch.f("ix_sweep_points_scenario_id"))
    with op.batch_alter_table("tunings") as batch:
        batch.drop_index(batch.f("ix_tunings_client"))
        batch.drop_column("client")
