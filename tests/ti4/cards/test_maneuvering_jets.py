"""Maneuvering Jets (action card; abilities/maneuvering_jets.py): before the holder assigns hits
produced against its units by SPACE CANNON, cancel 1 hit (ti4-combat-effects.md §7). Offered
through ``before_assign_hits`` (procedures/assign_hits.py) after a space cannon roll and before
its hits are assigned: space cannon offense (ti4-space-combat.md; docs/rulings.md R1 step 3)
and space cannon defense (ti4-ground-combat.md invasion step 3)."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import pytest

from spacecombat import odds
from tests.helpers import events, invasion, run, space, survivors

MJ = {"action_cards": ["maneuvering_jets"]}


def fight(units: str = "1 cruiser", **policy: Any) -> dict[str, Any]:
    attacker: dict[str, Any] = {"units": units, **MJ}
    if policy:
        attacker["policy"] = policy
    return space(attacker, {"units": "1 cruiser, 2 pds"})


def test_it_cancels_one_of_two_hits() -> None:
    # faces: PDS 6, 6 (two hits, one cancelled, one destroys the cruiser): no combat
    played = run(fight(), [6, 6])
    [card] = events(played, "card_played")
    assert (card["player"], card["card"], card["round"]) == ("attacker", "maneuvering_jets", 0)
    [cancelled] = events(played, "hits_cancelled")
    assert (cancelled["player"], cancelled["by"], cancelled["cause"], cancelled["hits"]) == (
        "attacker",
        "maneuvering_jets",
        "space cannon offense",
        1,
    )
    assert len(events(played, "unit_destroyed", player="attacker")) == 1


def test_a_single_hit_cancelled_leaves_the_ship() -> None:
    # faces: PDS 6, 1 (one hit, cancelled); combat 7 (hit), 1
    played = run(fight(), [6, 1, 7, 1])
    assert len(events(played, "hits_cancelled")) == 1
    assert survivors(played, "attacker") == {"cruiser": 1}


def test_not_offered_without_hits() -> None:
    played = run(fight(), [1, 1, 7, 1])
    assert not events(played, "choice_made", decision="play_card")


def test_policy_never_keeps_it() -> None:
    played = run(fight(play={"maneuvering_jets": "never"}), [6, 1])
    assert not events(played, "card_played")
    assert survivors(played, "attacker") == {}


def test_a_scripted_pass_is_not_asked_again_for_the_same_roll() -> None:
    # two hits against 2 cruisers: passed once, both hits assigned
    played = run(fight("2 cruiser"), [6, 6], attacker=["pass", "destroy cruiser"])
    assert len(events(played, "choice_made", decision="play_card")) == 1
    assert not events(played, "card_played")


def test_it_does_not_cancel_hits_on_the_opponent() -> None:
    scenario = space({"units": "1 cruiser, 1 pds", **MJ}, {"units": "1 cruiser"})
    played = run(scenario, [6])  # the attacker's PDS hits: the defender's cruiser dies
    assert not events(played, "choice_made", decision="play_card")


def test_it_cancels_a_space_cannon_defense_hit() -> None:
    # SCD: PDS 6 hits, cancelled; ground combat: infantry 8 hits, no defenders
    scenario = invasion({"units": "1 carrier, 1 infantry", **MJ}, {"units": "1 pds"})
    played = run(scenario, [6])
    [cancelled] = events(played, "hits_cancelled")
    assert cancelled["cause"] == "space cannon defense"
    assert survivors(played, "attacker", "planet") == {"infantry": 1}


def test_not_offered_for_combat_hits() -> None:
    # combat: the defender's cruiser hits (7), the attacker's misses, then 7 / 1
    played = run(space({"units": "2 cruiser", **MJ}, {"units": "1 cruiser"}), [1, 1, 7, 7, 1])
    assert not events(played, "choice_made", decision="play_card")


def test_exact_odds_hand_derived() -> None:
    """1 cruiser (Maneuvering Jets) against 1 cruiser and 2 PDS. The PDS roll 2 dice at 6:
    0 hits 1/4, 1 hit 1/2, 2 hits 1/4; one hit is cancelled, so the cruiser dies only with 2
    hits (1/4: no combat) and otherwise fights a 2/5 duel (3/8, 1/4, 3/8):
    attacker = defender = 3/4 * 3/8 = 9/32; draw = 3/4 * 1/4 = 3/16."""
    found = odds(fight())
    assert found.attacker_win == pytest.approx(float(Fraction(9, 32)), abs=1e-12)
    assert found.draw == pytest.approx(float(Fraction(3, 16)), abs=1e-12)
    assert found.defender_win == pytest.approx(float(Fraction(9, 32)), abs=1e-12)
    assert found.other["no_combat"] == pytest.approx(0.25, abs=1e-12)
