"""The ships a player must destroy in the middle of the other's assignment, taken at once by the
state graph (issue 24, 24Y-6; rulesets/ti4/battle.py ``Ti4Battle._destroyed_at_once``,
``AT_ONCE``; docs/architecture.md, "The odds engine", 1.).

Courageous to the End (action card; ti4-combat-effects.md, action cards): "roll 2 dice; for each
result equal to or greater than that ship's combat value, your opponent destroys one of their
ships in the system, of their choice" (docs/rulings.md 14A-11: "assign_hit" decisions with
"destroy" options only, queued in the holder's Assign Hits step, ti4-space-combat.md step 4).
Each such decision reads the opponent's units alone, and each ship destroyed is heard by the
handlers acting after a unit is destroyed; where every one of them is idle while the opponent
assigns, the hearing only empties the queue, and the whole stretch reads nothing of the holder's
part: it is walked once for every state alike but for that part. These tests check that the
graph is the very graph built step by step (the same chance states in the same order, the same
edges with exact weights), in fewer steps, that the odds are the same to the last bit, and that
a handler hearing that is not idle keeps the stretch step by step.
"""

from __future__ import annotations

from typing import Any

import pytest

from spacecombat.analysis.exact import exact_odds
from spacecombat.analysis.graph import Explorer, StateGraph
from spacecombat.rulesets.ti4 import battle as ti4_battle
from spacecombat.rulesets.ti4.hooks import FollowUp
from spacecombat.rulesets.ti4.sides import Side
from spacecombat.rulesets.ti4.state import Phase

from .same_graph import assert_same_graph
from .test_graph_leaps import IDLE
from .test_graph_splits import _explore, _fought
from .test_graph_splits_rolling import ATTACKER_HOLDS

CASES: dict[str, dict[str, Any]] = {
    "attacker holds the card": ATTACKER_HOLDS,
    "defender holds the card": IDLE["courageous_to_the_end"],
}


def _built(
    scenario: dict[str, Any], on: bool, monkeypatch: pytest.MonkeyPatch
) -> tuple[StateGraph[Any], Explorer[Any], int]:
    with monkeypatch.context() as patched:
        patched.setattr(ti4_battle, "AT_ONCE", on)
        return _explore(scenario, True, monkeypatch)


@pytest.mark.parametrize("name", sorted(CASES))
def test_the_same_graph_in_fewer_steps(name: str, monkeypatch: pytest.MonkeyPatch) -> None:
    walked, stepped, _ = _built(CASES[name], False, monkeypatch)
    built, leapt, _ = _built(CASES[name], True, monkeypatch)
    assert_same_graph(built, walked)
    assert leapt.steps < stepped.steps


def test_the_odds_are_the_same(monkeypatch: pytest.MonkeyPatch) -> None:
    """The whole exact engine, fractions and floats to the last bit, with and without."""
    for scenario in CASES.values():
        at_once = exact_odds(scenario, fractions=True).to_json()
        floats = exact_odds(scenario).to_json()
        with monkeypatch.context() as patched:
            patched.setattr(ti4_battle, "AT_ONCE", False)
            assert exact_odds(scenario, fractions=True).to_json() == at_once
            assert exact_odds(scenario).to_json() == floats


def _destroying(fought: ti4_battle.Ti4Battle) -> Any:
    """A state of the attacker's Assign Hits step with one ship of the defender's to destroy."""
    begun = fought.start().state
    return begun._replace(
        phase=Phase.ASSIGN_HITS,
        turn=Side.ATTACKER,
        round=1,
        following=(FollowUp.must_destroy(Side.DEFENDER, "courageous to the end"),),
    )


def test_the_ship_is_destroyed_at_once() -> None:
    fought = _fought(ATTACKER_HOLDS)
    state = _destroying(fought)
    landed = fought.leap(state, fought.stock_policies())
    assert landed is not None
    assert not landed.following
    assert landed.attacker == state.attacker
    assert landed.defender.space.count() == state.defender.space.count() - 1


def test_a_handler_hearing_that_is_not_idle_keeps_it_step_by_step(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A handler acting after a unit is destroyed that is not idle while the defender assigns
    (Technological Singularity with something to gain, say) may read the attacker's part: the
    stretch is not taken at once."""
    fought = _fought(ATTACKER_HOLDS)
    state = _destroying(fought)
    hearer = next(h for h in fought.setup.handlers if h.id == "courageous_to_the_end")
    monkeypatch.setattr(type(hearer), "idle_while_assigning", lambda *_: False)
    assert fought.leap(state, fought.stock_policies()) is None
