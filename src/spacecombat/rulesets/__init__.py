"""The rulesets: each turns a scenario into a battle process that the resolver and the odds
engine drive (``core/engine.py``, ``odds/graph.py``). Nothing outside a ruleset's folder
knows its rules; they meet only through the ``Battle`` protocol below."""

from __future__ import annotations

from collections.abc import Hashable, Mapping
from typing import Any, Protocol

from spacecombat.core.decisions import Policy
from spacecombat.core.engine import Node, Step
from spacecombat.odds.rounds import PlayerRounds
from spacecombat.scenario.schema import Scenario


class Battle(Protocol):
    """A ruleset's battle, as the resolver, the odds engine and the report use it."""

    def start(self) -> Step[Any]: ...

    def advance(self, state: Any) -> Node[Any]: ...

    def canonical(self, state: Any) -> Any: ...

    def end_key(self, state: Any) -> Hashable: ...

    def describe(self, state: Any) -> dict[str, object]: ...

    def survivors(self, outcome: Mapping[str, object], player: str) -> dict[str, int]: ...

    def losses(self, outcome: Mapping[str, object], player: str) -> float: ...

    def stock_policies(self) -> dict[str, Policy]:
        """Each player's stock policy, as the scenario configures it."""
        ...

    def product_rounds(self) -> PlayerRounds[Any] | None:
        """The battle's combat rounds in product form, if its rules allow it."""
        ...

    def notices(self) -> tuple[str, ...]:
        """What a player should know about this battle before any die is rolled (units removed
        before it starts and why, a retreat policy that can never act), one sentence each. The
        log says the same in its events; the odds report lists them as ``notices``."""
        ...


def battle(scenario: Scenario) -> Battle:
    """The battle process of a checked scenario, in the scenario's ruleset."""
    # imported here: the rulesets import this package's modules
    from spacecombat.rulesets.ti3 import battle as ti3_battle
    from spacecombat.rulesets.ti4 import battle as ti4_battle

    if scenario.ruleset == "ti3":
        return ti3_battle(scenario)
    return ti4_battle(scenario)
