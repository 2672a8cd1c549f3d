"""Fighter Prototype (TI3 action card; data/action_cards.toml; docs/rulings.md 27S-2): played
immediately before a space battle, the holder's fighters get +2 on their combat rolls in the
first round of that battle (PC_Twi e_a_FighterPrototype).

Dice: a pool rolls its groups in ascending printed value, then unit name; in an exchange the
attacker rolls before the defender."""

from __future__ import annotations

from fractions import Fraction
from typing import Any, cast

from spacecombat import odds
from tests.helpers import assert_logs_replay, assert_sampled_as_played, events, rolls, run
from tests.ti3.effects import space

HOLDER = {"units": {"carrier": 1, "fighter": 1}, "action_cards": ["fighter_prototype"]}


def hit_on(played: Any, player: str) -> list[list[tuple[str, int]]]:
    """Each space combat roll of ``player``: its groups' (unit, value hit on)."""
    return [
        [(g["unit"], g["hit_on"]) for g in cast("list[dict[str, Any]]", r["groups"])]
        for r in rolls(played, "space_combat")
        if r["player"] == player
    ]


def test_plus_two_on_the_fighters_in_round_1_only() -> None:
    """The fighter hits on 7 in round 1, on 9 after; the carrier on 9 throughout. Round 1:
    carrier 1, fighter 1; cruiser 1 (all miss). Round 2: carrier 1, fighter 9 (hit); cruiser
    1."""
    played = run(space(HOLDER, {"units": {"cruiser": 1}}), [1, 1, 1, 1, 9, 1])
    assert [e["card"] for e in events(played, "card_played")] == ["fighter_prototype"]
    assert hit_on(played, "attacker") == [
        [("carrier", 9), ("fighter", 7)],
        [("carrier", 9), ("fighter", 9)],
    ]
    assert played.outcome["result"] == "attacker_win"


def test_not_offered_without_fighters() -> None:
    """A holder with no fighter in the battle is not asked. Round 1: 9; 1."""
    played = run(
        space(
            {"units": {"carrier": 1}, "action_cards": ["fighter_prototype"]},
            {"units": {"cruiser": 1}},
        ),
        [9, 1],
    )
    assert not events(played, "choice_made", decision="play_card")


def test_policy_never_keeps_the_card() -> None:
    played = run(
        space(
            {**HOLDER, "policy": {"play": {"fighter_prototype": "never"}}},
            {"units": {"cruiser": 1}},
        ),
        [1, 1, 1, 9, 1, 1],
    )
    assert not events(played, "card_played")
    assert hit_on(played, "attacker")[0] == [("carrier", 9), ("fighter", 9)]


def test_exact_odds_a_carrier_and_a_fighter_with_the_card_against_a_cruiser() -> None:
    """Hand-derived. A hit of the cruiser (on 7: 2/5) takes the fighter first; one attacker
    hit destroys the cruiser. Round 1: the attacker hits with 1 - 4/5 * 3/5 = 13/25 (fighter on
    7 with the card) and wins then whatever the cruiser does: 65/125. Misses while the cruiser
    hits (24/125): the carrier alone (1/5) against the cruiser (2/5), a duel repeated until
    someone hits: win 3/13, both 2/13, lose 8/13. Both miss (36/125): then rounds with both
    ships at 9 (9/25): win 45/77, or the fighter lost first (32/77) and the duel above.
    Attacker: 65/125 + 24/125 * 3/13 + 36/125 * (45/77 + 32/77 * 3/13) = 761/1001; draw
    24/125 * 2/13 + 36/125 * 32/77 * 2/13 = 48/1001."""
    report = odds(space(HOLDER, {"units": {"cruiser": 1}}), fractions=True)
    assert (report.attacker_win, report.draw, report.defender_win) == (
        Fraction(761, 1001),
        Fraction(48, 1001),
        Fraction(192, 1001),
    )


def test_logs_replay_and_the_sampler_plays_as_the_resolver() -> None:
    scenario = space(
        {"units": {"carrier": 2, "fighter": 4}, "action_cards": ["fighter_prototype"]},
        {
            "units": {"cruiser": 2, "fighter": 2, "carrier": 1},
            "action_cards": ["fighter_prototype"],
        },
    )
    assert_logs_replay(scenario, seeds=8)
    assert_sampled_as_played(scenario, trials=40)
