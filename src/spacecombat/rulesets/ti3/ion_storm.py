"""A TI3 space battle in an ion storm (Shattered Empire special system; docs/rulings.md 27I-1
to 27I-4).

Sources (27I-1): ti3-facts.md 4.4 ("PDS cannot fire into it; SA says fighters cannot roll
there"); the TI3 program PC_Twi (``GameEffects/BattleGameEffect.cpp``, ``e_IonStormFighters``:
in a space battle in an ion storm every fighter's space-battle dice are skipped, the fighters
stay in the battle as units); a SoSo variant map sheet ("Ships cannot move through an ion
storm. PDS cannot fire into an ion storm"). The Shattered Empire rulebook's own sentence was
not found.

What the engine does (option ``ion_storm_fighters``, default ``no_dice``): fighters roll no
combat dice in the rounds (``procedures/common.combat_pool``); they may still be chosen as
casualties and are hit by anti-fighter barrage as usual, and their modifiers (Advanced
Fighters, the Naalu's, Fighter Prototype's) have no die to act on, so Fighter Prototype is not
offered (27I-2). An ion storm has no planet: no invasion, no planets, no units on planets, so no
PDS of the system fires, and the PDS of adjacent systems (Deep Space Cannon) are never in a
scenario (27I-3). What would make fighters roll otherwise, or fire into the storm, is refused by
name (27I-4)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING

from spacecombat.core.errors import RuleNotImplemented, ScenarioError
from spacecombat.core.sides import SIDES, Side
from spacecombat.scenario.schema import Scenario

if TYPE_CHECKING:
    from spacecombat.rulesets.ti3.rules import Ti3Options
    from spacecombat.rulesets.ti3.setup import Ti3Side

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


def check_sides(
    scenario: Scenario, sides: Mapping[Side, Ti3Side], pre_combat: Sequence[str]
) -> None:
    """Refuse by name what would make fighters roll, or fire into the storm, which the engine
    does not play there (``RuleNotImplemented``, 27I-4)."""
    for side in SIDES:
        where = side.value
        spec = scenario.attacker if side is Side.ATTACKER else scenario.defender
        cards = sides[side]
        if cards.has("xxcha_flagship"):
            raise RuleNotImplemented(
                "the Loncara Ssodu's PDS dice in an ion storm (PDS cannot fire into one; "
                "whether a ship's own PDS dice fire there no source says)",
                f"{where}.units.flagship",
            )
        if cards.has("yin_flagship"):
            raise RuleNotImplemented(
                "Van Hauge's ground forces fighting as fighters in an ion storm, where "
                "fighters roll no dice",
                f"{where}.units.flagship",
            )
        for i, card in enumerate(spec.action_cards or ()):
            if card == "courageous_to_the_end" and spec.units.get("fighter", 0):
                raise RuleNotImplemented(
                    "Courageous to the End for a fighter destroyed in an ion storm (whether "
                    "its 2 dice are fighters' dice no source says)",
                    f"{where}.action_cards[{i}]",
                )
    if "sabotage_run" in pre_combat:
        raise RuleNotImplemented(
            "a Sabotage Run in an ion storm (the run is fighters' dice, which are not rolled "
            "there; whether the run is made no source says)",
            "options.sabotage_runs",
        )
