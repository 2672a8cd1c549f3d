"""The state graph remembers the states a walk passes (issue 24, TI4 faction battles exact):
the battle is a process whose next node depends on its (canonical) state alone
(docs/architecture.md, "A battle is a process over states"), so a state passed on the way from
one outcome of a roll leads to the same chance state or end, with the same rounds begun after
it, whichever outcome reached it. ``Explorer.settle`` remembers them (``budget.GRAPH_PASSED``)
and a later walk that meets one stops there. These tests check that the graph built so is the
very graph built without it (the same chance states in the same order, the same edges with the
same exact weights), with fewer steps of the rules, on faction battles whose rounds are not in
product form (Duranium Armor, The Crown of Thalnos, War Funding Omega: ti4-combat-effects.md),
and that the memory it takes is bounded.
"""

from __future__ import annotations

import random
from typing import Any

import pytest
from benchmarks.factions import random_faction_battle

from spacecombat.analysis import budget
from spacecombat.analysis.budget import TooLarge
from spacecombat.analysis.exact import exact_odds
from spacecombat.analysis.graph import Explorer, StateGraph
from spacecombat.core.errors import RuleNotImplemented
from spacecombat.rulesets import battle, parse_scenario

#: three battles of the faction mix (benchmarks/factions.py, seed 2026), each solved on the
#: state graph: Duranium Armor repairs (cycles of states), The Crown of Thalnos destroys the
#: units whose rerolls missed, War Funding Omega keeps its holder's roll group by group
BATTLES: dict[str, dict[str, Any]] = {
    "duranium armor": {
        "ruleset": "ti4",
        "battle": "space",
        "attacker": {"units": {"destroyer": 2}, "policy": {"sustain": "first"}},
        "defender": {
            "units": {"cruiser": 1},
            "faction": "creuss",
            "upgrades": ["infantry", "carrier"],
            "technologies": ["duranium_armor", "x89_bacterial_weapon_omega"],
            "trade_goods": 2,
            "influence": 0,
            "policy": {"sustain": "last"},
            "planet_units": {"infantry": 1, "mech": 1},
        },
        "system": {"wormholes": ["delta"]},
    },
    "crown of thalnos": {
        "ruleset": "ti4",
        "battle": "space",
        "attacker": {
            "units": {"war_sun": 1, "fighter": 2},
            "upgrades": ["carrier"],
            "action_cards": ["infiltrate"],
            "relics": ["the_crown_of_thalnos"],
            "conditions": ["command_token_in_active_system"],
            "policy": {"sustain": "first", "play": {"the_crown_of_thalnos": {"round": 2}}},
        },
        "defender": {
            "units": {"cruiser": 1, "carrier": 1, "flagship": 1},
            "faction": "sol",
            "upgrades": ["infantry", "cruiser"],
            "action_cards": ["waylay"],
            "policy": {"sustain": "first", "play": {"waylay": {"round": 2}}},
        },
    },
    "war funding omega": {
        "ruleset": "ti4",
        "battle": "space",
        "attacker": {
            "units": {"war_sun": 1, "dreadnought": 1},
            "faction": "arborec",
            "technologies": ["antimass_deflectors", "dark_energy_tap"],
            "action_cards": ["infiltrate"],
            "promissory_notes": ["war_funding_omega"],
            "policy": {"sustain": "last"},
        },
        "defender": {
            "units": {"war_sun": 2},
            "faction": "sol",
            "upgrades": ["dreadnought", "fighter"],
            "trade_goods": 2,
            "influence": 3,
            "policy": {"sustain": "first"},
        },
        "system": {"wormholes": ["alpha"]},
    },
}


def _explore(scenario: dict[str, Any], passed: int) -> tuple[StateGraph[Any], Explorer[Any]]:
    fought = battle(parse_scenario(scenario))
    assert fought.product_refusal() is not None  # solved on the state graph
    explorer: Explorer[Any] = Explorer(fought, fought.stock_policies(), exact=True, limit=None)
    explorer.most_passed = passed
    return explorer.build(), explorer


@pytest.mark.parametrize("name", sorted(BATTLES))
def test_remembering_passed_states_builds_the_same_graph(name: str) -> None:
    without, walked = _explore(BATTLES[name], passed=0)
    graph, remembered = _explore(BATTLES[name], passed=budget.GRAPH_PASSED)
    assert walked.passed == 0
    assert graph.states == without.states
    assert graph.start == without.start
    assert graph.edges == without.edges  # targets, exact Fraction weights and rounds
    assert remembered.passed > 0
    assert remembered.steps < walked.steps


def test_passed_states_are_remembered_within_their_budget() -> None:
    """With room for 5 passed states, no more are kept, and the answers are the same."""
    scenario = BATTLES["crown of thalnos"]
    graph, explorer = _explore(scenario, passed=5)
    assert explorer.passed == 5
    assert graph.edges == _explore(scenario, passed=0)[0].edges


def test_the_odds_are_the_same(monkeypatch: pytest.MonkeyPatch) -> None:
    """The whole exact engine, floats and fractions, with and without passed states."""
    for scenario in BATTLES.values():
        remembered = exact_odds(scenario, fractions=True).to_json()
        floats = exact_odds(scenario).to_json()
        with monkeypatch.context() as patched:
            patched.setattr(budget, "GRAPH_PASSED", 0)
            assert exact_odds(scenario, fractions=True).to_json() == remembered
            assert exact_odds(scenario).to_json() == floats


def graph_battles(count: int, seed: int) -> list[dict[str, Any]]:
    """``count`` random faction battles (benchmarks/factions.py, at most 5 units a side) solved
    on the state graph (their rounds not in product form), none refused by name."""
    rng = random.Random(seed)
    found: list[dict[str, Any]] = []
    while len(found) < count:
        scenario = random_faction_battle(rng)
        try:
            refusal = battle(parse_scenario(scenario)).product_refusal()
        except RuleNotImplemented:
            continue
        if refusal is not None:
            found.append(scenario)
    return found


@pytest.mark.slow
def test_the_faction_mix_gets_the_same_odds(monkeypatch: pytest.MonkeyPatch) -> None:
    """100 random faction battles solved on the state graph: the same report with and without
    the passed states remembered, or the same refusal (a battle too large either way; without
    them the steps of the rules are not bounded: they are more, and only they)."""
    for scenario in graph_battles(100, seed=2024):
        try:
            remembered: object = exact_odds(scenario).to_json()
        except (TooLarge, RuleNotImplemented) as exc:
            remembered = type(exc).__name__
        with monkeypatch.context() as patched:
            patched.setattr(budget, "GRAPH_PASSED", 0)
            patched.setattr(budget, "GRAPH_STEPS", 10**8)
            try:
                walked: object = exact_odds(scenario).to_json()
            except (TooLarge, RuleNotImplemented) as exc:
                walked = type(exc).__name__
        assert remembered == walked, scenario
