"""A combat roll's outcomes, their own losses heard, remembered across the chance states alike
but for the other player's part (issue 24, 24AC-2; rulesets/ti4/rolls_heard.py ``heard``,
``REMEMBERED``; docs/architecture.md, "The odds engine", 1.).

The split rolls walk each player's combat roll outcome by outcome (ti4-space-combat.md step 3:
the hits set against the other player, the roller's units lost to the Crown of Thalnos's
rerolls, docs/rulings.md 14C2-1, heard by the handlers acting after a unit is destroyed,
14B3-5). The walk reads the roller's pool and part and the state's other fields, and of the
other player's part only whether each hearer is idle for the roller, which is asked again at
every chance state; so it is remembered by the state without the other player's part. These
tests check that the graph is the same, chance state for chance state and edge for edge with
exact weights, and the answers the same as fractions, with the switch on and off, and that
remembered walks were taken.
"""

from __future__ import annotations

from typing import Any

import pytest

from spacecombat.analysis.exact import exact_odds
from spacecombat.rulesets.ti4 import rolls_heard
from spacecombat.rulesets.ti4.state import BattleState

from .same_graph import switched_graphs
from .test_graph_joins import CROWN_AND_BROTHER_MILOR
from .test_graph_marker_hooks import MILOR_AND_CROWN
from .test_graph_splits import HACAN_AND_CROWN, _explore
from .test_graph_splits_heard import CASES as HEARD

CASES: dict[str, dict[str, Any]] = {
    **HEARD,
    "brother milor and crown": MILOR_AND_CROWN,
    # trade goods spent on the roll (the Hacan flagship): the roller's purse in its part
    "hacan flagship and crown": HACAN_AND_CROWN,
}


def _same_graph(scenario: dict[str, Any], monkeypatch: pytest.MonkeyPatch) -> None:
    """The same graph with the walks remembered and without; some remembered walk taken."""
    taken = 0
    real = rolls_heard._with_part

    def counted(*args: Any) -> BattleState:
        nonlocal taken
        taken += 1
        return real(*args)

    monkeypatch.setattr(rolls_heard, "_with_part", counted)
    (_, _, split_before), (_, _, split) = switched_graphs(
        lambda: _explore(scenario, True, monkeypatch), rolls_heard, "REMEMBERED", monkeypatch
    )
    assert split == split_before > 0  # the same rounds split
    assert taken > 0


@pytest.mark.parametrize("name", sorted(CASES))
def test_the_same_graph(name: str, monkeypatch: pytest.MonkeyPatch) -> None:
    _same_graph(CASES[name], monkeypatch)


def test_the_odds_are_the_same(monkeypatch: pytest.MonkeyPatch) -> None:
    """The whole exact engine, as fractions, with and without."""
    for scenario in CASES.values():
        remembered = exact_odds(scenario, fractions=True).to_json()
        with monkeypatch.context() as patched:
            patched.setattr(rolls_heard, "REMEMBERED", False)
            assert exact_odds(scenario, fractions=True).to_json() == remembered


@pytest.mark.slow
def test_the_faction_mix_battle_gives_the_same_graph(monkeypatch: pytest.MonkeyPatch) -> None:
    """No. 256 of the faction mix: the same graph."""
    _same_graph(CROWN_AND_BROTHER_MILOR, monkeypatch)
