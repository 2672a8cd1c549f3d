"""The roll a walk meets at a new chance state, kept for the state's following (issue 24,
24AB-2; analysis/graph.py ``NODES_KEPT``; docs/architecture.md, "The odds engine", 1.).

A battle's ``advance`` is a function of the state alone (the process is Markov in its states:
analysis/graph.py), so the roll or draw a walk meets at a chance state it makes is the very one
the battle would give when the state's outcomes are followed; the explorer now keeps it rather
than asking the battle again (no. 24 of the faction mix: Courageous to the End's roll, made at
711 chance states, each asked twice). These tests check that the graph is the very graph built
asking again (the same chance states in the same order, the same edges with exact weights),
with the rolls folded into the roll before (``Joining``) or not and with the rounds' rolls
taken player by player or not, with fewer calls of the battle's ``advance``.
"""

from __future__ import annotations

from typing import Any

import pytest
from benchmarks.faction_exact import battles

from spacecombat.analysis import graph
from spacecombat.analysis.graph import Explorer, StateGraph

from .same_graph import assert_same_graph
from .test_graph_joins import CASES as JOINED
from .test_graph_splits import _fought

CASES: dict[str, dict[str, Any]] = {
    **JOINED,
    # no. 24 of the faction mix (benchmarks/faction_exact.py, seed 2026): the Nekro holding
    # Courageous to the End against the Empyrean flagship
    "faction mix no. 24": battles(25, 2026)[24],
}


def _built(
    scenario: dict[str, Any], on: bool, joins: bool, splits: bool, mp: pytest.MonkeyPatch
) -> tuple[StateGraph[Any], int]:
    """The whole graph (exact weights) and how many times the battle's ``advance`` was asked."""
    fought = _fought(scenario)
    asked = 0
    real = fought.advance

    def counted(state: Any) -> Any:
        nonlocal asked
        asked += 1
        return real(state)

    with mp.context() as patched:
        patched.setattr(graph, "NODES_KEPT", on)
        patched.setattr(graph, "SPLITS", splits)
        patched.setattr(fought, "advance", counted)
        explorer: Explorer[Any] = Explorer(
            fought, fought.stock_policies(), exact=True, limit=None, joins=joins
        )
        return explorer.build(), asked


@pytest.mark.parametrize(("joins", "splits"), [(True, True), (True, False), (False, False)])
@pytest.mark.parametrize("name", sorted(CASES))
def test_the_same_graph_asking_less(
    name: str, joins: bool, splits: bool, monkeypatch: pytest.MonkeyPatch
) -> None:
    asked_again, asked = _built(CASES[name], False, joins, splits, monkeypatch)
    kept, fewer = _built(CASES[name], True, joins, splits, monkeypatch)
    assert_same_graph(kept, asked_again)
    # (where every chance state's rolls are taken player by player, none is followed)
    assert fewer <= asked
    if name == "faction mix no. 24" or not splits:
        assert fewer < asked
