"""Into the Breach (TI3 base action card; data/action_cards.toml; docs/rulings.md 27A-10):
played immediately before a space battle on one of the holder's dreadnoughts: its ships get
+1 on every combat roll for the battle, and the first 2 hits against its fleet go on that
dreadnought.

Dice: a pool rolls its groups in ascending printed value, then unit name; in an exchange the
attacker rolls before the defender."""

from __future__ import annotations

from fractions import Fraction
from typing import Any, cast

from spacecombat import odds
from tests.helpers import assert_logs_replay, assert_sampled_as_played, events, rolls, run
from tests.ti3.effects import space as ti3


def hit_on(played: Any, purpose: str, player: str) -> list[tuple[str, int]]:
    return [
        (g["unit"], g["hit_on"])
        for r in rolls(played, purpose)
        if r["player"] == player
        for g in cast("list[dict[str, Any]]", r["groups"])
    ]


HOLDER = {"action_cards": ["into_the_breach"]}


def test_plus_one_on_every_combat_roll_of_the_holders_ships() -> None:
    """The card is played before round 1: the dreadnought hits on 4 and the cruiser on 6;
    the defender's cruisers still on 7. Round 1: 4 (hit), 6 (hit); 1, 1."""
    played = run(
        ti3({"units": {"dreadnought": 1, "cruiser": 1}, **HOLDER}, {"units": {"cruiser": 2}}),
        [4, 6, 1, 1],
    )
    assert [e["card"] for e in events(played, "card_played")] == ["into_the_breach"]
    assert hit_on(played, "space_combat", "attacker") == [("dreadnought", 4), ("cruiser", 6)]
    assert hit_on(played, "space_combat", "defender") == [("cruiser", 7)]
    assert played.outcome["result"] == "attacker_win"


def test_the_first_two_hits_go_on_the_dreadnought() -> None:
    """With ``sustain: last`` the stock player would lose its cruiser first; the card makes the
    first 2 hits go on the dreadnought: it sustains the first and is destroyed by the second.
    Round 1: dreadnought 1, cruiser 1 (misses); the defender's cruisers 7, 7 (two hits).
    Rounds 2 and 3: the cruiser (6 with the card) hits each time, the defender misses."""
    played = run(
        ti3(
            {"units": {"dreadnought": 1, "cruiser": 1}, **HOLDER, "policy": {"sustain": "last"}},
            {"units": {"cruiser": 2}},
        ),
        [1, 1, 7, 7, 6, 1, 1, 6, 1],
    )
    sustained = [(e["player"], e["unit"]) for e in events(played, "damage_sustained")]
    assert sustained == [("attacker", "dreadnought")]
    first_destroyed = events(played, "unit_destroyed")[0]
    assert (first_destroyed["player"], first_destroyed["unit"]) == ("attacker", "dreadnought")


def test_played_before_the_pre_combat_steps() -> None:
    """ "Immediately before a space battle": before Assault Cannon, whose shot then gets the
    +1 too (a pre-combat shot is a combat roll, T4): the dreadnought's shot hits on 4.
    Faces: Assault Cannon 4 (the cruiser is destroyed)."""
    played = run(
        ti3(
            {"units": {"dreadnought": 1}, "technologies": ["assault_cannon"], **HOLDER},
            {"units": {"cruiser": 1}},
        ),
        [4],
    )
    kinds = [e["event"] for e in played.events if e["event"] in ("card_played", "dice_rolled")]
    assert kinds == ["card_played", "dice_rolled"]
    assert hit_on(played, "assault_cannon", "attacker") == [("dreadnought", 4)]


def test_not_offered_without_a_dreadnought() -> None:
    """The card chooses a dreadnought: a holder without one is not asked. Round 1: 7, 1."""
    played = run(ti3({"units": {"cruiser": 1}, **HOLDER}, {"units": {"cruiser": 1}}), [7, 1])
    assert not events(played, "choice_made", decision="play_card")


def test_exact_odds_a_dreadnought_with_the_card_against_a_cruiser() -> None:
    """Hand-derived. The dreadnought hits on 4 (7/10), the cruiser on 7 (2/5); the dreadnought
    takes 2 hits. Undamaged: a round with a dreadnought hit wins (the cruiser's hit is
    sustained): 7/10 over 1 - 3/10 * 3/5 = 41/50, so 35/41; the dreadnought is damaged (it
    misses, the cruiser hits) with 6/41. Damaged: win 21/41, both destroyed 14/41. Attacker:
    35/41 + 6/41 * 21/41 = 1561/1681; draw 6/41 * 14/41 = 84/1681; defender 36/1681."""
    report = odds(
        ti3({"units": {"dreadnought": 1}, **HOLDER}, {"units": {"cruiser": 1}}), fractions=True
    )
    assert (report.attacker_win, report.draw, report.defender_win) == (
        Fraction(1561, 1681),
        Fraction(84, 1681),
        Fraction(36, 1681),
    )


def test_logs_replay_and_the_sampler_plays_as_the_resolver() -> None:
    scenario = ti3(
        {"units": {"dreadnought": 2, "cruiser": 2}, **HOLDER},
        {"units": {"dreadnought": 1, "cruiser": 2}, "action_cards": ["direct_hit"]},
    )
    assert_logs_replay(scenario, seeds=8)
    assert_sampled_as_played(scenario, trials=40)
