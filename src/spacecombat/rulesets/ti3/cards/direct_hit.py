"""Direct Hit (TI3 base action card; data/action_cards.toml; docs/rulings.md 27A-7):
immediately after a ship of the opponent is damaged in a space battle the holder fights (it
used SUSTAIN DAMAGE to take a hit), the holder may destroy that ship.

Not after PDS fire, which is not part of the space battle (ti3-facts.md section 5, [M]); not in
an invasion combat; not against a dreadnought or war sun of a player with Nano Technology,
which no action card may target (ti3-facts.md section 9). The ship is marked when it sustains
(``mark``, from the removal of casualties), and the holder is asked before the next hit is
taken (``offer``).

Shattered Empire's "Direct Hit!" (preeminent.org TI3 demo, round 5: "destroy 1 damaged
Dreadnought or War Sun"; docs/rulings.md 27S-5) is played in the same window on a dreadnought
or war sun only. A holder of both is asked about Direct Hit! first (the narrower card), then,
if it passes, about Direct Hit: ``Ti3State.sustained`` counts the cards already asked."""

from __future__ import annotations

from spacecombat.core.decisions import Option
from spacecombat.core.engine import Node, Step
from spacecombat.core.forces import Status
from spacecombat.core.hits import unit_destroyed
from spacecombat.core.sides import Side
from spacecombat.rulesets.ti3.abilities import alastor
from spacecombat.rulesets.ti3.cards import into_the_breach
from spacecombat.rulesets.ti3.cards.common import offer as offer_card
from spacecombat.rulesets.ti3.setup import Ti3Setup
from spacecombat.rulesets.ti3.state import Phase, Ti3State

CARD = "direct_hit"
#: Shattered Empire's replacement, on a dreadnought or war sun only
SE_CARD = "direct_hit_se"

#: the ships Nano Technology shields from action cards, and those Direct Hit! may target
_NANO_SHIELDED = ("dreadnought", "war_sun")
_SE_TARGETS = _NANO_SHIELDED

#: each card, its name and the ships it may target (``None``: any), in the order asked
_CARDS: tuple[tuple[str, str, tuple[str, ...] | None], ...] = (
    (SE_CARD, "Direct Hit!", _SE_TARGETS),
    (CARD, "Direct Hit", None),
)


def _playable(setup: Ti3Setup, state: Ti3State, side: Side, unit: str) -> list[tuple[str, str]]:
    """The cards (id, name) ``side``'s opponent holds that may destroy ``side``'s ``unit``."""
    if unit in _NANO_SHIELDED and setup.side(side).has("nano_technology"):
        return []
    hand = state.playable(side.other)
    return [(c, n) for c, n, only in _CARDS if c in hand and (only is None or unit in only)]


def mark(setup: Ti3Setup, state: Ti3State, side: Side, option: Option, damaged: Status) -> Ti3State:
    """After ``side`` answered a hit with ``option``: when it was a ship's SUSTAIN DAMAGE in
    the space battle and the opponent holds a Direct Hit that may target it, mark the ship."""
    if option.action != "sustain" or setup.kind != "space":
        return state
    if state.phase in (Phase.PDS_FIRE, Phase.PDS_FIRE_HITS):
        return state  # PDS fire's hits, or Minelayers' before it (27S-25): not in the battle
    unit = option.unit or ""
    if not _playable(setup, state, side, unit):
        return state
    return state.changed(sustained=(unit, int(damaged), 0))


def offer(setup: Ti3Setup, state: Ti3State, side: Side) -> Node[Ti3State]:
    """The opponent of ``side`` may play a Direct Hit on ``side``'s marked ship (each card it
    holds that may, in turn)."""
    assert state.sustained is not None
    unit, code, asked = state.sustained
    status = Status(code)
    holder = side.other
    cards = _playable(setup, state, side, unit)
    if asked >= len(cards):
        return Step(state.changed(sustained=None))
    card, name = cards[asked]
    passed = state.changed(sustained=(unit, code, asked + 1))

    def play(after: Ti3State) -> Step[Ti3State]:
        own = after.side(side)
        space = own.space.remove(unit, status)
        destroyed = after.with_side(side, own.with_space(space)).changed(sustained=None)
        destroyed = into_the_breach.destroyed_by_card(destroyed, side, unit)
        destroyed = alastor.fell(setup, destroyed, side, unit)
        return Step(destroyed, (unit_destroyed(side, unit, status, name),))

    return offer_card(
        holder,
        card,
        state,
        f"your opponent's {unit} was just damaged: play {name} to destroy it?",
        play,
        passed,
        facts={"unit": unit},
    )
