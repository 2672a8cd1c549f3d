"""A Beacon of Hope (TI3 Shards of the Throne action card; data/action_cards.toml;
docs/rulings.md 27S-7): played before a space battle in which the holder's flagship takes
part, each of the holder's combat dice of the battle's rounds that rolls a 10 produces one hit
more (PC_Twi e_a_BeaconOfHope).

Dice: in an exchange the attacker rolls before the defender."""

from __future__ import annotations

from fractions import Fraction
from functools import cache
from math import comb
from typing import Any

from spacecombat import odds
from tests.helpers import assert_logs_replay, assert_sampled_as_played, events, run
from tests.ti3.effects import space

#: the Arborec flagship, Duha Menaimon: 2 dice at 6, SUSTAIN DAMAGE
HOLDER = {"units": {"flagship": 1}, "faction": "arborec", "action_cards": ["beacon_of_hope"]}


def destroyed(played: Any, player: str) -> int:
    return len([e for e in events(played, "unit_destroyed") if e["player"] == player])


def test_a_ten_produces_two_hits() -> None:
    """Round 1: the flagship 10 (two hits) and 1; the cruisers 1, 1: both destroyed."""
    played = run(space(HOLDER, {"units": {"cruiser": 2}}), [10, 1, 1, 1])
    assert [e["card"] for e in events(played, "card_played")] == ["beacon_of_hope"]
    assert destroyed(played, "defender") == 2
    assert played.outcome["result"] == "attacker_win"


def test_without_the_card_a_ten_is_one_hit() -> None:
    """``policy.play: never``. Round 1: 10, 1; 1, 1 (one cruiser left). Round 2: 6; 1."""
    played = run(
        space(
            {**HOLDER, "policy": {"play": {"beacon_of_hope": "never"}}}, {"units": {"cruiser": 2}}
        ),
        [10, 1, 1, 1, 6, 1, 1],
    )
    assert not events(played, "card_played")
    assert played.outcome["rounds"] == 2


def test_not_offered_without_the_flagship() -> None:
    played = run(
        space(
            {"units": {"cruiser": 1}, "faction": "arborec", "action_cards": ["beacon_of_hope"]},
            {"units": {"cruiser": 1}},
        ),
        [7, 1],
    )
    assert not events(played, "choice_made", decision="play_card")


def test_exact_odds_the_flagship_against_two_cruisers() -> None:
    """Hand-derived by the recursion below (an independent model of the rounds). Each of the
    flagship's 2 dice (6+): a miss 1/2, one hit 2/5 (6 to 9), two hits 1/10 (a 10, with the
    card); each cruiser (7+) hits with 2/5. The flagship has two lives (SUSTAIN DAMAGE), a
    cruiser one; hits are taken at once by both; a round with no hit repeats."""
    die = {0: Fraction(1, 2), 1: Fraction(2, 5), 2: Fraction(1, 10)}
    two_dice: dict[int, Fraction] = {}
    for a, pa in die.items():
        for b, pb in die.items():
            two_dice[a + b] = two_dice.get(a + b, Fraction(0)) + pa * pb

    def cruisers(n: int) -> dict[int, Fraction]:
        p = Fraction(2, 5)
        return {k: comb(n, k) * p**k * (1 - p) ** (n - k) for k in range(n + 1)}

    @cache
    def solve(lives: int, left: int) -> tuple[Fraction, Fraction, Fraction]:
        """(attacker wins, draw, defender wins) from ``lives`` and ``left`` cruisers."""
        stay = Fraction(0)
        win = draw = lose = Fraction(0)
        for h, ph in two_dice.items():
            for k, pk in cruisers(left).items():
                p = ph * pk
                lives_after, left_after = max(0, lives - k), max(0, left - h)
                if (lives_after, left_after) == (lives, left):
                    stay += p
                elif lives_after == 0 and left_after == 0:
                    draw += p
                elif left_after == 0:
                    win += p
                elif lives_after == 0:
                    lose += p
                else:
                    w, d, lo = solve(lives_after, left_after)
                    win, draw, lose = win + p * w, draw + p * d, lose + p * lo
        return win / (1 - stay), draw / (1 - stay), lose / (1 - stay)

    report = odds(space(HOLDER, {"units": {"cruiser": 2}}), fractions=True)
    assert (report.attacker_win, report.draw, report.defender_win) == solve(2, 2)


def test_logs_replay_and_the_sampler_plays_as_the_resolver() -> None:
    scenario = space(
        {
            "units": {"flagship": 1, "cruiser": 1},
            "faction": "jolnar",
            "action_cards": ["beacon_of_hope"],
        },
        {"units": {"cruiser": 3}},
    )
    assert_logs_replay(scenario, seeds=8)
    assert_sampled_as_played(scenario, trials=40)
