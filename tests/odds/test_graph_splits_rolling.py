"""A round's rolls taken player by player where the attacker's assignment rolls dice in its
middle (issue 24, 24Y-5; rulesets/ti4/split_rolls.py ``Rolling``, ``_rolled_here``,
``_rolling_state``, ``ROLLING``; docs/architecture.md, "The odds engine", 1.).

Courageous to the End (action card; ti4-combat-effects.md, action cards): "after one of your
ships is destroyed during a space combat, roll 2 dice ...". Held by the attacker, its roll is
made in the middle of the attacker's Assign Hits step (ti4-space-combat.md step 4), before the
defender assigns: the paired tables (``_paired``) refused such a round, and every pair of
outcomes of the two combat rolls was walked. The attacker's whole assignment, blind to the
defender's part and the hits against it (the card declares it where the defender has a ship,
24Y-1), is now kept up to the state that rolls; the explorer walks on from it with the
defender's part after its roll and the hits against it put back, to the chance state the walk
step by step met. These tests check that the graph is the same, chance state for chance state
and edge for edge with exact weights, with ``ROLLING`` on and off, that more rounds are taken
player by player, and that the answers are the same to the last bit.
"""

from __future__ import annotations

from typing import Any

import pytest
from benchmarks.faction_exact import battles

from spacecombat.analysis.exact import exact_odds
from spacecombat.analysis.graph import Explorer, StateGraph
from spacecombat.rulesets.ti4 import split_rolls

from .same_graph import assert_same_graph
from .test_graph_splits import _explore

#: the attacker holds the card; its destroyer is lost to the defender's hits, its dreadnought
#: sustains first
ATTACKER_HOLDS: dict[str, Any] = {
    "ruleset": "ti4",
    "battle": "space",
    "attacker": {
        "units": {"dreadnought": 1, "destroyer": 2},
        "action_cards": ["courageous_to_the_end"],
        "policy": {"sustain": "first"},
    },
    "defender": {"units": {"cruiser": 2, "destroyer": 1}, "policy": {"sustain": "first"}},
}


def _built(
    scenario: dict[str, Any], on: bool, monkeypatch: pytest.MonkeyPatch
) -> tuple[StateGraph[Any], Explorer[Any], int]:
    with monkeypatch.context() as patched:
        patched.setattr(split_rolls, "ROLLING", on)
        return _explore(scenario, True, monkeypatch)


def _same_graph(scenario: dict[str, Any], monkeypatch: pytest.MonkeyPatch) -> None:
    walked, _, split_before = _built(scenario, False, monkeypatch)
    built, _, split = _built(scenario, True, monkeypatch)
    assert split > split_before  # the rounds with the card held now split
    assert_same_graph(built, walked)


def test_the_same_graph(monkeypatch: pytest.MonkeyPatch) -> None:
    _same_graph(ATTACKER_HOLDS, monkeypatch)


def test_the_odds_are_the_same(monkeypatch: pytest.MonkeyPatch) -> None:
    """The whole exact engine, fractions and floats to the last bit, with and without."""
    rolling = exact_odds(ATTACKER_HOLDS, fractions=True).to_json()
    floats = exact_odds(ATTACKER_HOLDS).to_json()
    monkeypatch.setattr(split_rolls, "ROLLING", False)
    assert exact_odds(ATTACKER_HOLDS, fractions=True).to_json() == rolling
    assert exact_odds(ATTACKER_HOLDS).to_json() == floats


@pytest.mark.slow
def test_the_faction_mix_battle_gives_the_same_graph(monkeypatch: pytest.MonkeyPatch) -> None:
    """No. 24 of the faction mix (benchmarks/faction_exact.py, seed 2026: the Nekro attacker
    holds the card): the same graph."""
    _same_graph(battles(25, 2026)[24], monkeypatch)
