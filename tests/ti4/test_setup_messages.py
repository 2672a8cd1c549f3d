"""Setup refusals in the project's words (issue 8): every path names list indices, an echoed
input value is cut to a few dozen characters (``core.limits.shown``), and no message holds a
Python repr or a class name."""

from __future__ import annotations

from typing import Any

import pytest

from spacecombat.core.errors import RuleNotImplemented, ScenarioError
from spacecombat.core.limits import ECHO
from spacecombat.rulesets import battle, parse_scenario
from spacecombat.rulesets.ti4.abilities.base import HANDLERS
from tests.helpers import invasion, space

LONG = "x" * 500


def refusal(scenario: dict[str, Any]) -> ScenarioError:
    with pytest.raises(ScenarioError) as caught:
        battle(parse_scenario(scenario))
    return caught.value


def two_planets(first: dict[str, int], second: dict[str, int]) -> dict[str, Any]:
    return invasion(
        {"units": "1 carrier, 3 infantry"},
        {},
        planets=[
            {"name": "A", "defender": {"infantry": 1}, "commit": first},
            {"name": "B", "defender": {"infantry": 1}, "commit": second},
        ],
    )


def test_over_committing_names_the_planet_where_the_total_is_passed() -> None:
    error = refusal(two_planets({"infantry": 2}, {"infantry": 2}))
    assert error.field == "planets[1].commit.infantry"
    assert error.message == "4 allotted over the planets so far but the attacker has 3"


def test_over_committing_one_planet_names_it() -> None:
    error = refusal(two_planets({"infantry": 4}, {}))
    assert (error.field, error.message) == (
        "planets[0].commit.infantry",
        "4 allotted but the attacker has 3",
    )


def test_an_unimplemented_technology_names_its_index(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delitem(HANDLERS, "plasma_scoring", raising=False)  # as before it was written
    scenario = space(
        {"units": "1 dreadnought", "technologies": ["duranium_armor", "plasma_scoring"]},
        {"units": "1 cruiser"},
    )
    with pytest.raises(RuleNotImplemented) as caught:
        battle(parse_scenario(scenario))
    assert caught.value.where == "attacker.technologies[1]"


@pytest.mark.parametrize(
    ("side", "field"),
    [
        ({"units": {"cruiser": 1}, "technologies": [LONG]}, "attacker.technologies[0]"),
        ({"units": {"cruiser": 1}, "upgrades": [LONG]}, "attacker.upgrades[0]"),
        ({"units": {"cruiser": 1}, "faction": LONG}, "attacker.faction"),
        (
            {"units": {"cruiser": 1}, "policy": {"casualty_order": [LONG]}},
            "attacker.policy.casualty_order[0]",
        ),
        (
            {"units": {"cruiser": 1}, "policy": {"retreat_to": [LONG]}},
            "attacker.policy.retreat_to[0]",
        ),
    ],
)
def test_an_echoed_value_is_cut(side: dict[str, Any], field: str) -> None:
    error = refusal(space(side, {"units": "1 cruiser"}))
    assert error.field == field
    assert LONG[: ECHO + 1] not in error.message
    assert "'" + "x" * (ECHO - 2) + "…" in error.message


def test_an_unknown_unit_with_a_long_name_is_cut_in_the_path() -> None:
    error = refusal(space({"units": {LONG: 1}}, {"units": "1 cruiser"}))
    assert len(error.field) < len("attacker.units.") + ECHO + 3
    assert error.field.startswith("attacker.units.'xxx")
    assert error.message.startswith("unknown unit; allowed: war_sun, dreadnought")


def test_an_unknown_unit_on_a_planet_names_the_planet() -> None:
    scenario = invasion(
        {"units": "1 carrier, 1 infantry"},
        {},
        planets=[
            {"name": "A", "defender": {"infantry": 1}},
            {"name": "B", "defender": {"ogre": 1}},
        ],
    )
    assert refusal(scenario).field == "planets[1].defender.ogre"


def test_a_retreat_to_with_no_adjacent_system_says_so() -> None:
    error = refusal(
        space({"units": "1 cruiser", "policy": {"retreat_to": ["B"]}}, {"units": "1 cruiser"})
    )
    assert (
        error.message == "'B' is not an adjacent system; allowed: none (system.adjacent lists none)"
    )


def test_no_python_repr_in_messages() -> None:
    """A name with a quote in it is shown as written, not as Python would repr it."""
    error = refusal(
        space({"units": "1 cruiser", "technologies": ["o'neil"]}, {"units": "1 cruiser"})
    )
    assert "'o'neil'" in error.message
    assert '"' not in error.message
