"""Each player's part after in the split tables settled once (issue 24, 24AE-4;
rulesets/ti4/split_rolls.py ``SETTLED_PARTS_REMEMBERED``, ``_settled_parts``;
docs/architecture.md, "The odds engine", 1.).

Where nothing reads damage sustained this round before the round's end makes it plain damage
(space rule 9.1; 24Y-4, ``_settles_early``), the split tables settle each player's part after
its assignment (``_settled_part``), so that pairs alike once settled are one pair for the
explorer. The parts after are remembered across the rounds, so every chance state's table held
the same parts and settled them again; each is now settled once for the part and the arena.
These tests check that the graph is the same, chance state for chance state and edge for edge
with exact weights, and every part settled the same, with the switch on and off.
"""

from __future__ import annotations

from typing import Any

import pytest

from spacecombat.analysis.graph import Explorer
from spacecombat.rulesets.ti4 import split_rolls

from .same_graph import switched_graphs
from .test_graph_passed_states import BATTLES
from .test_graph_splits import HACAN_AND_CROWN, L1Z1X_FLAGSHIP, _explore, _fought

CASES: dict[str, dict[str, Any]] = {
    "crown of thalnos": BATTLES["crown of thalnos"],
    "hacan flagship and crown": HACAN_AND_CROWN,
    "duranium armor": BATTLES["duranium armor"],
    "l1z1x flagship, duranium armor": L1Z1X_FLAGSHIP,
}


@pytest.mark.parametrize("name", sorted(CASES))
def test_the_parts_settled_once_build_the_same_graph(
    name: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    settled: list[int] = [0]
    real = split_rolls._settled_part

    def counted(*args: Any) -> Any:
        settled[0] += 1
        return real(*args)

    monkeypatch.setattr(split_rolls, "_settled_part", counted)
    counts: list[int] = []

    def explore() -> Any:
        before = settled[0]
        found = _explore(CASES[name], True, monkeypatch)
        counts.append(settled[0] - before)
        return found

    (_, _, before), (_, _, taken) = switched_graphs(
        explore, split_rolls, "SETTLED_PARTS_REMEMBERED", monkeypatch
    )
    assert taken == before > 0
    assert counts[1] <= counts[0]


def test_each_part_settled_as_afresh() -> None:
    """Every part remembered settled equals the part settled afresh."""
    fought = _fought(BATTLES["crown of thalnos"])
    setup = fought.setup
    Explorer(fought, fought.stock_policies(), exact=True, limit=None, joins=True).build()
    remembered = [
        (key, settled)
        for key, settled in setup.memo.items()
        if isinstance(key, tuple) and key[0] == "settled_part"
    ]
    assert remembered
    for (_, where, part), settled in remembered:
        assert settled == split_rolls._settled_part(part, where)
