"""A TI3 battle in a gravity rift (Shards of the Throne special system; docs/rulings.md 27Z-7,
27M-3).

No source gives the gravity rift an effect on combat rolls: what it does, it does to ships
moving out of it (PC_Twi ``e_GravityRift``: a die for each ship leaving, lost on 1-5; option
``gravity_rift_destroyed_at_most``). In a battle that is a withdrawal or a retreat
(ti3-facts.md section 6; Skilled Retreat, the Naalu's retreat, Rule of Terror), always to an
adjacent system (``system.adjacent``), rolled by procedures/leaving_rift.py. A battle where no
ship can leave (an invasion, a space battle with no adjacent system, Code of Honor in force:
27Z-9) is fought as in an empty system. Units a fleet transports out of the rift (fighters,
ground forces in the space area) are refused by name: which ship carries each, and so which
are lost with a ship, is not implemented."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence

from spacecombat.core.errors import RuleNotImplemented
from spacecombat.core.sides import SIDES, Side
from spacecombat.rulesets.ti3.laws import leaving_systems
from spacecombat.scenario.schema import Scenario

ANOMALY = "gravity_rift"


def check(
    scenario: Scenario,
    may_leave: Callable[[Side], bool],
    transported: Mapping[Side, Sequence[str]],
) -> None:
    """Refuse a space battle in a gravity rift where a player who may leave it (``may_leave``:
    a destination, or Skilled Retreat to make one) has units without a move value in the space
    area (``transported``), which its ships would carry out (27M-3)."""
    if scenario.battle == "invasion" or not leaving_systems(scenario):
        return
    for side in SIDES:
        if transported[side] and may_leave(side):
            raise RuleNotImplemented(
                f"units transported out of a TI3 gravity rift ({side.value}'s "
                f"{', '.join(transported[side])}: which ship carries each, lost with it, "
                "docs/rulings.md 27M-3; give no adjacent system to fight without leaving)",
                "system.anomaly",
            )
