"""J.N.S. Hylarim, the Jol-Nar flagship (docs/rulings.md 27R-7; PC_Twi UnitAbility.cpp
FlagshipAbilities: uaCritical 3): each of its combat dice rolling a natural 10 produces 3
hits. Its combat value is 2 (2 x2), 3 with the race's -1."""

from __future__ import annotations

from fractions import Fraction

from spacecombat import odds
from tests.helpers import events, rolls, run
from tests.ti3.effects import space


def test_a_natural_10_produces_three_hits() -> None:
    """Round 1: the flagship rolls 10 and 1 (3 hits): the three cruisers are destroyed; the
    cruisers roll 1, 1, 1."""
    played = run(
        space({"units": {"flagship": 1}, "faction": "jolnar"}, {"units": {"cruiser": 3}}),
        [10, 1, 1, 1, 1],
    )
    assert played.outcome["result"] == "attacker_win"
    assert len(events(played, "unit_destroyed", player="defender", unit="cruiser")) == 3
    roll = rolls(played, "space_combat")[0]
    assert roll["hits"] == 3


def test_other_hits_produce_one_each() -> None:
    """A 9 and a 3 (value 2, -1 race: 3+) are two hits, not more: two of three cruisers go;
    then round 2 (1, 1 against 1) and round 3 (10: three hits, the last cruiser)."""
    played = run(
        space({"units": {"flagship": 1}, "faction": "jolnar"}, {"units": {"cruiser": 3}}),
        [9, 3, 1, 1, 1, 1, 1, 1, 10, 1, 1],
    )
    assert [r["hits"] for r in rolls(played, "space_combat") if r["player"] == "attacker"] == [
        2,
        0,
        3,
    ]
    assert played.outcome["result"] == "attacker_win"


def test_odds_against_a_dreadnought() -> None:
    """The flagship (two lives) against a dreadnought (two lives, 5+: p = 3/5). A flagship
    die: 0 hits 1/5, 1 hit 7/10, 3 hits 1/10; its roll: 0 hits 1/25, exactly 1 hit 7/25,
    2 or more 17/25. States (flagship lives, dreadnought lives); a round where nothing
    happens (1/25 * 2/5 = 2/125) repeats, so each state's odds are its round's divided by
    123/125.

    (1, 1): won when the flagship hits and the dreadnought misses, (24/25)(2/5) = 48/125 ->
    48/123; both destroyed when both hit, (24/25)(3/5) -> 72/123; lost (1/25)(3/5) -> 3/123.
    (2, 1): won when it hits: 24/25 -> 120/123; else (1/25)(3/5) to (1, 1): 3/123.
    (1, 2): 2+ hits and a miss: (17/25)(2/5) -> 34/123 won; 2+ and a hit (17/25)(3/5) ->
    51/123 both; 1 hit and a miss (7/25)(2/5) -> 14/123 to (1, 1); 1 hit and a hit
    (7/25)(3/5) -> 21/123 lost (the dreadnought sustains, the flagship's last life goes); 0
    hits and a hit (1/25)(3/5) -> 3/123 lost.
    (2, 2): 2+ hits: 17/25 -> 85/123 won (a hit taken is sustained); 1 hit and a miss
    (7/25)(2/5) -> 14/123 to (2, 1); 1 hit and a hit (7/25)(3/5) -> 21/123 to (1, 1);
    0 hits and a hit (1/25)(3/5) -> 3/123 to (1, 2).
    """
    f = Fraction
    d = f(123, 125)
    w11, b11, l11 = f(48, 125) / d, f(72, 125) / d, f(3, 125) / d
    w21, to11_from21 = f(24, 25) / d, f(3, 125) / d
    w_21 = w21 + to11_from21 * w11
    b_21 = to11_from21 * b11
    l_21 = to11_from21 * l11
    w12 = f(34, 125) / d + f(14, 125) / d * w11
    b12 = f(51, 125) / d + f(14, 125) / d * b11
    l12 = f(21, 125) / d + f(3, 125) / d + f(14, 125) / d * l11
    win = f(85, 125) / d + f(14, 125) / d * w_21 + f(21, 125) / d * w11 + f(3, 125) / d * w12
    both = f(14, 125) / d * b_21 + f(21, 125) / d * b11 + f(3, 125) / d * b12
    lost = f(14, 125) / d * l_21 + f(21, 125) / d * l11 + f(3, 125) / d * l12
    assert win + both + lost == 1
    report = odds(
        space({"units": {"flagship": 1}, "faction": "jolnar"}, {"units": {"dreadnought": 1}}),
        fractions=True,
    )
    assert (report.attacker_win, report.draw, report.defender_win) == (win, both, lost)
