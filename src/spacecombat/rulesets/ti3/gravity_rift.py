"""A TI3 battle in a gravity rift (Shards of the Throne special system; docs/rulings.md 27Z-7).

No source gives the gravity rift an effect on combat rolls: what it does, it does to ships
moving out of it (PC_Twi ``e_GravityRift``: a die for each ship leaving, 1-5 destroyed). In a
battle that is a withdrawal or a retreat (ti3-facts.md section 6; Skilled Retreat, the Naalu's
retreat, Rule of Terror), always to an adjacent system (``system.adjacent``). So a battle where
no ship can leave (an invasion, or a space battle with no adjacent system given) is fought as
in an empty system (Code of Honor in force forbids leaving too: 27Z-9); one where ships could
leave is refused by name, the leaving roll not being implemented."""

from __future__ import annotations

from spacecombat.core.errors import RuleNotImplemented
from spacecombat.scenario.schema import Scenario

ANOMALY = "gravity_rift"


def check(scenario: Scenario) -> None:
    """Refuse a battle in a gravity rift that ships could leave (27Z-7)."""
    if scenario.system.anomaly != ANOMALY or scenario.battle == "invasion":
        return
    if scenario.system.adjacent and "code_of_honor" not in scenario.laws:
        raise RuleNotImplemented(
            "ships leaving a TI3 gravity rift (a withdrawal or retreat to system.adjacent: "
            "each ship leaving rolls a die, docs/rulings.md 27Z-7; give no adjacent system to "
            "fight without leaving)",
            "system.anomaly",
        )
