"""The first schema: scenarios, results and battle logs.

Revision ID: 0001
Revises:
Created: 2026-11-24
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0001"
down_revision: str | None = None
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    """Create the three tables."""
    op.create_table(
        "scenarios",
        sa.Column("id", sa.String(16), nullable=False),
        sa.Column("digest", sa.String(64), nullable=False),
        sa.Column("body", sa.JSON(), nullable=False),
        sa.Column("created", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("id", name="pk_scenarios"),
        sa.UniqueConstraint("digest", name="uq_scenarios_digest"),
    )
    op.create_table(
        "results",
        sa.Column("id", sa.String(16), nullable=False),
        sa.Column("key", sa.String(64), nullable=False),
        sa.Column("scenario_id", sa.String(16), nullable=False),
        sa.Column("method", sa.String(32), nullable=False),
        sa.Column("options", sa.JSON(), nullable=False),
        sa.Column("engine", sa.String(64), nullable=False),
        sa.Column("report", sa.JSON(), nullable=False),
        sa.Column("created", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(
            ["scenario_id"], ["scenarios.id"], name="fk_results_scenario_id_scenarios"
        ),
        sa.PrimaryKeyConstraint("id", name="pk_results"),
        sa.UniqueConstraint("key", name="uq_results_key"),
    )
    op.create_index("ix_results_scenario_id", "results", ["scenario_id"])
    op.create_table(
        "battle_logs",
        sa.Column("id", sa.String(16), nullable=False),
        sa.Column("scenario_id", sa.String(16), nullable=False),
        sa.Column("seed", sa.String(20), nullable=True),
        sa.Column("events", sa.JSON(), nullable=False),
        sa.Column("created", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(
            ["scenario_id"], ["scenarios.id"], name="fk_battle_logs_scenario_id_scenarios"
        ),
        sa.PrimaryKeyConstraint("id", name="pk_battle_logs"),
    )
    op.create_index("ix_battle_logs_scenario_id", "battle_logs", ["scenario_id"])


def downgrade() -> None:
    """Drop the three tables."""
    op.drop_index("ix_battle_logs_scenario_id", table_name="battle_logs")
    op.drop_table("battle_logs")
    op.drop_index("ix_results_scenario_id", table_name="results")
    op.drop_table("results")
    op.drop_table("scenarios")
