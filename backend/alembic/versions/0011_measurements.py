"""measurements: NCCL-tests and perftest outputs attached to a scenario (issue 38)

Revision ID: 0011
Revises: 0010
Create Date: 2026-11-29

A measurement is owned like a run and read by anyone with its scenario's link; deleting the
scenario deletes it, deleting its simulation (sweep, run, snapshot) only unlinks it.
"""
import sqlalchemy as sa
from alembic import op

revision = "0011"
down_revision = "0010"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "measurements",
        sa.Column("id", sa.String(length=16), nullable=False),
        sa.Column("scenario_id", sa.String(length=16), nullable=False),
        sa.Column("kind", sa.String(length=16), nullable=False),
        sa.Column("tool", sa.String(length=32), nullable=False),
        sa.Column("name", sa.String(length=200), nullable=False),
        sa.Column("text", sa.Text(), nullable=False),
        sa.Column("parsed", sa.JSON(), nullable=False),
        sa.Column("owner_hash", sa.String(length=64), nullable=True),
        sa.Column("sim_scenario_id", sa.String(length=16), nullable=True),
        sa.Column("sweep_id", sa.String(length=16), nullable=True),
        sa.Column("run_id", sa.String(length=16), nullable=True),
        sa.Column("generator", sa.Integer(), nullable=True),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(["scenario_id"], ["scenarios.id"], ondelete="CASCADE",
                                name=op.f("fk_measurements_scenario_id_scenarios")),
        sa.ForeignKeyConstraint(["sim_scenario_id"], ["scenarios.id"], ondelete="SET NULL",
                                name=op.f("fk_measurements_sim_scenario_id_scenarios")),
        sa.ForeignKeyConstraint(["sweep_id"], ["sweeps.id"], ondelete="SET NULL",
                                name=op.f("fk_measurements_sweep_id_sweeps")),
        sa.ForeignKeyConstraint(["run_id"], ["runs.id"], ondelete="SET NULL",
                                name=op.f("fk_measurements_run_id_runs")),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_measurements")))
    op.create_index(op.f("ix_measurements_scenario_id"), "measurements", ["scenario_id"])
    op.create_index(op.f("ix_measurements_owner_hash"), "measurements", ["owner_hash"])
    op.create_index(op.f("ix_measurements_created_at"), "measurements", ["created_at"])


def downgrade() -> None:
    op.drop_table("measurements")
