"""A siege solved apart by the exact engine (docs/architecture.md 24R-1, ``planetary/solved.py``):
planetary combat (7.5, 7.6) reads only its assault and its own state, so its last states are
found once for each of its states and folded into the battle's graph. The answers are the
same exact fractions as when the siege's states are explored in the battle's graph, ground
combat's repeated rounds (7.6.1 "Repeat the process") included; its work is bounded and a
battle that passes it is refused by name.
"""

from __future__ import annotations

from typing import Any

import pytest

from spacecombat import rulesets
from spacecombat.analysis.budget import TooLarge
from spacecombat.analysis.exact import exact_odds
from spacecombat.analysis.graph import Explorer
from spacecombat.analysis.solve import absorb, components
from spacecombat.core.engine import End, Node, Step
from spacecombat.rulesets import parse_scenario
from spacecombat.rulesets.ec4x.battle import Ec4xBattle
from spacecombat.rulesets.ec4x.planetary.process import advance
from spacecombat.rulesets.ec4x.planetary.siege import Assault, Siege, Stage
from spacecombat.rulesets.ec4x.planetary.siege import start as siege_start
from spacecombat.rulesets.ec4x.planetary.solved import SiegeSolver, canonical_siege


def _siege(order: int, colony: dict[str, Any], *, defended: bool = True) -> dict[str, Any]:
    """Alpha's cruiser (and a troop transport under 07/08) at beta's colony, beta's crippled
    destroyer defending it (or not), morale drawn by the engine."""
    alpha: dict[str, Any] = {
        "id": "A1",
        "owner": "alpha",
        "order": order,
        "roe": 8,
        "squadrons": [{"flagship": "CA"}, {"flagship": "DD"}],
    }
    if order != 6:
        alpha["spacelift"] = {"TT": 2}
    fleets = [alpha]
    if defended:
        fleets.append(
            {
                "id": "B1",
                "owner": "beta",
                "order": 5,
                "roe": 8,
                "squadrons": [{"flagship": "DD", "state": "crippled"}],
            }
        )
    return {
        "ruleset": "ec4x",
        "game_id": "siege-solved",
        "turn": 1,
        "system": {"name": "S", "controller": "beta"},
        "houses": {"alpha": {"prestige": 50}, "beta": {"prestige": 30}},
        "diplomacy": [{"houses": ["alpha", "beta"], "status": "enemy"}],
        "colony": {"owner": "beta", "iu": 20, "pu": 50, **colony},
        "fleets": fleets,
    }


class SiegeAlone:
    """One siege on its own as a process the generic state graph explores (the reference the
    solver is checked against): each end the siege's last state."""

    def __init__(self, assault: Assault, first: Siege) -> None:
        self.assault = assault
        self.first = first

    def start(self) -> Step[Siege]:
        return Step(self.first)

    def advance(self, siege: Siege) -> Node[Siege]:
        return End({}) if siege.stage is Stage.DONE else advance(self.assault, siege)

    def canonical(self, siege: Siege) -> Siege:
        return canonical_siege(siege)

    def end_key(self, siege: Siege) -> Siege:
        return siege


#: a bombardment of three rounds (7.5), an invasion with ground combat (7.6.1) and a blitz
#: (7.6.2), each after space combat
SIEGES = {
    "bombard": _siege(6, {"shield": 1, "batteries": 2, "armies": 1}),
    "invade": _siege(7, {"batteries": 1, "armies": 1, "marines": 1}),
    "blitz": _siege(8, {"batteries": 1, "armies": 1}, defended=False),
}


def _in_the_graph(monkeypatch: pytest.MonkeyPatch) -> None:
    """Make ``exact_odds`` explore sieges in the battle's graph (no policies given for the
    solves apart, so ``folded`` leaves planetary combat's draws to the explorer)."""
    made = rulesets.battle

    def plain(scenario: Any) -> Any:
        battle: Any = made(scenario)
        battle.use_policies = lambda policies: None
        return battle

    monkeypatch.setattr(rulesets, "battle", plain)


@pytest.mark.parametrize("name", list(SIEGES))
def test_a_siege_solved_apart_gives_the_same_fractions(
    monkeypatch: pytest.MonkeyPatch, name: str
) -> None:
    """7.5, 7.6: the siege's last states found apart are the same exact fractions as the
    battle's graph gives with every state of the siege in it."""
    scenario = SIEGES[name]
    apart = exact_odds(scenario, fractions=True)
    _in_the_graph(monkeypatch)
    whole = exact_odds(scenario, fractions=True)
    assert apart.other == whole.other
    assert apart.fractions_json() == whole.fractions_json()


def test_the_siege_leaves_the_battles_graph() -> None:
    """The battle's graph holds no state of planetary combat's rounds but each siege's first
    draw once its sieges are solved apart (before: a copy of every state of the siege for
    every end of space combat that began it)."""
    battle = rulesets.battle(parse_scenario(SIEGES["invade"]))
    assert isinstance(battle, Ec4xBattle)
    graph = Explorer(battle, battle.stock_policies(), exact=False, limit=None).build()
    sieges = [s.siege for s in graph.states if s.siege is not None]
    # only each siege's first draw: where the solve apart takes over
    assert sieges
    assert all(s.stage is Stage.BOMBARD and s.round == 1 and not s.rolls for s in sieges)
    assert battle.siege_work > 0


def test_repeated_ground_rounds_solved_as_the_graph_absorbs_them() -> None:
    """7.6.1 "Repeat the process": a ground round in which no unit is reduced ends where it
    began; the solver takes that loop out at once, the same fractions as absorbing the
    siege's own graph (its cycles solved), and the chances of its ends sum to 1."""
    battle = rulesets.battle(parse_scenario(SIEGES["invade"]))
    assert isinstance(battle, Ec4xBattle)
    assert battle.planetary is not None
    assault = battle.planetary.assault(0, 0)
    assert assault is not None
    first = siege_start(assault).state
    policies = battle.stock_policies()
    solver = SiegeSolver(assault, policies, exact=True)
    ends = solver.ends(first)
    assert ends is not None
    assert sum(ends.values()) == 1
    assert all(last.stage is Stage.DONE for last in ends)
    graph = Explorer(SiegeAlone(assault, first), policies, exact=True).build()
    absorbed = absorb(graph, exact=True)
    assert absorbed.residual == 0
    assert {t.key: w for t, w in absorbed.ends.items()} == ends
    # the ground rounds do repeat: the siege's graph has a cycle
    assert any(
        len(part) > 1 or any(e.target == part[0] for e in graph.edges[part[0]])
        for part in components(graph.edges)
    )


def test_the_solves_work_is_bounded(monkeypatch: pytest.MonkeyPatch) -> None:
    """The outcomes of planetary combat's draws the solves follow count against the battle's
    budget (``SIEGE_WORK_PER_SETTLED``): past it the battle is refused by name, so it is
    given up in time."""
    monkeypatch.setattr("spacecombat.rulesets.ec4x.battle.SIEGE_WORK_PER_SETTLED", 0)
    with pytest.raises(TooLarge, match="outcomes of planetary combat's draws"):
        exact_odds(SIEGES["bombard"])
