"""What a player should know about a battle before any die is rolled (``Battle.notices``),
worked out by the rules code itself: the opening steps of the battle are followed, with the
stock policies answering, until the first die or the end."""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Callable, Iterable, Mapping
from typing import TypeVar

from spacecombat.core.decisions import Policy, decide
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
            node = node.then(decide(node.request, policies))
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
        if not config.may_retreat:
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


class Notices(ABC):
    """``Battle.notices`` of a ruleset's battle: the retreat policies that can never act
    (``retreat_ruled_out``, by the ruleset's ``_never_retreats``), then what the ruleset says
    of the battle's opening (``_opening_notices``: units removed before the battle)."""

    #: each player's stock policy configuration (set by the battle)
    _policies: dict[str, PolicyConfig]
    _notices: tuple[str, ...] | None = None

    def notices(self) -> tuple[str, ...]:
        if self._notices is None:
            self._notices = (
                *retreat_notices(self._retreats_ruled_out()),
                *self._opening_notices(),
            )
        return self._notices

    def _retreats_ruled_out(self) -> list[Event]:
        return retreats_ruled_out(self._policies.items(), self._never_retreats)

    @abstractmethod
    def _opening_notices(self) -> list[str]:
        """Notices of the battle's opening, worked out by following it (``opening_events``)."""

    @abstractmethod
    def _never_retreats(self, player: str) -> str | None:
        """Why ``player`` can never retreat in this battle, by the ruleset's rules; None when a
        retreat may happen."""
