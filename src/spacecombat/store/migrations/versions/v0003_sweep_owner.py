"""A running sweep's owner and heartbeat: the server process solving it, and when it last said
it still was (ruling 25L-2: a sweep left running by a server that died is resumed); how often
it was resumed; its axes in their order (the store's JSON sorts a spec's keys).

Revision ID: 0003_sweep_owner
Revises: 0002_sweeps
Created: 2026-12-07
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0003_sweep_owner"
down_revision: str | None = "0002_sweeps"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    """Add the owner, heartbeat, resumes and axes of a sweep."""
    with op.batch_alter_table("sweeps") as batch:
        batch.add_column(sa.Column("owner", sa.String(128), nullable=True))
        batch.add_column(sa.Column("heartbeat", sa.DateTime(timezone=True), nullable=True))
        batch.add_column(
            sa.Column("resumes", sa.Integer(), nullable=False, server_default=sa.text("0"))
        )
        batch.add_column(sa.Column("axes", sa.JSON(), nullable=True))


def downgrade() -> None:
    """Drop them."""
    with op.batch_alter_table("sweeps") as batch:
        batch.drop_column("axes")
        batch.drop_column("resumes")
        batch.drop_column("heartbeat")
        batch.drop_column("owner")
