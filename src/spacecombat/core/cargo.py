"""Ships leaving a gravity rift with the units they carry, shared by TI4 (LRR 41, ruling R2)
and TI3 (docs/rulings.md 27Q-3): each ship is held with its load, and before the dice the
owner names the ship that carries each transported unit (decision ``stow_cargo``), so that a
ship lost to the rift takes its load with it. What gives a ship room is the ruleset's."""

from __future__ import annotations

from collections.abc import Callable

from spacecombat.core.decisions import DecisionRequest, Option
from spacecombat.core.engine import Decision, S, Step
from spacecombat.core.forces import Forces, Status, describe
from spacecombat.core.sides import Side

#: a ship (type and damage status) with the units it carries
Hold = tuple[str, Status, Forces]


def hold_key(hold: Hold) -> tuple[str, int, tuple[object, ...]]:
    """The order holds are kept in (states are keys: alike holds sort alike)."""
    return hold[0], int(hold[1]), hold[2].items


def stow_cargo(
    side: Side,
    holds: tuple[Hold, ...],
    unit: str,
    status: Status,
    has_room: Callable[[str, Forces], bool],
    stowed: Callable[[tuple[Hold, ...]], Step[S]],
) -> Decision[S]:
    """Which ship carries ``unit``: one option per kind of ship and load where ``has_room``
    (the ship's type, its load so far); ``stowed`` takes the holds with the unit aboard, kept
    in order."""
    choices: dict[str, int] = {}
    for index, (ship, ship_status, load) in enumerate(holds):
        if has_room(ship, load):
            choices.setdefault(f"on {describe(ship, ship_status)} carrying {load}", index)
    options = tuple(Option(text, "stow", target=str(index)) for text, index in choices.items())
    request = DecisionRequest(
        "stow_cargo",
        side.value,
        f"leaving a gravity rift: which ship carries {describe(unit, status)}?",
        options,
        facts={"unit": unit},
    )

    def then(option: Option) -> Step[S]:
        index = int(option.target or 0)
        ship, ship_status, load = holds[index]
        changed = (*holds[:index], (ship, ship_status, load.add(unit, status)), *holds[index + 1 :])
        return stowed(tuple(sorted(changed, key=hold_key)))

    return Decision(request, then)
