"""Viscount Unlenn (Letnev agent): at the start of a space combat round, exhaust to choose 1 ship
in the active system: it rolls 1 additional combat die this round (ti4-combat-effects.md;
data/cards.toml). Offered in the "start of combat round" window of a space combat
(ti4-space-combat.md rule 2.1) as one "play_card" decision naming the holder's ship type
("play viscount_unlenn: UNIT", best combat value first, which the stock policy takes); the die
is added to that type's dice for the round (the round's ``boosts``). Exhausted, it stays so for
the battle. Choosing an opponent's ship is legal but never helps its holder: not offered
(docs/rulings.md 14B-3)."""

from __future__ import annotations

from spacecombat.rulesets.ti4.abilities.base import register
from spacecombat.rulesets.ti4.abilities.round_boost import ExtraDieThisRound


@register
class ViscountUnlenn(ExtraDieThisRound):
    """One unit type rolls 1 additional die this round (``round_boost.ExtraDieThisRound``)."""

    id = "viscount_unlenn"
    card = "viscount_unlenn"
    battle = "space"
    prompt = "Viscount Unlenn: exhaust for 1 additional die for one of your ships this round?"
