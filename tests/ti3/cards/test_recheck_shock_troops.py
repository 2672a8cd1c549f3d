"""Recheck (27S-38: after a combat roll, one die re-rolled, the second result kept; option
``recheck_die``, default ``any``) with the Shock Troops option (ti3-facts.md section 8: a ground
force that rolls a natural 10 in invasion combat may be promoted at the end of the round):
docs/rulings.md 27T-18. The ground forces' group counts its natural 10s; a hit of it chosen
for a re-roll is a natural 10 or not (the 10 first: its re-roll may take a promotion away); a
die re-rolled into a 10 is one more.

Dice: in an exchange the attacker rolls before the defender; Recheck's die right after the
roll it answers."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from spacecombat import odds
from tests.helpers import assert_logs_replay, assert_sampled_as_played, events, run
from tests.ti3.effects import invasion, invasion_faces

CARD = {"action_cards": ["recheck"]}
SHOCK = {"shock_troops": True}


def landing(attacker: int, defender: int) -> dict[str, Any]:
    return invasion(
        {"units": {"carrier": 1, "ground_force": attacker}, **CARD},
        {"units": {"ground_force": defender}},
        options=SHOCK,
    )


def promoted(played: Any, player: str) -> list[object]:
    return [e["count"] for e in events(played, "shock_troops_promoted", player=player)]


def test_a_miss_rechecked_into_a_10_promotes() -> None:
    """Round 1: the attacker's ground forces 10, 3; Recheck on the miss: 10 (a hit, a second
    10); the defender's three 1, 1, 1. End of round: one promoted (two 10s, but one ground
    force must stay regular). Round 2: the shock troop 5 (a hit), the ground force 1; the
    defender 1."""
    played = run(landing(2, 3), [10, 3, 10, 1, 1, 1, 5, 1, 1])
    assert invasion_faces(played) == [[10, 3], [10], [1, 1, 1], [5, 1], [1]]
    assert promoted(played, "attacker") == [1]
    assert played.outcome["planet_taken"] is True


def test_the_opponents_natural_10_is_rechecked_first() -> None:
    """Round 1: the attacker's ground forces 8, 9 (no miss: not asked); the defender's four
    10, 1, 1, 1: the attacker rechecks the hit, a natural 10 (the first choice): 2, a miss,
    and no 10 left: no promotion. Round 2: 8, 8; 1, 1."""
    played = run(landing(2, 4), [8, 9, 10, 1, 1, 1, 2, 8, 8, 1, 1])
    assert invasion_faces(played) == [[8, 9], [10, 1, 1, 1], [2], [8, 8], [1, 1]]
    assert promoted(played, "defender") == []
    assert played.outcome["planet_taken"] is True


def test_the_opponents_plain_hit_rechecked_keeps_its_10() -> None:
    """The attacker names the second choice, a hit that is not a 10. Round 1: the attacker's
    8, 8, 8 (no miss: not asked); the defender's five 10, 8, 1, 1, 1; the 8 re-rolled: 1. The
    10 stands: two regular ground forces left, one promoted. Round 2: 8, 8 (the shock troop
    taken first, then the ground force); 1, 1."""
    played = run(
        landing(3, 5),
        [8, 8, 8, 10, 8, 1, 1, 1, 1, 8, 8, 1, 1],
        attacker=["play recheck: re-roll a hit of defender's ground_force"],
    )
    (asked,) = [e for e in events(played, "choice_made") if e["decision"] == "play_card"]
    assert asked["options"] == [
        "play recheck: re-roll a hit (a natural 10) of defender's ground_force",
        "play recheck: re-roll a hit of defender's ground_force",
        "pass",
    ]
    assert promoted(played, "defender") == [1]
    assert played.outcome["planet_taken"] is True


def test_exact_odds_a_ground_force_duel() -> None:
    """Hand-derived: one ground force each (no promotion: one must stay regular), the
    attacker holding Recheck (the stock holder plays it at the first chance). Round 1: it
    misses (7/10) and re-rolls (3/10 a hit), the card spent; or it hits (3/10) and the
    defender's hit (3/10) is re-rolled (3/10 it stands). Win 21/100 * 7/10 + 3/10 * 7/10 +
    3/10 * 3/10 * 7/10 = 420/1000; both destroyed 21/100 * 3/10 + 27/1000 = 90/1000; lost
    49/100 * 3/10 = 147/1000; else (343/1000) the plain duel, 3/10 against 3/10: 7/17, 3/17,
    7/17."""
    rest = Fraction(343, 1000)
    expected = (
        Fraction(420, 1000) + rest * Fraction(7, 17),
        Fraction(90, 1000) + rest * Fraction(3, 17),
        Fraction(147, 1000) + rest * Fraction(7, 17),
    )
    report = odds(landing(1, 1), fractions=True)
    assert (report.attacker_win, report.draw, report.defender_win) == expected


def test_logs_replay_and_the_sampler_plays_as_the_resolver() -> None:
    scenario = invasion(
        {"units": {"carrier": 1, "ground_force": 3}, **CARD},
        {"units": {"ground_force": 3}, **CARD},
        options=SHOCK,
    )
    assert_logs_replay(scenario, seeds=6)
    assert_sampled_as_played(scenario, trials=30)
