"""Rules as a process over states, and the resolver that drives one.

A ruleset describes a battle as a process (OpenSpiel style): from a state, ``advance`` returns
the next node, which is one of

- ``Step``: the rules moved on deterministically (with the events that happened);
- ``Chance``: a dice pool must be rolled; ``then(hits)`` gives the step that follows;
- ``Decision``: a player must choose; ``then(option)`` gives the step that follows;
- ``End``: the battle is over, with its outcome.

The resolver (here) samples chance nodes from a ``Dice`` and asks policies at decision nodes,
logging every die and every choice. The exact odds engine walks the same nodes, weighting
chance outcomes with ``DicePool.distribution`` instead of rolling, so the two never disagree.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Generic, Protocol, TypeVar

from spacecombat.core.decisions import DecisionRequest, Option, Policy
from spacecombat.core.dice import Dice
from spacecombat.core.events import Event, event
from spacecombat.core.pool import DicePool, total_hits

S = TypeVar("S")


@dataclass(frozen=True, slots=True)
class Step(Generic[S]):
    """The rules moved to ``state``; ``events`` say what happened on the way."""

    state: S
    events: tuple[Event, ...] = ()


@dataclass(frozen=True, slots=True)
class Chance(Generic[S]):
    """``roller`` rolls ``pool`` (for ``purpose``); ``then`` takes the number of hits."""

    roller: str
    purpose: str
    pool: DicePool
    then: Callable[[int], Step[S]]


@dataclass(frozen=True, slots=True)
class Decision(Generic[S]):
    """A player must answer ``request``; ``then`` takes the chosen option."""

    request: DecisionRequest
    then: Callable[[Option], Step[S]]


@dataclass(frozen=True, slots=True)
class End(Generic[S]):
    """The battle is over."""

    outcome: Mapping[str, object]
    events: tuple[Event, ...] = ()


Node = Step[S] | Chance[S] | Decision[S] | End[S]


class Process(Protocol[S]):
    """A battle's rules: where it starts, and what comes next from any state."""

    def start(self) -> Step[S]:
        """The first state."""
        ...

    def advance(self, state: S) -> Node[S]:
        """The node that follows ``state``."""
        ...


@dataclass(frozen=True)
class Played(Generic[S]):
    """A battle played out: its events (the log) and its final state and outcome."""

    events: tuple[Event, ...]
    state: S
    outcome: Mapping[str, object]


def play(
    process: Process[S],
    dice: Dice,
    policies: Mapping[str, Policy],
    *,
    on_event: Callable[[Event], None] | None = None,
) -> Played[S]:
    """Play one battle: roll at chance nodes, ask ``policies[player]`` at decision nodes."""
    log: list[Event] = []

    def emit(events: tuple[Event, ...]) -> None:
        for item in events:
            log.append(item)
            if on_event is not None:
                on_event(item)

    step = process.start()
    emit(step.events)
    state = step.state
    while True:
        node = process.advance(state)
        if isinstance(node, Step):
            step = node
        elif isinstance(node, Chance):
            rolled = node.pool.sample(dice)
            hits = total_hits(rolled)
            emit(
                (
                    event(
                        "dice_rolled",
                        player=node.roller,
                        purpose=node.purpose,
                        groups=[
                            {
                                "unit": r.group.unit,
                                "value": r.group.value,
                                "modifier": r.group.modifier,
                                "hit_on": r.group.hit_on,
                                "faces": list(r.faces),
                                "hits": r.hits,
                            }
                            for r in rolled
                        ],
                        hits=hits,
                    ),
                )
            )
            step = node.then(hits)
        elif isinstance(node, Decision):
            request = node.request
            # A decision with one legal answer is not asked: it is logged as forced.
            forced = len(request.options) == 1
            if forced:
                option = request.options[0]
            else:
                option = request.option(policies[request.player].choose(request))
            emit(
                (
                    event(
                        "choice_made",
                        player=request.player,
                        decision=request.decision,
                        choice=option.text,
                        options=[o.text for o in request.options],
                        forced=forced,
                    ),
                )
            )
            step = node.then(option)
        else:
            emit(node.events)
            return Played(tuple(log), state, node.outcome)
        emit(step.events)
        state = step.state
