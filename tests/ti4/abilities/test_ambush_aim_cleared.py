"""Ambush's hits are assigned in the "start of combat" window (ti4-space-combat.md rule 2.1;
procedures/windows.py ``_assign_window_hits``), and their aim (``BattleState.aim``: what
produced them, which ships they reach) goes once the last is assigned. The hits of a combat
roll wait for the Assign Hits step (rule 6, step 4), after the "after roll dice" window where
War Funding Ω is played ("After you and your opponent roll dice during space combat", rule 5,
step 3): they are not assigned in that window as Ambush hits (docs/rulings.md 27W-1)."""

from __future__ import annotations

from fractions import Fraction

import pytest

from spacecombat import odds
from tests.helpers import events, run, space

MENTAK = {"faction": "mentak"}
WAR_FUNDING = {"promissory_notes": ["war_funding_omega"]}


def test_combat_roll_hits_are_not_assigned_as_ambush_hits() -> None:
    # Ambush 7, 1: 1 hit, the defender's dreadnought sustains it. Round 1: the attacker's
    # dreadnought and cruisers 1, 1, 1; the defender's dreadnoughts 10, 10: 2 hits, assigned
    # in Assign Hits after War Funding Ω is offered in the "after roll dice" window
    scenario = space(
        {"units": "2 cruiser, 1 dreadnought", **MENTAK}, {"units": "2 dreadnought", **WAR_FUNDING}
    )
    played = run(scenario, [7, 1, 1, 1, 1, 10, 10, *[10] * 40], all_dice=False)
    ambush = [e for e in played.events if e.get("cause") == "Ambush"]
    assert [(e["event"], e["player"]) for e in ambush] == [("damage_sustained", "defender")]
    kinds = [
        (e["event"], e.get("decision"), e.get("player"))
        for e in played.events
        if e["event"] in ("window_opened", "choice_made")
    ]
    after_roll = kinds.index(("window_opened", None, None), 2)  # round 1's "after roll dice"
    assert kinds[after_roll + 1] == ("choice_made", "play_card", "defender")
    assert kinds[after_roll + 2] == ("choice_made", "assign_hit", "attacker")
    first = events(played, "damage_sustained", player="attacker")[0]
    assert first["cause"] == "space combat"


def test_exact_odds_after_an_ambush_hit() -> None:
    """Mentak's cruiser against 2 cruisers whose player holds War Funding Ω. The Ambush die
    hits on 7 (2/5): a cruiser is destroyed and the rest is the duel of
    tests/ti4/cards/test_war_funding_omega.py, the holder defending (won 651/1000, lost
    171/1000, drawn 89/500: the players' rules in it are the same whoever attacks). It misses
    (3/5): Ambush set no aim and the battle is the same one without Mentak."""
    found = odds(space({"units": "1 cruiser", **MENTAK}, {"units": "2 cruiser", **WAR_FUNDING}))
    missed = odds(space({"units": "1 cruiser"}, {"units": "2 cruiser", **WAR_FUNDING}))
    hit, miss = Fraction(2, 5), 3 / 5
    assert found.attacker_win == pytest.approx(
        float(hit * Fraction(171, 1000)) + miss * missed.attacker_win, abs=1e-12
    )
    assert found.draw == pytest.approx(
        float(hit * Fraction(89, 500)) + miss * missed.draw, abs=1e-12
    )
    assert found.defender_win == pytest.approx(
        float(hit * Fraction(651, 1000)) + miss * missed.defender_win, abs=1e-12
    )
