"""Courageous to the End (action card; abilities/courageous_to_the_end.py) after a ship the
Crown of Thalnos destroys in the Roll Dice step: "After one of your ships is destroyed during a
space combat: roll 2 dice; for each result at or above that ship's combat value, your opponent
destroys one of their ships of their choice in the system" (data/cards.toml). A ship the
Crown destroys (its reroll produced no hit) is destroyed during the space combat, so the card
is offered right after the roll, before anything else happens in the step, and the opponent
destroys its ships then, before its own roll (docs/rulings.md 14RR-7, 27V-6).

Exact odds, 1 cruiser with the relic and the card against 1 cruiser: the cruiser hits on 7
(2/5), else its reroll hits on 6 (3/5 · 1/2 = 3/10): it hits with 7/10 and is destroyed by the
Crown with 3/10. Destroyed, the card rolls 2 dice at 7: at least one hit with 1 − (3/5)^2 =
16/25, and the defender's cruiser is destroyed before it rolls: a draw (3/10 · 16/25 =
24/125); else the defender wins (3/10 · 9/25 = 27/250). The cruiser hit: the defender's hit
(2/5) makes a draw (7/10 · 2/5 = 7/25: both destroyed while hits are assigned), its miss a
win (7/10 · 3/5 = 21/50). Draw 7/25 + 24/125 = 59/125. Before 27V-6 the card was not offered
then: the defender won with 3/10."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import pytest

from spacecombat import odds
from tests.helpers import (
    assert_logs_replay,
    assert_sampled_as_played,
    events,
    rolls,
    run,
    space,
    survivors,
)

CROWN = {"relics": ["the_crown_of_thalnos"]}
CTTE = {"action_cards": ["courageous_to_the_end"]}


def holder(units: str = "1 cruiser", **extra: Any) -> dict[str, Any]:
    return {"units": units, **CROWN, **CTTE, **extra}


def test_offered_after_the_crown_destroys_a_ship_before_the_opponent_rolls() -> None:
    # the cruiser shows 3, its reroll 4 (+1 = 5 < 6): the Crown destroys it. The card rolls
    # 7, 1 at 7: one hit; the defender destroys a cruiser, then rolls with the other (1).
    played = run(space(holder(), {"units": "2 cruiser"}), [3, 4, 7, 1, 1])
    kinds = [e["event"] for e in played.events]
    [crowned, courage] = events(played, "unit_destroyed")
    assert (crowned["player"], crowned["cause"]) == ("attacker", "crown of thalnos")
    assert (courage["player"], courage["unit"]) == ("defender", "cruiser")
    assert courage["cause"] == "courageous to the end"
    [card] = events(played, "card_played", card="courageous_to_the_end")
    assert card["player"] == "attacker"
    [roll] = rolls(played, "courageous_to_the_end")
    assert roll["hits"] == 1
    defender_roll = next(
        i
        for i, e in enumerate(played.events)
        if e["event"] == "dice_rolled" and e["player"] == "defender"
    )
    assert kinds.index("card_played", kinds.index("unit_destroyed")) < defender_roll
    assert played.events.index(courage) < defender_roll
    [defender_rolled] = rolls(played, "space_combat")[1:]
    groups = defender_rolled["groups"]
    assert isinstance(groups, list)
    assert groups[0]["faces"] == [1]  # one cruiser left to roll
    assert survivors(played, "defender") == {"cruiser": 1}
    assert played.outcome["result"] == "defender_win"


def test_two_hits_destroy_two_ships_and_the_combat_is_a_draw() -> None:
    played = run(space(holder(), {"units": "2 cruiser"}), [3, 4, 7, 9])
    lost = events(played, "unit_destroyed", player="defender")
    assert [e["cause"] for e in lost] == ["courageous to the end"] * 2
    assert not rolls(played, "space_combat")[1:]  # the defender has no ship left to roll
    assert played.outcome["result"] == "draw"


def test_the_opponent_chooses_which_ship() -> None:
    played = run(
        space(holder(), {"units": "1 cruiser, 1 carrier"}),
        [3, 4, 7, 1, 1],
        defender=["destroy cruiser"],
    )
    [choice] = events(played, "choice_made", decision="assign_hit")
    assert (choice["player"], choice["choice"]) == ("defender", "destroy cruiser")
    assert survivors(played, "defender") == {"carrier": 1}


def test_a_missed_card_roll_destroys_nothing() -> None:
    played = run(space(holder(), {"units": "1 cruiser"}), [3, 4, 1, 2, 1])
    assert not events(played, "unit_destroyed", player="defender")
    assert played.outcome["result"] == "defender_win"


def test_policy_never_keeps_it() -> None:
    never = holder(policy={"play": {"courageous_to_the_end": "never"}})
    played = run(space(never, {"units": "1 cruiser"}), [3, 4, 1])
    assert not events(played, "card_played", card="courageous_to_the_end")
    assert played.outcome["result"] == "defender_win"


def test_the_defender_holding_it_after_its_own_crown() -> None:
    # the attacker's cruiser misses (1); the defender's shows 3, its reroll 4: destroyed by
    # the Crown; its card rolls 7, 7: the attacker's cruiser is destroyed: a draw.
    played = run(space({"units": "1 cruiser"}, holder()), [1, 3, 4, 7, 7])
    [lost] = events(played, "unit_destroyed", player="attacker")
    assert lost["cause"] == "courageous to the end"
    assert played.outcome["result"] == "draw"


def test_logs_replay_and_are_sampled_as_played() -> None:
    scenario = space(holder("2 cruiser"), {"units": "2 cruiser, 1 destroyer"})
    assert_logs_replay(scenario, seeds=6)
    assert_sampled_as_played(scenario, trials=60)


def test_exact_odds_hand_derived() -> None:
    """See the module's docstring: win 21/50, draw 59/125, loss 27/250."""
    found = odds(space(holder(), {"units": "1 cruiser"}))
    assert found.attacker_win == pytest.approx(float(Fraction(21, 50)), abs=1e-12)
    assert found.draw == pytest.approx(float(Fraction(59, 125)), abs=1e-12)
    assert found.defender_win == pytest.approx(float(Fraction(27, 250)), abs=1e-12)
