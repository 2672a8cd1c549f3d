"""Rules as a process over states, and the resolver that drives one.

A ruleset describes a battle as a process (OpenSpiel style): from a state, ``advance`` returns
the next node, which is one of

- ``Step``: the rules moved on deterministically (with the events that happened);
- ``Chance``: a dice pool must be rolled; ``then(hits)`` gives the step that follows;
- ``Draw``: any other finite random draw (a die read through a table, a weighted choice of
  target); ``then(value)`` gives the step that follows;
- ``Decision``: a player must choose; ``then(option)`` gives the step that follows;
- ``End``: the battle is over, with its outcome.

The resolver (here) samples chance and draw nodes from a ``Dice`` and asks policies at decision
nodes, logging every die, every draw and every choice. The exact odds engine walks the same
nodes, weighting chance outcomes with ``DicePool.distribution`` and draw outcomes with their
weights instead of rolling, so the two never disagree.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Generic, Protocol, TypeVar, cast

from spacecombat.core.decisions import DecisionRequest, Option, Policy, decide
from spacecombat.core.dice import Dice
from spacecombat.core.events import Event, event
from spacecombat.core.pool import DicePool, RolledGroup, total_hits, total_marks

S = TypeVar("S")


@dataclass(frozen=True, slots=True)
class Step(Generic[S]):
    """The rules moved to ``state``; ``events`` say what happened on the way."""

    state: S
    events: tuple[Event, ...] = ()


#: what a roll produced, as a chance node's continuation sees it: the number of hits, or
#: (hits, marks) when the pool counts marks (natural faces at or above a group's ``mark_on``)
Outcome = int | tuple[int, int]


@dataclass(frozen=True, slots=True)
class Chance(Generic[S]):
    """``roller`` rolls ``pool`` (for ``purpose``); ``then`` takes the number of hits.

    When ``then_marked`` is given (a pool with marks), it is called with (hits, marks) instead.
    """

    roller: str
    purpose: str
    pool: DicePool
    then: Callable[[int], Step[S]]
    then_marked: Callable[[int, int], Step[S]] | None = None

    def outcomes(self, exact: bool) -> Mapping[Outcome, Fraction | float]:
        """Every outcome of the roll with its chance (``Fraction`` if ``exact``)."""
        if self.then_marked is not None:
            joint = self.pool.joint_distribution()
            return dict(joint) if exact else {k: float(w) for k, w in joint.items()}
        plain = self.pool.distribution() if exact else self.pool.float_distribution()
        # read-only, so a mapping keyed by hits alone serves as one keyed by outcomes
        return cast("Mapping[Outcome, Fraction | float]", plain)

    def after(self, outcome: Outcome) -> Step[S]:
        """The step that follows the outcome."""
        if isinstance(outcome, tuple):
            assert self.then_marked is not None
            return self.then_marked(*outcome)
        return self.then(outcome)

    def rolled(self, rolled: tuple[RolledGroup, ...]) -> Outcome:
        """The outcome of rolled faces."""
        if self.then_marked is not None:
            return total_hits(rolled), total_marks(rolled)
        return total_hits(rolled)


@dataclass(frozen=True, slots=True)
class Draw(Generic[S]):
    """A finite random draw: outcome ``i`` has chance ``weights[i] / sum(weights)``, is logged
    as ``labels[i]``, and ``then(values[i])`` gives the step that follows.

    ``kind`` names the draw in the log: a die (``"d3"``, ``"d10"``, ``"d20"``: equal weights,
    values the faces) or ``"choice"`` (values the indices of ``labels``, e.g. the candidates of
    a weighted target selection). Weights are positive whole numbers, so every engine reads the
    same exact chances, and a seeded generator draws with ``Dice.pick``.
    """

    player: str
    purpose: str
    kind: str
    labels: tuple[str, ...]
    weights: tuple[int, ...]
    values: tuple[int, ...]
    then: Callable[[int], Step[S]]

    def __post_init__(self) -> None:
        if not self.weights or not (len(self.labels) == len(self.weights) == len(self.values)):
            raise ValueError("a draw has at least one outcome, each with a label and a value")
        if min(self.weights) < 1:
            raise ValueError(f"draw weights are positive whole numbers (got {self.weights})")

    @classmethod
    def die(
        cls,
        player: str,
        purpose: str,
        sides: int,
        then: Callable[[int], Step[S]],
        *,
        first: int = 1,
    ) -> Draw[S]:
        """A fair die of ``sides`` sides showing ``first`` … ``first + sides − 1``."""
        faces = tuple(range(first, first + sides))
        return cls(player, purpose, f"d{sides}", tuple(map(str, faces)), (1,) * sides, faces, then)

    @classmethod
    def choice(
        cls,
        player: str,
        purpose: str,
        labels: Sequence[str],
        weights: Sequence[int],
        then: Callable[[int], Step[S]],
    ) -> Draw[S]:
        """A weighted choice among ``labels``; ``then`` takes the chosen index."""
        return cls(
            player,
            purpose,
            "choice",
            tuple(labels),
            tuple(weights),
            tuple(range(len(labels))),
            then,
        )

    def outcomes(self, exact: bool) -> Mapping[int, Fraction | float]:
        """Every outcome (its index) with its chance (``Fraction`` if ``exact``)."""
        total = sum(self.weights)
        if exact:
            return {i: Fraction(w, total) for i, w in enumerate(self.weights)}
        return {i: w / total for i, w in enumerate(self.weights)}

    def after(self, index: int) -> Step[S]:
        """The step that follows outcome ``index``."""
        return self.then(self.values[index])

    def logged(self, index: int) -> Event:
        """The ``drawn`` event of outcome ``index``."""
        fields: dict[str, object] = {
            "player": self.player,
            "purpose": self.purpose,
            "kind": self.kind,
            "value": self.labels[index],
        }
        if self.kind == "choice":
            fields["options"] = list(self.labels)
            fields["weights"] = list(self.weights)
        return event("drawn", **fields)


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


Node = Step[S] | Chance[S] | Draw[S] | Decision[S] | End[S]


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
            emit((event("dice_rolled", player=node.roller, purpose=node.purpose, **_roll(rolled)),))
            step = node.after(node.rolled(rolled))
        elif isinstance(node, Draw):
            index = dice.pick(node.weights)
            emit((node.logged(index),))
            step = node.after(index)
        elif isinstance(node, Decision):
            request = node.request
            # A decision with one legal answer is not asked: it is logged as forced.
            option = decide(request, policies)
            emit(
                (
                    event(
                        "choice_made",
                        player=request.player,
                        decision=request.decision,
                        choice=option.text,
                        options=[o.text for o in request.options],
                        forced=request.forced,
                    ),
                )
            )
            step = node.then(option)
        else:
            emit(node.events)
            return Played(tuple(log), state, node.outcome)
        emit(step.events)
        state = step.state


def _roll(rolled: tuple[RolledGroup, ...]) -> dict[str, object]:
    """The groups and hits of a ``dice_rolled`` event (marks only where a group counts them)."""
    groups: list[dict[str, object]] = []
    for r in rolled:
        group: dict[str, object] = {
            "unit": r.group.unit,
            "value": r.group.value,
            "modifier": r.group.modifier,
            "hit_on": r.group.hit_on,
            "faces": list(r.faces),
            "hits": r.hits,
        }
        if r.group.mark_on is not None:
            group["mark_on"] = r.group.mark_on
            group["marks"] = r.marks
        groups.append(group)
    return {"groups": groups, "hits": total_hits(rolled)}
