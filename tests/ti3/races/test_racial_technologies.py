"""The racial technologies (Shattered Empire option; Shards of the Throne for its races):
each is its race's (docs/rulings.md 27R-14), and one that acts in a battle is handled or
refused by name (tests/ti3/test_abilities.py checks every record)."""

from __future__ import annotations

import pytest

from spacecombat.core.errors import RuleNotImplemented, ScenarioError
from spacecombat.rulesets.ti3 import rules
from tests.helpers import run
from tests.ti3.effects import invasion, space

RACIAL = sorted(t for t, r in rules.load().technologies.items() if r.faction)


def test_every_race_with_a_sheet_has_two() -> None:
    """PC_Twi Defines.cpp TechType: two racial technologies for each race but the Lazax and
    the Nekro Virus (which takes other players' technologies instead)."""
    by_race: dict[str, int] = {}
    for tech in RACIAL:
        race = rules.load().technologies[tech].faction
        assert race is not None
        by_race[race] = by_race.get(race, 0) + 1
    assert set(by_race.values()) == {2}
    assert set(rules.load().factions) - set(by_race) == {"lazax", "nekro"}


@pytest.mark.parametrize("tech", RACIAL)
def test_only_its_race_holds_it(tech: str) -> None:
    record = rules.load().technologies[tech]
    with pytest.raises(ScenarioError) as caught:
        run(space({"units": {"cruiser": 1}, "technologies": [tech]}, {"units": {"cruiser": 1}}), [])
    assert caught.value.field == "attacker.technologies[0]"
    assert record.name in caught.value.message


@pytest.mark.parametrize(
    ("tech", "race", "battle"),
    [
        ("spec_ops_training", "sol", "invasion"),
    ],
)
def test_the_unimplemented_ones_are_refused_by_name(tech: str, race: str, battle: str) -> None:
    side = {"faction": race, "technologies": [tech]}
    if battle == "space":
        scenario = space({"units": {"cruiser": 1}, **side}, {"units": {"cruiser": 1}})
    else:
        scenario = invasion({"units": {"ground_force": 1}, **side}, {"units": {"ground_force": 1}})
    with pytest.raises(RuleNotImplemented) as caught:
        run(scenario, [])
    assert rules.load().technologies[tech].name in caught.value.rule
    assert caught.value.where == "attacker.technologies[0]"
