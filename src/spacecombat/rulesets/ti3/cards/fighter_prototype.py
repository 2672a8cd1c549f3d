"""Fighter Prototype (TI3 action card; data/action_cards.toml; docs/rulings.md 27S-2): played
before a space battle, the holder's fighters get +2 on their combat rolls in the first round of
that space battle (PC_Twi a_BeforeBattleRound.cpp e_a_FighterPrototype: "Your fighters receive
+2 to combat rolls in first round of Space Battle").

Window: "immediately before a space battle", with Into the Breach (the spec's first pre-combat
item): after PDS fire, before the pre-combat steps; the attacker is asked first. Only the dice
of round 1 (not anti-fighter barrage or pre-combat shots, which are not rounds)."""

from __future__ import annotations

from spacecombat.core.engine import Node
from spacecombat.core.sides import Side
from spacecombat.rulesets.ti3 import ion_storm
from spacecombat.rulesets.ti3.abilities import van_hauge
from spacecombat.rulesets.ti3.abilities.base import RollKind
from spacecombat.rulesets.ti3.abilities.races import FLAGSHIP
from spacecombat.rulesets.ti3.cards.common import held_with_unit, offer_kept
from spacecombat.rulesets.ti3.setup import Ti3Setup
from spacecombat.rulesets.ti3.state import Ti3State

CARD = "fighter_prototype"

#: the card's modifier on the fighters' dice of round 1
BONUS = 2


def applies(setup: Ti3Setup, state: Ti3State, side: Side) -> bool:
    """``side`` holds the card, has fighters in the battle (or Van Hauge's ground forces,
    which fight as fighters if their owner chooses after this window: docs/rulings.md 27T-12)
    and faces enemy ships; never in an ion storm, where fighters roll no dice (docs/rulings.md
    27I-2)."""
    if not ion_storm.fighters_roll(setup.anomaly):
        return False
    if held_with_unit(setup, state, side, CARD, "fighter"):
        return True
    return held_with_unit(setup, state, side, CARD, FLAGSHIP) and van_hauge.may_fight(
        setup, state, side
    )


def ask(setup: Ti3Setup, state: Ti3State, side: Side, passed: Ti3State) -> Node[Ti3State]:
    """``side`` may play the card."""
    return offer_kept(
        side,
        CARD,
        state,
        "play Fighter Prototype: your fighters +2 in the first round of this space battle?",
        passed,
    )


def in_play(setup: Ti3Setup, state: Ti3State, roller: Side, kind: RollKind) -> bool:
    """Whether ``roller``'s fighters get the +2 on this roll: the card was played
    (``spent_by``, a copy by Touch of Genius too) and this is round 1's combat dice of the
    space battle."""
    return kind is RollKind.SPACE_COMBAT and state.round == 1 and CARD in state.spent_by(roller)
