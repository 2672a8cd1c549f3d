"""Ragh's Call (Saar promissory note; abilities/raghs_call.py): after you commit units to land on
a planet, remove all of the Saar player's ground forces from it and place them on a planet the
Saar player controls (ti4-combat-effects.md §5; data/cards.toml). Played by the attacker through
"play_card" after invasion step 2 (invasion.py ``after_commit``); the Saar forces leave the
battle."""

from __future__ import annotations

from typing import Any

import pytest

from spacecombat import odds
from spacecombat.core.errors import RuleNotImplemented
from tests.helpers import events, invasion, run, survivors

NOTE = {"promissory_notes": ["raghs_call"]}


def scenario(defender: dict[str, Any] | None = None, **attacker: Any) -> dict[str, Any]:
    return invasion(
        {"units": "1 carrier, 1 infantry", **NOTE, **attacker},
        defender if defender is not None else {"units": "2 infantry", "faction": "saar"},
    )


def test_the_saar_ground_forces_leave() -> None:
    played = run(scenario(), [])
    [card] = events(played, "card_played")
    assert (card["player"], card["card"], card["round"]) == ("attacker", "raghs_call", 0)
    [moved] = events(played, "ground_forces_returned")
    assert (moved["units"], moved["by"]) == ([{"unit": "infantry", "count": 2}], "raghs_call")
    assert not events(played, "combat_started")
    assert played.outcome["winner"] == "attacker"
    assert survivors(played, "defender", "planet") == {}


def test_only_against_the_saar() -> None:
    played = run(scenario({"units": "1 infantry"}), [10, 1])
    assert not events(played, "choice_made", decision="play_card")


def test_a_scripted_pass_and_policy_never() -> None:
    played = run(scenario(), [1, 10, 10], attacker=["pass"])
    assert not events(played, "card_played")
    played = run(scenario(policy={"play": {"raghs_call": "never"}}), [1, 10, 10])
    assert not events(played, "card_played")


def test_several_planets_are_refused_by_name() -> None:
    sc = invasion(
        {"units": "1 carrier, 2 infantry", **NOTE},
        {"faction": "saar"},
        planets=[
            {"name": "A", "defender": {"infantry": 1}, "commit": {"infantry": 1}},
            {"name": "B", "defender": {"infantry": 1}, "commit": {"infantry": 1}},
        ],
    )
    with pytest.raises(RuleNotImplemented, match="raghs_call"):
        odds(sc)


def test_exact_odds_hand_derived() -> None:
    """Played, the attacker lands unopposed: it wins with probability 1."""
    assert odds(scenario()).attacker_win == pytest.approx(1.0, abs=1e-12)
