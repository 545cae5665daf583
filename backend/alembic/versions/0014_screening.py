"""flow-level screening of sweeps and tunings: sweeps.screening, sweeps.kept,
sweep_points.packet_run_id, tunings.kept, tuning_evaluations.packet_*

Revision ID: 0014
Revises: 0013
Create Date: 2026-11-29

Issue 36: a sweep may run every point at flow level first and its best `keep` points again at
packet level (app/runs/screening.py). `screening` holds the option (null: no screening), `kept`
the indexes of the points kept, best first (null until every point has its flow-level answer),
and a kept point's `packet_run_id` its packet-level run. A tuning's option is in its spec; `kept`
holds the evaluation ids kept, and a kept evaluation its packet-level runs, objectives and
metrics. Sweeps and tunings before this migration have none.
"""

import sqlalchemy as sa
from alembic import op

revision = "0014"
down_revision = "0013"
branch_labels = None
depends_on = None


def upgrade() -> None:
    # Columns added in place, not by batch (which copies sweep_points into a new table on SQLite
    # and would check every stored row's foreign keys again).
    op.add_column("sweeps", sa.Column("screening", sa.JSON(), nullable=True))
    op.add_column("sweeps", sa.Column("kept", sa.JSON(), nullable=True))
    if op.get_bind().dialect.name == "sqlite":
        # SQLite adds a column with its foreign key only inline (no ALTER of constraints)
        op.execute(
            "ALTER TABLE sweep_points ADD COLUMN packet_run_id VARCHAR(16) CONSTRAINT "
            "fk_sweep_points_packet_run_id_runs REFERENCES runs (id) ON DELETE CASCADE"
        )
    else:
        op.add_column("sweep_points", sa.Column("packet_run_id", sa.String(16), nullable=True))
        op.create_foreign_key(
            op.f("fk_sweep_points_packet_run_id_runs"),
            "sweep_points",
            "runs",
            ["packet_run_id"],
            ["id"],
            ondelete="CASCADE",
        )
    op.create_index(op.f("ix_sweep_points_packet_run_id"), "sweep_points", ["packet_run_id"])
    op.add_column("tunings", sa.Column("kept", sa.JSON(), nullable=True))
    for column in ("packet_run_ids", "packet_objectives", "packet_metrics"):
        op.add_column("tuning_evaluations", sa.Column(column, sa.JSON(), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("tuning_evaluations") as batch:
        for column in ("packet_metrics", "packet_objectives", "packet_run_ids"):
            batch.drop_column(column)
    with op.batch_alter_table("tunings") as batch:
        batch.drop_column("kept")
    op.drop_index(op.f("ix_sweep_points_packet_run_id"), "sweep_points")
    with op.batch_alter_table("sweep_points") as batch:
        batch.drop_column("packet_run_id")
    with op.batch_alter_table("sweeps") as batch:
        batch.drop_column("kept")
        batch.drop_column("screening")
