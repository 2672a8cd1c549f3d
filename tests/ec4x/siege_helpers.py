"""Build and play a siege (7.5–7.6) on its own, with scripted draws (as ``helpers.play``)."""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from spacecombat.core.decisions import Policy, decide
from spacecombat.core.engine import Decision, Draw, End, Node, Step
from spacecombat.core.events import Event, event
from spacecombat.rulesets.ec4x.planetary.colony import Colony
from spacecombat.rulesets.ec4x.planetary.process import SiegeProcess
from spacecombat.rulesets.ec4x.planetary.siege import (
    Assault,
    DefaultReadings,
    Mission,
    Readings,
    Siege,
    Striker,
)

Answer = int | tuple[str, int]


def squadron(uid: str, attack: int, defense: int, *, breaker: int = 0) -> Striker:
    return Striker(
        uid, "squadron", attack, math.ceil(attack / 2), breaker, math.ceil(breaker / 2), defense
    )


def transport(uid: str, *, loaded: bool = True) -> Striker:
    return Striker(uid, "transport", 0, 0, 0, 0, 15, marines=int(loaded))


def colony(**fields: Any) -> Colony:
    values: dict[str, Any] = {
        "owner": "beta",
        "shield": 0,
        "batteries": 0,
        "batteries_crippled": 0,
        "armies": 0,
        "armies_crippled": 0,
        "marines": 0,
        "marines_crippled": 0,
        "spaceports": 0,
        "iu": 0,
        "pu": 0,
    }
    values.update(fields)
    return Colony(**values)


def assault(
    mission: Mission,
    *strikers: Striker,
    planet: Colony | None = None,
    readings: Readings | None = None,
    **options: Any,
) -> Assault:
    return Assault(
        mission=mission,
        attacker="alpha",
        defender="beta",
        colony_name="Vega",
        strikers=strikers,
        start=planet if planet is not None else colony(),
        readings=readings or DefaultReadings(**options),
    )


@dataclass
class Played:
    events: list[Event]
    siege: Siege
    outcome: Mapping[str, Any]
    draws: list[Draw[Siege]] = field(default_factory=list)

    def of(self, kind: str, **match: object) -> list[Event]:
        return [
            e
            for e in self.events
            if e["event"] == kind and all(e.get(k) == v for k, v in match.items())
        ]


def _index(draw: Draw[Siege], answer: Answer) -> int:
    if isinstance(answer, tuple):
        purpose, answer = answer
        assert draw.purpose == purpose, f"expected a {purpose} draw, got {draw.purpose}"
    assert answer in draw.values, f"{answer} is not a face of {draw.kind} ({draw.purpose})"
    return draw.values.index(answer)


def play(
    target: Assault | SiegeProcess,
    answers: Iterable[Answer] = (),
    *,
    policies: Mapping[str, Policy] | None = None,
    cond: tuple[int, ...] | None = None,
    fallback: Callable[[Draw[Siege]], int] | None = None,
) -> Played:
    """Play a siege to its end; every draw must be scripted and every script used."""
    process = target if isinstance(target, SiegeProcess) else SiegeProcess(target, cond)
    script = list(answers)
    policies = policies or process.stock_policies()
    step: Step[Siege] = process.start()
    played = Played(list(step.events), step.state, {})
    state = step.state
    for _ in range(100_000):
        node: Node[Siege] = process.advance(state)
        if isinstance(node, End):
            played.events.extend(node.events)
            played.outcome = node.outcome
            played.siege = state
            assert not script, f"draws left unused: {script}"
            return played
        if isinstance(node, Draw):
            played.draws.append(node)
            if script or fallback is None:
                assert script, f"no scripted answer for {node.player}'s {node.purpose}"
                index = _index(node, script.pop(0))
            else:
                index = fallback(node)
            played.events.append(node.logged(index))
            step = node.after(index)
        elif isinstance(node, Decision):
            option = decide(node.request, policies)
            played.events.append(
                event("choice_made", player=node.request.player, choice=option.text)
            )
            step = node.then(option)
        else:
            assert isinstance(node, Step)
            step = node
        played.events.extend(step.events)
        state = step.state
    raise AssertionError("the siege did not end")
