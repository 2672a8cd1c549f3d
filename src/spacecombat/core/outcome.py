"""What every ruleset's battle end says in the same words: the result's winner, the overall
result of several fights, the record of the end, and the accounts the odds report keeps of an
outcome (units left, resources lost).

The result names (``attacker_win``, ``draw``, ``mixed``, ...) and what goes into an outcome
besides are each ruleset's own (its ``outcome.py``); these are only the shapes they share.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from typing import Protocol

from spacecombat.core.rulesdata import UnitDef
from spacecombat.core.sides import SIDES, Side, SideState


class Sided(Protocol):
    """A battle state that holds each player's units."""

    def side(self, side: Side) -> SideState: ...


class HasSurvivors(Protocol):
    """A battle that says which of a player's units an outcome leaves in the fight."""

    def survivors(self, outcome: Mapping[str, object], player: str) -> dict[str, int]: ...


def stays_in_space(battle: HasSurvivors, outcome: Mapping[str, object], player: str) -> bool:
    """Whether ``player`` has ships in the space area of the active system at the end of a
    space battle: ships left (``battle.survivors``: ships in the space area, after capacity
    is checked), and not gone by retreat or withdrawal (docs/rulings.md 22H-1)."""
    retreat = outcome.get("retreat") or outcome.get("withdrawal")
    if isinstance(retreat, Mapping) and retreat.get("player") == player:
        return False
    return bool(battle.survivors(outcome, player))


def holders(attacker: bool, defender: bool) -> tuple[bool, bool, bool]:
    """Who holds the space area (attacker, defender, neither) when each player has ships left
    in it or not: the one player who has; neither when both or none have."""
    return attacker and not defender, defender and not attacker, attacker == defender


def holder(battle: HasSurvivors, outcome: Mapping[str, object]) -> str:
    """Who holds the space area at the end of a space battle: ``attacker``, ``defender`` or
    ``neither`` (``holders``)."""
    stays = [stays_in_space(battle, outcome, side.value) for side in SIDES]
    found = holders(*stays)
    return ("attacker", "defender", "neither")[found.index(True)]


def winner(result: str) -> str | None:
    """The player a result names as winner (``attacker_win``: the attacker), or ``None`` (a
    draw, no combat, a stalemate, a mixed invasion)."""
    return result.removesuffix("_win") if result.endswith("_win") else None


def overall(results: Sequence[str]) -> str:
    """The result of several fights (an invasion's planets): theirs if they all agree, else
    ``mixed``."""
    return results[0] if len(set(results)) == 1 else "mixed"


def ending(
    battle: str,
    result: str,
    state: Sided,
    *,
    sides: Iterable[Side] = SIDES,
    **facts: object,
) -> dict[str, object]:
    """The record of a battle's end: the kind of battle, the result and its winner, the
    ruleset's ``facts`` (rounds, planets, ...) in the order given, then each player's units
    (as the log's unit records)."""
    return {
        "battle": battle,
        "result": result,
        "winner": winner(result),
        **facts,
        **{side.value: state.side(side).to_json() for side in sides},
    }


def planet_record(
    state: Sided,
    planet: int,
    name: str,
    result: str,
    *,
    sides: Iterable[Side] = SIDES,
    **facts: object,
) -> dict[str, object]:
    """The record of the fight on one planet (index ``planet``, called ``name``): its result,
    the ruleset's ``facts`` (controller, rounds, ...) in the order given, then each player's
    units on it."""
    return {
        "planet": name,
        "result": result,
        **facts,
        **{side.value: state.side(side).planet(planet).to_json() for side in sides},
    }


def unit_records(lists: Iterable[object]) -> Iterator[tuple[str, int]]:
    """(unit, count) of every unit record in ``lists`` (lists of ``{"unit", "count"}`` records
    read from an outcome; anything that is not a list is passed over)."""
    for items in lists:
        if isinstance(items, list):
            for item in items:
                yield str(item["unit"]), int(item["count"])


def unit_counts(units: SideState) -> dict[str, int]:
    """How many units of each type a player has, in space and on every planet together."""
    counts: dict[str, int] = {}
    for forces in (units.space, *units.planets):
        for unit, count in forces.by_type().items():
            counts[unit] = counts.get(unit, 0) + count
    return counts


def resources_lost(
    units: Iterable[str],
    before: Mapping[str, int],
    after: Mapping[str, int],
    card: Callable[[str], UnitDef],
) -> float:
    """The resources of the ``units`` types a player lost from ``before`` to ``after``: for
    each, the units gone times the cost of one (the card's cost divided by how many units one
    payment produces), in the order ``units`` lists them."""
    total = 0.0
    for unit in units:
        bought = card(unit)
        if bought.cost:
            total += (
                (before.get(unit, 0) - after.get(unit, 0)) * bought.cost / bought.units_per_cost
            )
    return total
