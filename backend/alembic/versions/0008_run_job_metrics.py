"""runs.jct_us, runs.busbw_gbps: the first collective job's completion time and bus bandwidth

Revision ID: 0008
Revises: 0007
Create Date: 2026-11-26

Issue 20: sweeps read a run's metrics from its columns, so a job's JCT and busbw become columns
(result.jobs[0]; null for runs without a collective job). Runs finished before this migration
keep null: the collective generator is new with it.
"""
import sqlalchemy as sa
from alembic import op

revision = "0008"
down_revision = "0007"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("runs") as batch:
        batch.add_column(sa.Column("jct_us", sa.Float(), nullable=True))
        batch.add_column(sa.Column("busbw_gbps", sa.Float(), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("runs") as batch:
        batch.drop_column("busbw_gbps")
        batch.drop_column("jct_us")
