"""runs.iteration_us, tokens_per_s, exposed_dp_us, exposed_tp_us: the first training job's

Revision ID: 0015
Revises: 0014
Create Date: 2026-11-29

Issue 35: a training job (traffic kind "training") reports its iteration time, tokens per second
and exposed communication; sweeps and tunings read a run's metrics from its columns, so the first
training job's become columns (app/runs/metrics.py; null for runs without a training job). Runs
finished before this migration keep null: the training generator is new with it.
"""

import sqlalchemy as sa
from alembic import op

revision = "0015"
down_revision = "0014"
branch_labels = None
depends_on = None

COLUMNS = ("iteration_us", "tokens_per_s", "exposed_dp_us", "exposed_tp_us")


def upgrade() -> None:
    with op.batch_alter_table("runs") as batch:
        for name in COLUMNS:
            batch.add_column(sa.Column(name, sa.Float(), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("runs") as batch:
        for name in reversed(COLUMNS):
            batch.drop_column(name)
