"""A split chance state's pairs of outcomes summed by numbers given each player's part after and
each edge once (issue 24, 24AE-2; analysis/graph.py ``PARTS_NUMBERED``,
``Explorer._split_edges_numbered``; docs/architecture.md, "The odds engine", 1.).

Where a round's rolls are taken player by player (``Splitting``), the explorer looks up, for
every pair of the two rolls' outcomes, each player's part after and where the pair of parts
after leads, and sums the pair's chance into the edge it reaches: each look-up hashed the parts
(and the edge's battle end) again. The parts after and the edges are now numbered once, and the
pairs looked up by their numbers, in the same order, with the same sums in the same order. These
tests check that the graph is the same, chance state for chance state and edge for edge with
exact weights, and the answers to the last bit, with ``PARTS_NUMBERED`` on and off: plain
tables (the Crown of Thalnos, Duranium Armor, the Hacan flagship), the paired tables (the
Mentak flagship), the outcomes shared across chance states (``SHARED``) and not.
"""

from __future__ import annotations

from typing import Any

import pytest
from benchmarks.faction_exact import battles

from spacecombat.analysis import graph
from spacecombat.analysis.exact import exact_odds
from tests.ti4.switched import fractions_on_and_off

from .same_graph import switched_graphs
from .test_graph_passed_states import BATTLES
from .test_graph_splits import HACAN_AND_CROWN, L1Z1X_FLAGSHIP, MENTAK_DEFENDS, _explore

CASES: dict[str, dict[str, Any]] = {
    "crown of thalnos": BATTLES["crown of thalnos"],
    "duranium armor": BATTLES["duranium armor"],
    "hacan flagship and crown": HACAN_AND_CROWN,
    "l1z1x flagship": L1Z1X_FLAGSHIP,
    "mentak flagship defends": MENTAK_DEFENDS,
    "war funding omega": BATTLES["war funding omega"],
}


@pytest.mark.parametrize("shared", [True, False])
@pytest.mark.parametrize("name", sorted(CASES))
def test_the_pairs_numbered_build_the_same_graph(
    name: str, shared: bool, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(graph, "SHARED", shared)
    (_, stepped, before), (_, numbered, taken) = switched_graphs(
        lambda: _explore(CASES[name], True, monkeypatch), graph, "PARTS_NUMBERED", monkeypatch
    )
    assert taken == before > 0
    assert (numbered.steps, numbered.outcomes) == (stepped.steps, stepped.outcomes)


def test_the_odds_are_the_same(monkeypatch: pytest.MonkeyPatch) -> None:
    """Fractions equal, and floats to the last bit (the sums made in the same order)."""
    for scenario in (HACAN_AND_CROWN, MENTAK_DEFENDS):
        on, off = fractions_on_and_off(scenario, graph, "PARTS_NUMBERED", monkeypatch)
        assert on.to_json() == off.to_json()
        floats = exact_odds(scenario).to_json()
        with monkeypatch.context() as patched:
            patched.setattr(graph, "PARTS_NUMBERED", False)
            assert exact_odds(scenario).to_json() == floats


@pytest.mark.slow
def test_the_faction_mix_battle_gives_the_same_graph(monkeypatch: pytest.MonkeyPatch) -> None:
    """No. 159 of the faction mix (benchmarks/faction_exact.py, seed 2026: the Crown of Thalnos
    beside Duranium Armor, 21,224 pairs of outcomes)."""
    scenario = battles(160, 2026)[159]
    switched_graphs(
        lambda: _explore(scenario, True, monkeypatch), graph, "PARTS_NUMBERED", monkeypatch
    )
