"""The rulesets: each turns a scenario into a battle process that the resolver and the odds
engine drive (``core/engine.py``, ``analysis/graph.py``). Nothing outside a ruleset's folder
knows its rules; they meet only through the ``Battle`` protocol below."""

from __future__ import annotations

from collections.abc import Hashable, Mapping
from typing import Any, Protocol

from spacecombat.core.decisions import Policy
from spacecombat.core.dice import Dice, SeededDice, SplitMixDice
from spacecombat.core.engine import Node, Step
from spacecombat.core.rounds import PlayerRounds
from spacecombat.scenario.schema import AnyScenario


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

    def product_refusal(self) -> str | None:
        """Why the battle's combat rounds are not in product form, in a person's words (the
        note of a Monte Carlo fallback), or ``None`` if they are."""
        ...

    def notices(self) -> tuple[str, ...]:
        """What a player should know about this battle before any die is rolled (units removed
        before it starts and why, a retreat policy that can never act), one sentence each. The
        log says the same in its events; the odds report lists them as ``notices``."""
        ...


def battle(scenario: AnyScenario) -> Battle:
    """The battle process of a checked scenario, in the scenario's ruleset."""
    # imported here: the rulesets import this package's modules
    if scenario.ruleset == "ec4x":
        from spacecombat.rulesets.ec4x import battle as ec4x_battle

        return ec4x_battle(scenario)

    if scenario.ruleset == "ti3":
        from spacecombat.rulesets.ti3 import battle as ti3_battle

        return ti3_battle(scenario)
    from spacecombat.rulesets.ti4 import battle as ti4_battle

    return ti4_battle(scenario)


#: seeds are reduced to the generator's range (Monte Carlo trial seeds may be wider)
_SEEDS = 2**64


def dice_for(scenario: AnyScenario, seed: int) -> Dice:
    """The seeded dice of a battle: EC4X draws from SplitMix64 (its draws are documented for
    other implementations, docs/ec4x.md); TI4 and TI3 roll with Python's generator, as their
    golden logs were made."""
    if scenario.ruleset == "ec4x":
        return SplitMixDice(seed % _SEEDS)
    return SeededDice(seed)


def own_seed(scenario: AnyScenario) -> int | None:
    """The seed a scenario fixes for itself (EC4X, 7.3.2.5: its ``seed``, else the one of its
    game and turn), or ``None`` (TI4 and TI3: a fresh random seed is drawn)."""
    if scenario.ruleset == "ec4x":
        from spacecombat.rulesets.ec4x.seed import scenario_seed

        return scenario_seed(scenario)
    return None


def seed_source(scenario: AnyScenario, *, given: bool) -> str | None:
    """Where an EC4X battle's seed came from, for the log's first event (``None`` for TI):
    ``given`` when the caller gave it, else the scenario's own (7.3.2.5)."""
    if scenario.ruleset != "ec4x":
        return None
    from spacecombat.rulesets.ec4x.seed import GIVEN, own_source

    return GIVEN if given else own_source(scenario)


def seed_sources(scenario: AnyScenario, seed: int | None) -> tuple[str, ...]:
    """Every ``seed_source`` a log of ``scenario`` with ``seed`` may truly have (none for TI)."""
    if scenario.ruleset != "ec4x":
        return ()
    from spacecombat.rulesets.ec4x.seed import sources

    return sources(scenario, seed)
