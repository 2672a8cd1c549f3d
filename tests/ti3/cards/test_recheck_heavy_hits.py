"""Recheck (27S-38) with [0.0.1] (27S-9) or Experimental Weaponry (27S-26): the heavy units'
groups are rolled first, their hits counted apart (they go on non-fighter ships), and the die
Recheck re-rolls keeps the count right: a hit of a heavy unit re-rolled into a hit is a heavy
hit again, a heavy miss re-rolled into a hit a heavy hit (docs/rulings.md 27S-40).

Dice: while Recheck is held a roll is made group by group (the heavy units' first), then the
holders asked (the attacker first), then the re-rolled die; in an exchange the attacker rolls
before the defender; a pool's other groups in ascending printed value, then unit name."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from spacecombat import odds
from tests.helpers import assert_logs_replay, assert_sampled_as_played, events, run
from tests.ti3.effects import space, two_lives_duel

RECHECK = ["recheck"]


def lost(played: Any, player: str) -> list[object]:
    return [e["unit"] for e in events(played, "unit_destroyed") if e["player"] == player]


def test_the_flagships_rerolled_miss_is_a_heavy_hit() -> None:
    """[0.0.1] (5 x3) holding Recheck against two carriers and two fighters: the stock
    defender would lose its fighters first; both hits must go on the carriers. Round 1:
    flagship 5, 1, 1 (one hit), a miss re-rolled: 5 (a hit, heavy); carriers 1, 1, fighters
    1, 1. Then 5s (the attacker's hits, the defender's misses) until the battle ends."""
    played = run(
        space(
            {"units": {"flagship": 1}, "faction": "l1z1x", "action_cards": RECHECK},
            {"units": {"carrier": 2, "fighter": 2}},
        ),
        [5, 1, 1, 5, 1, 1, 1, 1, *[5] * 40],
        all_dice=False,
    )
    assert [e["card"] for e in events(played, "card_played")] == ["recheck"]
    assert lost(played, "defender")[:2] == ["carrier", "carrier"]


def test_the_opponents_heavy_hit_rerolled_away() -> None:
    """The defender holds Recheck against [0.0.1] and a war sun (3 x3, not a heavy unit of
    [0.0.1]). Round 1: flagship 5, 1, 1 (a heavy hit); war sun 3, 1, 1 (a hit, not heavy); the
    defender has the likeliest hit to miss re-rolled, the flagship's (2/5, the war sun's 1/5):
    2 (a miss). The war sun's hit is left, and the stock defender gives a fighter for it;
    carrier 1, fighters 1, 1. Then 5s until the battle ends."""
    played = run(
        space(
            {"units": {"flagship": 1, "war_sun": 1}, "faction": "l1z1x"},
            {"units": {"carrier": 1, "fighter": 2}, "action_cards": RECHECK},
        ),
        [5, 1, 1, 3, 1, 1, 2, 1, 1, 1, *[5] * 40],
        all_dice=False,
    )
    assert [e["player"] for e in events(played, "card_played")] == ["defender"]
    assert lost(played, "defender")[0] == "fighter"


def test_experimental_weaponry_a_rerolled_dreadnought_die() -> None:
    """The attacker's dreadnought plays Experimental Weaponry (round 1) and holds Recheck,
    against two carriers and two fighters. Round 1: dreadnought 1 (a miss), re-rolled: 5 (a
    hit, heavy): a carrier, not a fighter; carriers 1, 1, fighters 1, 1."""
    played = run(
        space(
            {"units": {"dreadnought": 1}, "action_cards": ["experimental_weaponry", *RECHECK]},
            {"units": {"carrier": 2, "fighter": 2}},
        ),
        [1, 5, 1, 1, 1, 1, *[5] * 40],
        all_dice=False,
    )
    assert [e["card"] for e in events(played, "card_played")] == [
        "experimental_weaponry",
        "recheck",
    ]
    assert lost(played, "defender")[0] == "carrier"


def test_exact_odds_the_flagship_holding_recheck_against_a_cruiser() -> None:
    """Hand-derived. [0.0.1] (3 dice at 5: 3/5 each; two lives) holds Recheck against a
    cruiser (7: 2/5). Round 1: the stock holder re-rolls one of its own missed dice at once:
    it hits at least once unless all three miss and the re-roll too, 1 - (2/5)^4 = 609/625,
    and wins (the cruiser's hit can only damage it). Else (16/625; the card spent) the cruiser
    hits with 2/5 and damages it; then the plain duel, a = 1 - (2/5)^3 = 117/125 against p =
    2/5 (tests/ti3/effects.py): undamaged it wins a / (1 - r); damaged, a (1 - p) / (1 - r),
    both destroyed a p / (1 - r), the cruiser (1 - a) p / (1 - r), r = (1 - a)(1 - p)."""
    a, p = Fraction(117, 125), Fraction(2, 5)
    r = (1 - a) * (1 - p)
    fresh = two_lives_duel(a, p)
    damaged = (a * (1 - p) / (1 - r), a * p / (1 - r), (1 - a) * p / (1 - r))
    first = Fraction(609, 625)
    rest = 1 - first
    expected = tuple(
        (first if i == 0 else 0) + rest * ((1 - p) * fresh[i] + p * damaged[i]) for i in range(3)
    )
    report = odds(
        space(
            {"units": {"flagship": 1}, "faction": "l1z1x", "action_cards": RECHECK},
            {"units": {"cruiser": 1}},
        ),
        fractions=True,
    )
    assert (report.attacker_win, report.draw, report.defender_win) == expected


def test_logs_replay_and_the_sampler_plays_as_the_resolver() -> None:
    scenario = space(
        {
            "units": {"flagship": 1, "dreadnought": 1, "cruiser": 1},
            "faction": "l1z1x",
            "action_cards": RECHECK,
        },
        {
            "units": {"carrier": 1, "fighter": 2, "dreadnought": 1},
            "action_cards": ["experimental_weaponry", *RECHECK],
        },
    )
    assert_logs_replay(scenario, seeds=6)
    assert_sampled_as_played(scenario, trials=30)
