"""Strict, bounded input (issue 8; docs/limits.md): every malformed or extreme scenario is
refused with one ``ScenarioError`` naming the field and what is allowed, in the README's words,
before any work: never coerced, never a library's class name or a Python repr."""

from __future__ import annotations

import json
from typing import Any

import pytest

from spacecombat import rulesets
from spacecombat.core.errors import ScenarioError
from spacecombat.core.limits import MAX_DEPTH, MAX_SCENARIO_BYTES, MAX_UNITS_PER_SIDE, shown
from spacecombat.resolver import resolve
from spacecombat.rulesets import load_scenario, parse_ti_scenario
from spacecombat.scenario.formats import json_depth
from spacecombat.scenario.schema import decode

HEAD = "ruleset: ti4\nbattle: space\n"
SIDES = 'attacker: {units: "1 cruiser"}\ndefender: {units: "1 cruiser"}\n'


def scenario(**changes: Any) -> dict[str, Any]:
    base: dict[str, Any] = {
        "ruleset": "ti4",
        "battle": "space",
        "attacker": {"units": "1 cruiser"},
        "defender": {"units": "1 cruiser"},
    }
    base.update(changes)
    return base


def refused_yaml(text: str) -> ScenarioError:
    with pytest.raises(ScenarioError) as caught:
        parse_ti_scenario(decode(text, "battle.yaml"))
    return caught.value


def refused_json(text: str) -> ScenarioError:
    with pytest.raises(ScenarioError) as caught:
        parse_ti_scenario(decode(text, "battle.json"))
    return caught.value


def refused(data: object) -> ScenarioError:
    with pytest.raises(ScenarioError) as caught:
        parse_ti_scenario(data)
    return caught.value


# --- counts are whole numbers written as such ----------------------------------------------


@pytest.mark.parametrize(
    ("count", "got"),
    [(True, "true"), ("3", "'3'"), (3.0, "3.0"), (1e9, "1000000000.0"), (None, "null")],
)
def test_a_count_must_be_written_as_a_whole_number(count: object, got: str) -> None:
    error = refused(scenario(attacker={"units": {"cruiser": count}}))
    assert error.field == "attacker.units.cruiser"
    assert error.message.startswith("must be a whole number")
    assert error.message.endswith(f"(got {got})")


def test_a_float_count_in_yaml_is_refused() -> None:
    error = refused_yaml(HEAD + "attacker: {units: {cruiser: 1.0e+9}}\ndefender: {}\n")
    assert (error.field, error.message) == (
        "attacker.units.cruiser",
        "must be a whole number, written as one (got 1000000000.0)",
    )


def test_a_float_count_in_json_is_refused() -> None:
    text = json.dumps(scenario()).replace('"1 cruiser"}, "defender"', '{"cruiser": 1e9}}, "x"')
    error = refused_json(text.replace('"x"', '"defender"'))
    assert error.field == "attacker.units.cruiser"


def test_a_huge_count_is_refused_by_the_unit_limit() -> None:
    error = refused(scenario(attacker={"units": {"cruiser": 10**30}}))
    assert error.message == (
        f"must be at most {MAX_UNITS_PER_SIDE} (the unit limit of a side) "
        "(got 1000000000000000000000000000000)"
    )


def test_a_count_of_thousands_of_digits_in_fleet_notation_is_refused_without_reading_it() -> None:
    error = refused(scenario(attacker={"units": "9" * 5000 + " dreadnought"}))
    assert error.field == "attacker.units"
    assert "more units than the limit of 200 a side" in error.message
    assert len(error.message) < 120


def test_a_count_of_thousands_of_digits_in_json_is_refused() -> None:
    text = json.dumps(scenario(attacker={"units": {"cruiser": 7}})).replace("7", "9" * 5000)
    error = refused_json(text)
    assert error.message == "battle.json is not valid JSON: a number has thousands of digits"


def test_fleet_notation_takes_ascii_digits_only() -> None:
    # "٣" is ARABIC-INDIC DIGIT THREE: a digit to Python's \d, not a count to a player.
    error = refused(scenario(attacker={"units": "٣ cruiser"}))
    assert error.message.startswith("cannot read '٣ cruiser': write a count and a unit")


def test_more_units_than_the_limit_over_all_areas_is_refused() -> None:
    error = refused(
        scenario(attacker={"units": {"fighter": 150, "carrier": 40}, "planet_units": {"mech": 11}})
    )
    assert (error.field, error.message) == (
        "attacker.units",
        "201 units on one side; the limit is 200 (over space, planets and planet_units)",
    )


def test_an_invasions_planets_count_for_the_defender() -> None:
    planets = [{"name": f"P{i}", "defender": {"infantry": 100}} for i in range(3)]
    error = refused(scenario(battle="invasion", planets=planets))
    assert error.field == "defender.units"
    assert error.message.startswith("301 units on one side")


def test_the_unit_limit_itself_is_allowed() -> None:
    parsed = parse_ti_scenario(scenario(attacker={"units": {"fighter": 100, "carrier": 100}}))
    assert parsed.attacker.unit_count() == MAX_UNITS_PER_SIDE


# --- duplicates ----------------------------------------------------------------------------


def test_a_key_written_twice_in_yaml_is_refused() -> None:
    error = refused_yaml(HEAD + SIDES + 'attacker: {units: "9 cruiser"}\n')
    assert (error.field, error.message) == (
        "file",
        "battle.yaml at line 5: the key 'attacker' is written twice in one mapping",
    )


def test_a_key_written_twice_in_json_is_refused() -> None:
    error = refused_json('{"ruleset": "ti4", "ruleset": "ti3"}')
    assert error.message == (
        "battle.json is not valid JSON: the key 'ruleset' is written twice in one object"
    )


@pytest.mark.parametrize(
    ("changes", "field"),
    [
        (
            {"policy": {"casualty_order": ["fighter", "carrier", "fighter"]}},
            "policy.casualty_order",
        ),
        ({"laws": ["shared_research", "shared_research"]}, "laws"),
        ({"policy": {"retreat_to": ["B", "B"]}}, "policy.retreat_to"),
        ({"attacker": {"units": "1 cruiser", "technologies": ["x", "x"]}}, "attacker.technologies"),
        (
            {"attacker": {"units": "1 cruiser", "upgrades": ["cruiser", "cruiser"]}},
            "attacker.upgrades",
        ),
        (
            {"system": {"adjacent": [{"name": "B", "ships": ["attacker", "attacker"]}]}},
            "system.adjacent[0].ships",
        ),
    ],
)
def test_a_list_entry_given_twice_is_refused(changes: dict[str, Any], field: str) -> None:
    error = refused(scenario(**changes))
    assert error.field == field
    assert "is listed twice (entries" in error.message


# --- nesting, aliases, sizes ---------------------------------------------------------------


def test_deep_json_is_refused_before_it_is_parsed() -> None:
    error = refused_json("[" * 100_000 + "]" * 100_000)
    assert error.message == f"battle.json: nested more than {MAX_DEPTH} levels deep"


def test_json_depth_skips_brackets_in_strings() -> None:
    assert json_depth('{"a": "[[[[{{{{", "b": [1, [2]]}') == 3


def test_deep_yaml_is_refused_while_it_is_read() -> None:
    error = refused_yaml("a: " + "[" * 5000 + "]" * 5000 + "\n")
    assert error.message == f"battle.yaml at line 1: nested more than {MAX_DEPTH} levels deep"


def test_yaml_anchors_are_refused() -> None:
    error = refused_yaml(HEAD + "attacker: &a {units: '1 cruiser'}\ndefender: {units: x}\n")
    assert error.message == (
        "battle.yaml at line 3: anchors (&a) are not accepted; write the value out"
    )


def test_a_yaml_alias_bomb_is_refused_at_its_first_anchor() -> None:
    """The "billion laughs": nine levels of nine aliases each, aliased into ``ruleset``."""
    lines = ["l0: &l0 [lol, lol, lol, lol, lol, lol, lol, lol, lol]"]
    lines += [f"l{i}: &l{i} [{', '.join([f'*l{i - 1}'] * 9)}]" for i in range(1, 9)]
    error = refused_yaml("\n".join(lines) + "\nruleset: *l8\n")
    assert error.message == (
        "battle.yaml at line 1: anchors (&l0) are not accepted; write the value out"
    )


def test_a_file_over_the_size_limit_is_refused_without_reading_it_all(tmp_path: Any) -> None:
    path = tmp_path / "big.yaml"
    path.write_text(HEAD + SIDES + "# " + "x" * MAX_SCENARIO_BYTES + "\n", encoding="utf-8")
    with pytest.raises(ScenarioError, match="is larger than the limit of 1,000,000 bytes"):
        load_scenario(path)


# --- messages in the project's words ----------------------------------------------------


@pytest.mark.parametrize(
    ("changes", "field", "message"),
    [
        (
            {"policy": 3},
            "policy",
            "must be a mapping with the keys casualty_order, sustain, retreat, retreat_to, "
            "retreat_takes_planet_ground_forces, planet_order, pre_combat_order, play, keep "
            "(got 3)",
        ),
        (
            {"battle": "invasion", "planets": ["Lazar"]},
            "planets[0]",
            "must be a mapping with the keys name, defender, damaged, commit, bombarded_by, traits "
            "(got 'Lazar')",
        ),
        ({"laws": "shared_research"}, "laws", "must be a list (got 'shared_research')"),
        (
            {"attacker": {"units": {1: 2}}},
            "attacker.units",
            "keys are names, written as text (got 1)",
        ),
        (
            {"attacker": {"units": [{"cruiser": 1}]}},
            "attacker.units",
            "must be a mapping of unit to count, or text such as '2 dreadnought, 3 fighter' "
            "(got [{'cruiser': 1}])",
        ),
        (
            {"policy": {"retreat": {"when_outnumbered": float("nan")}}},
            "policy.retreat",
            "when_outnumbered: must be a finite number (got NaN)",
        ),
        (
            {"policy": {"retreat_takes_planet_ground_forces": "yes"}},
            "policy.retreat_takes_planet_ground_forces",
            "must be true or false (got 'yes')",
        ),
        ({"ruleset": "ti5"}, "ruleset", "allowed: 'ti4', 'ti3', 'ec4x' (got 'ti5')"),
    ],
)
def test_messages_say_what_is_allowed_in_the_projects_words(
    changes: dict[str, Any], field: str, message: str
) -> None:
    error = refused(scenario(**changes))
    assert (error.field, error.message) == (field, message)
    for leak in ("instance of", "Input should", "[key]", "Spec", "tuple"):
        assert leak not in str(error)


def test_a_yaml_date_is_read_as_the_text_written() -> None:
    parsed = parse_ti_scenario(decode(HEAD + "attacker: {faction: 2020-01-01}\ndefender: {}\n"))
    assert parsed.attacker.faction == "2020-01-01"
    with pytest.raises(ScenarioError, match=r"^attacker\.faction: unknown '2020-01-01'; allowed"):
        rulesets.battle(parsed)


def test_a_scenario_that_is_not_a_mapping_says_so() -> None:
    assert refused([1, 2]).message == "a scenario is a mapping of keys to values (got a list)"


@pytest.mark.parametrize(
    ("value", "text"),
    [
        ("x" * 100, "'" + "x" * 38 + "…"),
        (10**5000, "a number of 5001 digits"),
        ({"a": list(range(1000))}, "{'a': [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10…"),
        (float("nan"), "NaN"),
        (None, "null"),
        (False, "false"),
    ],
    ids=["long text", "huge number", "long mapping", "nan", "null", "false"],
)
def test_echoed_values_are_cut_to_a_few_dozen_characters(value: object, text: str) -> None:
    assert shown(value) == text
    assert len(shown(value)) <= 40


@pytest.mark.parametrize("seed", [-1, 2**64, True])
def test_a_seed_outside_what_the_dice_tell_apart_is_refused(seed: int) -> None:
    """Seeds are 0 to 2^64 - 1: the dice take -1 as 1, so a log saying -1 would replay as 1."""
    with pytest.raises(ScenarioError, match=r"^seed: a whole number from 0 to 1844674407"):
        resolve(scenario(), seed=seed)
