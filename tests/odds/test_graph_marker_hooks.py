"""Handlers whose ``after_assign_hits`` only marks them as acting in the rounds, passed over
where the exact engine asks who acts after hits are assigned (issue 24, 24AC-1;
rulesets/ti4/procedures/marker_hooks.py ``marker_only``, ``PASSED_OVER``;
docs/architecture.md, "The odds engine", 1.).

``ActsOnHits`` (abilities/sustain_damage.py) answers ``after_assign_hits`` with ``None`` at
every state (Brother Milor, Rear Admiral Farran, the Mentak flagship and mech, ...), so that
``acts_in_rounds`` counts it. In the window after hits are assigned (ti4-space-combat.md step 4)
it acts on nothing, so the damage sustained this round is read by nothing before the round's
end makes it plain damage (procedures/combat_round.py ``end_of_round``, rule 9.1), and the
split rolls settle it early for both players (rulesets/ti4/split_rolls.py ``_settles_early``,
24Y-4). These tests check that the graph is the same, chance state for chance state and edge
for edge with exact weights, with the switch on and off, in fewer steps of the rules, and that
the answers are the same as fractions.
"""

from __future__ import annotations

import copy
from typing import Any

import pytest

from spacecombat.analysis.exact import exact_odds
from spacecombat.rulesets.ti4.abilities.brother_milor import BrotherMilor
from spacecombat.rulesets.ti4.abilities.duranium_armor import DuraniumArmor
from spacecombat.rulesets.ti4.procedures import marker_hooks

from .same_graph import switched_graphs
from .test_graph_joins import CROWN_AND_BROTHER_MILOR
from .test_graph_leaps import IDLE
from .test_graph_splits import MENTAK_DEFENDS, _explore

#: Brother Milor held by the Yin defender, whose Crown of Thalnos rerolls its misses; the
#: attacker's dreadnought sustains first: once the card is played the rounds split, and the
#: pairs of parts that differ only by the dreadnought's damage this round meet at once
MILOR_AND_CROWN: dict[str, Any] = copy.deepcopy(IDLE["brother_milor"])
MILOR_AND_CROWN["defender"]["relics"] = ["the_crown_of_thalnos"]

CASES: dict[str, dict[str, Any]] = {
    "brother milor and crown": MILOR_AND_CROWN,
    # the paired tables (the Mentak flagship's note travels with the parts): its owner's damage
    # now settled early too
    "mentak flagship defends": MENTAK_DEFENDS,
}
#: the cases where some pairs of parts differ only by damage sustained this round
FEWER = ("brother milor and crown",)


def test_only_the_marker_is_passed_over() -> None:
    """Brother Milor's ``after_assign_hits`` is the marker; Duranium Armor's acts."""
    assert marker_hooks.is_marker(BrotherMilor)
    assert not marker_hooks.is_marker(DuraniumArmor)


def _same_graph_in_fewer_steps(
    scenario: dict[str, Any], monkeypatch: pytest.MonkeyPatch, fewer: bool = True
) -> None:
    (_, stepped, before), (_, passed, taken) = switched_graphs(
        lambda: _explore(scenario, True, monkeypatch), marker_hooks, "PASSED_OVER", monkeypatch
    )
    assert taken == before > 0  # the same rounds split
    assert passed.steps <= stepped.steps
    if fewer:
        assert passed.steps < stepped.steps


@pytest.mark.parametrize("name", sorted(CASES))
def test_the_same_graph_in_fewer_steps(name: str, monkeypatch: pytest.MonkeyPatch) -> None:
    _same_graph_in_fewer_steps(CASES[name], monkeypatch, name in FEWER)


def test_the_odds_are_the_same(monkeypatch: pytest.MonkeyPatch) -> None:
    """The whole exact engine, as fractions, with and without."""
    for scenario in CASES.values():
        passed = exact_odds(scenario, fractions=True).to_json()
        with monkeypatch.context() as patched:
            patched.setattr(marker_hooks, "PASSED_OVER", False)
            assert exact_odds(scenario, fractions=True).to_json() == passed


@pytest.mark.slow
def test_the_faction_mix_battle_gives_the_same_graph(monkeypatch: pytest.MonkeyPatch) -> None:
    """No. 256 of the faction mix (Brother Milor played before the rounds): the same graph."""
    _same_graph_in_fewer_steps(CROWN_AND_BROTHER_MILOR, monkeypatch)
