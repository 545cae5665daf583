"""accounts: signed-in accounts and their groups (issue 23, optional sign-in)

Revision ID: 0007
Revises: 0006
Create Date: 2026-11-26

Only used when OIDC_ISSUER is set: an instructor lists the work of the accounts that share a
group (class, team) with it (docs/security.md).
"""
import sqlalchemy as sa
from alembic import op

revision = "0007"
down_revision = "0006"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "accounts",
        sa.Column("owner_hash", sa.String(length=64), primary_key=True),
        sa.Column("issuer", sa.String(length=300), nullable=False),
        sa.Column("subject", sa.String(length=300), nullable=False),
        sa.Column("name", sa.String(length=200), nullable=False),
        sa.Column("role", sa.String(length=16), nullable=False),
        sa.Column("groups", sa.JSON(), nullable=False),
        sa.Column("seen_at", sa.DateTime(timezone=True), nullable=False))


def downgrade() -> None:
    op.drop_table("accounts")
