"""Where a pair of players' parts after a round's rolls leads, remembered across the chance
states whose splits put the state walked on from together alike (issue 24, 24AA-1;
analysis/graph.py ``SHARED``, ``SplitRolls.shared``; rulesets/ti4/split_rolls.py
``_template``; docs/architecture.md, "The odds engine", 1.).

The state both assignments lead to is the chance state's with the two parts after set and no
hit left (``split_rolls.joined``, ``noted``): every other field is the chance state's. Two
chance states alike in those fields (another round of the same battle, the units elsewhere
alike) lead, for the same pair of parts after, to the very same state, so to the same place.
The explorer used to put the state together and settle it again in each chance state (no.
159 of the faction mix: 6,678 states put together, 835 of them different); with ``SHARED`` a
pair met before with the same ``shared`` is looked up. These tests check that the graph is
the same, chance state for chance state and edge for edge with exact weights, and the answers
to the last bit, with fewer states put together.
"""

from __future__ import annotations

from typing import Any

import pytest
from benchmarks.faction_exact import battles

from spacecombat.analysis import graph
from spacecombat.analysis.exact import exact_odds
from spacecombat.analysis.graph import Explorer, StateGraph

from .same_graph import assert_same_graph
from .test_graph_passed_states import BATTLES
from .test_graph_splits import HACAN_AND_CROWN, L1Z1X_FLAGSHIP, MENTAK_DEFENDS, _explore

CASES: dict[str, dict[str, Any]] = {
    "crown of thalnos": BATTLES["crown of thalnos"],
    "hacan flagship and crown": HACAN_AND_CROWN,
    "duranium armor": BATTLES["duranium armor"],
    "l1z1x flagship, duranium armor": L1Z1X_FLAGSHIP,
    # the paired tables (``noted``: the Mentak flagship's note travels with the parts)
    "mentak flagship defends": MENTAK_DEFENDS,
}


def _built(
    scenario: dict[str, Any], on: bool, monkeypatch: pytest.MonkeyPatch
) -> tuple[StateGraph[Any], Explorer[Any], int]:
    """The graph, the explorer, and how many states the splits put together (``settle`` asked
    from ``_split_edges``)."""
    put_together = 0
    real = Explorer.settle

    def counted(self: Explorer[Any], state: Any) -> Any:
        nonlocal put_together
        put_together += 1
        return real(self, state)

    with monkeypatch.context() as patched:
        patched.setattr(graph, "SHARED", on)
        patched.setattr(Explorer, "settle", counted)
        built, explorer, split = _explore(scenario, True, monkeypatch)
        assert split > 0
        return built, explorer, put_together


def _same(scenario: dict[str, Any], monkeypatch: pytest.MonkeyPatch) -> tuple[int, int]:
    """The graphs with ``SHARED`` off and on equal; the states put together off and on."""
    walked, stepped, before = _built(scenario, False, monkeypatch)
    built, shared, after = _built(scenario, True, monkeypatch)
    assert_same_graph(built, walked)
    assert shared.steps == stepped.steps  # (a state settled before costs no step)
    assert after <= before
    return before, after


@pytest.mark.parametrize("name", sorted(CASES))
def test_the_same_graph_with_fewer_states_put_together(
    name: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    before, after = _same(CASES[name], monkeypatch)
    assert after < before


def test_the_odds_are_the_same(monkeypatch: pytest.MonkeyPatch) -> None:
    """The whole exact engine, fractions and floats to the last bit, with and without."""
    for scenario in CASES.values():
        shared = exact_odds(scenario, fractions=True).to_json()
        floats = exact_odds(scenario).to_json()
        with monkeypatch.context() as patched:
            patched.setattr(graph, "SHARED", False)
            assert exact_odds(scenario, fractions=True).to_json() == shared
            assert exact_odds(scenario).to_json() == floats


@pytest.mark.slow
def test_the_faction_mix_battle_gives_the_same_graph(monkeypatch: pytest.MonkeyPatch) -> None:
    """No. 159 of the faction mix (benchmarks/faction_exact.py, seed 2026: the Crown of Thalnos
    beside Duranium Armor): the same graph, with an eighth of the states put together."""
    scenario = battles(160, 2026)[159]
    before, after = _same(scenario, monkeypatch)
    assert 7 * after < before
