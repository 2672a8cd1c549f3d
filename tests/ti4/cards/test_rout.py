"""Rout (action card; abilities/rout.py): at the start of the Announce Retreats step, the
defender makes the attacker announce a retreat this round, if able (ti4-combat-effects.md;
data/cards.toml), played through the "play_card" decision in the "announce_retreats" window
opened at the start of that step (ti4-space-combat.md step 2; procedures/space_combat.py)."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import pytest

from spacecombat import odds
from tests.helpers import events, run, space

NEIGHBOURS = {
    "adjacent": [
        {"name": "home", "units": ["attacker"]},
        {"name": "haven", "units": ["defender"]},
    ]
}


def battle(**policy: Any) -> dict[str, Any]:
    defender: dict[str, Any] = {"units": "1 cruiser", "action_cards": ["rout"]}
    if policy:
        defender["policy"] = policy
    return space({"units": "1 cruiser"}, defender, system=NEIGHBOURS)


def test_the_attacker_must_announce_a_retreat() -> None:
    played = run(battle(), [1, 1])
    [card] = events(played, "card_played")
    assert (card["player"], card["round"]) == ("defender", 1)
    [announced] = events(played, "retreat_announced")
    assert (announced["player"], announced["forced"], announced["reason"]) == (
        "attacker",
        True,
        "Rout",
    )
    assert not events(played, "choice_made", decision="announce_retreat", player="attacker")
    assert events(played, "retreated", player="attacker")
    kinds = [e["event"] for e in played.events]
    assert kinds.index("card_played") < kinds.index("retreat_announced")


def test_policy_names_the_round_or_never() -> None:
    later = run(battle(play={"rout": {"round": 2}}), [1, 1, 1, 1])
    assert [e["round"] for e in events(later, "card_played")] == [2]
    never = run(battle(play={"rout": "never"}), [7, 1])
    assert not events(never, "card_played")


def test_not_offered_when_the_attacker_cannot_retreat() -> None:
    played = run(
        space({"units": "1 cruiser"}, {"units": "1 cruiser", "action_cards": ["rout"]}), [7, 1]
    )
    assert not events(played, "choice_made", decision="play_card")


def test_an_attacker_holding_it_is_not_offered_it() -> None:
    scenario = space(
        {"units": "1 cruiser", "action_cards": ["rout"]}, {"units": "1 cruiser"}, system=NEIGHBOURS
    )
    played = run(scenario, [7, 1])
    assert not events(played, "choice_made", decision="play_card")


def test_exact_odds_hand_derived() -> None:
    """Cruiser duel (2/5 each); Rout in round 1 makes the attacker retreat after that round:
    attacker = 2/5 * 3/5 = 6/25; draw = 4/25; defender = 6/25 + 9/25 (the retreat) = 3/5."""
    found = odds(battle())
    assert found.attacker_win == pytest.approx(float(Fraction(6, 25)), abs=1e-12)
    assert found.draw == pytest.approx(float(Fraction(4, 25)), abs=1e-12)
    assert found.defender_win == pytest.approx(float(Fraction(3, 5)), abs=1e-12)
