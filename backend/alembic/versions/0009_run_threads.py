"""runs.threads, runs.partitions: the simulator threads a run asked for and the partitions used

Revision ID: 0009
Revises: 0008
Create Date: 2026-11-26

Issue 19: a run may simulate on several threads (`fabricsim run --threads N`). The run records
the threads it asked for (1 for every run before this migration: the simulator had one) and the
partitions the simulator made (result perf.parallel.partitions; null until SUCCEEDED). Runs that
succeeded before this migration ran on one thread and one partition.
"""
import sqlalchemy as sa
from alembic import op

revision = "0009"
down_revision = "0008"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("runs") as batch:
        batch.add_column(sa.Column("threads", sa.Integer(), nullable=False, server_default="1"))
        batch.add_column(sa.Column("partitions", sa.Integer(), nullable=True))
    op.execute("UPDATE runs SET partitions = 1 WHERE status = 'SUCCEEDED'")


def downgrade() -> None:
    with op.batch_alter_table("runs") as batch:
        batch.drop_column("partitions")
        batch.drop_column("threads")
