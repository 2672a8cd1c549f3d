"""Resolve one battle from a scenario, seeded and logged (``replayer.py`` checks a log)."""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping
from typing import Any

from spacecombat import rulesets
from spacecombat.core.decisions import Policy
from spacecombat.core.dice import Dice, SeededDice, SplitMixDice
from spacecombat.core.engine import Played, play
from spacecombat.core.errors import ScenarioError
from spacecombat.core.events import Event, event
from spacecombat.core.limits import MAX_SEED, shown
from spacecombat.rulesets import is_scenario, parse_scenario
from spacecombat.scenario.schema import AnyScenario

LOG_VERSION = 1


def resolve(
    scenario: AnyScenario | Mapping[str, object],
    *,
    seed: int | None = None,
    dice: Dice | None = None,
    policies: Mapping[str, Policy] | None = None,
    on_event: Callable[[Event], None] | None = None,
) -> Played[Any]:
    """Play one battle. Dice: ``dice`` if given, else fair dice seeded with ``seed`` (if none:
    the seed the scenario fixes, as EC4X's game and turn do, else a fresh random one).
    Decisions: ``policies`` by player, else the scenario's stock policies. The log's first
    event records the scenario and the seed, so the log replays."""
    if not is_scenario(scenario):
        scenario = parse_scenario(scenario)
    if seed is not None and (isinstance(seed, bool) or not 0 <= seed <= MAX_SEED):
        raise ScenarioError("seed", f"a whole number from 0 to {MAX_SEED} (got {shown(seed)})")
    given = seed is not None
    if dice is None:
        if seed is None:
            seed = rulesets.own_seed(scenario)
        if seed is None:
            seed = random.SystemRandom().randrange(2**63)
        dice = rulesets.dice_for(scenario, seed)
    process = rulesets.battle(scenario)
    chosen = process.stock_policies()
    chosen.update(policies or {})
    seeded = isinstance(dice, SeededDice | SplitMixDice)
    source = rulesets.seed_source(scenario, given=given) if seeded else None
    header = log_header(scenario, seed if seeded else None, source)
    if on_event is not None:
        on_event(header)
    played = play(process, dice, chosen, on_event=on_event)
    return Played((header, *played.events), played.state, played.outcome)


def log_header(scenario: AnyScenario, seed: int | None, source: str | None = None) -> Event:
    """The ``battle_started`` event that opens a log; ``source`` (EC4X): where the seed came
    from (``seed_source``)."""
    extra: dict[str, object] = {"seed_source": source} if source is not None else {}
    return event(
        "battle_started",
        log_version=LOG_VERSION,
        ruleset=scenario.ruleset,
        seed=seed,
        **extra,
        scenario=scenario.model_dump(mode="json", exclude_none=True),
    )
