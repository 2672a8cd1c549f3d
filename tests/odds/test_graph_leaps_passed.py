"""A player's whole assignment of hits remembered for the states it passes (issue 24, 24AC-4;
rulesets/ti4/leaps_passed.py ``walked``, ``PASSED``; rulesets/ti4/battle.py ``Ti4Battle.leap``;
docs/architecture.md, "The odds engine", 1.).

The explorer takes a player's Assign Hits step (ti4-space-combat.md step 4) at once, walked by
the real procedure once for each key (player, arena, gains, units there, hits, free hits, what
the handlers asked declare they read). Each state such a walk passes with hits still to assign
has a key of its own, and the rest of the walk is the walk from it: the walk stops at a key
walked before and remembers those it passes. These tests check that the graph is the same,
chance state for chance state and edge for edge with exact weights, with the switch on and off
(the leaps alone, and the rounds' rolls taken player by player, whose tables are made of the
same leaps), that fewer steps of the rules are taken, and that the answers are the same as
fractions.
"""

from __future__ import annotations

from typing import Any

import pytest

from spacecombat.analysis.exact import exact_odds
from spacecombat.analysis.graph import Explorer, StateGraph
from spacecombat.rulesets.ti4 import leaps_passed
from spacecombat.rulesets.ti4.battle import Ti4Battle
from spacecombat.rulesets.ti4.state import BattleState

from .same_graph import switched_graphs
from .test_graph_joins import CROWN_AND_BROTHER_MILOR
from .test_graph_leaps import IDLE, L1Z1X_FLAGSHIP, MENTAK_FLAGSHIP
from .test_graph_leaps import _explore as _leaps
from .test_graph_passed_states import BATTLES
from .test_graph_splits import _explore as _splits

CASES: dict[str, dict[str, Any]] = {
    **BATTLES,
    # hits of which some must go to non-fighter ships: keyed by how many are free
    "l1z1x flagship": L1Z1X_FLAGSHIP,
    # a handler declaring what it reads: its key holds the step's cursor and record
    "mentak flagship": MENTAK_FLAGSHIP,
    "brother milor": IDLE["brother_milor"],
}


def _advanced(
    scenario: dict[str, Any], split: bool, monkeypatch: pytest.MonkeyPatch
) -> tuple[int, int]:
    """Steps of the rules asked of the battle (``advance``) with the switch off, then on; the
    graphs found the same."""
    counts = {True: 0, False: 0}
    real = Ti4Battle.advance

    def counted(self: Ti4Battle, state: BattleState) -> Any:
        counts[leaps_passed.PASSED] += 1
        return real(self, state)

    monkeypatch.setattr(Ti4Battle, "advance", counted)

    def explore() -> tuple[StateGraph[Any], Explorer[Any], int]:
        if split:
            return _splits(scenario, True, monkeypatch)
        return (*_leaps(scenario, True, monkeypatch), 0)

    switched_graphs(explore, leaps_passed, "PASSED", monkeypatch)
    return counts[False], counts[True]


@pytest.mark.parametrize("name", sorted(CASES))
def test_the_same_graph(name: str, monkeypatch: pytest.MonkeyPatch) -> None:
    off, on = _advanced(CASES[name], False, monkeypatch)
    assert on <= off


@pytest.mark.parametrize("name", sorted(BATTLES))
def test_the_same_graph_rolls_split(name: str, monkeypatch: pytest.MonkeyPatch) -> None:
    off, on = _advanced(BATTLES[name], True, monkeypatch)
    assert on <= off


def test_fewer_steps_somewhere(monkeypatch: pytest.MonkeyPatch) -> None:
    """Some battle's walks meet a key walked before."""
    assert any(on < off for off, on in (_advanced(s, False, monkeypatch) for s in CASES.values()))


def test_the_odds_are_the_same(monkeypatch: pytest.MonkeyPatch) -> None:
    """The whole exact engine, as fractions, with and without."""
    for scenario in CASES.values():
        passed = exact_odds(scenario, fractions=True).to_json()
        with monkeypatch.context() as patched:
            patched.setattr(leaps_passed, "PASSED", False)
            assert exact_odds(scenario, fractions=True).to_json() == passed


@pytest.mark.slow
def test_the_faction_mix_battle_gives_the_same_graph(monkeypatch: pytest.MonkeyPatch) -> None:
    """No. 256 of the faction mix: the same graph in fewer steps of the rules."""
    off, on = _advanced(CROWN_AND_BROTHER_MILOR, True, monkeypatch)
    assert on < off
