"""A siege played step by step (7.5, 7.6): which procedure follows each stage, and the siege on
its own as a ``Process`` (tests and examples of the planetary rules).

``siege.py`` holds what the procedures share (``Assault``, ``Siege``, ``Stage``); the procedures
are ``bombardment.py`` (7.5; the round before an invasion or a blitz), ``invasion.py`` (7.6.1
and ground combat) and ``blitz.py`` (7.6.2). In a battle, ``chain.py`` plays them after space
combat.
"""

from __future__ import annotations

from spacecombat.core.decisions import DecisionRequest, Policy
from spacecombat.core.engine import End, Node, Step
from spacecombat.rulesets.ec4x.planetary import bombardment, invasion
from spacecombat.rulesets.ec4x.planetary.siege import (
    Assault,
    Procedure,
    Siege,
    Stage,
    report,
    start,
)


def advance(assault: Assault, siege: Siege) -> Node[Siege]:
    """The node that follows ``siege`` (``DONE`` has none: the caller ends)."""
    procedures: dict[Stage, Procedure] = {
        Stage.START: bombardment.begin,
        Stage.BOMBARD: bombardment.bombard,
        Stage.ALLOCATE: bombardment.allocate,
        Stage.ROUND_END: bombardment.round_end,
        Stage.LAND: invasion.land,
        Stage.GROUND: invasion.ground,
        Stage.GROUND_ALLOCATE: invasion.allocate,
        Stage.GROUND_END: invasion.ground_end,
    }
    return procedures[siege.stage](assault, siege)


class SiegeProcess:
    """A siege on its own, as a ``Process`` (tests and examples of the planetary rules)."""

    def __init__(self, assault: Assault, cond: tuple[int, ...] | None = None) -> None:
        self.assault = assault
        self.cond = cond

    def start(self) -> Step[Siege]:
        return start(self.assault, self.cond)

    def advance(self, siege: Siege) -> Node[Siege]:
        if siege.stage is Stage.DONE:
            return End(report(self.assault, siege))
        return advance(self.assault, siege)

    def stock_policies(self) -> dict[str, Policy]:
        return {self.assault.attacker: FirstOption(), self.assault.defender: FirstOption()}


class FirstOption:
    """The stock answer to a planetary decision: the first option listed (``ground_hits``
    lists marines before armies, crippling before destroying: the unit of most AS first)."""

    def choose(self, request: DecisionRequest) -> str:
        return request.options[0].text
