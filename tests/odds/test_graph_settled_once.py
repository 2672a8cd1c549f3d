"""Each player's part after its assignment settled once for the battle, one object for each
value settled to (issue 24, 24AC-5; rulesets/ti4/settled_once.py ``settled``, ``ONCE``;
docs/architecture.md, "The odds engine", 1.).

Where nothing reads the damage sustained this round before the round's end makes it plain
damage (space rule 9.1; 24Y-4), the split rolls settle the parts after in each chance state's
tables. The settled part is the same value whether made once or afresh; made once, equal parts
are one object, so the explorer's memory of where each pair of parts leads finds them by
identity. These tests check that the graph is the same, chance state for chance state and edge
for edge with exact weights, with the switch on and off, and that equal settled parts are one
object.
"""

from __future__ import annotations

from typing import Any

import pytest

from spacecombat.core.forces import Forces, Status
from spacecombat.core.sides import SideState
from spacecombat.rulesets.ti4 import settled_once

from .same_graph import switched_graphs
from .test_graph_joins import CROWN_AND_BROTHER_MILOR
from .test_graph_marker_hooks import MILOR_AND_CROWN
from .test_graph_splits import HACAN_AND_CROWN, _explore
from .test_graph_splits_settled import CASES as SETTLED

CASES: dict[str, dict[str, Any]] = {
    **SETTLED,
    "brother milor and crown": MILOR_AND_CROWN,
    "hacan flagship and crown": HACAN_AND_CROWN,
}


@pytest.mark.parametrize("name", sorted(CASES))
def test_the_same_graph(name: str, monkeypatch: pytest.MonkeyPatch) -> None:
    (_, _, before), (_, _, split) = switched_graphs(
        lambda: _explore(CASES[name], True, monkeypatch), settled_once, "ONCE", monkeypatch
    )
    assert split == before > 0


def test_equal_parts_settled_are_one_object() -> None:
    """Two parts made apart, equal once settled: one object; each part settled once."""
    memo: settled_once.Settled[SideState] = settled_once.Settled()
    made = 0

    def settle(part: SideState) -> SideState:
        nonlocal made
        made += 1
        return SideState(part.space.settle_round(), part.planets)

    sustained = SideState(Forces([("dreadnought", Status.SUSTAINED_THIS_ROUND, 1)]), ())
    damaged = SideState(Forces([("dreadnought", Status.DAMAGED, 1)]), ())
    first = settled_once.settled(memo, sustained, settle)
    second = settled_once.settled(memo, damaged, settle)
    assert first == damaged
    assert second is first
    assert settled_once.settled(memo, sustained, settle) is first
    assert made == 2


@pytest.mark.slow
def test_the_faction_mix_battle_gives_the_same_graph(monkeypatch: pytest.MonkeyPatch) -> None:
    """No. 256 of the faction mix: the same graph."""
    switched_graphs(
        lambda: _explore(CROWN_AND_BROTHER_MILOR, True, monkeypatch),
        settled_once,
        "ONCE",
        monkeypatch,
    )
