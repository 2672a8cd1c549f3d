"""Experimental Weaponry (TI3 base action card; data/action_cards.toml; docs/rulings.md
27S-26): played at the start of a combat round of a space battle, the hits of the holder's
dreadnoughts and war suns that round may not be taken by fighters while the opponent has
another ship.

Dice: a pool rolls its groups in ascending printed value, then unit name; in an exchange the
attacker rolls before the defender."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from spacecombat import odds
from tests.helpers import assert_logs_replay, assert_sampled_as_played, events, run
from tests.ti3.effects import space

CARD = {"action_cards": ["experimental_weaponry"]}

#: a cruiser (7+: 2/5) and a fighter (9+: 1/5) its planet's space dock supports
SCREENED = {"units": {"cruiser": 1, "fighter": 1, "space_dock": 1}}


def battle(attacker: dict[str, Any] | None = None) -> dict[str, Any]:
    """A dreadnought (5+: 3/5, SUSTAIN DAMAGE) holding the card."""
    return space({"units": {"dreadnought": 1}, **CARD, **(attacker or {})}, SCREENED)


def destroyed(played: Any, player: str) -> list[object]:
    return [e["unit"] for e in events(played, "unit_destroyed") if e["player"] == player]


def test_the_dreadnoughts_hit_goes_on_the_cruiser() -> None:
    """Round 1 (the card played): 5 (hit); cruiser 1, fighter 1: the stock defender would take
    it on its fighter (first in its casualty order); it must take it on the cruiser. Round 2
    (the fighter alone: not offered): 5; 1."""
    played = run(battle(), [5, 1, 1, 5, 1])
    assert [e["round"] for e in events(played, "card_played")] == [1]
    assert destroyed(played, "defender") == ["cruiser", "fighter"]
    assert played.outcome["result"] == "attacker_win"


def test_without_the_card_the_fighter_goes_first() -> None:
    """``policy.play: never``. Round 1: 5 (hit); 1, 1: the fighter. Round 2: 5; 1."""
    played = run(battle({"policy": {"play": {"experimental_weaponry": "never"}}}), [5, 1, 1, 5, 1])
    assert destroyed(played, "defender") == ["fighter", "cruiser"]


def test_not_offered_against_fighters_alone() -> None:
    """The opponent has no other ship: the card would change nothing. Round 1: 5; 1."""
    played = run(
        space({"units": {"dreadnought": 1}, **CARD}, {"units": {"fighter": 1, "space_dock": 1}}),
        [5, 1],
    )
    assert not events(played, "choice_made", decision="play_card")


def test_exact_odds_one_round_of_it() -> None:
    """Hand-derived (tests/ti3/effects.py's duel, a = 3/5 for the dreadnought). Alone against
    the cruiser (p = 2/5) the dreadnought wins 9/19 damaged (draw 6/19), 321/361 undamaged
    (draw 24/361); against the fighter (p = 1/5), 12/17 damaged (draw 3/17), 279/289 undamaged
    (draw 6/289). The defender's hits in a round with both: none 12/25, one 11/25, two 2/25.
    Without the card, against both (the stock defender losing its fighter first): damaged,
    V1 = (3/5 * 12/25 * (9/19, 6/19)) / (1 - 2/5 * 12/25) = (324/1919, 216/1919); undamaged,
    V2 = (3/5 (12/25 (321/361, 24/361) + 11/25 (9/19, 6/19)) + 2/5 * 11/25 * V1) / (101/125)
    = (1872531/3682561, 557514/3682561). With the card in round 1 its hit takes the cruiser:
    3/5 (12/25 (279/289, 6/289) + 11/25 (12/17, 3/17)) + 2/5 (12/25 V2 + 11/25 V1) =
    (629757144/1064260129, 107964135/1064260129); the defender the rest, 326538850/..."""
    report = odds(battle(), fractions=True)
    assert (report.attacker_win, report.draw, report.defender_win) == (
        Fraction(629757144, 1064260129),
        Fraction(107964135, 1064260129),
        Fraction(326538850, 1064260129),
    )


def test_logs_replay_and_the_sampler_plays_as_the_resolver() -> None:
    scenario = space(
        {"units": {"dreadnought": 1, "war_sun": 1, "carrier": 1, "fighter": 2}, **CARD},
        {"units": {"cruiser": 2, "carrier": 1, "fighter": 3}, **CARD},
    )
    assert_logs_replay(scenario, seeds=8)
    assert_sampled_as_played(scenario, trials=40)
