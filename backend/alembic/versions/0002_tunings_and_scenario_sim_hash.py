"""tunings and scenario sim_hash

Tables of the tuning domain (backend/app/tunings) and scenarios.sim_hash, the key runs are
reused by across sweeps and tunings. Rows stored before this revision keep sim_hash NULL:
their runs are simply not found for reuse.

Revision ID: 0002_tunings
Revises: 0001
Create Date: 2026-11-23 09:16:12.383733
"""
from alembic import op
import sqlalchemy as sa


revision = '0002_tunings'
down_revision = '0001'
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table('tunings',
    sa.Column('id', sa.String(length=16), nullable=False),
    sa.Column('name', sa.String(length=200), nullable=False),
    sa.Column('scenario_ids', sa.JSON(), nullable=False),
    sa.Column('spec', sa.JSON(), nullable=False),
    sa.Column('status', sa.String(length=16), nullable=False),
    sa.Column('error', sa.Text(), nullable=True),
    sa.Column('cancelled', sa.Boolean(), nullable=False),
    sa.Column('version', sa.Integer(), nullable=False),
    sa.Column('stepped_at', sa.DateTime(timezone=True), nullable=True),
    sa.Column('chain_token', sa.String(length=32), nullable=True),
    sa.Column('created_at', sa.DateTime(timezone=True), nullable=False),
    sa.Column('finished_at', sa.DateTime(timezone=True), nullable=True),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_tunings'))
    )
    with op.batch_alter_table('tunings', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_tunings_created_at'), ['created_at'], unique=False)
        batch_op.create_index(batch_op.f('ix_tunings_status'), ['status'], unique=False)

    op.create_table('tuning_evaluations',
    sa.Column('id', sa.Integer(), autoincrement=True, nullable=False),
    sa.Column('tuning_id', sa.String(length=16), nullable=False),
    sa.Column('strategy', sa.String(length=32), nullable=False),
    sa.Column('seq', sa.Integer(), nullable=False),
    sa.Column('batch', sa.Integer(), nullable=False),
    sa.Column('request', sa.JSON(), nullable=False),
    sa.Column('params', sa.JSON(), nullable=False),
    sa.Column('run_ids', sa.JSON(), nullable=False),
    sa.Column('status', sa.String(length=16), nullable=False),
    sa.Column('feasible', sa.Boolean(), nullable=True),
    sa.Column('objectives', sa.JSON(), nullable=True),
    sa.Column('losses', sa.JSON(), nullable=True),
    sa.Column('metrics', sa.JSON(), nullable=True),
    sa.Column('run_metrics', sa.JSON(), nullable=True),
    sa.Column('error', sa.Text(), nullable=True),
    sa.Column('wall_s', sa.Float(), nullable=False),
    sa.Column('created_at', sa.DateTime(timezone=True), nullable=False),
    sa.ForeignKeyConstraint(['tuning_id'], ['tunings.id'], name=op.f('fk_tuning_evaluations_tuning_id_tunings'), ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_tuning_evaluations')),
    sa.UniqueConstraint('tuning_id', 'strategy', 'seq', name=op.f('uq_tuning_evaluations_tuning_id'))
    )
    with op.batch_alter_table('tuning_evaluations', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_tuning_evaluations_status'), ['status'], unique=False)
        batch_op.create_index(batch_op.f('ix_tuning_evaluations_tuning_id'), ['tuning_id'], unique=False)

    with op.batch_alter_table('scenarios', schema=None) as batch_op:
        batch_op.add_column(sa.Column('sim_hash', sa.String(length=64), nullable=True))
        batch_op.create_index(batch_op.f('ix_scenarios_sim_hash'), ['sim_hash'], unique=False)



def downgrade() -> None:
    with op.batch_alter_table('scenarios', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_scenarios_sim_hash'))
        batch_op.drop_column('sim_hash')

    with op.batch_alter_table('tuning_evaluations', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_tuning_evaluations_tuning_id'))
        batch_op.drop_index(batch_op.f('ix_tuning_evaluations_status'))

    op.drop_table('tuning_evaluations')
    with op.batch_alter_table('tunings', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_tunings_status'))
        batch_op.drop_index(batch_op.f('ix_tunings_created_at'))

    op.drop_table('tunings')
