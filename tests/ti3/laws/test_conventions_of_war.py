"""Conventions of War (For; the Clojure TI3 program's political cards, after the
preeminent.org reference: "Dreadnoughts & War Suns may not bombard planets with space
docks"): no bombardment of such a planet by either (docs/rulings.md 27Z-10)."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import pytest

from spacecombat import odds
from spacecombat.core.errors import ScenarioError


def _invasion(laws: list[str], *, dock: bool = True, chosen: Any = None) -> dict[str, Any]:
    """A dreadnought and a carrier with a ground force invade planet A, held by one ground
    force (and a space dock); the bombarding units default, or ``chosen``."""
    planet: dict[str, Any] = {
        "name": "A",
        "defender": {"ground_force": 1, **({"space_dock": 1} if dock else {})},
    }
    if chosen is not None:
        planet["bombarded_by"] = chosen
    return {
        "ruleset": "ti3",
        "battle": "invasion",
        "attacker": {"units": {"dreadnought": 1, "carrier": 1, "ground_force": 1}},
        "defender": {},
        "planets": [planet],
        "laws": laws,
    }


def _result(
    scenario: dict[str, Any],
) -> tuple[Fraction | float, Fraction | float, Fraction | float]:
    report = odds(scenario, fractions=True)
    return report.attacker_win, report.draw, report.defender_win


def test_without_the_law_the_dreadnought_bombards() -> None:
    """Bombardment hits 6/10 (5+) and leaves the planet to the attacker; else the ground force
    duel 7/17, 3/17, 7/17: won 3/5 + 2/5 x 7/17 = 13/17, both destroyed 6/85, lost 14/85."""
    assert _result(_invasion([])) == (Fraction(13, 17), Fraction(6, 85), Fraction(14, 85))


def test_with_the_law_no_bombardment_of_a_planet_with_a_space_dock() -> None:
    """Only the ground force duel: 7/17, 3/17, 7/17."""
    assert _result(_invasion(["conventions_of_war"])) == (
        Fraction(7, 17),
        Fraction(3, 17),
        Fraction(7, 17),
    )


def test_a_planet_without_a_space_dock_is_bombarded() -> None:
    assert _result(_invasion(["conventions_of_war"], dock=False))[0] == Fraction(13, 17)


def test_a_chosen_dreadnought_is_bad_input() -> None:
    with pytest.raises(ScenarioError) as caught:
        odds(_invasion(["conventions_of_war"], chosen={"dreadnought": 1}))
    assert caught.value.field == "planets[0].bombarded_by.dreadnought"
