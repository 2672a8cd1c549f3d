"""The paired tables' assignments looked up by the key of the blind walks before they are
walked (issue 24, 24Z-3; rulesets/ti4/split_rolls.py ``LOOKED_UP``; docs/architecture.md,
"The odds engine", 1.).

Where a handler asked while a player assigns is not idle, a round's rolls taken player by
player walk each assignment from both players' parts (the paired tables, ``_walked``), once
for each state. Where every handler asked is idle or blind while that player assigns
(``assign_hits.blind``: Direct Hit, Reflective Shielding, the Tellurian), the assignment reads
nothing of the other player's part nor the hits against it, so it is the same for every state
alike but for those: it is now looked up by that key before it is walked, and remembered by it.
These tests check that the graph is the same, chance state for chance state and edge for edge
with exact weights, and that the odds are the same as fractions, with ``LOOKED_UP`` on and off.
"""

from __future__ import annotations

from typing import Any

import pytest

from spacecombat.rulesets.ti4 import split_rolls
from tests.ti4.switched import fractions_on_and_off

from .same_graph import switched_graphs
from .test_graph_leaps import DIRECT_HIT, IDLE
from .test_graph_splits import _explore
from .test_graph_splits_produced import ATTACKER_SHIELDS, NO_40
from .test_graph_splits_whole import DIRECT_HIT_HITS_LOST, NO_116

CASES: dict[str, dict[str, Any]] = {
    "direct hit": DIRECT_HIT,
    "direct hit, hits lost": DIRECT_HIT_HITS_LOST,
    "reflective shielding, the tellurian": IDLE["reflective_shielding_tellurian"],
    "reflective shielding, the attacker's": ATTACKER_SHIELDS,
}


def _same_graph(scenario: dict[str, Any], monkeypatch: pytest.MonkeyPatch) -> None:
    """The same graph with the assignments looked up blind first and without."""
    (_, _, before), (_, _, taken) = switched_graphs(
        lambda: _explore(scenario, True, monkeypatch), split_rolls, "LOOKED_UP", monkeypatch
    )
    assert taken == before


@pytest.mark.parametrize("name", sorted(CASES))
def test_the_assignments_looked_up_build_the_same_graph(
    name: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    _same_graph(CASES[name], monkeypatch)


@pytest.mark.parametrize("name", sorted(CASES))
def test_the_odds_are_the_same_as_fractions(name: str, monkeypatch: pytest.MonkeyPatch) -> None:
    on, off = fractions_on_and_off(CASES[name], split_rolls, "LOOKED_UP", monkeypatch)
    assert on.to_json() == off.to_json()


@pytest.mark.slow
@pytest.mark.parametrize("name", ["no. 40", "no. 116"])
def test_the_faction_mix_battles_give_the_same_graph(
    name: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Nos. 40 (Reflective Shielding, the Tellurian) and 116 (Direct Hit) of the faction mix."""
    _same_graph({"no. 40": NO_40, "no. 116": NO_116}[name], monkeypatch)


def test_the_walks_are_shared(monkeypatch: pytest.MonkeyPatch) -> None:
    """With Direct Hit held, states that differ in the other player's part or the hits against
    it share one key (the lookup has something to find), and the graph is the same."""
    keys: list[object] = []
    real = split_rolls._blind_key

    def counted(*args: Any) -> Any:
        key = real(*args)
        if key is not None:
            keys.append(key)
        return key

    monkeypatch.setattr(split_rolls, "_blind_key", counted)
    _same_graph(DIRECT_HIT, monkeypatch)
    assert len(set(keys)) < len(keys)
