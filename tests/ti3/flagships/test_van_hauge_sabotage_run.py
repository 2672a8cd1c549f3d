"""Sabotage Runs (Shattered Empire option, 27A-1 to 27A-5: fighters sent against an enemy War
Sun; the War Sun fires at each first, a natural 10 of those left destroys it, the others are
lost) with Van Hauge's ground forces fighting as fighters (docs/rulings.md 27T-16): they are
fighters for the run (27S-42), sent after the fighters, lost to the War Sun's fire after them,
and their dice rolled after the fighters', type by type.

Dice: the War Sun's dice (at 3) for each unit of the run; the run's dice, the fighters' first;
then the rounds (the attacker before the defender)."""

from __future__ import annotations

from fractions import Fraction
from functools import cache
from math import comb
from typing import Any, cast

from spacecombat import odds
from tests.helpers import assert_logs_replay, assert_sampled_as_played, events, rolls, run
from tests.ti3.effects import space

YIN = {"faction": "yin"}
OPTIONS = {"sabotage_runs": True}


def battle(units: dict[str, int], war_suns: int = 1, **attacker: Any) -> dict[str, Any]:
    return space(
        {"units": units, **YIN, **attacker}, {"units": {"war_sun": war_suns}}, options=OPTIONS
    )


def test_ground_forces_run_after_the_fighters() -> None:
    """A fighter and two ground forces are sent. War Sun fire 1, 1, 3 (one hit): the fighter
    is lost first. The ground forces roll 10, 1: the War Sun is destroyed; the 1 is lost."""
    played = run(
        battle({"flagship": 1, "carrier": 1, "fighter": 1, "ground_force": 2}), [1, 1, 3, 10, 1]
    )
    (sent,) = events(played, "sabotage_run")
    assert (sent["fighters"], sent["ground_forces"]) == (1, {"ground_force": 2})
    lost = [(e["unit"], e["cause"]) for e in events(played, "unit_destroyed")]
    assert lost == [
        ("fighter", "sabotage run: War Sun fire"),
        ("war_sun", "sabotage run"),
        ("ground_force", "sabotage run"),
    ]
    (roll,) = rolls(played, "sabotage_run")
    assert [g["unit"] for g in cast("list[dict[str, Any]]", roll["groups"])] == ["ground_force"]
    assert played.outcome["result"] == "attacker_win"


def test_several_tens_destroy_one_war_sun() -> None:
    """Two War Suns; a fighter and a ground force run: War Sun fire 1, 1. The fighter rolls
    10 (one War Sun destroyed), then the ground force 10 (none more): both return. Round 1:
    the Yin 5, 5 (the other War Sun sustains, then is destroyed), carrier 1, fighter 1, ground
    force 1; the War Sun 1, 1, 1."""
    played = run(
        battle({"flagship": 1, "carrier": 1, "fighter": 1, "ground_force": 1}, war_suns=2),
        [1, 1, 10, 10, 5, 5, 1, 1, 1, 1, 1, 1],
    )
    units = [
        [g["unit"] for g in cast("list[dict[str, Any]]", r["groups"])]
        for r in rolls(played, "sabotage_run")
    ]
    assert units == [["fighter"], ["ground_force"]]
    by_run = [e["status"] for e in events(played, "unit_destroyed", cause="sabotage run")]
    assert by_run == ["undamaged"]
    assert played.outcome["result"] == "attacker_win"


def test_declined_van_hauge_they_do_not_run() -> None:
    """policy never for yin_flagship: no fighter to send, no run. Round 1: 5, 5 (two hits);
    the War Sun 1, 1, 1. Round 2: 5; 1, 1, 1."""
    played = run(
        battle({"flagship": 1, "ground_force": 1}, policy={"play": {"yin_flagship": "never"}}),
        [5, 5, 1, 1, 1],
    )
    assert not events(played, "sabotage_run")


@cache
def _duel(yin: int, war_sun: int) -> tuple[Fraction, Fraction, Fraction]:
    """Van Hauge (2 dice at 5, ``yin`` lives) against a War Sun (3 dice at 3, ``war_sun``
    lives), by the rounds; a round where nobody hits repeats."""
    ours = [comb(2, k) * Fraction(3, 5) ** k * Fraction(2, 5) ** (2 - k) for k in range(3)]
    theirs = [comb(3, k) * Fraction(4, 5) ** k * Fraction(1, 5) ** (3 - k) for k in range(4)]
    stay = ours[0] * theirs[0]
    total = [Fraction(0)] * 3
    for h, p in enumerate(ours):
        for k, q in enumerate(theirs):
            if not h and not k:
                continue
            a, d = max(0, yin - k), max(0, war_sun - h)
            if a and d:
                after = _duel(a, d)
            else:
                after = (
                    Fraction(int(bool(a))),
                    Fraction(int(not a and not d)),
                    Fraction(int(not a and bool(d))),
                )
            for i in range(3):
                total[i] += p * q * after[i]
    return (total[0] / (1 - stay), total[1] / (1 - stay), total[2] / (1 - stay))


def test_exact_odds_a_ground_force_runs() -> None:
    """Hand-derived: the ground force survives the War Sun's die (at 3) with 2/10 and rolls a
    10 with 1/10: the War Sun is destroyed (1/50) and the Yin win; otherwise the ground force
    is lost and Van Hauge fights the War Sun alone (``_duel``, two lives each)."""
    report = odds(battle({"flagship": 1, "ground_force": 1}), fractions=True)
    duel = _duel(2, 2)
    run_wins = Fraction(1, 50)
    expected = (
        run_wins + (1 - run_wins) * duel[0],
        (1 - run_wins) * duel[1],
        (1 - run_wins) * duel[2],
    )
    assert (report.attacker_win, report.draw, report.defender_win) == expected


def test_logs_replay_and_the_sampler_plays_as_the_resolver() -> None:
    scenario = battle({"flagship": 1, "carrier": 1, "fighter": 2, "ground_force": 2}, war_suns=1)
    assert_logs_replay(scenario, seeds=6)
    assert_sampled_as_played(scenario, trials=30)
