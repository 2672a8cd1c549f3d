"""Issue 8, one answer per scenario: a battle that ends before any combat (space cannon offense
or PDS fire leaves a player without ships, or every ship is removed before the battle for lack
of capacity) is ``no_combat`` in ``odds`` as in ``resolve`` (docs/rulings.md R27), with its own
probability (``OddsReport.no_combat``, JSON key ``no_combat``, a "no combat" line in text),
never counted as a win or a draw."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import pytest

from spacecombat import odds
from spacecombat.analysis.text import render
from tests.helpers import run, space

F = Fraction

#: A lone destroyer under the defender's PDS (space cannon 6: hits on 6-10, 1/2)
UNDER_PDS = space({"units": "1 destroyer"}, {"units": {"cruiser": 1, "pds": 1}})
#: TI3: a lone cruiser under the defender's PDS (fires at 6+, 1/2; ti3-facts.md section 5)
TI3_UNDER_PDS = {
    "ruleset": "ti3",
    "battle": "space",
    "attacker": {"units": {"cruiser": 1}},
    "defender": {"units": {"pds": 1, "carrier": 1}},
}
#: Fighters with no ship to carry them are removed before the battle (docs/rulings.md R31)
FIGHTERS = space({"units": "1 fighter"}, {"units": "1 fighter"})


def test_space_cannon_that_destroys_the_attacker_is_no_combat_not_a_defender_win() -> None:
    """The PDS hits with 1/2: no combat. Otherwise destroyer (hits on 9, 1/5) against cruiser
    (hits on 7, 2/5), the destroyer's barrage having no fighter to hit: attacker alone
    1/5 * 3/5 = 3/25, defender alone 4/5 * 2/5 = 8/25, both 2/25, decided with 13/25: 3/13,
    8/13, 2/13, each times 1/2."""
    report = odds(UNDER_PDS, fractions=True)
    assert (report.no_combat, report.attacker_win, report.defender_win, report.draw) == (
        F(1, 2),
        F(3, 26),
        F(4, 13),
        F(1, 13),
    )
    assert report.other == {"no_combat": F(1, 2)}


@pytest.mark.parametrize(
    ("scenario", "faces_after"),
    [(UNDER_PDS, [10] * 4), (TI3_UNDER_PDS, [10] * 2)],
    ids=["ti4", "ti3"],
)
def test_no_combat_has_the_probability_of_the_faces_with_which_resolve_says_so(
    scenario: dict[str, Any], faces_after: list[int]
) -> None:
    """``resolve`` with each face 1-10 of the PDS die (then hits all round, so the battle ends
    in round 1): the share of faces whose result is no_combat is the exact engine's no_combat
    probability (TI4 R27; TI3 counted alike)."""
    results = [
        str(run(scenario, [face, *faces_after], all_dice=False).outcome["result"])
        for face in range(1, 11)
    ]
    assert results.count("no_combat") == 5
    assert odds(scenario, fractions=True).no_combat == F(results.count("no_combat"), 10)


def test_every_ship_removed_before_the_battle_is_no_combat_in_both_commands() -> None:
    """Two lone fighters: no ship has capacity, both are removed before the battle, so there is
    no combat. ``resolve`` says no_combat; ``odds`` gives no_combat 1, and nothing else."""
    assert run(FIGHTERS, [], all_dice=False).outcome["result"] == "no_combat"
    report = odds(FIGHTERS)
    assert (report.no_combat, report.attacker_win, report.defender_win, report.draw) == (
        1.0,
        0.0,
        0.0,
        0.0,
    )


def test_no_combat_is_in_json_only_when_the_battle_can_end_so() -> None:
    """README: ``no_combat`` (when the battle may not happen at all)."""
    assert odds(UNDER_PDS).to_json()["no_combat"] == 0.5
    assert (
        "no_combat" not in odds(space({"units": "1 cruiser"}, {"units": "1 destroyer"})).to_json()
    )


def test_text_shows_no_combat_with_its_bar() -> None:
    """analysis/text.py: a "no combat" line like the three results (40 '#' for 100%: 20 for 1/2)."""
    text = render(odds(UNDER_PDS).to_json())
    assert "  no combat       50.0000%  " + "#" * 20 + "\n" in text


def test_monte_carlo_counts_no_combat_apart_with_an_interval() -> None:
    """The resolver's battles, 400 of them (seed 3): the no_combat share is near 1/2, with a
    95% interval, and the three results add up with it to 1."""
    report = odds(UNDER_PDS, method="montecarlo", trials=400, seed=3, workers=1)
    assert report.confidence is not None
    low, high = (float(bound) for bound in report.confidence["no_combat"])
    assert low <= 0.5 <= high
    shares = (report.attacker_win, report.defender_win, report.draw, report.no_combat)
    assert abs(sum(float(share) for share in shares) - 1) <= 1e-12
