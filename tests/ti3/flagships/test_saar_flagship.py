"""Son of Ragh, the Clan of Saar flagship (docs/rulings.md 27R-9; PC_Twi UnitAbility.cpp
FlagshipAbilities: uaAFB 6 x4): it fires an anti-fighter barrage of 4 dice at 6 before the
first round, as destroyers do (ti3-facts.md 4.2)."""

from __future__ import annotations

from fractions import Fraction

from spacecombat import odds
from tests.helpers import rolls, run
from tests.ti3.effects import at_least_one, space, two_lives_duel


def test_four_barrage_dice_at_6() -> None:
    """Barrage: flagship 6, 6, 1, 1: two fighters go (the carrier's barrage: none). Round 1:
    flagship 6 (carrier destroyed), 1, 1; defender: carrier 1."""
    played = run(
        space(
            {"units": {"flagship": 1}, "faction": "saar"},
            {"units": {"carrier": 1, "fighter": 2}},
        ),
        [6, 6, 1, 1, 6, 1, 1, 1],
    )
    groups = rolls(played, "anti_fighter_barrage")[0]["groups"]
    assert isinstance(groups, list)
    assert [(g["unit"], len(g["faces"]), g["hit_on"]) for g in groups] == [("flagship", 4, 6)]
    assert played.outcome["result"] == "attacker_win"


def test_odds_against_a_lone_fighter() -> None:
    """A lone fighter (fleets not checked before the battle, so it fights uncarried) survives
    the 4 barrage dice (1/2 each) with 1/16. Then the flagship (6 x3: a = 7/8, two lives)
    against it (9+: 1/5), the two-lives duel (tests/ti3/effects.py): r = 1/10, win 35/36 +
    1/36 * 7/9 = 161/162, both destroyed 7/1296, lost 1/1296. In all: win 15/16 + 1/16 *
    161/162 = 2591/2592, both destroyed 7/20736, lost 1/20736."""
    report = odds(
        space(
            {"units": {"flagship": 1}, "faction": "saar"},
            {"units": {"fighter": 1}},
            options={"check_fleets_before_battle": False},
        ),
        fractions=True,
    )
    win, both, lose = two_lives_duel(at_least_one(3, Fraction(1, 2)), Fraction(1, 5))
    survives = Fraction(1, 16)
    assert (
        (report.attacker_win, report.draw, report.defender_win)
        == (
            1 - survives + survives * win,
            survives * both,
            survives * lose,
        )
        == (Fraction(2591, 2592), Fraction(7, 20736), Fraction(1, 20736))
    )
