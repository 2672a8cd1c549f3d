"""The Crown of Thalnos (Prophecy of Kings relic; data/cards.toml ``the_crown_of_thalnos``):
during each combat round its owner may reroll any number of their dice with +1 on the
rerolls; each unit that rerolled and produced no hit at all is destroyed (ti4-combat-effects.md
§8). The base-game law's procedure (``crown_of_thalnos``: the same decision in the "start of
combat round" window, the same roll), with +1 on the rerolls and a unit destroyed only if none
of its dice hit (a unit with a die that hit may reroll its other dice safely)."""

from __future__ import annotations

from spacecombat.rulesets.ti4.abilities.base import register
from spacecombat.rulesets.ti4.abilities.crown_of_thalnos import CrownOfThalnos


@register
class CrownOfThalnosRelic(CrownOfThalnos):
    id = "crown_of_thalnos_relic"
    card = "the_crown_of_thalnos"
    asks = card  # its play_card decisions (Handler.asks)
    played_as = card
    bonus = 1
    strict = False
    name = "The Crown of Thalnos (relic)"
