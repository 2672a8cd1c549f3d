"""The rulesets: each turns a scenario into a battle process that the resolver and the odds
engine drive (``core/engine.py``, ``analysis/graph.py``). Nothing outside a ruleset's folder
knows its rules; they meet only through the ``Battle`` protocol below.

``REGISTRY`` has one entry per ruleset: how its scenarios are read and checked, its battle, its
catalogue, its dice and its seed. Adding a ruleset is its package and one entry there. The
modules an entry names (``module:name``) are imported on first use, so that a command imports
only the ruleset it plays (start-up time).
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Hashable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Protocol, TypeGuard

from pydantic import BaseModel

from spacecombat.core.decisions import Policy
from spacecombat.core.dice import Dice, SeededDice, SplitMixDice
from spacecombat.core.engine import Node, Step
from spacecombat.core.errors import ScenarioError
from spacecombat.core.limits import shown
from spacecombat.core.rounds import PlayerRounds
from spacecombat.scenario.schema import AnyScenario, Scenario, mapping, read_document


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


#: seeds are reduced to the generator's range (Monte Carlo trial seeds may be wider)
_SEEDS = 2**64


def _split_mix(seed: int) -> Dice:
    return SplitMixDice(seed % _SEEDS)


@dataclass(frozen=True)
class Ruleset:
    """One ruleset: where its parts are (``module:name``, imported on first use)."""

    name: str
    #: a function that checks a decoded scenario of the ruleset (its shape, and what the
    #: ruleset checks before a battle is built) and returns it as ``model``
    parse: str
    #: the model of its checked scenarios
    model: str
    #: a function from a checked scenario to its battle process (``Battle``)
    battle: str
    #: a function giving what the page needs to build a scenario (``GET /api/v1/rulesets``)
    catalogue: str
    #: the seeded dice of a battle: EC4X draws from SplitMix64 (its draws are documented for
    #: other implementations, docs/ec4x.md); TI4 and TI3 roll with Python's generator, as
    #: their golden logs were made
    dice: Callable[[int], Dice]
    #: the module of a ruleset whose scenarios fix their own seed (``scenario_seed``,
    #: ``own_source``, ``sources``, ``GIVEN``: EC4X, 7.3.2.5); ``None``: a fresh random seed
    #: is drawn, and the log has no ``seed_source``
    seed: str | None = None


REGISTRY: dict[str, Ruleset] = {
    entry.name: entry
    for entry in (
        Ruleset(
            name="ti4",
            parse="spacecombat.scenario.schema:parse_ti",
            model="spacecombat.scenario.schema:Scenario",
            battle="spacecombat.rulesets.ti4:battle_process",
            catalogue="spacecombat.rulesets.catalogue:ti4",
            dice=SeededDice,
        ),
        Ruleset(
            name="ti3",
            parse="spacecombat.scenario.schema:parse_ti",
            model="spacecombat.scenario.schema:Scenario",
            battle="spacecombat.rulesets.ti3:battle_process",
            catalogue="spacecombat.rulesets.catalogue:ti3",
            dice=SeededDice,
        ),
        Ruleset(
            name="ec4x",
            parse="spacecombat.rulesets.ec4x.options:parse_ec4x",
            model="spacecombat.scenario.ec4x:Ec4xScenario",
            battle="spacecombat.rulesets.ec4x:battle_process",
            catalogue="spacecombat.rulesets.catalogue:ec4x",
            dice=_split_mix,
            seed="spacecombat.rulesets.ec4x.seed",
        ),
    )
}

#: every ruleset a scenario may name
RULESETS = tuple(REGISTRY)


def _load(where: str) -> Any:
    """The object ``module:name`` names, its module imported if it is not yet."""
    module, _, name = where.partition(":")
    return getattr(importlib.import_module(module), name)


def parse_scenario(data: object) -> AnyScenario:
    """Validate a decoded scenario with its ruleset's model and checks; ``ScenarioError``
    names the first bad field, with list indices, and says what is allowed, in the words of
    the README."""
    raw = mapping(data)
    name = raw.get("ruleset")
    entry = REGISTRY.get(name) if isinstance(name, str) else None
    if entry is None and "ruleset" in raw:
        allowed = ", ".join(repr(known) for known in RULESETS)
        raise ScenarioError("ruleset", f"allowed: {allowed} (got {shown(name)})")
    # no ruleset named: the TI model says that it is required, with any other error first
    checked: AnyScenario = _load((entry or REGISTRY["ti4"]).parse)(raw)
    return checked


def parse_ti_scenario(data: object) -> Scenario:
    """A TI4 or TI3 scenario (``parse_scenario`` for callers that handle no other ruleset)."""
    scenario = parse_scenario(data)
    if not isinstance(scenario, Scenario):
        raise ScenarioError(
            "ruleset", f"allowed here: 'ti4', 'ti3' (got {shown(scenario.ruleset)})"
        )
    return scenario


def load_scenario(path: str | Path) -> AnyScenario:
    """Read a YAML or JSON scenario file (within ``MAX_SCENARIO_BYTES``)."""
    return parse_scenario(read_document(path))


def is_scenario(value: object) -> TypeGuard[AnyScenario]:
    """Whether ``value`` is a checked scenario of some ruleset (without importing a ruleset's
    model unless ``value`` claims to be of that ruleset)."""
    name = getattr(value, "ruleset", None) if isinstance(value, BaseModel) else None
    entry = REGISTRY.get(name) if isinstance(name, str) else None
    return entry is not None and isinstance(value, _load(entry.model))


def battle(scenario: AnyScenario) -> Battle:
    """The battle process of a checked scenario, in the scenario's ruleset."""
    process: Battle = _load(REGISTRY[scenario.ruleset].battle)(scenario)
    return process


def catalogue_of(name: str) -> dict[str, Any]:
    """What the page needs to build a scenario of the ruleset ``name``."""
    found: dict[str, Any] = _load(REGISTRY[name].catalogue)()
    return found


def dice_for(scenario: AnyScenario, seed: int) -> Dice:
    """The seeded dice of a battle of the scenario's ruleset (``Ruleset.dice``)."""
    return REGISTRY[scenario.ruleset].dice(seed)


def own_seed(scenario: AnyScenario) -> int | None:
    """The seed a scenario fixes for itself (EC4X, 7.3.2.5: its ``seed``, else the one of its
    game and turn), or ``None`` (TI4 and TI3: a fresh random seed is drawn)."""
    seed = REGISTRY[scenario.ruleset].seed
    if seed is None:
        return None
    found: int = _load(f"{seed}:scenario_seed")(scenario)
    return found


def seed_source(scenario: AnyScenario, *, given: bool) -> str | None:
    """Where a battle's seed came from, for the log's first event (``None`` for a ruleset
    without a seed of its own): ``given`` when the caller gave it, else the scenario's own
    (EC4X, 7.3.2.5)."""
    seed = REGISTRY[scenario.ruleset].seed
    if seed is None:
        return None
    if given:
        text: str = _load(f"{seed}:GIVEN")
        return text
    own: str = _load(f"{seed}:own_source")(scenario)
    return own


def seed_sources(scenario: AnyScenario, seed: int | None) -> tuple[str, ...]:
    """Every ``seed_source`` a log of ``scenario`` with ``seed`` may truly have (none for a
    ruleset without a seed of its own)."""
    module = REGISTRY[scenario.ruleset].seed
    if module is None:
        return ()
    found: tuple[str, ...] = _load(f"{module}:sources")(scenario, seed)
    return found
