"""runs/sweeps/tunings.owner_hash: who may cancel and list them (issue 23)

Revision ID: 0006
Revises: 0005
Create Date: 2026-11-26

The sha256 of the owner token of the caller that created a run, sweep or tuning (docs/security.md).
Existing runs and sweeps take the owner of the scenario they run; existing tunings keep NULL and
are changed with the owner token of their first scenario (app/tunings/router.py).
"""
import sqlalchemy as sa
from alembic import op

revision = "0006"
down_revision = "0005"
branch_labels = None
depends_on = None

TABLES = ("runs", "sweeps", "tunings")


def upgrade() -> None:
    for table in TABLES:
        with op.batch_alter_table(table) as batch:
            batch.add_column(sa.Column("owner_hash", sa.String(length=64), nullable=True))
            batch.create_index(batch.f(f"ix_{table}_owner_hash"), ["owner_hash"], unique=False)
    for table in ("runs", "sweeps"):
        op.execute(f"UPDATE {table} SET owner_hash = (SELECT scenarios.owner_token_hash FROM "
                   f"scenarios WHERE scenarios.id = {table}.scenario_id)")


def downgrade() -> None:
    for table in TABLES:
        with op.batch_alter_table(table) as batch:
            batch.drop_index(batch.f(f"ix_{table}_owner_hash"))
            batch.drop_column("owner_hash")
