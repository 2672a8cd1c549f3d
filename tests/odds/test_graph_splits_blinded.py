"""A whole assignment remembered for every state alike but for the other player's part
(issue 24, 24W-2; rulesets/ti4/split_rolls.py ``_walked_whole``, ``_blinded``;
docs/architecture.md, "The odds engine", 1.).

Where every handler asked while a player assigns is idle or blind (``assign_hits.blind``:
Direct Hit, Reflective Shielding, the Tellurian), the paired tables walk that player's whole
assignment (ti4-space-combat.md step 4) by the real procedure once for each pair of parts (24U-3).
A blind walk reads nothing of the other player's part nor the hits against it, so it is now
remembered without them (``split_rolls.BLINDED``), save where the step moved on at once (whether
the state with the last hits lost moves on alike is read of the whole state). These tests check
that the graph is the same, chance state for chance state and edge for edge with exact weights,
and the answers to the last bit, with ``BLINDED`` on and off, and that walks are answered from
that memory.
"""

from __future__ import annotations

from typing import Any

import pytest

from spacecombat.analysis.exact import exact_odds
from spacecombat.analysis.graph import StateGraph
from spacecombat.rulesets.ti4 import split_rolls

from .same_graph import assert_same_graph
from .test_graph_leaps import DIRECT_HIT, IDLE
from .test_graph_splits import _explore
from .test_graph_splits_whole import DIRECT_HIT_HITS_LOST, NO_116

CASES: dict[str, dict[str, Any]] = {
    "direct hit": DIRECT_HIT,
    "direct hit, hits lost": DIRECT_HIT_HITS_LOST,
    "reflective shielding, the tellurian": IDLE["reflective_shielding_tellurian"],
    "reflective shielding, hits lost": IDLE["reflective_shielding_hits_lost"],
}


def _walks(
    scenario: dict[str, Any], blinded: bool, monkeypatch: pytest.MonkeyPatch
) -> tuple[StateGraph[Any], int, int]:
    """The graph, how many chance states had their rolls taken player by player, and how many
    whole walks looked in the blinded memory."""
    answered = 0
    real = split_rolls._blinded

    def counted(state: Any, side: Any) -> Any:
        nonlocal answered
        key = real(state, side)
        answered += 1
        return key

    with monkeypatch.context() as patched:
        patched.setattr(split_rolls, "BLINDED", blinded)
        patched.setattr(split_rolls, "_blinded", counted)
        built, _, split = _explore(scenario, True, monkeypatch)
    return built, split, answered


def _same_graph(scenario: dict[str, Any], monkeypatch: pytest.MonkeyPatch) -> int:
    """The same graph with the blinded memory and without; the walks it was asked for."""
    walked, split_before, none = _walks(scenario, False, monkeypatch)
    assert none == 0
    built, split, asked = _walks(scenario, True, monkeypatch)
    assert_same_graph(built, walked)
    assert split == split_before  # the same rounds split
    return asked


@pytest.mark.parametrize("name", sorted(CASES))
def test_the_same_graph(name: str, monkeypatch: pytest.MonkeyPatch) -> None:
    _same_graph(CASES[name], monkeypatch)


def test_walks_are_answered_from_memory(monkeypatch: pytest.MonkeyPatch) -> None:
    """Direct Hit's rounds: fewer whole walks made to their end (``_unchanged`` checked) with
    the memory than without."""
    ended = 0
    real = split_rolls._unchanged

    def counted(*args: Any) -> Any:
        nonlocal ended
        ended += 1
        return real(*args)

    monkeypatch.setattr(split_rolls, "_unchanged", counted)
    walks = {}
    for blinded in (False, True):
        before = ended
        _walks(DIRECT_HIT, blinded, monkeypatch)
        walks[blinded] = ended - before
    assert 0 < walks[True] < walks[False]


def test_the_odds_are_the_same(monkeypatch: pytest.MonkeyPatch) -> None:
    """The whole exact engine, fractions and floats to the last bit, with and without."""
    for scenario in CASES.values():
        blinded = exact_odds(scenario, fractions=True).to_json()
        floats = exact_odds(scenario).to_json()
        with monkeypatch.context() as patched:
            patched.setattr(split_rolls, "BLINDED", False)
            assert exact_odds(scenario, fractions=True).to_json() == blinded
            assert exact_odds(scenario).to_json() == floats


@pytest.mark.slow
def test_the_faction_mix_battle_gives_the_same_graph(monkeypatch: pytest.MonkeyPatch) -> None:
    """No. 116 of the faction mix (Direct Hit): the same graph."""
    assert _same_graph(NO_116, monkeypatch) > 0
