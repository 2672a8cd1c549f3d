"""Parley (action card; abilities/parley.py): after another player commits units to land on a
planet you control, return those units to the space area (ti4-combat-effects.md §6;
data/cards.toml). Played by the defender through "play_card" after invasion step 2 (commit
ground forces), before step 3 space cannon defense (invasion.py ``after_commit``)."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import pytest

from spacecombat import odds
from tests.helpers import events, invasion, rolls, run

PARLEY = {"action_cards": ["parley"]}


def scenario(defender: str = "1 infantry", **policy: Any) -> dict[str, Any]:
    extra: dict[str, Any] = {"policy": policy} if policy else {}
    return invasion({"units": "1 carrier, 2 infantry"}, {"units": defender, **PARLEY, **extra})


def test_the_committed_units_go_back_to_space() -> None:
    played = run(scenario(), [])
    [card] = events(played, "card_played")
    assert (card["player"], card["card"], card["round"]) == ("defender", "parley", 0)
    [back] = events(played, "ground_forces_returned")
    assert back == {
        "event": "ground_forces_returned",
        "planet": "planet",
        "units": [{"unit": "infantry", "count": 2}],
        "by": "parley",
    }
    assert not events(played, "combat_started")
    assert played.outcome["winner"] == "defender"
    block = played.outcome["attacker"]
    assert isinstance(block, dict)
    assert block["space"] == [{"unit": "carrier", "count": 1}, {"unit": "infantry", "count": 2}]


def test_before_space_cannon_defense() -> None:
    played = run(scenario("1 infantry, 1 pds"), [])
    assert not rolls(played, "space_cannon_defense")


def test_one_planet_only() -> None:
    sc = invasion(
        {"units": "1 carrier, 2 infantry"},
        {**PARLEY},
        planets=[
            {"name": "A", "defender": {"infantry": 1}, "commit": {"infantry": 1}},
            {"name": "B", "defender": {"infantry": 1}, "commit": {"infantry": 1}},
        ],
    )
    played = run(sc, [10, 1], defender=["pass", "play parley"])
    assert [e["planet"] for e in events(played, "ground_forces_returned")] == ["B"]
    assert [e["planet"] for e in events(played, "combat_started")] == ["A"]


def test_policy_never() -> None:
    played = run(scenario(play={"parley": "never"}), [10, 10, 1])
    assert not events(played, "card_played")
    assert played.outcome["winner"] == "attacker"


def test_the_attackers_parley_does_nothing() -> None:
    sc = invasion({"units": "1 carrier, 1 infantry", **PARLEY}, {"units": "1 infantry"})
    played = run(sc, [10, 1])
    assert not events(played, "choice_made", decision="play_card")


def test_exact_odds_hand_derived() -> None:
    """Played, no ground combat: the defender keeps the planet (probability 1). Not played,
    2 infantry fight 1 (all on 8: from (2, 1) won 170/219 at once, else (1, 1): won 7/17):
    170/219 + 49/219 * 7/17 = 3233/3723."""
    assert odds(scenario()).defender_win == pytest.approx(1.0, abs=1e-12)
    never = odds(scenario(play={"parley": "never"}))
    assert never.attacker_win == pytest.approx(float(Fraction(3233, 3723)), abs=1e-12)
