"""Experimental Battlestation (TI3 base action card; data/action_cards.toml; docs/rulings.md
27S-20): after the opponent moved ships into the system, one of the holder's space docks fires
three times at them as one of its PDS (PDS fire before the space battle).

Dice: a pool rolls its groups in ascending printed value, then unit name; PDS fire: the
attacker rolls before the defender."""

from __future__ import annotations

from fractions import Fraction
from typing import Any, cast

from spacecombat import odds
from tests.helpers import assert_logs_replay, assert_sampled_as_played, events, rolls, run
from tests.ti3.effects import space

DOCK = {"units": {"cruiser": 1, "space_dock": 1}, "action_cards": ["experimental_battlestation"]}


def test_three_pds_dice_from_the_space_dock() -> None:
    """PDS fire: the dock's 3 dice at 6: 1, 1, 6 (the attacker's cruiser destroyed): no
    battle."""
    played = run(space({"units": {"cruiser": 1}}, DOCK), [1, 1, 6])
    [pds] = rolls(played, "pds_fire")
    groups = cast("list[dict[str, Any]]", pds["groups"])
    assert [(g["unit"], g["hit_on"], len(g["faces"])) for g in groups] == [("pds", 6, 3)]
    assert played.outcome["result"] == "no_combat"


def test_with_the_planets_pds_one_group() -> None:
    """A PDS and the card: 4 dice at 6. PDS fire: 1, 1, 1, 1; round 1: 7; 1."""
    side = {**DOCK, "units": {"cruiser": 1, "space_dock": 1, "pds": 1}}
    played = run(space({"units": {"cruiser": 1}}, side), [1, 1, 1, 1, 7, 1])
    [pds] = rolls(played, "pds_fire")
    groups = cast("list[dict[str, Any]]", pds["groups"])
    assert [len(g["faces"]) for g in groups] == [4]


def test_not_offered_without_a_space_dock() -> None:
    played = run(
        space(
            {"units": {"cruiser": 1}},
            {"units": {"cruiser": 1}, "action_cards": ["experimental_battlestation"]},
        ),
        [7, 1],
    )
    assert not events(played, "choice_made", decision="play_card")


def test_exact_odds_against_a_cruiser() -> None:
    """Hand-derived. The 3 dice at 6 (1/2 each) miss the cruiser with (1/2)^3 = 1/8; a hit
    leaves the attacker without ships: no battle, 7/8. Otherwise the cruiser duel (7+ each:
    3/8, 1/4, 3/8): attacker 3/64, draw 1/32, defender 3/64."""
    report = odds(space({"units": {"cruiser": 1}}, DOCK), fractions=True)
    assert report.other["no_combat"] == Fraction(7, 8)
    assert (report.attacker_win, report.draw, report.defender_win) == (
        Fraction(3, 64),
        Fraction(1, 32),
        Fraction(3, 64),
    )


def test_logs_replay_and_the_sampler_plays_as_the_resolver() -> None:
    scenario = space(
        {"units": {"cruiser": 3, "dreadnought": 1}},
        {**DOCK, "units": {"cruiser": 2, "space_dock": 1, "pds": 1}},
    )
    assert_logs_replay(scenario, seeds=8)
    assert_sampled_as_played(scenario, trials=40)
