"""The odds figures the issue publishes (computed by other TI4 calculators), reproduced by the
exact engine with the issue's policy: casualties cheapest first (infantry, fighter, mech,
destroyer, carrier, cruiser, dreadnought, war sun, flagship), sustain damage first."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from spacecombat import odds
from spacecombat.analysis.report import OddsReport
from spacecombat.rulesets import load_scenario
from tests.helpers import invasion, space

POLICY = {
    "casualty_order": [
        "infantry",
        "fighter",
        "mech",
        "destroyer",
        "carrier",
        "cruiser",
        "dreadnought",
        "war_sun",
        "flagship",
    ],
    "sustain": "first",
}
EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "odds-dreadnoughts-vs-cruisers.yaml"

DREADNOUGHTS_VS_CRUISERS = space({"units": "2 dreadnought"}, {"units": "3 cruiser"}, policy=POLICY)
INFANTRY = invasion({"units": "3 infantry"}, {"units": "2 infantry"}, policy=POLICY)
DURANIUM: dict[str, Any] = space(
    {"units": "2 dreadnought", "technologies": ["duranium_armor"]},
    {"units": "2 dreadnought"},
    policy=POLICY,
)


def six_places(report: OddsReport) -> tuple[float, float, float]:
    return (
        round(float(report.attacker_win), 6),
        round(float(report.defender_win), 6),
        round(float(report.draw), 6),
    )


def test_two_dreadnoughts_against_three_cruisers() -> None:
    # The issue: 0.797110 / 0.147031 / 0.055859.
    assert six_places(odds(DREADNOUGHTS_VS_CRUISERS)) == (0.797110, 0.147031, 0.055859)


def test_the_example_file_gives_the_figures_it_quotes() -> None:
    # examples/odds-dreadnoughts-vs-cruisers.yaml says "Exact odds: 0.797110 / 0.147031 / 0.055859".
    assert six_places(odds(load_scenario(EXAMPLE))) == (0.797110, 0.147031, 0.055859)


def test_three_infantry_invading_two() -> None:
    # The issue: 0.811413 / 0.155880 / 0.032707.
    assert six_places(odds(INFANTRY)) == (0.811413, 0.155880, 0.032707)


def test_duranium_armor_dreadnoughts_win_about_as_published() -> None:
    # The issue: 2 dreadnoughts with Duranium Armor against 2 dreadnoughts, attacker ~0.645
    # (a Monte Carlo figure, so +-0.005). Duranium Armor repairs a damaged unit that did not
    # sustain this round (docs/rulings.md R7), so the attacker's states form cycles.
    assert abs(float(odds(DURANIUM).attacker_win) - 0.645) <= 0.005


def test_duranium_armor_cycles_are_solved_exactly() -> None:
    # Repairs make rounds repeat in cycles, which the engine solves as linear systems
    # (analysis/solve.py), not by playing rounds until the mass is small: nothing is left over.
    assert float(odds(DURANIUM).residual) < 1e-12
