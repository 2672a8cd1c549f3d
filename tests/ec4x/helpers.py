"""Play an EC4X battle process with scripted draws: each ``Draw`` node is answered from a list
(a die face, a choice's label, or ``(purpose, value)`` to check the purpose too), each
``Decision`` by a policy, so that tests never depend on a generator."""

from __future__ import annotations

import random
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from spacecombat.core.decisions import Policy, decide
from spacecombat.core.engine import Chance, Decision, Draw, End, Step
from spacecombat.core.events import Event, event
from spacecombat.rulesets.ec4x import Ec4xBattle, battle_process
from spacecombat.rulesets.ec4x.options import parse_ec4x
from spacecombat.rulesets.ec4x.state import State

Answer = int | str | tuple[str, int | str]


def squadron(flagship: str, **fields: Any) -> dict[str, Any]:
    return {"flagship": flagship, **fields}


def fleet(fid: str, owner: str, *squadrons: dict[str, Any], **fields: Any) -> dict[str, Any]:
    return {
        "id": fid,
        "owner": owner,
        "order": 0,
        "roe": 10,
        "squadrons": list(squadrons),
        **fields,
    }


def scenario(*fleets: dict[str, Any], **fields: Any) -> dict[str, Any]:
    """Alpha against beta, enemies, in neutral space, prestige 30 and a failed morale roll
    given (no morale draws, no bonus), unless ``fields`` say otherwise."""
    data: dict[str, Any] = {
        "ruleset": "ec4x",
        "game_id": "test",
        "turn": 1,
        "system": {"name": "Vega"},
        "houses": {
            "alpha": {"prestige": 30, "morale_roll": 1},
            "beta": {"prestige": 30, "morale_roll": 1},
        },
        "diplomacy": [{"houses": ["alpha", "beta"], "status": "enemy"}],
        "fleets": list(fleets),
    }
    data.update(fields)
    return data


def make(data: Mapping[str, Any]) -> Ec4xBattle:
    return battle_process(parse_ec4x(dict(data)))


@dataclass
class Played:
    events: list[Event]
    state: State
    outcome: Mapping[str, Any]
    draws: list[Draw[State]]

    def of(self, kind: str, **match: object) -> list[Event]:
        """The events of ``kind`` whose fields equal ``match``."""
        return [
            e
            for e in self.events
            if e["event"] == kind and all(e.get(k) == v for k, v in match.items())
        ]

    def house(self, name: str) -> Mapping[str, Any]:
        block: Mapping[str, Any] = self.outcome["houses"][name]
        return block


class Exhausted(Exception):
    """The script ran out of draws (the state it stopped in is kept)."""

    def __init__(self, played: Played, draw: Draw[State]) -> None:
        super().__init__(f"no scripted answer for {draw.player}'s {draw.purpose} ({draw.labels})")
        self.played = played
        self.draw = draw


def _index(draw: Draw[State], answer: Answer) -> int:
    if isinstance(answer, tuple):
        purpose, answer = answer
        assert draw.purpose == purpose, f"expected a {purpose} draw, got {draw.purpose}"
    if isinstance(answer, str):
        assert answer in draw.labels, f"{answer} is not among {draw.labels} ({draw.purpose})"
        return draw.labels.index(answer)
    if draw.kind == "choice":
        return answer
    assert answer in draw.values, f"{answer} is not a face of {draw.kind} ({draw.purpose})"
    return draw.values.index(answer)


def play(
    process: Ec4xBattle,
    answers: Iterable[Answer] = (),
    *,
    policies: Mapping[str, Policy] | None = None,
    all_used: bool = True,
    fallback: Callable[[Draw[State]], int] | None = None,
    max_nodes: int = 100_000,
) -> Played:
    """Play to the end; ``fallback`` answers draws once the script is used up (else the
    battle stops with ``Exhausted``)."""
    script = list(answers)
    policies = policies or process.stock_policies()
    step: Step[State] = process.start()
    played = Played(list(step.events), step.state, {}, [])
    state = step.state
    for _ in range(max_nodes):
        node = process.advance(state)
        if isinstance(node, End):
            played.events.extend(node.events)
            played.outcome = node.outcome
            played.state = state
            if all_used:
                assert not script, f"draws left unused: {script}"
            return played
        if isinstance(node, Draw):
            played.draws.append(node)
            if script:
                index = _index(node, script.pop(0))
            elif fallback is not None:
                index = fallback(node)
            else:
                played.state = state
                raise Exhausted(played, node)
            played.events.append(node.logged(index))
            step = node.after(index)
        elif isinstance(node, Decision):
            option = decide(node.request, policies)
            played.events.append(
                event("choice_made", player=node.request.player, choice=option.text)
            )
            step = node.then(option)
        elif isinstance(node, Chance):
            raise AssertionError("EC4X draws with Draw, never Chance")
        else:
            step = node
        played.events.extend(step.events)
        state = step.state
    raise AssertionError("the battle did not end")


def random_fallback(seed: int) -> Callable[[Draw[State]], int]:
    """Answer draws with a seeded generator, by weight (for properties)."""
    rng = random.Random(seed)

    def pick(draw: Draw[State]) -> int:
        return rng.choices(range(len(draw.weights)), weights=draw.weights)[0]

    return pick


class Answers:
    """A scripted policy: answers decisions in order."""

    def __init__(self, texts: Sequence[str]) -> None:
        self.texts = list(texts)

    def choose(self, request: Any) -> str:
        return self.texts.pop(0)


def partial(process: Ec4xBattle, answers: Iterable[Answer]) -> Played:
    """Play until the script is used up; the events so far."""
    try:
        return play(process, answers, all_used=False)
    except Exhausted as stop:
        return stop.played


def answered(played: Played, purpose: str) -> list[str]:
    """The values drawn for ``purpose``, in order."""
    return [str(e["value"]) for e in played.of("drawn", purpose=purpose)]
