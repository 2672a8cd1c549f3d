"""A TI4 battle's fixed facts, built from a scenario: each side's unit cards, abilities,
policy, the system and its neighbours, the planets. Reading and checking the scenario is
``validate`` (bad input refused with ``ScenarioError`` naming the field and what is allowed, a
rule we do not implement with ``RuleNotImplemented`` naming it); building the battle from what
it read is ``build``; the facts themselves are ``model``."""

from spacecombat.rulesets.ti4.rules import UPGRADABLE, UPGRADE, upgraded_card
from spacecombat.rulesets.ti4.setup.building import BattleSetup, build
from spacecombat.rulesets.ti4.setup.model import (
    DEPLOY,
    NOTHING_GAINED,
    AdjacentSystem,
    Gained,
    SideDraft,
    SideSetup,
    StarSystem,
)
from spacecombat.rulesets.ti4.setup.validate import HELD_LISTS, MOST_OF_A_TYPE, side_cards

__all__ = [
    "DEPLOY",
    "HELD_LISTS",
    "MOST_OF_A_TYPE",
    "NOTHING_GAINED",
    "UPGRADABLE",
    "UPGRADE",
    "AdjacentSystem",
    "BattleSetup",
    "Gained",
    "SideDraft",
    "SideSetup",
    "StarSystem",
    "build",
    "side_cards",
    "upgraded_card",
]
