"""The defender's combat roll folded into the attacker's on the state graph (issue 24, TI4
faction battles exact; docs/architecture.md, "The odds engine", 1.).

In the Roll Dice step (ti4-space-combat.md step 3, ti4-ground-combat.md step 1) the attacker
rolls, then the defender: on the state graph the defender's roll was a chance state for each
pair of units *and* each number of hits the attacker rolled. The explorer now folds a chance
state the battle says joins the roll before (analysis/graph.py ``Joining``; TI4: the
defender's combat roll, ``Ti4Battle.joins_roll_before``) into the roll whose outcome reached
it: its outcomes become that roll's, their chances multiplied (the same Markov chain, one
kind of state eliminated). These tests check that the answers are the same (exact fractions
equal, floats to 1e-12) with fewer chance states, and that the battle of the faction mix that
fell back to Monte Carlo at the chance-state budget is now exact.
"""

from __future__ import annotations

from typing import Any

import pytest

from spacecombat import odds
from spacecombat.analysis import graph
from spacecombat.analysis.exact import exact_odds
from spacecombat.analysis.graph import Explorer, TooManyStates
from spacecombat.rulesets import battle, parse_scenario
from spacecombat.rulesets.ti4.battle import Ti4Battle

from .test_graph_leaps import IDLE, _numbers
from .test_graph_passed_states import BATTLES

#: battles on the state graph: Duranium Armor, The Crown of Thalnos, War Funding Omega, and
#: handlers asked while hits are assigned
CASES: dict[str, dict[str, Any]] = {
    **BATTLES,
    "brother_milor": IDLE["brother_milor"],
    "reflective_shielding_hits_lost": IDLE["reflective_shielding_hits_lost"],
}

#: the faction mix's battle no. 256 (benchmarks/faction_exact.py, seed 2026): the defender's
#: Crown of Thalnos, which it plays, Brother Milor, the attacker's Fighter Prototype; 3,372
#: chance states, 2,986 of them the defender's roll, so it fell back to Monte Carlo at the
#: 3,000 allowed (``budget.CHANCE_STATES``)
CROWN_AND_BROTHER_MILOR: dict[str, Any] = {
    "ruleset": "ti4",
    "battle": "space",
    "attacker": {
        "units": {"war_sun": 2, "cruiser": 1, "destroyer": 1, "fighter": 1},
        "faction": "yssaril",
        "technologies": ["assault_cannon"],
        "action_cards": ["fighter_prototype", "disable"],
        "relics": ["the_crown_of_thalnos"],
        "trade_goods": 2,
        "influence": 1,
        "policy": {"sustain": "first", "play": {"the_crown_of_thalnos": "never"}},
        "planet_units": {"infantry": 1},
    },
    "defender": {
        "units": {"war_sun": 1, "cruiser": 1, "dreadnought": 2, "fighter": 1},
        "faction": "yin",
        "upgrades": ["fighter"],
        "technologies": ["magen_defense_grid_omega", "antimass_deflectors"],
        "promissory_notes": ["the_cavalry", "strike_wing_ambuscade"],
        "leaders": ["brother_milor"],
        "relics": ["the_crown_of_thalnos"],
        "trade_goods": 4,
        "influence": 2,
        "policy": {"sustain": "first"},
    },
    "system": {"features": ["mecatol_rex"]},
}


def _chance_states(scenario: dict[str, Any], joins: bool) -> int:
    fought = battle(parse_scenario(scenario))
    assert isinstance(fought, Ti4Battle)
    fought = fought.for_stock_policies()
    explorer: Explorer[Any] = Explorer(
        fought, fought.stock_policies(), exact=False, limit=None, joins=joins
    )
    return len(explorer.build().states)


@pytest.mark.parametrize("name", sorted(CASES))
def test_the_defenders_roll_folded_gives_the_same_odds(
    name: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The headline probabilities in exact fractions equal, every number of the reports to
    1e-12 (the rounds pass sums floats in another order), with and without the rolls folded;
    the graph holds fewer chance states."""
    scenario = CASES[name]
    assert _chance_states(scenario, joins=True) < _chance_states(scenario, joins=False)
    exact = exact_odds(scenario, fractions=True)
    floats = _numbers(exact_odds(scenario).to_json())
    with monkeypatch.context() as patched:
        patched.setattr(graph, "JOINS", False)
        assert exact_odds(scenario, fractions=True).fractions_json() == exact.fractions_json()
        separate = _numbers(exact_odds(scenario).to_json())
    assert exact.fractions_json()
    assert floats.keys() == separate.keys()
    for where, value in floats.items():
        assert value == separate[where] or abs(value - separate[where]) <= 1e-12, where


def test_the_state_after_n_rounds_keeps_every_chance_state(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The state after N rounds is read from the graph's chance states as rounds begin: no
    roll is folded there (the battle is never asked), and the report is the one without
    folding."""
    scenario = BATTLES["crown of thalnos"]
    with monkeypatch.context() as patched:
        patched.setattr(graph, "JOINS", False)
        unfolded = exact_odds(scenario, rounds=1).to_json()

    def never(self: Ti4Battle, state: object) -> bool:
        raise AssertionError("a roll folded where the state after N rounds was asked for")

    monkeypatch.setattr(Ti4Battle, "joins_roll_before", never)
    report = exact_odds(scenario, rounds=1).to_json()
    assert report["after_rounds"]["states"]
    assert report == unfolded


def test_the_folded_states_are_bounded_by_the_budget_too() -> None:
    """The Crown of Thalnos battle: 37 chance states on the graph and 187 folded into the
    rolls before them. With room for 100 chance states the graph stops at the folded ones,
    saying so, and a larger budget (``--budget``) reaches further."""
    with pytest.raises(TooManyStates, match="100 battle states folded into the rolls") as stop:
        exact_odds(BATTLES["crown of thalnos"], limit=100)
    assert stop.value.budgeted
    assert exact_odds(BATTLES["crown of thalnos"], limit=200).method == "exact"


@pytest.mark.slow
def test_the_faction_mix_battle_at_the_chance_state_budget_is_exact(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """No. 256 of the mix is solved exactly within the default budgets (no fallback), and its
    answers are those of the whole graph without folding, its chance states unbounded."""
    report = odds(CROWN_AND_BROTHER_MILOR, fallback=False)
    assert report.method == "exact"
    with monkeypatch.context() as patched:
        patched.setattr(graph, "JOINS", False)
        whole = exact_odds(CROWN_AND_BROTHER_MILOR, limit=None)
    ours, theirs = _numbers(report.to_json()), _numbers(whole.to_json())
    assert ours.keys() == theirs.keys()
    for where, value in ours.items():
        assert value == theirs[where] or abs(value - theirs[where]) <= 1e-12, where
