"""What a player should know about a battle before any die is rolled (``Battle.notices``),
worked out by the rules code itself: the opening steps of the battle are followed, with the
stock policies answering, until the first die or the end."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from typing import TypeVar

from spacecombat.core.decisions import Policy
from spacecombat.core.engine import Decision, Process, Step
from spacecombat.core.events import Event

S = TypeVar("S")

#: steps followed at most (a check before the battle takes one step per unit it removes)
_MOST_STEPS = 10_000


def opening_events(
    process: Process[S], policies: Mapping[str, Policy], before: Callable[[S], bool]
) -> list[Event]:
    """The events of the battle's opening, while ``before(state)`` holds, the stock policies
    deciding (no die is rolled: a chance node ends the opening)."""
    step = process.start()
    found = list(step.events)
    state = step.state
    for _ in range(_MOST_STEPS):
        if not before(state):
            break
        node = process.advance(state)
        if isinstance(node, Decision):
            request = node.request
            if len(request.options) == 1:
                option = request.options[0]
            else:
                option = request.option(policies[request.player].choose(request))
            node = node.then(option)
        if not isinstance(node, Step):
            break
        found.extend(node.events)
        state = node.state
    return found


def counted(units: Iterable[object]) -> str:
    """Unit names as ``2 fighter, 1 infantry`` (in the order first met)."""
    counts: dict[str, int] = {}
    for unit in units:
        counts[str(unit)] = counts.get(str(unit), 0) + 1
    return ", ".join(f"{n} {unit}" for unit, n in counts.items())


def removed_by(events: Iterable[Event], player: str, reason: str) -> str:
    """The units ``player`` removed for ``reason`` among ``events``, counted (or empty)."""
    return counted(
        e.get("unit")
        for e in events
        if e.get("event") == "unit_removed"
        and e.get("player") == player
        and e.get("reason") == reason
    )


def retreat_policy_text(after_round: int | None, when_outnumbered: float | None) -> str:
    """A stock retreat policy in the scenario's words."""
    parts = []
    if after_round is not None:
        parts.append(f"after_round: {after_round}")
    if when_outnumbered is not None:
        parts.append(f"when_outnumbered: {when_outnumbered:g}")
    return "{" + ", ".join(parts) + "}"
