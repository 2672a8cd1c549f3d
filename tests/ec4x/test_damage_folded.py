"""A folded attack step followed through its damage (7.3.1 "Combined damage from all attackers
is applied to the target", 7.3.3; docs/architecture.md 24S-2, ``Ec4xBattle._damaged``): the
many selections of a step that do the same damage meet where the next step begins, and the
explorer settles that state once. The same exact fractions as leaving each selection's damage
to the explorer, from fewer states.
"""

from __future__ import annotations

import copy
from fractions import Fraction
from typing import Any

import pytest

from spacecombat import rulesets
from spacecombat.analysis.budget import TooLarge
from spacecombat.analysis.exact import exact_odds
from spacecombat.analysis.graph import Explorer
from spacecombat.rulesets import parse_scenario
from spacecombat.rulesets.ec4x import battle as ec4x_battle
from spacecombat.rulesets.ec4x.battle import PROCEDURES, Ec4xBattle
from spacecombat.rulesets.ec4x.folding import damage_ends
from spacecombat.rulesets.ec4x.state import CRIPPLED, UNDAMAGED, Attack, Morale, Stage

#: a frigate against a battleship and two destroyers (the lowest DS of beta's Task Force, two
#: of them: a critical that cannot reduce the battleship reduces one of them, drawn, 7.3.3)
TIED: dict[str, Any] = {
    "ruleset": "ec4x",
    "game_id": "damage",
    "turn": 1,
    "system": {"name": "D"},
    "houses": {"alpha": {"prestige": 50}, "beta": {"prestige": 50}},
    "diplomacy": [{"houses": ["alpha", "beta"], "status": "enemy"}],
    "fleets": [
        {"id": "A1", "owner": "alpha", "order": 3, "roe": 10, "squadrons": [{"flagship": "FG"}]},
        {
            "id": "B1",
            "owner": "beta",
            "order": 3,
            "roe": 10,
            "squadrons": [{"flagship": "BB"}, {"flagship": "DD"}, {"flagship": "DD"}],
        },
    ],
}


def _with(scenario: dict[str, Any], **options: Any) -> dict[str, Any]:
    changed = copy.deepcopy(scenario)
    changed["options"] = options
    return changed


#: two squadrons a side, a crippled one, morale drawn; a colony's starbase; fighters
TWO_BY_TWO: dict[str, Any] = {
    **TIED,
    "fleets": [
        {
            "id": "A1",
            "owner": "alpha",
            "order": 3,
            "roe": 10,
            "squadrons": [{"flagship": "CA"}, {"flagship": "DD", "state": "crippled"}],
        },
        {
            "id": "B1",
            "owner": "beta",
            "order": 3,
            "roe": 10,
            "squadrons": [{"flagship": "CL"}, {"flagship": "DD"}],
        },
    ],
}
STARBASE: dict[str, Any] = {
    **TIED,
    "system": {"name": "D", "controller": "beta"},
    "colony": {"owner": "beta", "starbases": [{"state": "undamaged", "eli": 1}]},
    "fleets": [
        {
            "id": "A1",
            "owner": "alpha",
            "order": 6,
            "roe": 10,
            "squadrons": [{"flagship": "CA"}, {"flagship": "DD"}],
        },
        {"id": "B1", "owner": "beta", "order": 5, "roe": 10, "squadrons": [{"flagship": "DD"}]},
    ],
}
FIGHTERS: dict[str, Any] = {
    **STARBASE,
    "colony": {"owner": "beta", "fighters": 2},
}

#: a cruiser against two destroyers, hits below DS kept for the round (option damage_memory)
KEPT: dict[str, Any] = {
    **TIED,
    "houses": {"alpha": {"prestige": 50, "morale_roll": 10}, "beta": {"prestige": 50}},
    "fleets": [
        {"id": "A1", "owner": "alpha", "order": 3, "roe": 10, "squadrons": [{"flagship": "CA"}]},
        {
            "id": "B1",
            "owner": "beta",
            "order": 3,
            "roe": 10,
            "squadrons": [{"flagship": "DD"}, {"flagship": "DD"}],
        },
    ],
    "options": {"damage_memory": "round"},
}

#: a light cruiser against a planet-breaker (CR 6 both: one step) and two corvettes
FORCED: dict[str, Any] = {
    **TIED,
    "fleets": [
        {"id": "A1", "owner": "alpha", "order": 3, "roe": 10, "squadrons": [{"flagship": "CL"}]},
        {
            "id": "B1",
            "owner": "beta",
            "order": 3,
            "roe": 10,
            "squadrons": [{"flagship": "PB"}, {"flagship": "CT"}, {"flagship": "CT"}],
        },
    ],
}

CASES = {
    "force reduction drawn": FORCED,
    "two by two": TWO_BY_TWO,
    "hits kept below DS": KEPT,
    "protection judged after the step": _with(FORCED, protection_judged="after_step"),
    "force reduction to the first listed": _with(FORCED, force_reduction_tie="first_listed"),
    "a starbase": STARBASE,
    "colony fighters": FIGHTERS,
}


@pytest.mark.parametrize("name", CASES)
def test_the_same_fractions_with_the_damage_followed(
    monkeypatch: pytest.MonkeyPatch, name: str
) -> None:
    """Followed in the fold or left to the explorer, the same exact fractions."""
    scenario = CASES[name]
    followed = exact_odds(scenario, fractions=True)
    monkeypatch.setattr(ec4x_battle, "FOLD_DAMAGE", False)
    left = exact_odds(scenario, fractions=True)
    assert followed.other == left.other
    assert followed.fractions_json() == left.fractions_json()


def _stages(scenario: dict[str, Any]) -> list[Stage]:
    battle = rulesets.battle(parse_scenario(scenario))
    graph = Explorer(battle, battle.stock_policies(), exact=False, limit=None).build()
    return [s.stage for s in graph.states]


def test_force_reduction_draws_leave_the_graph(monkeypatch: pytest.MonkeyPatch) -> None:
    """A light cruiser and a planet-breaker attack in one step (CR 6, 7.3.1); the cruiser's
    critical cannot reduce the planet-breaker (DS 20), so one of the two corvettes (the
    lowest DS of beta's Task Force) is drawn and reduced (7.3.3). Followed within the fold,
    the graph has no chance state of force reduction, and fewer chance states in all."""
    followed = _stages(FORCED)
    assert Stage.FORCE_REDUCTION not in followed
    monkeypatch.setattr(ec4x_battle, "FOLD_DAMAGE", False)
    left = _stages(FORCED)
    assert Stage.FORCE_REDUCTION in left
    assert len(followed) < len(left)


def test_the_ends_of_a_critical_that_cannot_reduce_its_target() -> None:
    """7.3.3 Critical Hits 2: the frigate's critical of 1 hit cannot reduce the battleship (DS
    25), so the lowest-DS squadron of beta's Task Force is reduced instead; the two
    destroyers tie (DS 6) and one is drawn, 1/2 each. Nothing else changes."""
    battle = rulesets.battle(parse_scenario(TIED))
    assert isinstance(battle, Ec4xBattle)
    start = battle.start().state
    cond = (UNDAMAGED,) * 4
    selected = start.at(
        Stage.ATTACK,
        round=1,
        cond=cond,
        steps=((4, 0),),
        step=0,
        attacks=(Attack(0, 1, 1, True),),
        cursor=(1, -99, -1, 0),
    )
    quiet = battle.quiet().setup
    followed = damage_ends(PROCEDURES, quiet, selected, exact=True)
    assert followed is not None
    ends, steps = followed
    half = Fraction(1, 2)
    assert ends == {
        ((UNDAMAGED, UNDAMAGED, CRIPPLED, UNDAMAGED), ()): half,
        ((UNDAMAGED, UNDAMAGED, UNDAMAGED, CRIPPLED), ()): half,
    }
    assert steps > 0


#: morale drawn for both houses, in different bands (7.1.4: each house's CER modifiers and
#: boosted squadron its own)
BANDS: dict[str, Any] = {
    **TWO_BY_TWO,
    "houses": {"alpha": {"prestige": 90}, "beta": {"prestige": 30}},
}
#: three houses, each an enemy of the others
THREE: dict[str, Any] = {
    **TIED,
    "houses": {"alpha": {"prestige": 70}, "beta": {"prestige": 30}, "gamma": {"prestige": 10}},
    "diplomacy": [
        {"houses": ["alpha", "beta"], "status": "enemy"},
        {"houses": ["alpha", "gamma"], "status": "enemy"},
        {"houses": ["beta", "gamma"], "status": "enemy"},
    ],
    "fleets": [
        {"id": "A1", "owner": "alpha", "order": 3, "roe": 10, "squadrons": [{"flagship": "CL"}]},
        {"id": "B1", "owner": "beta", "order": 3, "roe": 10, "squadrons": [{"flagship": "DD"}]},
        {"id": "G1", "owner": "gamma", "order": 3, "roe": 10, "squadrons": [{"flagship": "DD"}]},
    ],
}


@pytest.mark.parametrize("scenario", [BANDS, THREE], ids=["two bands", "three houses"])
def test_the_same_fractions_without_the_other_houses_morale(
    monkeypatch: pytest.MonkeyPatch, scenario: dict[str, Any]
) -> None:
    """7.1.4: an attacker's selections read its own house's morale only, so they are
    remembered without the others' (24S-3): the same exact fractions as with every house's."""
    own = exact_odds(scenario, fractions=True)
    monkeypatch.setattr(ec4x_battle, "OWN_MORALE_ONLY", False)
    every = exact_odds(scenario, fractions=True)
    assert own.other == every.other
    assert own.fractions_json() == every.fractions_json()


def test_a_fold_is_made_once_whatever_the_other_houses_morale() -> None:
    """Two states of a step of beta's corvettes (CR 2, 7.3.1) that differ only in alpha's
    morale result fold to the same distribution (carried over to each state's own facts),
    combined once."""
    battle = rulesets.battle(parse_scenario(FORCED))
    assert isinstance(battle, Ec4xBattle)
    high = Morale("High", 1, -1, 0, False)
    step = battle.start().state.at(
        Stage.ATTACK, round=2, cond=(UNDAMAGED,) * 4, steps=((4, 2),), step=0, joined=0b11
    )
    one = step.at(Stage.ATTACK, morale=(Morale("Average", 0, -1, 0, False), high))
    other = step.at(Stage.ATTACK, morale=(Morale("Crisis", -1, -1, 0, False), high))
    first = battle.folded(one, exact=True)
    work = battle.folded_work
    second = battle.folded(other, exact=True)
    assert first is not None
    assert second is not None
    assert work > 0
    assert battle.folded_work == work
    assert sorted(first.values()) == sorted(second.values())
    assert {s.at(s.stage, morale=()) for s in first} == {s.at(s.stage, morale=()) for s in second}


#: alpha's light cruiser and beta's two light cruisers fire in one step (CR 6, 7.3.1) at each
#: other's squadrons; a three-house step where one house may target both others
FACING: dict[str, Any] = {
    **TIED,
    "fleets": [
        {
            "id": "A1",
            "owner": "alpha",
            "order": 3,
            "roe": 10,
            "squadrons": [{"flagship": "CL"}, {"flagship": "DD"}],
        },
        {
            "id": "B1",
            "owner": "beta",
            "order": 3,
            "roe": 10,
            "squadrons": [{"flagship": "CL"}, {"flagship": "CL", "state": "crippled"}],
        },
    ],
}
THREE_FACING: dict[str, Any] = {
    **THREE,
    "fleets": [
        {"id": "A1", "owner": "alpha", "order": 3, "roe": 10, "squadrons": [{"flagship": "CL"}]},
        {"id": "B1", "owner": "beta", "order": 3, "roe": 10, "squadrons": [{"flagship": "CL"}]},
        {"id": "G1", "owner": "gamma", "order": 3, "roe": 10, "squadrons": [{"flagship": "DD"}]},
    ],
}


@pytest.mark.parametrize("scenario", [FACING, THREE_FACING], ids=["two houses", "three houses"])
def test_the_same_fractions_with_the_step_split_by_target_houses(
    monkeypatch: pytest.MonkeyPatch, scenario: dict[str, Any]
) -> None:
    """7.3.3: the damage a house's units take reads only the selections against them, so a
    step's attackers split by the houses they target, each part followed through its damage
    on its own (24S-4), give the same exact fractions as the step's selections all combined."""
    split = exact_odds(scenario, fractions=True)
    monkeypatch.setattr(ec4x_battle, "SPLIT_BY_TARGETS", False)
    whole = exact_odds(scenario, fractions=True)
    assert split.other == whole.other
    assert split.fractions_json() == whole.fractions_json()


def test_a_split_step_combines_fewer_selections(monkeypatch: pytest.MonkeyPatch) -> None:
    """Three attackers of two houses in one step: split, alpha's selections are combined
    apart from beta's two (a sum of the parts' work, not their product)."""

    def combined() -> int:
        battle = rulesets.battle(parse_scenario(FACING))
        assert isinstance(battle, Ec4xBattle)
        Explorer(battle, battle.stock_policies(), exact=False, limit=None).build()
        return battle.folded_work

    split = combined()
    monkeypatch.setattr(ec4x_battle, "SPLIT_BY_TARGETS", False)
    assert split < combined()


def test_the_attackers_selections_are_bounded(monkeypatch: pytest.MonkeyPatch) -> None:
    """The steps the attackers' selections follow count against the battle's budget, and a
    refusal says so (``SELECTION_STEPS_PER_SETTLED``, docs/limits.md)."""
    monkeypatch.setattr(ec4x_battle, "SELECTION_STEPS_PER_SETTLED", 0)
    with pytest.raises(TooLarge) as refused:
        exact_odds(FACING)
    assert "after 0 steps of attackers' selections" in str(refused.value)


#: three squadrons against a battleship, a destroyer and a crippled super-dreadnought (DS 40:
#: no sum of the three attackers' hits reaches it, so what they put on it is as good as none)
REACH: dict[str, Any] = {
    **TIED,
    "houses": {"alpha": {"prestige": 50, "morale_roll": 10}, "beta": {"prestige": 50}},
    "fleets": [
        {
            "id": "A1",
            "owner": "alpha",
            "order": 3,
            "roe": 10,
            "squadrons": [{"flagship": "BC"}, {"flagship": "CA"}, {"flagship": "BC"}],
        },
        {
            "id": "B1",
            "owner": "beta",
            "order": 3,
            "roe": 10,
            "squadrons": [{"flagship": "SD", "state": "crippled"}, {"flagship": "BB"}],
        },
    ],
}


def test_the_same_fractions_with_the_hits_kept_within_reach(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """7.3.3 restriction 1 (E24, E25): a target's hits are read only as below DS, from DS,
    from twice DS; kept so after each attacker, given the most the later ones may add
    (24S-5), the same exact fractions, from fewer selections combined."""
    within = exact_odds(REACH, fractions=True)
    battle = rulesets.battle(parse_scenario(REACH))
    assert isinstance(battle, Ec4xBattle)
    Explorer(battle, battle.stock_policies(), exact=False, limit=None).build()
    monkeypatch.setattr(ec4x_battle, "REACH_MERGES", False)
    every = exact_odds(REACH, fractions=True)
    assert within.other == every.other
    assert within.fractions_json() == every.fractions_json()
    plain = rulesets.battle(parse_scenario(REACH))
    assert isinstance(plain, Ec4xBattle)
    Explorer(plain, plain.stock_policies(), exact=False, limit=None).build()
    assert battle.folded_work < plain.folded_work


def test_hits_kept_as_later_hits_leave_them() -> None:
    """A battleship (DS 25) with 10 hits on it: with at most 15 to come it may reach its DS,
    so they are kept; with at most 5 (15 < 25), as none. With 30: at most 5 to come (35 < 50,
    never twice DS), as 25; at most 20 (50), kept. A critical's target is left as it is."""
    battle = rulesets.battle(parse_scenario(REACH))
    assert isinstance(battle, Ec4xBattle)
    battleship = 4
    assert battle.setup.units[battleship].defense == 25
    ten = (Attack(0, battleship, 10, False),)
    assert battle._within_reach(ten, {battleship: 15}) == list(ten)
    assert battle._within_reach(ten, {battleship: 5}) == []
    thirty = (Attack(0, battleship, 30, False),)
    assert battle._within_reach(thirty, {battleship: 5}) == [Attack(0, battleship, 25, False)]
    assert battle._within_reach(thirty, {battleship: 20}) == list(thirty)
    critical = (Attack(0, battleship, 10, False), Attack(0, battleship, 1, True))
    assert battle._within_reach(critical, {}) == list(critical)
