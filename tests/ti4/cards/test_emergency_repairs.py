"""Emergency Repairs (action card; abilities/emergency_repairs.py): at the start or end of a
combat round, repair all of the holder's units with SUSTAIN DAMAGE in the active system
(ti4-combat-effects.md; data/cards.toml), through the "play_card" decision in the "start of
combat round" and "end of combat round" windows (ti4-space-combat.md rules 2.1 and 9.1),
offered only while a unit of the holder is damaged."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import pytest

from spacecombat import odds
from tests.helpers import events, run, space

ER = {"action_cards": ["emergency_repairs"]}


def fight(damaged: bool = False, **policy: Any) -> dict[str, Any]:
    attacker: dict[str, Any] = {"units": "1 dreadnought", **ER}
    if damaged:
        attacker["damaged"] = {"dreadnought": 1}
    if policy:
        attacker["policy"] = policy
    return space(attacker, {"units": "1 cruiser"})


def test_damage_from_before_the_battle_is_repaired_at_the_start_of_round_one() -> None:
    # round 1: the cruiser hits, the repaired dreadnought sustains; round 2 it wins
    played = run(fight(damaged=True), [1, 7, 5, 1])
    [card] = events(played, "card_played")
    assert card["round"] == 1
    [repaired] = events(played, "unit_repaired")
    assert (repaired["player"], repaired["unit"], repaired["by"]) == (
        "attacker",
        "dreadnought",
        "Emergency Repairs",
    )
    assert events(played, "damage_sustained", player="attacker")
    assert played.outcome["result"] == "attacker_win"


def test_played_at_the_end_of_the_round_the_unit_sustained_in() -> None:
    played = run(fight(), [1, 7, 1, 1, 5, 1])
    [card] = events(played, "card_played")
    assert card["round"] == 1
    kinds = [e["event"] for e in played.events]
    assert kinds.index("damage_sustained") < kinds.index("round_ended")
    assert kinds.index("round_ended") < kinds.index("card_played")
    assert len(events(played, "unit_repaired")) == 1


def test_not_offered_while_nothing_is_damaged() -> None:
    played = run(fight(), [5, 1])
    assert not events(played, "choice_made", decision="play_card")


def test_policy_never_keeps_it_and_a_scripted_pass_waits() -> None:
    kept = run(fight(damaged=True, play={"emergency_repairs": "never"}), [1, 7])
    assert not events(kept, "card_played")
    assert events(kept, "unit_destroyed", player="attacker")
    waited = run(fight(damaged=True), [1, 1, 5, 1], attacker=["pass"] * 4)
    assert not events(waited, "card_played")
    assert len(events(waited, "choice_made", decision="play_card")) == 4


def test_exact_odds_hand_derived() -> None:
    """A damaged dreadnought (hits on 5: 3/5) with the card against 1 cruiser (2/5): repaired
    at once, it takes two hits. With one life left the duel is won 9/19, drawn 6/19, lost 4/19
    (each round: win 9/25, draw 6/25, loss 4/25). With two: the round is won when the
    dreadnought hits (15/25), and leads to one life when only the cruiser hits (4/25):
    attacker = (15/25 + 4/25 * 9/19) / (19/25) = 321/361; draw = 24/361; defender = 16/361."""
    found = odds(fight(damaged=True))
    assert found.attacker_win == pytest.approx(float(Fraction(321, 361)), abs=1e-12)
    assert found.draw == pytest.approx(float(Fraction(24, 361)), abs=1e-12)
    assert found.defender_win == pytest.approx(float(Fraction(16, 361)), abs=1e-12)
