"""Spec Ops Training with the Shock Troops option (docs/rulings.md 27T-11).

Spec Ops Training (Sol, 27S-35): "Each time you roll a 1 during Invasion Combat, you may reroll
the die. You must use the second result" (PC_Twi r_Sol.cpp). Shock Troops (Shattered Empire
option; ti3-facts.md section 8): "A Ground Force that rolls a natural 10 in invasion combat may
be promoted to a Shock Troop at the end of that combat round"; Shock Troops (5) are taken as
casualties before other ground units and revert when no regular ground force is with them.

With the option the 1s are re-rolled inside the roll (``DiceGroup.reroll_at_most``), one
``dice_rolled`` event whose re-rolled dice follow their group as a ``rerolled`` group; the
dice are read in the same order as without the option (each group, then its 1s). A 1 re-rolled
into a natural 10 is a natural 10 of that ground force (the second result is the die's)."""

from __future__ import annotations

from fractions import Fraction
from functools import cache
from itertools import product
from math import comb
from typing import Any

from spacecombat import odds
from tests.helpers import assert_logs_replay, assert_sampled_as_played, events, rolls, run
from tests.ti3.effects import invasion, invasion_faces

SOL = {"faction": "sol", "technologies": ["spec_ops_training"]}
SHOCK = {"shock_troops": True}


def landing(units: dict[str, int], defender: dict[str, int], **extra: Any) -> dict[str, Any]:
    return invasion(
        {"units": {"carrier": 1, **units}, **SOL}, {"units": defender}, options=SHOCK, **extra
    )


def test_a_1_rerolled_into_a_10_promotes() -> None:
    """Round 1: the ground forces roll 1, 3; the 1 is re-rolled: 10 (a hit, and a natural 10);
    the Mechanized Unit (two dice at 6) 1, 1: it sustains the hit. End of round 1: one ground
    force promoted (two regular, one must stay). Round 2: the shock troop 6 (hit), the ground
    force 2; the Mechanized Unit 1, 1: destroyed."""
    played = run(landing({"ground_force": 2}, {"mechanized_unit": 1}), [1, 3, 10, 1, 1, 6, 2, 1, 1])
    first = rolls(played, "invasion_combat")[0]
    groups = first["groups"]
    assert isinstance(groups, list)
    assert [(g["faces"], g.get("rerolled", False), g["marks"]) for g in groups] == [
        ([1, 3], False, 0),
        ([10], True, 1),
    ]
    assert groups[0]["reroll_at_most"] == 1
    assert [e["count"] for e in events(played, "shock_troops_promoted")] == [1]
    assert invasion_faces(played) == [[1, 3, 10], [1, 1], [6, 2], [1, 1]]
    assert played.outcome["planet_taken"] is True


def test_only_the_1s_are_rerolled_once() -> None:
    """Round 1: the ground forces 1, 9 (the 9 hits; the 1 re-rolled: 1, kept: no second
    re-roll), no 10; the Mechanized Unit 6, 1: the attacker loses a ground force, the
    Mechanized Unit sustains. Round 2: the ground force 1 (re-rolled: 8, a hit); the
    Mechanized Unit 1, 1: destroyed."""
    played = run(landing({"ground_force": 2}, {"mechanized_unit": 1}), [1, 9, 1, 6, 1, 1, 8, 1, 1])
    assert invasion_faces(played) == [[1, 9, 1], [6, 1], [1, 8], [1, 1]]
    assert events(played, "shock_troops_promoted") == []
    assert played.outcome["planet_taken"] is True


def test_a_plain_10_promotes_and_is_not_rerolled() -> None:
    """Round 1: the ground forces 10, 4 (no 1); the Mechanized Unit 1, 1: it sustains; one
    promotion. Round 2: the shock troop 1, re-rolled: 5 (hit); the ground force 3; the
    Mechanized Unit 1, 1: destroyed."""
    played = run(landing({"ground_force": 2}, {"mechanized_unit": 1}), [10, 4, 1, 1, 1, 5, 3, 1, 1])
    assert invasion_faces(played) == [[10, 4], [1, 1], [1, 5, 3], [1, 1]]
    assert [e["count"] for e in events(played, "shock_troops_promoted")] == [1]


def test_the_same_dice_as_without_the_option() -> None:
    """One ground force against one (no promotion possible: one must stay regular): the
    scripted dice of tests/ti3/races/test_spec_ops_training.py give the same battle."""
    played = run(landing({"ground_force": 1}, {"ground_force": 1}), [1, 8, 1])
    assert invasion_faces(played) == [[1, 8], [1]]
    assert played.outcome["planet_taken"] is True


def test_exact_odds_without_a_promotion_equal_the_roll_made_group_by_group() -> None:
    """Hand-derived (27S-35's duel): the Sol ground force hits with 3/10 + 1/10 * 3/10 =
    33/100, the defender's with 3/10: taken 77/177, both destroyed 33/177, kept 67/177, as
    without the option (no promotion: one ground force must stay regular)."""
    report = odds(landing({"ground_force": 1}, {"ground_force": 1}), fractions=True)
    assert (report.attacker_win, report.draw, report.defender_win) == (
        Fraction(77, 177),
        Fraction(33, 177),
        Fraction(67, 177),
    )


#: a Sol ground force's die: a natural 10 (first roll, or a 1 re-rolled into a 10): 1/10 +
#: 1/10 * 1/10; a hit on 8 or 9: 2/10 + 1/10 * 2/10; a miss: the rest
TEN, EIGHT_OR_NINE, MISS = Fraction(11, 100), Fraction(22, 100), Fraction(67, 100)
#: a Sol shock troop's die (5): 6/10 + 1/10 * 6/10
SHOCK_HIT = Fraction(66, 100)
#: each of the Mechanized Unit's two dice (6)
MECH_HIT = Fraction(1, 2)


def _binomial(n: int, p: Fraction) -> list[Fraction]:
    return [comb(n, k) * p**k * (1 - p) ** (n - k) for k in range(n + 1)]


@cache
def _hand(regular: int, shock: int, lives: int) -> tuple[Fraction, Fraction, Fraction]:
    """(taken, both destroyed, kept) of Sol's ``regular`` ground forces and ``shock`` shock
    troops against a Mechanized Unit with ``lives`` (SUSTAIN DAMAGE), by the rules alone: both
    roll; Sol's casualties shock troops first; the Mechanized Unit sustains then is destroyed;
    at the round's end Sol promotes as many ground forces as natural 10s rolled, keeping one
    regular; lone shock troops revert. A round where nothing changes repeats."""
    if lives == 0:
        both = Fraction(int(regular + shock == 0))
        return (1 - both, both, Fraction(0))
    if regular + shock == 0:
        return (Fraction(0), Fraction(0), Fraction(1))
    stay = Fraction(0)
    total = [Fraction(0)] * 3
    for faces in product((TEN, EIGHT_OR_NINE, MISS), repeat=regular):
        chance = Fraction(1)
        for face in faces:
            chance *= face
        tens = sum(1 for face in faces if face is TEN)
        hits = sum(1 for face in faces if face is not MISS)
        for shock_hits, p_shock in enumerate(_binomial(shock, SHOCK_HIT)):
            for taken, p_mech in enumerate(_binomial(2, MECH_HIT)):
                p = chance * p_shock * p_mech
                left_shock = max(0, shock - taken)
                left_regular = max(0, regular - max(0, taken - shock))
                left_lives = max(0, lives - hits - shock_hits)
                promoted = max(0, min(tens, left_regular - 1))
                left_regular, left_shock = left_regular - promoted, left_shock + promoted
                if left_shock and not left_regular:
                    left_regular, left_shock = left_shock, 0
                if (left_regular, left_shock, left_lives) == (regular, shock, lives):
                    stay += p
                    continue
                for i, value in enumerate(_hand(left_regular, left_shock, left_lives)):
                    total[i] += p * value
    return (total[0] / (1 - stay), total[1] / (1 - stay), total[2] / (1 - stay))


def test_exact_odds_with_promotions() -> None:
    """Two Sol ground forces against a Mechanized Unit (two dice at 6, SUSTAIN DAMAGE): a
    natural 10 (1 in 10, or a 1 re-rolled into one) in round 1 may make a shock troop (5) of one
    of them; the recursion ``_hand`` above, from the rules alone."""
    report = odds(landing({"ground_force": 2}, {"mechanized_unit": 1}), fractions=True)
    expected = _hand(2, 0, 2)
    assert (report.attacker_win, report.draw, report.defender_win) == expected
    assert expected[0] == Fraction(6052433993324389, 32560717615284789)
    # the promotions matter: with the 10s not promoting the attacker would take less often
    assert _hand(2, 0, 2)[0] > _hand_without_promotion()


def _hand_without_promotion() -> Fraction:
    """The same battle's taken chance if no ground force were ever promoted (the two ground
    forces against the Mechanized Unit; by ``_hand``'s rules without the promotion step)."""
    hit = TEN + EIGHT_OR_NINE

    @cache
    def taken(regular: int, lives: int) -> Fraction:
        if lives == 0:
            return Fraction(1) if regular else Fraction(0)
        if regular == 0:
            return Fraction(0)
        stay = Fraction(0)
        total = Fraction(0)
        for hits, p_hits in enumerate(_binomial(regular, hit)):
            for lost, p_mech in enumerate(_binomial(2, MECH_HIT)):
                after = (max(0, regular - lost), max(0, lives - hits))
                if after == (regular, lives):
                    stay += p_hits * p_mech
                else:
                    total += p_hits * p_mech * taken(*after)
        return total / (1 - stay)

    return taken(2, 2)


def test_logs_replay_and_the_sampler_plays_as_the_resolver() -> None:
    scenario = landing({"ground_force": 3, "mechanized_unit": 1}, {"ground_force": 3})
    assert_logs_replay(scenario, seeds=6)
    assert_sampled_as_played(scenario, trials=30)
