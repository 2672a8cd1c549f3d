"""A player's whole assignment of hits walked for the leaps goes on by the leap once a hit is
assigned (issue 24, 24AE-3; rulesets/ti4/battle.py ``ASSIGNED_SUFFIXES``,
``Ti4Battle._assigned``; docs/architecture.md, "The odds engine", 1.).

The leaps take a player's whole assignment of a combat round's hits (Assign Hits,
ti4-space-combat.md step 4) at once, walking the real procedure hit by hit once for each key
(the player, the arena, the gains, its units there, the hits, what the handlers asked read;
``Ti4Battle.leap``). Once a hit is assigned, the state reached is such a state in its turn:
with hits left, the rest of the walk is the leap from it, remembered by its own key, so an
assignment of 3 hits ends with an assignment of 2 already walked. These tests check that every
remembered walk is the one made hit by hit, that the graph is the same, chance state for
chance state and edge for edge with exact weights, and the odds the same as fractions, with
``ASSIGNED_SUFFIXES`` on and off, in fewer hits walked.
"""

from __future__ import annotations

from typing import Any

import pytest
from benchmarks.faction_exact import battles

from spacecombat.analysis.graph import Explorer
from spacecombat.core.decisions import decide
from spacecombat.rulesets.ti4 import battle as ti4_battle
from tests.ti4.switched import fractions_on_and_off

from .same_graph import assert_same_graph
from .test_graph_leaps import IDLE, L1Z1X_FLAGSHIP, MENTAK_FLAGSHIP, MENTAK_MECH, _fought
from .test_graph_passed_states import BATTLES

CASES: dict[str, dict[str, Any]] = {
    "crown of thalnos": BATTLES["crown of thalnos"],
    "duranium armor": BATTLES["duranium armor"],
    # the Mentak flagship's note read by the opponent's assignment (``reads_while_assigning``:
    # the step's cursor in the key)
    "mentak flagship": MENTAK_FLAGSHIP,
    "mentak mech": MENTAK_MECH,
    # hits of which some must go to non-fighter ships: how many are free is in the key
    "l1z1x flagship": L1Z1X_FLAGSHIP,
    "brother milor": IDLE["brother_milor"],
}


def _explored(scenario: dict[str, Any], on: bool, monkeypatch: pytest.MonkeyPatch) -> Any:
    """The graph (rolls folded and split, as ``exact_odds`` builds it), the walks remembered by
    the leaps, and how many decisions the battle's own walks made (``Ti4Battle._assigned``,
    one ``assign_hit`` a hit, among others)."""
    asked = 0
    real = decide

    def counted(*args: Any) -> Any:
        nonlocal asked
        asked += 1
        return real(*args)

    fought = _fought(scenario)
    with monkeypatch.context() as patched:
        patched.setattr(ti4_battle, "ASSIGNED_SUFFIXES", on)
        patched.setattr(ti4_battle, "decide", counted)
        explorer: Explorer[Any] = Explorer(
            fought, fought.stock_policies(), exact=True, limit=None, joins=True
        )
        built = explorer.build()
    walks = {key: left for known in fought._leaps.values() for key, left in known[1].items()}
    return built, walks, asked


@pytest.mark.parametrize("name", sorted(CASES))
def test_the_suffixes_taken_by_the_leaps_build_the_same_graph(
    name: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    walked, hit_by_hit, before = _explored(CASES[name], False, monkeypatch)
    built, remembered, after = _explored(CASES[name], True, monkeypatch)
    assert_same_graph(built, walked)
    # every walk remembered both ways leaves the same units and hits (the suffixes' own are
    # remembered besides)
    shared = hit_by_hit.keys() & remembered.keys()
    assert shared
    assert {key: remembered[key] for key in shared} == {key: hit_by_hit[key] for key in shared}
    assert after <= before


def test_the_walks_remembered_are_those_made_hit_by_hit(monkeypatch: pytest.MonkeyPatch) -> None:
    """Each walk remembered with the suffixes on (its own, and those it ended with), walked
    again hit by hit from a state with its key: the same units and hits left."""
    scenario = BATTLES["crown of thalnos"]
    _, remembered, _ = _explored(scenario, True, monkeypatch)
    assert len(remembered) > 4
    fought = _fought(scenario)
    policies = fought.stock_policies()
    with monkeypatch.context() as patched:
        patched.setattr(ti4_battle, "ASSIGNED_SUFFIXES", False)
        explorer: Explorer[Any] = Explorer(fought, policies, exact=True, limit=None, joins=True)
        explorer.build()
    again = {key: left for known in fought._leaps.values() for key, left in known[1].items()}
    assert remembered.keys() >= again.keys()
    assert {key: remembered[key] for key in again} == again


def test_the_crown_of_thalnos_walks_fewer_hits(monkeypatch: pytest.MonkeyPatch) -> None:
    _, _, before = _explored(BATTLES["crown of thalnos"], False, monkeypatch)
    _, _, after = _explored(BATTLES["crown of thalnos"], True, monkeypatch)
    assert after < before


def test_the_odds_are_the_same_as_fractions(monkeypatch: pytest.MonkeyPatch) -> None:
    for scenario in (BATTLES["crown of thalnos"], MENTAK_FLAGSHIP, L1Z1X_FLAGSHIP):
        on, off = fractions_on_and_off(scenario, ti4_battle, "ASSIGNED_SUFFIXES", monkeypatch)
        assert on.to_json() == off.to_json()


@pytest.mark.slow
def test_the_faction_mix_battle_gives_the_same_graph(monkeypatch: pytest.MonkeyPatch) -> None:
    """No. 275 of the faction mix (benchmarks/faction_exact.py, seed 2026: both players' Crown
    of Thalnos, Shields Holding, War Funding)."""
    scenario = battles(276, 2026)[275]
    walked, hit_by_hit, before = _explored(scenario, False, monkeypatch)
    built, remembered, after = _explored(scenario, True, monkeypatch)
    assert_same_graph(built, walked)
    shared = hit_by_hit.keys() & remembered.keys()
    assert {key: remembered[key] for key in shared} == {key: hit_by_hit[key] for key in shared}
    assert after < before
