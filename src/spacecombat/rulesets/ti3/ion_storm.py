"""A TI3 space battle in an ion storm (Shattered Empire special system; docs/rulings.md 27I-1
to 27I-5, 27J-1 to 27J-6).

Sources (27I-1, 27J-1): ti3-facts.md 4.4 ("PDS cannot fire into it; SA says fighters cannot
roll there"); the TI3 program PC_Twi (``GameEffects/BattleGameEffect.cpp``,
``e_IonStormFighters``: in a space battle in an ion storm every unit with the fighter ability,
``uaFighter``, has its space-battle dice skipped, the fighters stay in the battle as units); a
SoSo variant map sheet ("Ships cannot move through an ion storm. PDS cannot fire into an ion
storm"); the Shattered Ascension calculator (zekash-dev/ti-sa-combat-calc,
``src/logic/effects/ionStorm.ts``: "Fighters may not perform combat rolls. Space Cannon may not
fire.", the fighters' rolls cancelled in every step of the battle). The Shattered Empire
rulebook's own sentence was not found.

What the engine does (option ``ion_storm_fighters``, default ``no_dice``): fighters roll no
combat dice in the rounds (``procedures/common.combat_pool``); they may still be chosen as
casualties and are hit by anti-fighter barrage as usual, and their modifiers (Advanced
Fighters, the Naalu's, Fighter Prototype's) have no die to act on, so Fighter Prototype is not
offered (27I-2). An ion storm has no planet: no invasion, no planets, no units on planets, so no
PDS of the system fires, and the PDS of adjacent systems (Deep Space Cannon) are never in a
scenario (27I-3). Where the sources leave a combination open, a named option (27J-2 to 27J-5):
a Sabotage Run is not made there (``ion_storm_sabotage_run``), Van Hauge's ground forces
fighting as fighters roll no dice (``ion_storm_van_hauge``), the Loncara Ssodu's own PDS dice
fire (``ion_storm_flagship_pds``), Courageous to the End rolls its 2 dice for a fighter
destroyed there (``ion_storm_courageous``)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from spacecombat.core.errors import RuleNotImplemented, ScenarioError
from spacecombat.core.sides import SIDES, Side
from spacecombat.scenario.schema import Scenario

if TYPE_CHECKING:
    from spacecombat.rulesets.ti3.rules import Ti3Options
    from spacecombat.rulesets.ti3.setup import Ti3Setup

ANOMALY = "ion_storm"

#: why a planet is refused in an ion storm
NO_PLANET = "an ion storm has no planet (Shattered Empire special system; docs/rulings.md 27I-3)"


def fighters_roll(anomaly: str) -> bool:
    """Whether fighters roll combat dice in a space battle of a system with ``anomaly``: not in
    an ion storm (27I-2)."""
    return anomaly != ANOMALY


def check_places(scenario: Scenario, rule_options: Ti3Options) -> None:
    """Refuse what an ion storm cannot hold (``ScenarioError``: it has no planet, 27I-3) and
    the reading of the fighters' rule not implemented (27I-2)."""
    if rule_options.ion_storm_fighters != "no_dice":
        raise RuleNotImplemented(
            "fighters taking no part at all in a battle in an ion storm (no source reads the "
            "rule so; docs/rulings.md 27I-2)",
            "options.ion_storm_fighters",
        )
    if scenario.battle != "space":
        raise ScenarioError(
            "battle", f"{NO_PLANET}: with system.anomaly ion_storm, allowed: 'space'"
        )
    if scenario.planets is not None:
        raise ScenarioError("planets", NO_PLANET)
    for side in SIDES:
        spec = scenario.attacker if side is Side.ATTACKER else scenario.defender
        if any(spec.planet_units.values()):
            raise ScenarioError(f"{side.value}.planet_units", NO_PLANET)


def pre_combat_steps(steps: tuple[str, ...], rule_options: Ti3Options) -> tuple[str, ...]:
    """The pre-combat steps of a space battle in an ion storm: no Sabotage Run unless the
    option says it is made there (``ion_storm_sabotage_run``, docs/rulings.md 27J-2). The run
    is the fighters' dice (27A-3), and fighters cannot roll in the storm (27I-2): a run whose
    fighters roll nothing destroys no War Sun and only loses them, so it is not offered."""
    if rule_options.ion_storm_sabotage_run == "made":
        return steps
    return tuple(s for s in steps if s != "sabotage_run")


def van_hauge_rolls(setup: Ti3Setup) -> bool:
    """Whether Van Hauge's ground forces fighting as fighters roll their die at 9 in the
    combat rounds (27S-43): not in an ion storm, where they are fighters for the storm's rule
    (option ``ion_storm_van_hauge``, default ``no_dice``; docs/rulings.md 27J-3)."""
    return fighters_roll(setup.anomaly) or setup.options.ion_storm_van_hauge == "roll"


def flagship_cannon_fires(setup: Ti3Setup) -> bool:
    """Whether the Loncara Ssodu's own PDS dice (27R-20) fire in the system: in an ion storm
    as anywhere by default (option ``ion_storm_flagship_pds``, docs/rulings.md 27J-4)."""
    return fighters_roll(setup.anomaly) or setup.options.ion_storm_flagship_pds == "fires"


def courageous_for_fighters(setup: Ti3Setup) -> bool:
    """Whether Courageous to the End is offered for a fighter (or a unit fighting as one)
    destroyed in the system: in an ion storm as anywhere by default (option
    ``ion_storm_courageous``, docs/rulings.md 27J-5)."""
    return fighters_roll(setup.anomaly) or setup.options.ion_storm_courageous == "rolls"
