"""Non-Euclidean Shielding (Letnev faction technology): when one of your units uses SUSTAIN
DAMAGE, it cancels 2 hits instead of 1 (ti4-combat-effects.md §2)."""

from __future__ import annotations

from spacecombat.rulesets.ti4.abilities.base import Handler, register
from spacecombat.rulesets.ti4.sides import Side


@register
class NonEuclideanShielding(Handler):
    id = "non_euclidean_shielding"

    def sustain_cancels(self, side: Side) -> int | None:
        return 2 if side is self.owner else None
