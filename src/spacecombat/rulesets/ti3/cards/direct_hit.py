"""Direct Hit (TI3 base action card; data/action_cards.toml; docs/rulings.md 27A-7):
immediately after a ship of the opponent is damaged in a space battle the holder fights (it
used SUSTAIN DAMAGE to take a hit), the holder may destroy that ship.

Not after PDS fire, which is not part of the space battle (ti3-facts.md section 5, [M]); not in
an invasion combat; not against a dreadnought or war sun of a player with Nano Technology,
which no action card may target (ti3-facts.md section 9). The ship is marked when it sustains
(``mark``, from the removal of casualties), and the holder is asked before the next hit is
taken (``offer``)."""

from __future__ import annotations

from spacecombat.core.decisions import Option
from spacecombat.core.engine import Node, Step
from spacecombat.core.forces import Status
from spacecombat.core.hits import unit_destroyed
from spacecombat.core.sides import Side
from spacecombat.rulesets.ti3.cards import into_the_breach
from spacecombat.rulesets.ti3.cards.common import offer as offer_card
from spacecombat.rulesets.ti3.setup import Ti3Setup
from spacecombat.rulesets.ti3.state import Phase, Ti3State

CARD = "direct_hit"

#: the ships Nano Technology shields from action cards
_NANO_SHIELDED = ("dreadnought", "war_sun")


def mark(setup: Ti3Setup, state: Ti3State, side: Side, option: Option, damaged: Status) -> Ti3State:
    """After ``side`` answered a hit with ``option``: when it was a ship's SUSTAIN DAMAGE in
    the space battle and the opponent holds Direct Hit that may target it, mark the ship."""
    if option.action != "sustain" or setup.kind != "space" or state.phase is Phase.PDS_FIRE_HITS:
        return state
    if CARD not in state.hand(side.other):
        return state
    unit = option.unit or ""
    if unit in _NANO_SHIELDED and setup.side(side).has("nano_technology"):
        return state
    return state.changed(sustained=(unit, int(damaged)))


def offer(setup: Ti3Setup, state: Ti3State, side: Side) -> Node[Ti3State]:
    """The opponent of ``side`` may play Direct Hit on ``side``'s marked ship."""
    assert state.sustained is not None
    unit, code = state.sustained
    status = Status(code)
    holder = side.other
    cleared = state.changed(sustained=None)

    def play(after: Ti3State) -> Step[Ti3State]:
        own = after.side(side)
        if not own.space.count(unit, status):  # already gone (cannot happen: asked at once)
            return Step(after.changed(sustained=None))
        space = own.space.remove(unit, status)
        destroyed = after.with_side(side, own.with_space(space)).changed(sustained=None)
        destroyed = into_the_breach.destroyed_by_card(destroyed, side, unit)
        return Step(destroyed, (unit_destroyed(side, unit, status, "Direct Hit"),))

    return offer_card(
        holder,
        CARD,
        state,
        f"your opponent's {unit} was just damaged: play Direct Hit to destroy it?",
        play,
        cleared,
        facts={"unit": unit},
    )
