"""Nano Technology (Shattered Empire technology; ti3-facts.md section 9): the owner's
dreadnoughts and war suns cannot be targeted by action cards. The one card that targets a ship
in the battles we resolve, Direct Hit, reads this marker (rulesets/ti3/cards/direct_hit.py)."""

from __future__ import annotations

from spacecombat.rulesets.ti3.abilities.base import Marker


class NanoTechnology(Marker):
    """Shields the owner's dreadnoughts and war suns from action cards."""

    id = "nano_technology"
