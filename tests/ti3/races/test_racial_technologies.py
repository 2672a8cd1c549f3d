"""The racial technologies (Shattered Empire option; Shards of the Throne for its races):
each is its race's (docs/rulings.md 27R-14), and one that acts in a battle is handled or
refused by name (tests/ti3/test_abilities.py checks every record)."""

from __future__ import annotations

import pytest

from spacecombat.core.errors import ScenarioError
from spacecombat.rulesets.ti3 import rules
from spacecombat.rulesets.ti3.abilities import HANDLERS
from tests.helpers import run
from tests.ti3.effects import space

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


def test_every_one_that_acts_is_implemented() -> None:
    """Spec Ops Training (27S-35) and Dimensional Splicers (27S-33) were the last refused."""
    records = rules.load().technologies
    acting = [t for t in RACIAL if records[t].combat == "rule"]
    assert "spec_ops_training" in acting
    assert "dimensional_splicers" in acting
    assert all(records[t].handler in HANDLERS for t in acting)
