"""Evelyn Delouis (Sol agent): at the start of a ground-combat round, exhaust her: 1 ground
force in the combat rolls 1 additional die that round (ti4-combat-effects.md §4;
data/cards.toml). Offered through "play_card" in the "start of combat round" window of a
ground combat (ti4-ground-combat.md rule 4.1, note 1), one option per type of the holder's
ground forces there, the likeliest to hit first (docs/rulings.md 14D2-4); the agent
stays exhausted for the battle. The extra die is added to that unit's dice group for the round
(``combat_roll``)."""

from __future__ import annotations

from spacecombat.rulesets.ti4.abilities.base import register
from spacecombat.rulesets.ti4.abilities.round_boost import ExtraDieThisRound


@register
class EvelynDelouis(ExtraDieThisRound):
    """One unit type rolls 1 additional die this round (``round_boost.ExtraDieThisRound``)."""

    id = "evelyn_delouis"
    card = "evelyn_delouis"
    battle = "invasion"
    prompt = "Evelyn Delouis: 1 ground force rolls 1 more die?"
    label = "on "
