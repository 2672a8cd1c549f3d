"""What a player should know about a battle before any die is rolled (``Battle.notices``),
worked out by the rules code itself: the opening steps of the battle are followed, with the
stock policies answering, until the first die or the end."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from typing import TypeVar

from spacecombat.core.decisions import Policy
from spacecombat.core.engine import Decision, Process, Step
from spacecombat.core.events import Event, event
from spacecombat.core.policies import PolicyConfig

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


def retreats_ruled_out(
    policies: Iterable[tuple[str, PolicyConfig]], never_retreats: Callable[[str], str | None]
) -> list[Event]:
    """A ``retreat_ruled_out`` event for each player whose stock policy may retreat (or
    withdraw) but never can: ``never_retreats(player)`` says why, by the ruleset's rules, or
    None when a retreat may happen."""
    found = []
    for player, config in policies:
        if config.retreat_after_round is None and config.retreat_when_outnumbered is None:
            continue
        reason = never_retreats(player)
        if reason is not None:
            policy = retreat_policy_text(
                config.retreat_after_round, config.retreat_when_outnumbered
            )
            found.append(event("retreat_ruled_out", player=player, policy=policy, reason=reason))
    return found


def retreat_notices(ruled_out: Iterable[Event]) -> list[str]:
    """``retreat_ruled_out`` events as notices."""
    return [
        f"The {e['player']}'s retreat policy {e['policy']} can never retreat: {e['reason']}."
        for e in ruled_out
    ]


def retreat_policy_text(after_round: int | None, when_outnumbered: float | None) -> str:
    """A stock retreat policy in the scenario's words."""
    parts = []
    if after_round is not None:
        parts.append(f"after_round: {after_round}")
    if when_outnumbered is not None:
        parts.append(f"when_outnumbered: {when_outnumbered:g}")
    return "{" + ", ".join(parts) + "}"
