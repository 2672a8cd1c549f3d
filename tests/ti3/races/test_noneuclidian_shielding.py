"""Noneuclidian Shielding (Letnev racial technology; wiki.omf2097.com joneirik:rpg:ti3_races,
PC_Twi r_Letnev.cpp, which gives its units SUSTAIN DAMAGE absorbing 2): when one of the
owner's units uses SUSTAIN DAMAGE, it cancels two hits rather than one (docs/rulings.md
27R-11)."""

from __future__ import annotations

from fractions import Fraction

from spacecombat import odds
from tests.helpers import events, run, survivors
from tests.ti3.effects import space

LETNEV = {"faction": "letnev", "technologies": ["noneuclidian_shielding"]}


def test_a_sustain_cancels_two_hits() -> None:
    """Round 1: the dreadnought rolls 5 (a cruiser destroyed); the two cruisers 7, 7: two
    hits, both cancelled by the sustain. Round 2: dreadnought 5; cruiser 1."""
    played = run(
        space({"units": {"dreadnought": 1}, **LETNEV}, {"units": {"cruiser": 2}}),
        [5, 7, 7, 5, 1],
    )
    assert len(events(played, "damage_sustained", player="attacker")) == 1
    assert played.outcome["result"] == "attacker_win"
    assert survivors(played, "attacker") == {"dreadnought": 1}


def test_a_third_hit_destroys() -> None:
    """Three hits: the sustain cancels two, the third destroys the dreadnought. Round 1:
    dreadnought 1; war sun 3, 3, 3."""
    played = run(
        space({"units": {"dreadnought": 1}, **LETNEV}, {"units": {"war_sun": 1}}),
        [1, 3, 3, 3],
    )
    assert played.outcome["result"] == "defender_win"


def test_odds_against_a_damaged_war_sun() -> None:
    """The dreadnought (5+: 3/5) against a damaged war sun (one life; 3 dice at 3: 0, 1, 2, 3
    hits with 1/125, 12/125, 48/125, 64/125). Undamaged, the dreadnought takes 1 or 2 hits by
    sustaining; 3 destroy it. A round where nothing happens (2/5 * 1/125) repeats: divide by
    623/625.
    Undamaged: hit, and at most 2 hits taken: won, 3/5 * 61/125 -> 183/623; hit and 3 taken:
    both destroyed, 3/5 * 64/125 -> 192/623; miss and 1-2 taken: damaged, 2/5 * 60/125 ->
    120/623; miss and 3 taken: lost, 128/623.
    Damaged: hit and none taken: won, 3/5 * 1/125 -> 3/623; hit and some: both, 372/623;
    miss and some: lost, 248/623.
    Won 183/623 + 120/623 * 3/623 = 114369/388129; both destroyed 192/623 + 120/623 *
    372/623 = 164256/388129; lost 128/623 + 120/623 * 248/623 = 109504/388129."""
    report = odds(
        space(
            {"units": {"dreadnought": 1}, **LETNEV},
            {"units": {"war_sun": 1}, "damaged": {"war_sun": 1}},
        ),
        fractions=True,
    )
    assert (report.attacker_win, report.draw, report.defender_win) == (
        Fraction(114369, 388129),
        Fraction(164256, 388129),
        Fraction(109504, 388129),
    )
