"""What the invasion and ground-combat effects share (no handler here): their "play_card"
decision with one option per way of playing, and the ``units_placed`` event."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING

from spacecombat.core.engine import Step
from spacecombat.core.events import Event, event
from spacecombat.rulesets.ti4.abilities.base import offer_plays

if TYPE_CHECKING:
    from spacecombat.core.engine import Node
    from spacecombat.rulesets.ti4.sides import Side
    from spacecombat.rulesets.ti4.state import BattleState


def offer_ways(
    owner: Side,
    card: str,
    state: BattleState,
    prompt: str,
    ways: Sequence[tuple[str, str | None]],
    play: Callable[[BattleState, str | None], Step[BattleState]],
    *,
    exhaust: bool = True,
) -> Node[BattleState]:
    """The "play_card" decision of ``card`` with one option per way of playing it (its label,
    and the unit it names), the most useful first (the stock policy plays the first), then
    "pass" (``base.offer_plays``: "play CARD: LABEL"). ``play(state, unit)`` gives what the
    chosen way does; with ``exhaust`` the card is then used (played, exhausted or purged) for
    the battle."""

    def way(unit: str | None) -> Callable[[BattleState], Step[BattleState]]:
        return lambda s: play(s, unit)

    choices = [(text, way(unit)) for text, unit in ways]
    return offer_plays(owner, card, state, prompt, choices, once=exhaust)


def units_placed(owner: Side, unit: str, count: int, planet: str, by: str) -> Event:
    """The ``units_placed`` event: units put on a planet from the owner's reinforcements."""
    return event("units_placed", player=owner.value, unit=unit, count=count, planet=planet, by=by)
