"""The two sides of a TI4 battle (shared with the other rulesets: ``core/sides.py``)."""

from __future__ import annotations

from spacecombat.core.sides import SIDES, Side

__all__ = ["SIDES", "Side"]
