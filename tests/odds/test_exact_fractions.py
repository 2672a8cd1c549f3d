"""Exact odds as fractions (``odds(scenario, fractions=True)``) against answers derived by hand.

A combat round is simultaneous: both players roll (ti4-space-combat.md step 3; ti4-ground-combat.md
step 1), then both assign the hits they took (step 4 / step 2); the battle goes on while both
still have units (space rule 8-9; ground rule 3-4). A die hits when its face is at least the unit's
combat value (docs/rulings.md R5), so a unit with combat value v hits with p = (11 - v) / 10.
A round in which nothing changes is repeated, so each answer below is a ratio: the chance of an
outcome in one round divided by the chance that the round decides anything.
"""

from __future__ import annotations

from fractions import Fraction
from functools import cache
from math import comb
from typing import Any

import pytest

from spacecombat import odds
from tests.helpers import invasion, space

F = Fraction

#: Fighters with no capacity are removed before the battle by default (docs/rulings.md R31);
#: the duels of fighters below are fought with the capacity checked only after the battle.
NO_CAPACITY_CHECK = {"check_capacity_before_battle": False}


def exact(scenario: dict[str, Any]) -> tuple[Fraction, Fraction, Fraction]:
    """(attacker wins, defender wins, draw) as exact fractions."""
    report = odds(scenario, fractions=True)
    found = (report.attacker_win, report.defender_win, report.draw)
    assert all(isinstance(p, Fraction) for p in found), f"not fractions: {found!r}"
    return F(found[0]), F(found[1]), F(found[2])


def test_one_fighter_against_one_fighter() -> None:
    # Fighter I hits on 9: p = 2/10 = 1/5 for both players.
    # One round: the attacker alone hits 1/5 * 4/5 = 4/25; the defender alone 4/25; both 1/25;
    # nobody 16/25 (the round repeats). Decided with 9/25: 4/9, 4/9, 1/9.
    scenario = space({"units": "1 fighter"}, {"units": "1 fighter"}, options=NO_CAPACITY_CHECK)
    assert exact(scenario) == (F(4, 9), F(4, 9), F(1, 9))


def test_a_cruiser_against_a_destroyer_whose_barrage_has_nothing_to_hit() -> None:
    # Cruiser I hits on 7 (p = 2/5), Destroyer I on 9 (p = 1/5). The destroyer's anti-fighter
    # barrage rolls in round 1, but with no fighter its hits do nothing (docs/rulings.md R16).
    # One round: cruiser alone 2/5 * 4/5 = 8/25, destroyer alone 3/5 * 1/5 = 3/25, both 2/25;
    # decided with 13/25: 8/13, 3/13, 2/13.
    scenario = space({"units": "1 cruiser"}, {"units": "1 destroyer"})
    assert exact(scenario) == (F(8, 13), F(3, 13), F(2, 13))


def test_a_dreadnought_that_sustains_damage_against_a_cruiser() -> None:
    # Dreadnought I hits on 5 (p = 3/5) and has SUSTAIN DAMAGE; the cruiser hits on 7 (2/5).
    # Damaged dreadnought (D): as two one-hit ships: win 9/25, loss 4/25, draw 6/25, repeat
    # 6/25, so from D: win 9/19, loss 4/19, draw 6/19.
    # Undamaged (U): a dreadnought hit wins (a cruiser hit is cancelled by sustaining): 3/5;
    # a miss and a cruiser hit go to D: 2/5 * 2/5 = 4/25; both miss 6/25 repeat. Decided: 19/25.
    # win = (15/25 + 4/25 * 9/19) / (19/25) = 321/361; loss = 4/19 * 4/19 = 16/361;
    # draw = 4/19 * 6/19 = 24/361.
    scenario = space({"units": "1 dreadnought"}, {"units": "1 cruiser"})
    assert exact(scenario) == (F(321, 361), F(16, 361), F(24, 361))


def binomial(dice: int, hits: int) -> Fraction:
    """The chance that ``dice`` Infantry I dice (hit on 8: p = 3/10) score exactly ``hits``."""
    return comb(dice, hits) * F(3, 10) ** hits * F(7, 10) ** (dice - hits)


@cache
def infantry_odds(attackers: int, defenders: int) -> tuple[Fraction, Fraction, Fraction]:
    """Ground combat of infantry only, from first principles (ti4-ground-combat.md steps 1-4):
    Infantry I hits on 8 (p = 3/10); with a and d infantry the attacker scores i ~ Bin(a, p),
    the defender j ~ Bin(d, p), and the next round starts from (a - j, d - i) (at least 0). The
    round with i = j = 0 repeats, so it is divided out."""
    if attackers == 0 or defenders == 0:
        if attackers:
            return F(1), F(0), F(0)
        if defenders:
            return F(0), F(1), F(0)
        return F(0), F(0), F(1)
    stay = binomial(attackers, 0) * binomial(defenders, 0)
    win = loss = draw = F(0)
    for i in range(attackers + 1):
        for j in range(defenders + 1):
            if i == j == 0:
                continue
            chance = binomial(attackers, i) * binomial(defenders, j)
            then = infantry_odds(max(attackers - j, 0), max(defenders - i, 0))
            win, loss, draw = (
                win + chance * then[0],
                loss + chance * then[1],
                draw + chance * then[2],
            )
    return win / (1 - stay), loss / (1 - stay), draw / (1 - stay)


THREE_ON_TWO = invasion({"units": "3 infantry"}, {"units": "2 infantry"})


def test_three_infantry_invading_two_match_the_derivation() -> None:
    # The recurrence above, carried out in fractions.
    assert exact(THREE_ON_TWO) == infantry_odds(3, 2)


def test_three_infantry_invading_two_sum_to_one() -> None:
    # Ground combat ends (rule 4) with probability 1: the outcomes account for everything.
    assert sum(exact(THREE_ON_TWO)) == 1


def test_three_infantry_invading_two_give_the_published_figures() -> None:
    # The figures for 3 infantry invading 2: 0.811413 / 0.155880 / 0.032707.
    assert tuple(round(float(p), 6) for p in exact(THREE_ON_TWO)) == (0.811413, 0.155880, 0.032707)


def test_a_mech_sustains_damage_in_ground_combat() -> None:
    # ti4-ground-combat.md note 5: a mech may use SUSTAIN DAMAGE in ground combat.
    # Mech hits on 6 (p = 1/2), Infantry I on 8 (p = 3/10).
    # Damaged mech: win 1/2 * 7/10 = 7/20, loss 1/2 * 3/10 = 3/20, draw 3/20, repeat 7/20,
    # so from damaged: win 7/13, loss 3/13, draw 3/13.
    # Undamaged: a mech hit wins (1/2); a miss and an infantry hit damage it (3/20); both miss
    # 7/20 (repeat). Decided: 13/20.
    # win = (1/2 + 3/20 * 7/13) / (13/20) = 151/169; loss = draw = 3/13 * 3/13 = 9/169.
    scenario = invasion({"units": "1 mech"}, {"units": "1 infantry"})
    assert exact(scenario) == (F(151, 169), F(9, 169), F(9, 169))


def test_non_euclidean_shielding_cancels_two_hits_with_one_sustain() -> None:
    # docs/rulings.md R8 (and R23: a faction technology without the faction): each use of
    # SUSTAIN DAMAGE cancels up to 2 hits. 1 dreadnought (p = 3/5) against 2 cruisers (2/5 each;
    # the defender scores 0, 1, 2 hits with 9/25, 12/25, 4/25). States (dreadnought, cruisers):
    # (D, 1), damaged against one cruiser: win 9/19, loss 4/19, draw 6/19 (as above).
    # (U, 1): win 321/361, loss 16/361, draw 24/361 (the dreadnought-against-cruiser test).
    # (D, 2): any defender hit destroys the dreadnought. Miss & no hit 18/125 repeat;
    #   hit & no hit 27/125 -> (D, 1); hit & hit(s) 48/125 loss; miss & hit(s) 32/125 loss.
    #   win = 27/107 * 9/19 = 243/2033; loss = 80/107 + 27/107 * 4/19 = 1628/2033;
    #   draw = 27/107 * 6/19 = 162/2033.
    # (U, 2): any 1 or 2 defender hits are cancelled by the one sustain (both, thanks to the
    #   shielding). Miss & no hit 18/125 repeat; hit & no hit 27/125 -> (U, 1);
    #   miss & hit(s) 32/125 -> (D, 2); hit & hit(s) 48/125 -> (D, 1). Decided: 107/125.
    #   win = (27 * 321/361 + 32 * 243/2033 + 48 * 9/19) / 107 = 1953369/4133089,
    #   loss = (27 * 16/361 + 32 * 1628/2033 + 48 * 4/19) / 107 = 1426384/4133089,
    #   draw = (27 * 24/361 + 32 * 162/2033 + 48 * 6/19) / 107 = 753336/4133089.
    scenario = space(
        {"units": "1 dreadnought", "technologies": ["non_euclidean_shielding"]},
        {"units": "2 cruiser"},
    )
    assert exact(scenario) == (
        F(1953369, 4133089),
        F(1426384, 4133089),
        F(753336, 4133089),
    )


@pytest.mark.parametrize(
    "scenario",
    [
        space({"units": "1 fighter"}, {"units": "1 fighter"}, options=NO_CAPACITY_CHECK),
        space({"units": "1 cruiser"}, {"units": "1 destroyer"}),
        space({"units": "1 dreadnought"}, {"units": "1 cruiser"}),
        THREE_ON_TWO,
        invasion({"units": "1 mech"}, {"units": "1 infantry"}),
        space(
            {"units": "1 dreadnought", "technologies": ["non_euclidean_shielding"]},
            {"units": "2 cruiser"},
        ),
    ],
    ids=["fighters", "cruiser-destroyer", "dreadnought-cruiser", "infantry", "mech", "nes"],
)
def test_no_probability_is_left_unaccounted(scenario: dict[str, Any]) -> None:
    # Repeated rounds are solved exactly (analysis/solve.py), never cut off: residual is exactly 0.
    assert odds(scenario, fractions=True).residual == 0
