"""runs.client and sweeps.client for per-client quotas; index on scenarios.owner_token_hash

Revision ID: 0003
Revises: 0001
Create Date: 2026-11-23

Issue 13 (fair use). Existing rows keep client NULL (counted for nobody); owner tokens were
already stored as sha256 hashes, so existing scenarios stay deletable with their token.
"""
import sqlalchemy as sa
from alembic import op

revision = "0003"
down_revision = "0002_tunings"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("runs") as batch:
        batch.add_column(sa.Column("client", sa.String(length=80), nullable=True))
        batch.create_index(batch.f("ix_runs_client"), ["client"], unique=False)
    with op.batch_alter_table("sweeps") as batch:
        batch.add_column(sa.Column("client", sa.String(length=80), nullable=True))
        batch.create_index(batch.f("ix_sweeps_client"), ["client"], unique=False)
    with op.batch_alter_table("scenarios") as batch:
        batch.create_index(batch.f("ix_scenarios_owner_token_hash"), ["owner_token_hash"],
                           unique=False)


def downgrade() -> None:
    with op.batch_alter_table("scenarios") as batch:
        batch.drop_index(batch.f("ix_scenarios_owner_token_hash"))
    with op.batch_alter_table("sweeps") as batch:
        batch.drop_index(batch.f("ix_sweeps_client"))
        batch.drop_column("client")
    with op.batch_alter_table("runs") as batch:
        batch.drop_index(batch.f("ix_runs_client"))
        batch.drop_column("client")
