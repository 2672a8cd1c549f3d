"""The state walked on from after a round's rolls taken player by player, with the damage
sustained this round already plain damage (issue 24, 24Y-4; rulesets/ti4/split_rolls.py
``_settles_early``, ``_settled_early``, ``SETTLED_EARLY``; docs/architecture.md, "The odds
engine", 1.).

At the end of a combat round, units that sustained damage this round are simply damaged
(procedures/combat_round.py ``end_of_round``; ti4-space-combat.md rule 9.1, ground 4.2). From
the state both assignments lead to (the defender's Assign Hits step, no hit left), nothing reads
the difference before that where no handler acts after hits are assigned (Duranium Armor does:
it repairs a unit that did not sustain this round) and no retreat is announced: the pairs of
players' parts after that differ only by it play out alike, and the explorer walks on once for
them all. These tests check that the graph is the same, chance state for chance state and edge
for edge with exact weights, with it on and off, in fewer steps of the rules; that the answers
are the same to the last bit; and that Duranium Armor keeps the parts as they were.
"""

from __future__ import annotations

from typing import Any

import pytest
from benchmarks.faction_exact import battles

from spacecombat.analysis.exact import exact_odds
from spacecombat.analysis.graph import Explorer, StateGraph
from spacecombat.rulesets.ti4 import split_rolls
from spacecombat.rulesets.ti4.sides import Side

from .same_graph import assert_same_graph
from .test_graph_passed_states import BATTLES
from .test_graph_splits import (
    HACAN_AND_CROWN,
    L1Z1X_FLAGSHIP,
    MENTAK_DEFENDS,
    _explore,
    _fought,
)

CASES: dict[str, dict[str, Any]] = {
    "crown of thalnos": BATTLES["crown of thalnos"],
    "hacan flagship and crown": HACAN_AND_CROWN,
    # its owner's part kept as assigned, the other's settled (the defender's Duranium Armor;
    # the attacker's dreadnought sustains)
    "duranium armor": BATTLES["duranium armor"],
    "l1z1x flagship, duranium armor": L1Z1X_FLAGSHIP,
    # the paired tables (the Mentak flagship's note travels with the parts); its opponent
    # cannot use SUSTAIN DAMAGE, so no fewer steps
    "mentak flagship defends": MENTAK_DEFENDS,
}
#: the cases where some pairs of parts differ only by damage sustained this round
FEWER = ("crown of thalnos", "hacan flagship and crown", "l1z1x flagship, duranium armor")


def _built(
    scenario: dict[str, Any], on: bool, monkeypatch: pytest.MonkeyPatch
) -> tuple[StateGraph[Any], Explorer[Any], int]:
    with monkeypatch.context() as patched:
        patched.setattr(split_rolls, "SETTLED_EARLY", on)
        return _explore(scenario, True, monkeypatch)


@pytest.mark.parametrize("name", sorted(CASES))
def test_the_same_graph_in_fewer_steps(name: str, monkeypatch: pytest.MonkeyPatch) -> None:
    walked, stepped, split_before = _built(CASES[name], False, monkeypatch)
    built, settled, split = _built(CASES[name], True, monkeypatch)
    assert split == split_before > 0  # the same rounds split
    assert_same_graph(built, walked)
    assert settled.steps <= stepped.steps
    if name in FEWER:
        assert settled.steps < stepped.steps


def test_the_odds_are_the_same(monkeypatch: pytest.MonkeyPatch) -> None:
    """The whole exact engine, fractions and floats to the last bit, with and without."""
    for scenario in CASES.values():
        early = exact_odds(scenario, fractions=True).to_json()
        floats = exact_odds(scenario).to_json()
        with monkeypatch.context() as patched:
            patched.setattr(split_rolls, "SETTLED_EARLY", False)
            assert exact_odds(scenario, fractions=True).to_json() == early
            assert exact_odds(scenario).to_json() == floats


def test_duranium_armor_keeps_its_owners_damage_sustained_this_round() -> None:
    """Duranium Armor acts after hits are assigned and reads which of its owner's units
    sustained this round: its owner's part is walked on from as the assignment left it, the
    other player's settled; an announced retreat keeps both."""
    fought = _fought(BATTLES["duranium armor"])
    owner = next(h.owner for h in fought.setup.handlers if h.id == "duranium_armor")
    assert owner is not None
    assert split_rolls._settles_early(fought.setup, fought.start().state) == (owner.other,)
    crowned = _fought(BATTLES["crown of thalnos"])
    begun = crowned.start().state
    assert split_rolls._settles_early(crowned.setup, begun) == (Side.ATTACKER, Side.DEFENDER)
    assert split_rolls._settles_early(crowned.setup, begun._replace(announced=(True, False))) == ()


@pytest.mark.slow
def test_the_faction_mix_battle_gives_the_same_graph(monkeypatch: pytest.MonkeyPatch) -> None:
    """Nos. 163 and 159 of the faction mix (benchmarks/faction_exact.py, seed 2026: the Hacan
    flagship, the Crown of Thalnos; the Crown beside Duranium Armor): the same graphs, in
    fewer steps."""
    drawn = battles(164, 2026)
    for scenario in (drawn[163], drawn[159]):
        walked, stepped, _ = _built(scenario, False, monkeypatch)
        built, settled, _ = _built(scenario, True, monkeypatch)
        assert_same_graph(built, walked)
        assert settled.steps < stepped.steps
