"""Rear Admiral Farran (Letnev commander; abilities/rear_admiral_farran.py): after one or more
of your units use SUSTAIN DAMAGE, gain 1 trade good (data/cards.toml; ti4-combat-effects.md,
leaders). It acts once per assignment of hits in which the holder's units sustain damage
(ti4-space-combat.md step 4.1; docs/rulings.md 14A-5); the trade goods join the purse."""

from __future__ import annotations

from fractions import Fraction

import pytest

from spacecombat import odds
from spacecombat.rulesets.ti4.sides import Side
from tests.helpers import events, invasion, run, space

FARRAN = {"leaders": ["rear_admiral_farran"]}


def test_one_trade_good_for_a_sustain() -> None:
    # Round 1: dreadnought 1; cruiser 7: the dreadnought sustains. Round 2: 5; 1.
    scenario = space({"units": "1 dreadnought", **FARRAN, "trade_goods": 2}, {"units": "1 cruiser"})
    played = run(scenario, [1, 7, 5, 1])
    [gained] = events(played, "trade_goods_gained")
    assert (gained["player"], gained["trade_goods"], gained["by"]) == (
        "attacker",
        1,
        "rear_admiral_farran",
    )
    assert played.state.wealth(Side.ATTACKER) == (3, 0)


def test_one_trade_good_however_many_sustain_in_one_assignment() -> None:
    # Round 1: 1, 1; 7, 7: both dreadnoughts sustain, 1 trade good. Round 2: 5, 5; 1, 1.
    scenario = space({"units": "2 dreadnought", **FARRAN}, {"units": "2 cruiser"})
    played = run(scenario, [1, 1, 7, 7, 5, 5, 1, 1])
    assert len(events(played, "damage_sustained")) == 2
    assert len(events(played, "trade_goods_gained")) == 1


def test_one_for_each_assignment_with_a_sustain() -> None:
    # Round 1: 1, 1; 7, 1: one sustains. Round 2: 1, 1; 7, 1: the other. Round 3: 5, 5; 1, 1.
    scenario = space({"units": "2 dreadnought", **FARRAN}, {"units": "2 cruiser"})
    played = run(scenario, [1, 1, 7, 1, 1, 1, 7, 1, 5, 5, 1, 1])
    assert [e["trade_goods"] for e in events(played, "trade_goods_gained")] == [1, 1]


def test_not_for_the_opponent_sustain_nor_a_destroyed_unit() -> None:
    # The defender's dreadnought sustains (7; 1); round 2 the attacker's cruiser is destroyed.
    scenario = space({"units": "1 cruiser", **FARRAN}, {"units": "1 dreadnought"})
    played = run(scenario, [7, 1, 1, 5])
    assert not events(played, "trade_goods_gained")


def test_in_ground_combat_too() -> None:
    # The invader's mech sustains (1; 8); round 2: 6; 1.
    scenario = invasion(
        {"units": "1 carrier, 1 mech", **FARRAN},
        {},
        planets=[{"name": "P", "defender": {"infantry": 1}}],
    )
    played = run(scenario, [1, 8, 6, 1])
    assert len(events(played, "trade_goods_gained")) == 1


def test_exact_odds_hand_derived() -> None:
    """The trade good changes nothing here: a dreadnought (a = 3/5, 2 lives) against a cruiser
    (d = 2/5). Damaged, a plain duel over 1 - (2/5)(3/5) = 19/25: win 9/19, draw 6/19, loss
    4/19. Undamaged: win = (3/5 + (2/5)(2/5) * 9/19) / (19/25) = 321/361, draw = (4/25 * 6/19)
    / (19/25) = 24/361, loss = 16/361."""
    found = odds(space({"units": "1 dreadnought", **FARRAN}, {"units": "1 cruiser"}))
    assert found.attacker_win == pytest.approx(float(Fraction(321, 361)), abs=1e-12)
    assert found.draw == pytest.approx(float(Fraction(24, 361)), abs=1e-12)
    assert found.defender_win == pytest.approx(float(Fraction(16, 361)), abs=1e-12)
