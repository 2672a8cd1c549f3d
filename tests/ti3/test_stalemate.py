"""A TI3 space battle neither player can win ends as a stalemate (docs/rulings.md T15):
with Duranium Armor on both sides, two lone dreadnoughts never destroy each other."""

from __future__ import annotations

from typing import Any

from spacecombat import odds
from spacecombat.resolver import resolve
from tests.helpers import events, run


def _duel(**options: Any) -> dict[str, Any]:
    side = {"units": {"dreadnought": 1}, "technologies": ["duranium_armor"]}
    return {
        "ruleset": "ti3",
        "battle": "space",
        "attacker": dict(side),
        "defender": dict(side),
        "options": options,
    }


def test_two_repairing_dreadnoughts_are_a_stalemate_at_once() -> None:
    """T15: from round 1 neither can win (every hit is sustained, then repaired), so the
    battle ends before any die is rolled, both fleets staying."""
    played = run(_duel(), [])
    assert played.outcome["result"] == "stalemate"
    assert played.outcome["winner"] is None
    assert len(events(played, "stalemate")) == 1


def test_stalemate_in_odds_is_its_own_result() -> None:
    report = odds(_duel())
    assert report.other["stalemate"] == 1.0
    assert (report.attacker_win, report.defender_win, report.draw) == (0.0, 0.0, 0.0)


def test_no_stalemate_when_damage_of_this_round_cannot_be_repaired() -> None:
    """With duranium_not_damaged_this_round the hit of a round is not repaired at its end, so
    two hits in a row destroy: the battle is fought. Faces: round 1 both hit (5, 5); round 2
    both hit again."""
    played = run(_duel(duranium_not_damaged_this_round=True), [5, 5, 5, 5])
    assert played.outcome["result"] == "draw"
    assert not events(played, "stalemate")


def test_a_battle_that_becomes_endless_midway_ends() -> None:
    """Two dreadnoughts and a cruiser a side: once each side is down to one repairing
    dreadnought the battle cannot end; every seed finishes."""
    side = {"units": {"dreadnought": 2, "cruiser": 1}, "technologies": ["duranium_armor"]}
    scenario = {"ruleset": "ti3", "battle": "space", "attacker": side, "defender": side}
    results = {str(resolve(scenario, seed=seed).outcome["result"]) for seed in range(40)}
    assert "stalemate" in results
    assert results <= {"stalemate", "attacker_win", "defender_win", "draw"}
