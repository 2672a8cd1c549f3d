"""Evelyn Delouis (Sol agent; abilities/evelyn_delouis.py): at the start of a ground-combat
round, exhaust her: 1 ground force in the combat rolls 1 additional die that round
(ti4-combat-effects.md §4; data/cards.toml). Offered through "play_card" in the "start of
combat round" window of a ground combat (ti4-ground-combat.md rule 4.1, note 1), one option
per type of the holder's ground forces, the likeliest to hit first."""

from __future__ import annotations

from collections.abc import Mapping
from fractions import Fraction
from typing import Any, cast

import pytest

from spacecombat import odds
from spacecombat.core.engine import Played
from spacecombat.rulesets.ti4.state import BattleState
from tests.helpers import events, invasion, rolls, run


def _groups(roll: Mapping[str, object]) -> list[dict[str, Any]]:
    """The dice groups of a ``dice_rolled`` event."""
    return cast("list[dict[str, Any]]", roll["groups"])


def scenario(attacker: str = "1 carrier, 1 infantry", **extra: Any) -> dict[str, Any]:
    return invasion(
        {"units": attacker, "faction": "sol", "leaders": ["evelyn_delouis"], **extra},
        {"units": "1 infantry"},
    )


def attacker_dice(played: Played[BattleState]) -> list[dict[str, int]]:
    return [
        {g["unit"]: len(g["faces"]) for g in _groups(r)}
        for r in rolls(played, "ground_combat")
        if r["player"] == "attacker"
    ]


def test_one_more_die_in_the_first_round_only() -> None:
    # Spec Ops I hit on 7; round 1: 2 dice miss, defender misses; round 2: 1 die hits
    played = run(scenario(), [1, 1, 1, 7, 1])
    [card] = events(played, "card_played")
    assert (card["player"], card["card"], card["round"]) == ("attacker", "evelyn_delouis", 1)
    assert attacker_dice(played) == [{"infantry": 2}, {"infantry": 1}]


def test_the_stock_policy_picks_the_unit_likeliest_to_hit() -> None:
    played = run(scenario("1 carrier, 1 infantry, 1 mech"), [7, 7, 7, 1])
    [choice] = events(played, "choice_made", decision="play_card")
    assert choice["options"] == [
        "play evelyn_delouis: on mech",
        "play evelyn_delouis: on infantry",
        "pass",
    ]
    assert attacker_dice(played) == [{"mech": 2, "infantry": 1}]


def test_a_scripted_choice_of_unit() -> None:
    played = run(
        scenario("1 carrier, 1 infantry, 1 mech"),
        [7, 7, 7, 1],
        attacker=["play evelyn_delouis: on infantry"],
    )
    assert attacker_dice(played) == [{"mech": 1, "infantry": 2}]


def test_policy_never() -> None:
    played = run(scenario(policy={"play": {"evelyn_delouis": "never"}}), [7, 1])
    assert not events(played, "card_played")
    assert attacker_dice(played) == [{"infantry": 1}]


def test_a_scripted_pass_then_play_in_round_two() -> None:
    played = run(scenario(), [1, 1, 1, 7, 1], attacker=["pass", "play evelyn_delouis: on infantry"])
    assert attacker_dice(played) == [{"infantry": 1}, {"infantry": 2}]


def test_not_in_space_combat() -> None:
    sc = {**scenario(), "battle": "space"}
    sc["attacker"] = {**sc["attacker"], "units": "1 cruiser"}
    sc["defender"] = {"units": "1 cruiser"}
    played = run(sc, [7, 1])
    assert not events(played, "choice_made", decision="play_card")


def test_exact_odds_hand_derived() -> None:
    """Spec Ops I (7: 2/5) with 2 dice in round 1 against 1 infantry (8: 3/10). Round 1: the
    attacker hits with 16/25; then 1 v 1 (2/5 v 3/10): won 14/29, drawn 6/29, lost 9/29.
    Attacker 16/25*7/10 + 9/25*7/10*14/29 = 413/725; draw 16/25*3/10 + 63/250*6/29 = 177/725;
    defender 9/25*3/10 + 63/250*9/29 = 27/145."""
    found = odds(scenario())
    assert found.attacker_win == pytest.approx(float(Fraction(413, 725)), abs=1e-12)
    assert found.draw == pytest.approx(float(Fraction(177, 725)), abs=1e-12)
    assert found.defender_win == pytest.approx(float(Fraction(27, 145)), abs=1e-12)
