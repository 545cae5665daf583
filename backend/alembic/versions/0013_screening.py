"""flow-level screening of sweeps and tunings: sweeps.screening, sweeps.kept,
sweep_points.packet_run_id, tunings.kept, tuning_evaluations.packet_*

Revision ID: 0013
Revises: 0012
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

revision = "0013"
down_revision = "0012"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("sweeps") as batch:
        batch.add_column(sa.Column("screening", sa.JSON(), nullable=True))
        batch.add_column(sa.Column("kept", sa.JSON(), nullable=True))
    with op.batch_alter_table("sweep_points") as batch:
        batch.add_column(sa.Column("packet_run_id", sa.String(16), nullable=True))
        batch.create_foreign_key(op.f("fk_sweep_points_packet_run_id_runs"), "runs",
                                 ["packet_run_id"], ["id"], ondelete="CASCADE")
        batch.create_index(op.f("ix_sweep_points_packet_run_id"), ["packet_run_id"])
    with op.batch_alter_table("tunings") as batch:
        batch.add_column(sa.Column("kept", sa.JSON(), nullable=True))
    with op.batch_alter_table("tuning_evaluations") as batch:
        for column in ("packet_run_ids", "packet_objectives", "packet_metrics"):
            batch.add_column(sa.Column(column, sa.JSON(), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("tuning_evaluations") as batch:
        for column in ("packet_metrics", "packet_objectives", "packet_run_ids"):
            batch.drop_column(column)
    with op.batch_alter_table("tunings") as batch:
        batch.drop_column("kept")
    with op.batch_alter_table("sweep_points") as batch:
        batch.drop_index(op.f("ix_sweep_points_packet_run_id"))
        batch.drop_constraint(op.f("fk_sweep_points_packet_run_id_runs"), type_="foreignkey")
        batch.drop_column("packet_run_id")
    with op.batch_alter_table("sweeps") as batch:
        batch.drop_column("kept")
        batch.drop_column("screening")
