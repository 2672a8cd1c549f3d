"""Resolve one battle from a scenario, seeded and logged (``replay.py`` checks a log)."""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping
from typing import Any

from spacecombat import rulesets
from spacecombat.core.decisions import Policy
from spacecombat.core.dice import Dice, SeededDice
from spacecombat.core.engine import Played, play
from spacecombat.core.errors import ScenarioError
from spacecombat.core.events import Event, event
from spacecombat.core.limits import MAX_SEED, shown
from spacecombat.scenario.schema import Scenario, parse_scenario

LOG_VERSION = 1


def resolve(
    scenario: Scenario | Mapping[str, object],
    *,
    seed: int | None = None,
    dice: Dice | None = None,
    policies: Mapping[str, Policy] | None = None,
    on_event: Callable[[Event], None] | None = None,
) -> Played[Any]:
    """Play one battle. Dice: ``dice`` if given, else fair dice seeded with ``seed`` (a fresh
    random seed if none). Decisions: ``policies`` by player, else the scenario's stock policies.
    The log's first event records the scenario and the seed, so the log replays."""
    if not isinstance(scenario, Scenario):
        scenario = parse_scenario(scenario)
    if seed is not None and (isinstance(seed, bool) or not 0 <= seed <= MAX_SEED):
        raise ScenarioError("seed", f"a whole number from 0 to {MAX_SEED} (got {shown(seed)})")
    if dice is None:
        if seed is None:
            seed = random.SystemRandom().randrange(2**63)
        dice = SeededDice(seed)
    process = rulesets.battle(scenario)
    chosen = process.stock_policies()
    chosen.update(policies or {})
    header = log_header(scenario, seed if isinstance(dice, SeededDice) else None)
    if on_event is not None:
        on_event(header)
    played = play(process, dice, chosen, on_event=on_event)
    return Played((header, *played.events), played.state, played.outcome)


def log_header(scenario: Scenario, seed: int | None) -> Event:
    """The ``battle_started`` event that opens a log."""
    return event(
        "battle_started",
        log_version=LOG_VERSION,
        ruleset=scenario.ruleset,
        seed=seed,
        scenario=scenario.model_dump(mode="json", exclude_none=True),
    )
