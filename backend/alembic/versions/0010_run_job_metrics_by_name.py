"""runs.job_metrics: every collective job's JCT and bus bandwidth, by job name

Revision ID: 0010
Revises: 0009
Create Date: 2026-11-26

Issue 20: a sweep's heatmap may show the JCT or busbw of a job other than the first
({"B": {"jct_us": ..., "busbw_gbps": ...}}; null for runs without a collective job). Runs
finished before this migration keep null and show the first job's columns only.
"""
import sqlalchemy as sa
from alembic import op

revision = "0010"
down_revision = "0009"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("runs") as batch:
        batch.add_column(sa.Column("job_metrics", sa.JSON(), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("runs") as batch:
        batch.drop_column("job_metrics")
