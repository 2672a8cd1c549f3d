"""The Alastor, the Nekro Virus flagship (docs/rulings.md 27S-8; PC_Twi r_Nekro.cpp
e_NekroFlagship): when it is destroyed while its owner defends, every unit in the system's
space area, both players', is destroyed. 9 x3, SUSTAIN DAMAGE (PC_Twi FMstats).

Dice: a pool rolls its groups in ascending printed value, then unit name; in an exchange the
attacker rolls before the defender."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from spacecombat import odds
from tests.helpers import assert_logs_replay, assert_sampled_as_played, events, run
from tests.ti3.effects import at_least_one, space, two_lives_duel

NEKRO = {"units": {"flagship": 1}, "faction": "nekro"}


def by_alastor(played: Any) -> list[tuple[object, object]]:
    return [(e["player"], e["unit"]) for e in events(played, "unit_destroyed", cause="The Alastor")]


def test_destroyed_while_defending_it_takes_every_ship_with_it() -> None:
    """Round 1: the cruisers 7, 7 (two hits); the flagship 1, 1, 1. It sustains the first hit
    and is destroyed by the second: the attacker's cruisers and carrier, and its ground force,
    are destroyed too."""
    played = run(
        space({"units": {"cruiser": 2, "carrier": 1, "ground_force": 1}}, NEKRO),
        [7, 7, 1, 1, 1, 1],
    )
    assert sorted(by_alastor(played)) == [
        ("attacker", "carrier"),
        ("attacker", "cruiser"),
        ("attacker", "cruiser"),
        ("attacker", "ground_force"),
    ]
    assert played.outcome["result"] == "draw"


def test_not_when_the_nekro_attack() -> None:
    """The Nekro attacking: its flagship's loss is only its own. Round 1: flagship 1, 1, 1;
    cruisers 7, 7."""
    played = run(space(NEKRO, {"units": {"cruiser": 2}}), [1, 1, 1, 7, 7])
    assert by_alastor(played) == []
    assert played.outcome["result"] == "defender_win"


def test_exact_odds_defending_against_a_cruiser() -> None:
    """Hand-derived. The flagship (3 dice at 9: a = 1 - (4/5)^3 = 61/125, two lives) against a
    cruiser (7+: p = 2/5), the two-lives duel of tests/ti3/effects.py, except that whenever
    the flagship is destroyed the cruiser goes too: its loss is a draw."""
    win, both, lose = two_lives_duel(at_least_one(3, Fraction(1, 5)), Fraction(2, 5))
    report = odds(space({"units": {"cruiser": 1}}, NEKRO), fractions=True)
    assert (report.defender_win, report.draw, report.attacker_win) == (win, both + lose, 0)


def test_exact_odds_attacking_a_cruiser() -> None:
    """The same duel with the Nekro attacking: no draw from the ability."""
    win, both, lose = two_lives_duel(at_least_one(3, Fraction(1, 5)), Fraction(2, 5))
    report = odds(space(NEKRO, {"units": {"cruiser": 1}}), fractions=True)
    assert (report.attacker_win, report.draw, report.defender_win) == (win, both, lose)


def test_logs_replay_and_the_sampler_plays_as_the_resolver() -> None:
    scenario = space(
        {"units": {"cruiser": 2, "destroyer": 1}, "action_cards": ["direct_hit"]},
        {"units": {"flagship": 1, "cruiser": 1}, "faction": "nekro"},
    )
    assert_logs_replay(scenario, seeds=8)
    assert_sampled_as_played(scenario, trials=40)
