"""Fleet notation (scenario/notation.py): "2 dreadnought, 3 fighter" and back."""

from __future__ import annotations

import pytest

from spacecombat.core.errors import ScenarioError
from spacecombat.rulesets import parse_ti_scenario
from spacecombat.scenario.notation import Fleet


def test_parse_reads_counts_in_order() -> None:
    assert Fleet.parse("2 dreadnought, 3 fighter").counts == (("dreadnought", 2), ("fighter", 3))


def test_str_gives_the_text_back() -> None:
    assert str(Fleet.parse("2 dreadnought, 3 fighter")) == "2 dreadnought, 3 fighter"


def test_str_normalises_spacing_and_case() -> None:
    assert str(Fleet.parse("  2   Dreadnought ,3 FIGHTER ")) == "2 dreadnought, 3 fighter"


def test_parse_of_str_is_the_same_fleet() -> None:
    fleet = Fleet.of({"war_sun": 1, "space_dock": 2, "infantry": 4})
    assert Fleet.parse(str(fleet)) == fleet


def test_2x_means_two() -> None:
    assert Fleet.parse("2x cruiser").as_dict() == {"cruiser": 2}


def test_2_x_with_spaces_means_two() -> None:
    assert Fleet.parse("2 x cruiser").as_dict() == {"cruiser": 2}


def test_a_unit_named_twice_is_added_up() -> None:
    assert Fleet.parse("1 fighter, 2 cruiser, 2 fighter").as_dict() == {"fighter": 3, "cruiser": 2}


def test_empty_text_is_no_units() -> None:
    assert Fleet.parse("  ").counts == ()


@pytest.mark.parametrize(
    "text",
    [
        "two cruisers",
        "cruiser",
        "2",
        "2 cruiser 3 fighter",
        "-1 cruiser",
        "2 cruiser,",
        "2 war sun",
    ],
)
def test_bad_text_is_refused_with_the_part_it_cannot_read(text: str) -> None:
    with pytest.raises(ScenarioError, match=r"cannot read .*write a count and a unit") as caught:
        Fleet.parse(text, "attacker.units")
    assert caught.value.field == "attacker.units"


def test_bad_text_in_a_scenario_names_the_side() -> None:
    scenario = {
        "ruleset": "ti4",
        "battle": "space",
        "attacker": {"units": "2 cruiser"},
        "defender": {"units": "three cruisers"},
    }
    with pytest.raises(ScenarioError, match="cannot read 'three cruisers'") as caught:
        parse_ti_scenario(scenario)
    assert caught.value.field == "defender.units"


def test_bad_text_in_a_planet_names_the_planet() -> None:
    scenario = {
        "ruleset": "ti4",
        "battle": "invasion",
        "attacker": {"units": "1 carrier, 2 infantry"},
        "defender": {},
        "planets": [{"name": "Mecatol Rex", "defender": "lots of infantry"}],
    }
    with pytest.raises(ScenarioError) as caught:
        parse_ti_scenario(scenario)
    assert caught.value.field == "planets[0].defender"


def test_a_scenario_reads_fleet_text_as_counts() -> None:
    scenario = parse_ti_scenario(
        {
            "ruleset": "ti4",
            "battle": "space",
            "attacker": {"units": "2 dreadnought, 3 fighter", "damaged": "1 dreadnought"},
            "defender": {"units": {"cruiser": 3}},
        }
    )
    assert (scenario.attacker.units, scenario.attacker.damaged) == (
        {"dreadnought": 2, "fighter": 3},
        {"dreadnought": 1},
    )
