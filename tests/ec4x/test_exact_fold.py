"""The EC4X exact engine's shortcuts (issue 24, docs/rulings.md 24C-1 to 24C-3) give the same
answers as exploring every draw one at a time:

- 7.3.1 "Simultaneous Attack Resolution": an attack step's selections folded into one
  distribution (``Ec4xBattle.folded``), the same exact fractions as draw by draw;
- interchangeable units (same class, fleet, condition) merged (``Ec4xBattle.alike_runs``);
- cycles of ground combat states within a round (7.6.1) passed through with one solve in the
  rounds distribution, the same sums as sweeping them;
- the settled-state cap grows with the budget asked for (``--budget``), and a refusal names
  the units whose conditions multiplied the states.
"""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

import pytest
import yaml

from spacecombat import rulesets
from spacecombat.analysis import budget
from spacecombat.analysis.budget import TooLarge
from spacecombat.analysis.exact import exact_odds, sized_settled
from spacecombat.analysis.graph import Explorer
from spacecombat.analysis.solve import _push_rounds_arrays, push_rounds
from spacecombat.rulesets import parse_scenario
from spacecombat.rulesets.ec4x.battle import Ec4xBattle
from spacecombat.rulesets.ec4x.state import Morale, Stage

EXAMPLES = Path(__file__).resolve().parents[2] / "examples" / "ec4x"


def _battle(sides: tuple[list[Any], list[Any]], **houses: Any) -> dict[str, Any]:
    """Alpha against beta in neutral space, morale drawn by the engine."""

    def fleet(fid: str, owner: str, squadrons: list[Any]) -> dict[str, Any]:
        return {"id": fid, "owner": owner, "order": 3, "roe": 8, "squadrons": squadrons}

    return {
        "ruleset": "ec4x",
        "game_id": "fold",
        "turn": 1,
        "system": {"name": "F"},
        "houses": {"alpha": {"prestige": 50}, "beta": {"prestige": 50}, **houses},
        "diplomacy": [{"houses": ["alpha", "beta"], "status": "enemy"}],
        "fleets": [fleet("A1", "alpha", sides[0]), fleet("B1", "beta", sides[1])],
    }


#: two attackers a side in one CR tier, crippled ones too, and two alike destroyers
TWO_BY_TWO = _battle(
    (
        [{"flagship": "DD"}, {"flagship": "DD"}, {"flagship": "CL", "state": "crippled"}],
        [{"flagship": "CA"}, {"flagship": "DD", "escorts": {"FG": 1}}],
    )
)


def _without_shortcuts(monkeypatch: pytest.MonkeyPatch, *, fold: bool, alike: bool) -> None:
    """Make ``exact_odds`` build battles without the fold and/or the merging of alike units."""
    made = rulesets.battle

    def plain(scenario: Any) -> Any:
        battle: Any = made(scenario)
        if not fold:
            battle.folded = lambda state, exact: None
        if not alike:
            battle.alike_runs = ()
        return battle

    monkeypatch.setattr(rulesets, "battle", plain)


def _json(report: Any) -> Any:
    return json.loads(json.dumps(report.to_json()))


def _close(now: Any, before: Any) -> bool:
    if isinstance(now, dict) and isinstance(before, dict):
        return now.keys() == before.keys() and all(_close(now[k], before[k]) for k in now)
    if isinstance(now, list) and isinstance(before, list):
        return len(now) == len(before) and all(map(_close, now, before))
    if isinstance(now, float) and isinstance(before, float | int):
        return abs(now - before) <= 1e-12 * max(1.0, abs(before))
    return bool(now == before)


def test_folded_selections_give_the_same_fractions(monkeypatch: pytest.MonkeyPatch) -> None:
    """7.3.1: the step's selections folded are the same exact fractions as drawn one attacker
    at a time (three attackers and a crippled squadron a side, morale drawn)."""
    scenario = _battle(
        ([{"flagship": "DD"}, {"flagship": "CL", "state": "crippled"}], [{"flagship": "CA"}])
    )
    folded = exact_odds(scenario, fractions=True)
    _without_shortcuts(monkeypatch, fold=False, alike=False)
    drawn = exact_odds(scenario, fractions=True)
    assert folded.other == drawn.other
    assert folded.fractions_json() == drawn.fractions_json()


@pytest.mark.parametrize("fold", [False, True])
def test_alike_units_merged_give_the_same_answer(
    monkeypatch: pytest.MonkeyPatch, fold: bool
) -> None:
    """Two alike destroyers (7.3.2.5 weights, 7.3.3 damage and 7.3.6 outcome read them
    alike): merged or not, folded or not, the same odds to 1e-12."""
    merged = _json(exact_odds(TWO_BY_TWO))
    _without_shortcuts(monkeypatch, fold=fold, alike=False)
    assert _close(_json(exact_odds(TWO_BY_TWO)), merged)


def test_alike_units_kept_apart_for_the_state_after_rounds() -> None:
    """The state after N rounds names each unit: alike units are not merged for it, so each
    destroyer has its own chance of being crippled."""
    report = exact_odds(TWO_BY_TWO, rounds=1)
    assert report.after_rounds is not None
    states = report.after_rounds["states"]
    crippled = {unit["unit"]: 0.0 for state in states for unit in state["alpha"]["space"] if unit}
    for state in states:
        for unit in state["alpha"]["space"]:
            if unit["state"] == "crippled":
                crippled[unit["unit"]] += state["probability"]
    first, second = crippled["A1-1"], crippled["A1-2"]
    assert first == pytest.approx(second, abs=1e-12)
    assert first > 0


def test_a_morale_auto_critical_keeps_the_attackers_order(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """7.1.4: the auto-critical falls on the house's first attacker, so a step where one is
    due is drawn attacker by attacker (not folded), and the answer is the same."""
    scenario = copy.deepcopy(TWO_BY_TWO)
    scenario["houses"]["alpha"] = {"prestige": 70, "morale_roll": 20}  # High: auto-critical
    battle = rulesets.battle(parse_scenario(scenario))
    graph = Explorer(battle, battle.stock_policies(), exact=False, limit=None).build()
    assert any(s.cursor and s.stage.name == "ATTACK" for s in graph.states)
    merged = _json(exact_odds(scenario))
    _without_shortcuts(monkeypatch, fold=False, alike=False)
    assert _close(_json(exact_odds(scenario)), merged)


def test_ground_combat_cycles_solved_at_once() -> None:
    """7.6.1: ground combat rounds begin no combat round, so its states cycle within one; the
    array push passes each cycle with one solve, the same sums as sweeping it."""
    scenario = _battle(([{"flagship": "CA"}], [{"flagship": "DD", "state": "crippled"}]))
    scenario["system"]["controller"] = "beta"
    scenario["colony"] = {"owner": "beta", "batteries": 1, "armies": 1, "iu": 20, "pu": 50}
    scenario["fleets"][0].update(order=7, spacelift={"TT": 1})
    scenario["fleets"][1]["order"] = 5
    battle: Any = rulesets.battle(parse_scenario(scenario))
    # the siege explored in the battle's graph, not solved apart (24R-1), so its cycles are
    battle.use_policies = lambda policies: None
    graph = Explorer(battle, battle.stock_policies(), exact=False, limit=None).build()
    pushed = _push_rounds_arrays(graph, tail=1e-13, most=None)
    assert pushed is not None
    swept = push_rounds(graph, tail=1e-13)

    def by_end(exits: Any) -> dict[Any, float]:
        found: dict[Any, float] = {}
        for target, at, flow in exits:
            key = (target.key, at)
            found[key] = found.get(key, 0.0) + flow
        return found

    one, other = by_end(pushed[0]), by_end(swept[0])
    assert one.keys() == other.keys()
    assert all(abs(one[k] - other[k]) <= 1e-15 for k in one)


def test_settled_cap_grows_with_the_budget() -> None:
    """``--budget`` scales EC4X's settled states as it scales its chance states."""
    battle = rulesets.battle(parse_scenario(TWO_BY_TWO))
    assert isinstance(battle, Ec4xBattle)
    own = battle.settled_states
    assert sized_settled(battle, budget.CHANCE_STATES) == own
    assert sized_settled(battle, 3 * budget.CHANCE_STATES) == 3 * own
    assert sized_settled(battle, None) == own
    assert sized_settled(battle, 100_000) == budget.MOST_SETTLED


def test_the_explorer_is_given_the_scaled_cap(monkeypatch: pytest.MonkeyPatch) -> None:
    """``exact_odds`` with twice the default budget explores EC4X with twice its settled
    states (and six times the chance states, ``chance_state_scale``)."""
    given: dict[str, Any] = {}
    made = Explorer

    def explorer(*args: Any, **kwargs: Any) -> Any:
        given.update(kwargs)
        return made(*args, **kwargs)

    monkeypatch.setattr("spacecombat.analysis.exact.Explorer", explorer)
    exact_odds(TWO_BY_TWO, limit=2 * budget.CHANCE_STATES)
    assert given["settled"] == 2 * Ec4xBattle.settled_states
    assert given["limit"] == 2 * budget.CHANCE_STATES * Ec4xBattle.chance_state_scale


def test_the_folds_work_is_bounded_and_scales_with_the_budget(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Folded attack steps combine selections that the explorer's states do not count: a
    battle whose folds pass their share (``FOLDED_PER_SETTLED`` a settled state) is refused
    by name, so it is given up in time; a ``--budget`` scales the share with the settled
    states."""
    from spacecombat.rulesets.ec4x import battle as ec4x_battle

    sized: list[Ec4xBattle] = []
    size_folds = Ec4xBattle.size_folds

    def remembered(self: Ec4xBattle, settled: int) -> None:
        sized.append(self)
        size_folds(self, settled)

    monkeypatch.setattr(Ec4xBattle, "size_folds", remembered)
    report = exact_odds(TWO_BY_TWO, limit=2 * budget.CHANCE_STATES)
    assert report.method == "exact"
    (solved,) = sized
    per = ec4x_battle.FOLDED_PER_SETTLED
    assert solved.most_folded == per * 2 * Ec4xBattle.settled_states
    assert 0 < solved.folded_work <= solved.most_folded

    monkeypatch.setattr(ec4x_battle, "FOLDED_PER_SETTLED", 0)
    with pytest.raises(TooLarge, match="after 0 selections combined within attack steps"):
        exact_odds(TWO_BY_TWO)


def test_a_refusal_names_the_units_that_multiplied_the_states(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The note names what the states explored show: the fighter squadrons whose conditions
    changed (issue 24: the real cause, not the battle's size). Stopped by its settled states
    (the folds' shares left unbounded, so that they are what stops it)."""
    monkeypatch.setattr("spacecombat.rulesets.ec4x.battle.FOLDED_PER_SETTLED", 10**6)
    monkeypatch.setattr("spacecombat.rulesets.ec4x.battle.DAMAGE_STEPS_PER_SETTLED", 10**6)
    scenario = yaml.safe_load((EXAMPLES / "fighters.yaml").read_text())
    with pytest.raises(TooLarge) as refused:
        # (a budget of 5: at most 50 settled states; at 10, the 60 chance states are reached
        # first since a step's damage is followed in its fold, 24S-2, with fewer settled)
        exact_odds(scenario, limit=5)
    note = str(refused.value)
    assert "at 50 battle states reached by the dice" in note
    assert "conditions of its units (those of alpha 4 fighter squadrons" in note
    assert "beta 6 fighter squadrons change)" in note


@pytest.mark.slow
def test_dice_rolled_at_the_round_start_folded_alike(monkeypatch: pytest.MonkeyPatch) -> None:
    """Option ``cer_timing: round_start``: each unit's die is rolled before the steps, and a
    step's selections with those dice folded give the same odds as drawn one at a time."""
    scenario = _battle(
        ([{"flagship": "CA"}], [{"flagship": "CL"}, {"flagship": "DD"}]),
        alpha={"prestige": 50, "morale_roll": 3},
        beta={"prestige": 50, "morale_roll": 3},
    )
    scenario["options"] = {"cer_timing": "round_start"}
    folded = _json(exact_odds(scenario))
    _without_shortcuts(monkeypatch, fold=False, alike=False)
    assert _close(_json(exact_odds(scenario)), folded)


def test_what_only_space_combat_reads_forgotten_after_it(monkeypatch: pytest.MonkeyPatch) -> None:
    """7.3.6, 7.5, 7.6: once space combat is over, each house's morale (7.1.4) and what only
    its rounds read are forgotten (``Ec4xBattle._after_space_combat``): a siege after a battle
    with morale drawn by the engine gives the same exact fractions as when they are kept, and
    two end states that differ only in morale are one state."""
    scenario = _battle(([{"flagship": "CA"}], [{"flagship": "DD", "state": "crippled"}]))
    scenario["system"]["controller"] = "beta"
    scenario["colony"] = {"owner": "beta", "batteries": 1, "armies": 1, "iu": 20, "pu": 50}
    scenario["fleets"][0].update(order=7, spacelift={"TT": 1})
    scenario["fleets"][1]["order"] = 5
    battle = rulesets.battle(parse_scenario(scenario))
    assert isinstance(battle, Ec4xBattle)
    start = battle.start().state
    over = start.at(Stage.OVER, round=2, joined=1)
    other = over.at(Stage.OVER, morale=(Morale("high", 1, 0, 0, True),), engaged=3)
    assert battle.canonical(over) == battle.canonical(other)
    forgotten = exact_odds(scenario, fractions=True)
    made = rulesets.battle

    def kept(data: Any) -> Any:
        found: Any = made(data)
        found._after_space_combat = lambda state: state
        return found

    monkeypatch.setattr(rulesets, "battle", kept)
    whole = exact_odds(scenario, fractions=True)
    assert forgotten.other == whole.other
    assert forgotten.fractions_json() == whole.fractions_json()
