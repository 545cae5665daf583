"""runs.engine: the engine that simulates a run, "packet" or "flow"

Revision ID: 0012
Revises: 0011
Create Date: 2026-11-29

Issue 36: a run may be answered by the flow-level engine (`fabricsim run --engine flow`) instead
of the packet-level model. Every run before this migration was a packet-level run. A cached result
serves only a request for the same engine.
"""
import sqlalchemy as sa
from alembic import op

revision = "0012"
down_revision = "0011"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("runs") as batch:
        batch.add_column(sa.Column("engine", sa.String(8), nullable=False, server_default="packet"))


def downgrade() -> None:
    with op.batch_alter_table("runs") as batch:
        batch.drop_column("engine")
