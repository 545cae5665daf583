"""sweeps.screening, sweeps.kept, sweep_points.packet_run_id: flow-level screening

Revision ID: 0013
Revises: 0012
Create Date: 2026-11-29

Issue 36: a sweep may run every point at flow level first and its best `keep` points again at
packet level (app/runs/screening.py). `screening` holds the option (null: no screening), `kept`
the indexes of the points kept, best first (null until every point has its flow-level answer),
and a kept point's `packet_run_id` its packet-level run. Sweeps before this migration have none.
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


def downgrade() -> None:
    with op.batch_alter_table("sweep_points") as batch:
        batch.drop_index(op.f("ix_sweep_points_packet_run_id"))
        batch.drop_constraint(op.f("fk_sweep_points_packet_run_id_runs"), type_="foreignkey")
        batch.drop_column("packet_run_id")
    with op.batch_alter_table("sweeps") as batch:
        batch.drop_column("kept")
        batch.drop_column("screening")
