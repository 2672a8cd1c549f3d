"""Resolve one battle from a scenario, seeded and logged; replay a log and check it."""

from __future__ import annotations

import random
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from spacecombat import rulesets
from spacecombat.core.decisions import Policy
from spacecombat.core.dice import Dice, ScriptedDice, SeededDice
from spacecombat.core.engine import Played, play
from spacecombat.core.errors import ReplayError, SpacecombatError
from spacecombat.core.events import Event, event
from spacecombat.core.policies import ScriptedPolicy
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
    if dice is None:
        if seed is None:
            seed = random.SystemRandom().randrange(2**63)
        dice = SeededDice(seed)
    process = rulesets.battle(scenario)
    chosen = process.stock_policies()
    chosen.update(policies or {})
    header = event(
        "battle_started",
        log_version=LOG_VERSION,
        ruleset=scenario.ruleset,
        seed=seed if isinstance(dice, SeededDice) else None,
        scenario=scenario.model_dump(mode="json", exclude_none=True),
    )
    if on_event is not None:
        on_event(header)
    played = play(process, dice, chosen, on_event=on_event)
    return Played((header, *played.events), played.state, played.outcome)


@dataclass(frozen=True)
class ReplayReport:
    """Whether a log reproduces itself, and where it first differs if not."""

    reproduces: bool
    events: int
    index: int | None = None
    expected: Event | None = None
    got: Event | None = None
    reason: str = ""


def replay(log: Sequence[Event]) -> ReplayReport:
    """Play the logged battle again from its scenario with the logged dice and choices (and, if
    the log names a seed, with dice from that seed, which proves the dice genuine), and compare
    every event."""
    if not log or log[0].get("event") != "battle_started":
        raise ReplayError("a log starts with a battle_started event")
    header = log[0]
    if header.get("log_version") != LOG_VERSION:
        raise ReplayError(f"log_version {header.get('log_version')!r} is not {LOG_VERSION}")
    scenario = parse_scenario(header.get("scenario"))
    seed = header.get("seed")
    faces = [
        _face(f) for e in log if e.get("event") == "dice_rolled" for g in _groups(e) for f in g
    ]
    dice: Dice = SeededDice(seed) if isinstance(seed, int) else ScriptedDice(faces)
    answers: dict[str, list[str]] = {}
    for e in log:
        if e.get("event") == "choice_made" and not e.get("forced"):
            answers.setdefault(str(e.get("player")), []).append(str(e.get("choice")))
    policies: dict[str, Policy] = {p: ScriptedPolicy(a) for p, a in answers.items()}
    try:
        again = resolve(
            scenario, seed=seed if isinstance(seed, int) else None, dice=dice, policies=policies
        ).events
    except SpacecombatError as exc:
        return ReplayReport(False, len(log), reason=f"the replay stopped: {exc}")
    for index, (want, got) in enumerate(zip(log, again, strict=False)):
        if want != got:
            return ReplayReport(False, len(log), index, want, got, "events differ")
    if len(again) != len(log):
        return ReplayReport(
            False,
            len(log),
            min(len(again), len(log)),
            reason=f"the log has {len(log)} events, the replay {len(again)}",
        )
    return ReplayReport(True, len(log))


def _face(value: object) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise ReplayError(f"a die face in the log is {value!r}, not a whole number from 1 to 10")
    return value


def _groups(dice_event: Event) -> Iterable[list[int]]:
    groups = dice_event.get("groups")
    if not isinstance(groups, list):
        raise ReplayError("a dice_rolled event has no groups")
    for group in groups:
        if not isinstance(group, dict) or not isinstance(group.get("faces"), list):
            raise ReplayError("a dice_rolled group has no faces")
        yield group["faces"]
