"""Tekklar Legion (Sardakk promissory note; abilities/tekklar_legion.py): played in the "start
of combat" window of a ground combat (ti4-ground-combat.md rule 4.1): +1 to the holder's
combat rolls (step 1) in that ground combat, and -1 to the opponent's if they are the Sardakk
N'orr (docs/rulings.md 14C-4)."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import pytest

from spacecombat import odds
from tests.helpers import events, invasion, rolls, run, space

TL = {"promissory_notes": ["tekklar_legion"]}


def groups_of(roll: object) -> list[dict[str, Any]]:
    """The groups of a ``dice_rolled`` event."""
    assert isinstance(roll, dict)
    found: list[dict[str, Any]] = roll["groups"]
    return found


def landing(
    defender: dict[str, Any] | None = None, planets: int = 1, **attacker: Any
) -> dict[str, Any]:
    return invasion(
        {"units": f"1 carrier, {planets} infantry", **TL, **attacker},
        defender or {},
        planets=[
            {"name": f"P{i}", "defender": {"infantry": 1}, "commit": "1 infantry"}
            for i in range(planets)
        ],
    )


def hit_on(played: Any, player: str) -> list[int]:
    return [
        g["hit_on"]
        for r in rolls(played, "ground_combat")
        if r["player"] == player
        for g in groups_of(r)
    ]


def test_plus_one_for_the_whole_ground_combat() -> None:
    # round 1 both miss, round 2 the attacker hits on 7 (8 - 1) again
    played = run(landing(), [1, 1, 7, 1])
    [card] = events(played, "card_played")
    assert (card["player"], card["card"], card["round"]) == ("attacker", "tekklar_legion", 1)
    assert hit_on(played, "attacker") == [7, 7]
    assert hit_on(played, "defender") == [8, 8]


def test_minus_one_to_a_sardakk_opponent() -> None:
    # the Sardakk defender: infantry 8, Unrelenting +1, Tekklar -1: 8
    played = run(landing({"faction": "sardakk"}), [7, 1])
    assert hit_on(played, "attacker") == [7]
    assert hit_on(played, "defender") == [8]


def test_only_the_ground_combat_it_was_played_in() -> None:
    # two planets, one infantry lands on each: the note is played on the first only
    scenario = landing(planets=2)
    played = run(scenario, [7, 1, 8, 1], all_dice=True)
    assert len(events(played, "card_played")) == 1
    assert hit_on(played, "attacker") == [7, 8]


def test_policy_never_and_a_scripted_pass() -> None:
    played = run(landing(policy={"play": {"tekklar_legion": "never"}}), [8, 1])
    assert not events(played, "card_played")
    assert hit_on(played, "attacker") == [8]
    passed = run(landing(), [8, 1], attacker=["pass"])
    assert not events(passed, "card_played")
    assert hit_on(passed, "attacker") == [8]


def test_not_in_space_combat() -> None:
    played = run(space({"units": "1 cruiser", **TL}, {"units": "1 cruiser"}), [7, 1])
    assert not events(played, "card_played")


def test_the_sardakk_player_does_not_play_their_own_note() -> None:
    played = run(landing(faction="sardakk"), [7, 1])
    assert not events(played, "card_played")
    assert hit_on(played, "attacker") == [7]  # Unrelenting only


def test_exact_odds_hand_derived() -> None:
    """1 infantry (on 7 with the note: 2/5) lands on 1 Sardakk infantry (8 + 1 - 1: on 8,
    3/10). Per round won 2/5 · 7/10 = 7/25, drawn 2/5 · 3/10 = 3/25, lost 3/5 · 3/10 = 9/50,
    again 21/50: won 14/29, drawn 6/29, lost 9/29."""
    found = odds(landing({"faction": "sardakk"}))
    assert found.attacker_win == pytest.approx(float(Fraction(14, 29)), abs=1e-12)
    assert found.draw == pytest.approx(float(Fraction(6, 29)), abs=1e-12)
    assert found.defender_win == pytest.approx(float(Fraction(9, 29)), abs=1e-12)
