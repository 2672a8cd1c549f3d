"""The ships a player must destroy in the middle of the other's assignment, taken at once and
remembered without the hits against that player (issue 24, 24AB-1; rulesets/ti4/battle.py
``Ti4Battle._destroyed_at_once``, ``AT_ONCE_HITS_LEFT_OUT``; docs/architecture.md, "The odds
engine", 1.).

Courageous to the End (action card; ti4-combat-effects.md, action cards): "for each result equal
to or greater than that ship's combat value, your opponent destroys one of their ships in the
system, of their choice" (docs/rulings.md 14A-11: "assign_hit" decisions with "destroy" options
only, queued in the holder's Assign Hits step, ti4-space-combat.md step 4). Those decisions read
the opponent's ships alone, and the handlers hearing each ship destroyed are idle then: no step
of the stretch reads the hits the holder rolled against the opponent, which it assigns only once
the holder's step is done. So the walk is remembered once for every number of those hits. These
tests check that the graph is the very graph built with the walks remembered by them (the same
chance states in the same order, the same edges with exact weights), in fewer walks, and that
no. 24 of the faction mix (benchmarks/faction_exact.py), where the card's roll is made at about
20 states a round, has the same odds as exact fractions.
"""

from __future__ import annotations

from typing import Any

import pytest
from benchmarks.faction_exact import battles

from spacecombat.analysis.graph import Explorer, StateGraph
from spacecombat.rulesets.ti4 import battle as ti4_battle
from spacecombat.rulesets.ti4 import kept_roll_blind
from tests.ti4.switched import fractions_on_and_off

from .same_graph import assert_same_graph
from .test_graph_destroyed_at_once import CASES
from .test_graph_splits import _explore, _fought


def _built(
    scenario: dict[str, Any], on: bool, monkeypatch: pytest.MonkeyPatch
) -> tuple[StateGraph[Any], Explorer[Any], int]:
    with monkeypatch.context() as patched:
        patched.setattr(ti4_battle, "AT_ONCE_HITS_LEFT_OUT", on)
        return _explore(scenario, True, monkeypatch)


def _walks(scenario: dict[str, Any], on: bool, monkeypatch: pytest.MonkeyPatch) -> int:
    """How many stretches the battle walked at once (``_heard_here``) building its graph."""
    fought = _fought(scenario)
    walked = 0
    real = fought._heard_here

    def counted(*args: Any) -> Any:
        nonlocal walked
        walked += 1
        return real(*args)

    with monkeypatch.context() as patched:
        patched.setattr(ti4_battle, "AT_ONCE_HITS_LEFT_OUT", on)
        patched.setattr(fought, "_heard_here", counted)
        # the card's roll followed from the states with those hits left out already (24AD-3)
        # would walk every stretch without them either way: off, to count this shortcut alone
        patched.setattr(kept_roll_blind, "ROLL_IN_ASSIGNMENT", False)
        Explorer(fought, fought.stock_policies(), exact=True, limit=None, joins=True).build()
    return walked


@pytest.mark.parametrize("name", sorted(CASES))
def test_the_same_graph(name: str, monkeypatch: pytest.MonkeyPatch) -> None:
    walked, _, _ = _built(CASES[name], False, monkeypatch)
    built, _, _ = _built(CASES[name], True, monkeypatch)
    assert_same_graph(built, walked)


def test_no_24_in_fewer_walks_with_the_same_fractions(monkeypatch: pytest.MonkeyPatch) -> None:
    """No. 24 of the faction mix: the Nekro holding the card against the Empyrean."""
    scenario = battles(25, 2026)[24]
    assert "courageous_to_the_end" in str(scenario["attacker"])
    assert _walks(scenario, True, monkeypatch) < _walks(scenario, False, monkeypatch)
    on, off = fractions_on_and_off(scenario, ti4_battle, "AT_ONCE_HITS_LEFT_OUT", monkeypatch)
    assert on.to_json() == off.to_json()
