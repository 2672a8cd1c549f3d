"""A game's battles take the game's limits (issue 23; docs/limits.md): the state read bounds
each fleet to 200 units and the game to 5,000 fleets, so three legal fleets of 70 destroyers
that meet one enemy ship fight, though together they pass a battle scenario's 200 units a
house; a battle scenario of its own, and the odds engines, keep the 200."""

from __future__ import annotations

from typing import Any

import pytest

from spacecombat.analysis.exact import exact_odds
from spacecombat.analysis.montecarlo import monte_carlo
from spacecombat.core.errors import ScenarioError
from spacecombat.core.limits import MAX_GAME_BATTLE_UNITS, MAX_UNITS_PER_SIDE
from spacecombat.rulesets.ec4x.options import parse_ec4x
from spacecombat.rulesets.ec4x.turn.conflict import turn
from spacecombat.rulesets.ec4x.turn.game import parse_game
from spacecombat.scenario.ec4x_orders import parse_orders
from tests.ec4x.game.helpers import data, fleet

SEVENTY = [{"flagship": "DD"}] * 70


def three_fleets_of_70() -> dict[str, Any]:
    """Alpha's A1-A3 (70 DD squadrons each, 70 units) hold at B; beta's one DD patrols there;
    the houses are at war."""
    raw = data(
        "A-B major",
        fleets=[
            *(fleet(f"A{n}", at="B", squadrons=SEVENTY, roe=10) for n in (1, 2, 3)),
            fleet("B1", "beta", at="B", order=3),
        ],
    )
    raw["diplomacy"] = [{"houses": ["alpha", "beta"], "status": "enemy"}]
    return raw


def test_210_units_of_one_house_fight_in_a_turn() -> None:
    state = parse_game(three_fleets_of_70())  # each fleet within the state's 200
    result = turn(state, parse_orders({"game_id": "test", "turn": 5, "orders": {}}, state))
    (record,) = result.battles
    assert record["system"] == "B"
    assert record["outcome"]["houses"]["beta"]["fate"] == "destroyed"
    assert all(f.owner == "alpha" for f in result.state.fleets)
    assert sum(len(f.squadrons) for f in result.state.fleets) == 210


def battle_of_210() -> dict[str, Any]:
    fleets = [
        {"id": f"A{n}", "owner": "alpha", "order": 3, "roe": 10, "squadrons": SEVENTY}
        for n in (1, 2, 3)
    ]
    fleets.append({"id": "B1", "owner": "beta", "order": 3, "roe": 10, "squadrons": SEVENTY[:1]})
    return {
        "ruleset": "ec4x",
        "game_id": "test",
        "turn": 1,
        "system": {"name": "B"},
        "houses": {"alpha": {"prestige": 50}, "beta": {"prestige": 50}},
        "diplomacy": [{"houses": ["alpha", "beta"], "status": "enemy"}],
        "fleets": fleets,
    }


def test_a_battle_scenario_keeps_its_limit() -> None:
    with pytest.raises(ScenarioError, match="210 units in one house; the limit is 200"):
        parse_ec4x(battle_of_210())
    assert parse_ec4x(battle_of_210(), max_units=MAX_GAME_BATTLE_UNITS).fleets
    assert MAX_GAME_BATTLE_UNITS > MAX_UNITS_PER_SIDE


def test_the_odds_engines_refuse_a_game_sized_battle() -> None:
    """A scenario built under the game's limit is never fed to the exact or Monte Carlo
    engine by accident: both check the battle scenario's limit."""
    built = parse_ec4x(battle_of_210(), max_units=MAX_GAME_BATTLE_UNITS)
    with pytest.raises(ScenarioError, match="the limit is 200"):
        exact_odds(built)
    with pytest.raises(ScenarioError, match="the limit is 200"):
        monte_carlo(built, trials=1)
