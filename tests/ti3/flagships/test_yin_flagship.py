"""Van Hauge, the Yin Brotherhood flagship (PC_Twi r_Yin.cpp e_YinFlagship: ground forces
in the system may fight as fighters): those in space (tests/ti3/flagships/
test_van_hauge_fighters.py) and those on the system's planets (test_van_hauge_planets.py) are
implemented (docs/rulings.md 27R-2, 27S-43, 27T-15). The card is checked through the setup's
card choice."""

from __future__ import annotations

from spacecombat.rulesets import parse_ti_scenario
from spacecombat.rulesets.ti3 import rules
from spacecombat.rulesets.ti3.setup import _race_cards
from tests.helpers import run
from tests.ti3.effects import space


def test_its_card_names_the_ability() -> None:
    card = rules.load().units["yin_flagship"]
    assert [a.handler for a in card.abilities] == ["yin_flagship"]


def _cards(units: dict[str, int], planet_units: dict[str, int] | None = None) -> None:
    side = {"units": units, "faction": "yin", "planet_units": planet_units or {}}
    scenario = parse_ti_scenario(space(side, {"units": {}}))
    handlers: set[str] = set()
    _race_cards(rules.load(), scenario.attacker, "attacker", "yin", handlers, True)


def test_the_flagship_with_ground_forces_on_a_planet_of_the_system_is_accepted() -> None:
    """PC_Twi VanHaugeEnable also takes ground forces from the system's planets: refused
    before 27T-15, now accepted."""
    _cards({"flagship": 1}, {"ground_force": 1})


def test_without_ground_forces_it_cannot_act() -> None:
    _cards({"flagship": 1, "cruiser": 1})


def test_a_yin_flagship_without_ground_forces_fights() -> None:
    """No ground force in space, no cruiser or destroyer to sacrifice: played. Round 1:
    flagship 5, 1 (the cruiser destroyed); cruiser 1."""
    played = run(
        space({"units": {"flagship": 1}, "faction": "yin"}, {"units": {"cruiser": 1}}), [5, 1, 1]
    )
    assert played.outcome["result"] == "attacker_win"
