"""7.1.4: a house's +CER for one squadron is read only by that squadron's attacks
(``cer.modifiers``), so the exact engine forgets it once the squadron is destroyed or has
retreated (docs/architecture.md 24R-4, ``Ec4xBattle._without_spent_boost``): the same exact
fractions, from fewer states.
"""

from __future__ import annotations

from typing import Any

import pytest

from spacecombat import rulesets
from spacecombat.analysis.exact import exact_odds
from spacecombat.analysis.graph import Explorer
from spacecombat.rulesets import parse_scenario
from spacecombat.rulesets.ec4x import battle as ec4x_battle
from spacecombat.rulesets.ec4x.battle import Ec4xBattle
from spacecombat.rulesets.ec4x.state import DESTROYED, Morale, Stage

#: beta's prestige in the Average band (a +1 CER for one of its squadrons, 7.1.4), alpha's
#: morale drawn by the engine; two squadrons a side, either may be destroyed
BOOSTED: dict[str, Any] = {
    "ruleset": "ec4x",
    "game_id": "boost",
    "turn": 1,
    "system": {"name": "B"},
    "houses": {"alpha": {"prestige": 50}, "beta": {"prestige": 30}},
    "diplomacy": [{"houses": ["alpha", "beta"], "status": "enemy"}],
    "fleets": [
        {
            "id": "A1",
            "owner": "alpha",
            "order": 3,
            "roe": 10,
            "squadrons": [{"flagship": "CA"}, {"flagship": "DD"}],
        },
        {
            "id": "B1",
            "owner": "beta",
            "order": 3,
            "roe": 10,
            "squadrons": [{"flagship": "CL"}, {"flagship": "DD", "state": "crippled"}],
        },
    ],
}


def _chance_states() -> int:
    battle = rulesets.battle(parse_scenario(BOOSTED))
    graph = Explorer(battle, battle.stock_policies(), exact=False, limit=None).build()
    return len(graph.states)


def test_a_spent_boost_is_forgotten() -> None:
    """The boosted squadron destroyed: the morale result is kept without its boost; alive,
    it is kept as it is."""
    battle = rulesets.battle(parse_scenario(BOOSTED))
    assert isinstance(battle, Ec4xBattle)
    start = battle.start().state
    boost = Morale("Average", 0, 3, 1, False)
    alive = start.at(Stage.ROUND_START, round=1, morale=(Morale("Elite", 2, -1, 0, False), boost))
    assert battle.canonical(alive).morale == alive.morale
    gone = alive.with_cond(3, DESTROYED).at(Stage.ROUND_START)
    assert battle.canonical(gone).morale[1] == Morale("Average", 0, -1, 0, False)


def test_the_same_fractions_from_fewer_states(monkeypatch: pytest.MonkeyPatch) -> None:
    """Forgotten or kept, the same exact fractions; forgotten, fewer chance states."""
    forgotten = exact_odds(BOOSTED, fractions=True)
    fewer = _chance_states()
    monkeypatch.setattr(ec4x_battle, "FORGET_SPENT_BOOST", False)
    kept = exact_odds(BOOSTED, fractions=True)
    assert forgotten.other == kept.other
    assert forgotten.fractions_json() == kept.fractions_json()
    assert fewer < _chance_states()
