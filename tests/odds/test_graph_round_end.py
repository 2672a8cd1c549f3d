"""The pairs of players' parts after their assignments put together at the round's end (issue
24, 24AC-6; rulesets/ti4/round_end_reached.py ``reached``, ``REACHED``; docs/architecture.md,
"The odds engine", 1.).

Where no hit is left, nothing is queued or pending, no retreat is announced and no handler acts
after hits are assigned but those that only mark themselves so (24AC-1), the defender's Assign
Hits step moves on, the window after hits are assigned passes and Retreat moves on to the
round's end (ti4-space-combat.md steps 4 and 5), reading nothing of the players' parts: they
are walked once for each chance state, and every pair of parts after is put together where they
lead. These tests check that the graph is the same, chance state for chance state and edge for
edge with exact weights, with the switch on and off, in fewer steps of the rules; that
Duranium Armor (acting after hits are assigned) keeps the old way; and the answers as
fractions.
"""

from __future__ import annotations

from typing import Any

import pytest

from spacecombat.analysis.exact import exact_odds
from spacecombat.rulesets.ti4 import round_end_reached

from .same_graph import switched_graphs
from .test_graph_joins import CROWN_AND_BROTHER_MILOR
from .test_graph_marker_hooks import MILOR_AND_CROWN
from .test_graph_passed_states import BATTLES
from .test_graph_splits import HACAN_AND_CROWN, MENTAK_DEFENDS, _explore

CASES: dict[str, dict[str, Any]] = {
    "crown of thalnos": BATTLES["crown of thalnos"],
    "hacan flagship and crown": HACAN_AND_CROWN,
    "brother milor and crown": MILOR_AND_CROWN,
}
#: where the pairs are put together at the defender's Assign Hits step as before: Duranium
#: Armor acts after hits are assigned; the paired tables (the Mentak flagship) are not touched
UNCHANGED: dict[str, dict[str, Any]] = {
    "duranium armor": BATTLES["duranium armor"],
    "mentak flagship defends": MENTAK_DEFENDS,
}


def _steps(scenario: dict[str, Any], monkeypatch: pytest.MonkeyPatch) -> tuple[int, int]:
    (_, stepped, before), (_, reached, split) = switched_graphs(
        lambda: _explore(scenario, True, monkeypatch), round_end_reached, "REACHED", monkeypatch
    )
    assert split == before > 0  # the same rounds split
    return stepped.steps, reached.steps


@pytest.mark.parametrize("name", sorted(CASES))
def test_the_same_graph_in_fewer_steps(name: str, monkeypatch: pytest.MonkeyPatch) -> None:
    before, after = _steps(CASES[name], monkeypatch)
    assert after < before


@pytest.mark.parametrize("name", sorted(UNCHANGED))
def test_the_same_graph_where_it_does_not_apply(name: str, monkeypatch: pytest.MonkeyPatch) -> None:
    before, after = _steps(UNCHANGED[name], monkeypatch)
    assert after == before


def test_the_odds_are_the_same(monkeypatch: pytest.MonkeyPatch) -> None:
    """The whole exact engine, as fractions, with and without."""
    for scenario in CASES.values():
        reached = exact_odds(scenario, fractions=True).to_json()
        with monkeypatch.context() as patched:
            patched.setattr(round_end_reached, "REACHED", False)
            assert exact_odds(scenario, fractions=True).to_json() == reached


@pytest.mark.slow
def test_the_faction_mix_battle_gives_the_same_graph(monkeypatch: pytest.MonkeyPatch) -> None:
    """No. 256 of the faction mix: the same graph in fewer steps."""
    before, after = _steps(CROWN_AND_BROTHER_MILOR, monkeypatch)
    assert after < before
