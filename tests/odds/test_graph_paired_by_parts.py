"""The paired tables' walks looked up by what puts each walk's state together (issue 24, 24AE-6;
rulesets/ti4/split_rolls.py ``PAIRED_BY_PARTS``, ``_paired_walks``; docs/architecture.md, "The
odds engine", 1.).

Where a handler asked while a player assigns is not idle (the Mentak flagship, Direct Hit,
Reflective Shielding, Technological Singularity, Ipswitch), a round's rolls taken player by
player walk each player's assignment from both players' parts (``_paired``): for every part of
the attacker's with every part of the defender's and number of hits, the state was put together
and looked up among the walks remembered by the state, though most pairs had been walked in an
earlier round. The state put together is the state after both rolls with the parts and the hits
set anew, so the walk is now looked up first by those (the rest of that state numbered once),
and the state is put together only for a walk not met before. These tests check that the graph
is the same, chance state for chance state and edge for edge with exact weights, and the odds
the same as fractions, with ``PAIRED_BY_PARTS`` on and off, in fewer states put together.
"""

from __future__ import annotations

from typing import Any

import pytest
from benchmarks.faction_exact import battles

from spacecombat.rulesets.ti4 import split_rolls
from tests.ti4.switched import fractions_on_and_off

from .same_graph import switched_graphs
from .test_graph_splits import MENTAK_ATTACKS, MENTAK_DEFENDS, _explore
from .test_graph_splits_paired import SINGULARITY_DEFENDS
from .test_graph_splits_placed import ATTACKER_PLACES
from .test_graph_splits_produced import ATTACKER_SHIELDS
from .test_graph_splits_read import DIRECT_HIT_AGAINST_THE_CROWN

CASES: dict[str, dict[str, Any]] = {
    "mentak flagship attacks": MENTAK_ATTACKS,
    "mentak flagship defends": MENTAK_DEFENDS,
    "direct hit against the crown": DIRECT_HIT_AGAINST_THE_CROWN,
    "reflective shielding": ATTACKER_SHIELDS,
    "technological singularity": SINGULARITY_DEFENDS,
    "ipswitch places": ATTACKER_PLACES,
}

#: the cases whose rounds meet pairs of parts walked in an earlier round
FEWER = ("mentak flagship defends", "direct hit against the crown", "technological singularity")


def _same_graph(scenario: dict[str, Any], monkeypatch: pytest.MonkeyPatch) -> tuple[int, int]:
    """The same graph with the walks looked up by parts and by state; how many states the
    paired tables put together for a walk (off, on)."""
    made = [0]
    real = split_rolls._walked

    def counted(*args: Any) -> Any:
        made[0] += 1
        return real(*args)

    monkeypatch.setattr(split_rolls, "_walked", counted)
    counts: list[int] = []

    def explore() -> Any:
        before = made[0]
        found = _explore(scenario, True, monkeypatch)
        counts.append(made[0] - before)
        return found

    (_, _, before), (_, _, taken) = switched_graphs(
        explore, split_rolls, "PAIRED_BY_PARTS", monkeypatch
    )
    assert taken == before > 0
    return counts[0], counts[1]


@pytest.mark.parametrize("name", sorted(CASES))
def test_the_walks_looked_up_by_parts_build_the_same_graph(
    name: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    off, on = _same_graph(CASES[name], monkeypatch)
    assert 0 < on <= off
    if name in FEWER:
        assert on < off


def test_the_odds_are_the_same_as_fractions(monkeypatch: pytest.MonkeyPatch) -> None:
    for scenario in (MENTAK_DEFENDS, DIRECT_HIT_AGAINST_THE_CROWN):
        on, off = fractions_on_and_off(scenario, split_rolls, "PAIRED_BY_PARTS", monkeypatch)
        assert on.to_json() == off.to_json()


@pytest.mark.slow
def test_the_faction_mix_battle_gives_the_same_graph(monkeypatch: pytest.MonkeyPatch) -> None:
    """No. 116 of the faction mix (benchmarks/faction_exact.py, seed 2026: Direct Hit beside the
    L1Z1X flagship, whose hits are marked)."""
    scenario = battles(117, 2026)[116]
    off, on = _same_graph(scenario, monkeypatch)
    assert 2 * on < off
