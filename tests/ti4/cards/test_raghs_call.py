"""Ragh's Call (Saar promissory note; abilities/raghs_call.py): after you commit units to land on
a planet, remove all of the Saar player's ground forces from it and place them on a planet the
Saar player controls (ti4-combat-effects.md §5; data/cards.toml). Played by the attacker through
"play_card" after invasion step 2 (invasion.py ``after_commit``); the Saar forces leave the
battle, or with several planets go where the Saar player places them (docs/rulings.md 14K-3)."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import pytest

from spacecombat import odds
from spacecombat.replayer import replay
from spacecombat.resolver import resolve
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


def two_planets(b_commit: int = 1, **attacker: Any) -> dict[str, Any]:
    return invasion(
        {"units": "1 carrier, 3 infantry", **NOTE, **attacker},
        {"faction": "saar"},
        planets=[
            {"name": "A", "defender": {"infantry": 1}, "commit": {"infantry": 1}},
            {"name": "B", "defender": {"infantry": 1}, "commit": {"infantry": b_commit}},
            {"name": "C", "defender": {}},
        ],
    )


def test_several_planets_the_stock_saar_player_defends_where_the_invader_landed() -> None:
    """14K-3: played at A, the Saar player places its infantry on B, where the invader landed,
    ahead of C, where it did not."""
    played = run(two_planets(), [1, 1, 8])
    [choice] = events(played, "choice_made", decision="place_ground_forces")
    assert choice["player"] == "defender"
    assert choice["options"] == ["place on B", "place on C", "place outside the battle"]
    [moved] = events(played, "ground_forces_returned")
    assert (moved["planet"], moved["to"], moved["by"]) == ("A", "B", "raghs_call")
    [fight] = events(played, "combat_started")
    assert fight["planet"] == "B"
    defender = played.outcome["defender"]
    assert isinstance(defender, dict)
    assert defender["planets"][1] == [{"unit": "infantry", "count": 2}]


def test_several_planets_a_scripted_saar_player_leaves_the_battle() -> None:
    played = run(two_planets(), [8, 1], defender=["place outside the battle"])
    [moved] = events(played, "ground_forces_returned")
    assert "to" not in moved
    assert [e["planet"] for e in events(played, "control_established")] == ["A", "B"]


def test_several_planets_placed_on_a_planet_without_an_invader() -> None:
    played = run(two_planets(), [8, 1], defender=["place on C"])
    defender = played.outcome["defender"]
    assert isinstance(defender, dict)
    assert defender["planets"][2] == [{"unit": "infantry", "count": 1}]


def test_several_planets_a_log_replays() -> None:
    seeded = resolve(two_planets(), seed=4)
    assert events(seeded, "choice_made", decision="place_ground_forces")
    report = replay(list(seeded.events))
    assert report.reproduces, report.reason


def test_several_planets_exact_odds() -> None:
    """At B 1 invading infantry meets the 2 Saar infantry (its own and A's), each hitting on 8
    (p = 3/10); A is taken unopposed. 1 against 2: a round ends it with the attacker's miss and
    the defenders' hit 0.7 * 0.51 = 0.357 (lost); goes to 1 against 1 with 0.3 * 0.49 = 0.147;
    repeats with 0.7 * 0.49 = 0.343; both hit 0.3 * 0.51 = 0.153 (both gone: a draw).
    1 against 1: won 7/17, drawn 3/17. Won at B: 0.147/0.657 * 7/17 = 343/3723."""
    found = odds(two_planets())
    won = Fraction(147, 657) * Fraction(7, 17)
    assert won == Fraction(343, 3723)
    assert found.planets["B"]["taken"] == pytest.approx(float(won), abs=1e-12)
    assert found.planets["A"]["taken"] == pytest.approx(1.0, abs=1e-12)


def test_exact_odds_hand_derived() -> None:
    """Played, the attacker lands unopposed: it wins with probability 1."""
    assert odds(scenario()).attacker_win == pytest.approx(1.0, abs=1e-12)
