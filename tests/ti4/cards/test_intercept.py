"""Intercept (action card; abilities/intercept.py): after the opponent announces a retreat,
they cannot retreat this round (ti4-combat-effects.md; data/cards.toml), played through the
"play_card" decision in the "retreat_announced" window of the Announce Retreats step
(ti4-space-combat.md step 2; procedures/space_combat.py)."""

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
RETREATING = {"units": "1 cruiser", "policy": {"retreat": {"after_round": 0}}}
INTERCEPT: dict[str, Any] = {"units": "1 cruiser", "action_cards": ["intercept"]}


def test_the_retreat_is_cancelled_for_the_round_then_happens_the_next() -> None:
    played = run(space(RETREATING, INTERCEPT, system=NEIGHBOURS), [1, 1, 1, 1])
    [card] = events(played, "card_played")
    assert (card["player"], card["round"]) == ("defender", 1)
    [cancelled] = events(played, "retreat_cancelled")
    assert (cancelled["player"], cancelled["reason"]) == ("attacker", "Intercept")
    kinds = [e["event"] for e in played.events]
    assert kinds.index("retreat_announced") < kinds.index("card_played")
    assert kinds.index("retreat_cancelled") < kinds.index("dice_rolled")
    assert len(events(played, "retreat_announced")) == 2
    [retreated] = events(played, "retreated")
    assert retreated["player"] == "attacker"
    assert played.outcome["rounds"] == 2


def test_an_intercepted_defender_does_not_let_the_attacker_announce() -> None:
    attacker = {
        "units": "1 cruiser",
        "action_cards": ["intercept"],
        "policy": {"retreat": {"after_round": 0}},
    }
    played = run(space(attacker, RETREATING, system=NEIGHBOURS), [7, 1])
    assert [e["player"] for e in events(played, "retreat_cancelled")] == ["defender"]
    assert not events(played, "choice_made", decision="announce_retreat", player="attacker")
    assert played.outcome["result"] == "attacker_win"


def test_policy_never_and_a_scripted_pass_let_it_retreat() -> None:
    kept = {**INTERCEPT, "policy": {"play": {"intercept": "never"}}}
    played = run(space(RETREATING, kept, system=NEIGHBOURS), [1, 1])
    assert not events(played, "card_played")
    assert events(played, "retreated")
    passed = run(space(RETREATING, INTERCEPT, system=NEIGHBOURS), [1, 1], defender=["stay", "pass"])
    assert not events(passed, "card_played")


def test_not_offered_without_an_announcement() -> None:
    played = run(space({"units": "1 cruiser"}, INTERCEPT, system=NEIGHBOURS), [7, 1])
    assert not events(played, "choice_made", decision="play_card")


def test_exact_odds_hand_derived() -> None:
    """Cruiser duel (2/5 each); the attacker announces a retreat every round, the defender
    intercepts it in round 1. A round is won by each 6/25, drawn 4/25, and with no hit (9/25)
    round 1 goes on and round 2 ends in the retreat (a defender win):
    attacker = 6/25 + 9/25 * 6/25 = 204/625; draw = 4/25 + 9/25 * 4/25 = 136/625;
    defender = 204/625 + 81/625 = 57/125."""
    found = odds(space(RETREATING, INTERCEPT, system=NEIGHBOURS))
    assert found.attacker_win == pytest.approx(float(Fraction(204, 625)), abs=1e-12)
    assert found.draw == pytest.approx(float(Fraction(136, 625)), abs=1e-12)
    assert found.defender_win == pytest.approx(float(Fraction(57, 125)), abs=1e-12)
