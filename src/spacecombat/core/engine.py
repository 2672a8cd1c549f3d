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
from typing import Generic, Protocol, TypeVar, cast, runtime_checkable

from spacecombat.core.decisions import DecisionRequest, Option, Policy, decide
from spacecombat.core.dice import Dice
from spacecombat.core.events import Event, event
from spacecombat.core.pool import DicePool, RolledGroup, Tally, total_hits, total_marks

S = TypeVar("S")


@dataclass(frozen=True, slots=True)
class Step(Generic[S]):
    """The rules moved to ``state``; ``events`` say what happened on the way."""

    state: S
    events: tuple[Event, ...] = ()


#: what a roll produced, as a chance node's continuation sees it: the number of hits, or
#: (hits, marks) when the pool counts marks (natural faces at or above a group's ``mark_on``),
#: or a ``Tally`` (hits, trade goods spent, units lost per group) when the pool is ``tallied``
Outcome = int | tuple[int, int] | Tally


@dataclass(frozen=True, slots=True)
class Chance(Generic[S]):
    """``roller`` rolls ``pool`` (for ``purpose``); ``then`` takes the number of hits.

    When ``then_marked`` is given (a pool with marks), it is called with (hits, marks) instead;
    when ``then_tally`` is given (a ``tallied`` pool), with the roll's ``Tally``.
    """

    roller: str
    purpose: str
    pool: DicePool
    then: Callable[[int], Step[S]]
    then_marked: Callable[[int, int], Step[S]] | None = None
    then_tally: Callable[[Tally], Step[S]] | None = None

    def __post_init__(self) -> None:
        if self.pool.tallied and self.then_tally is None:
            # its hits alone would silently drop the units lost or the trade goods spent
            raise ValueError(f"a roll for {self.purpose} whose outcome is a tally needs then_tally")

    def outcomes(self, exact: bool) -> Mapping[Outcome, Fraction | float]:
        """Every outcome of the roll with its chance (``Fraction`` if ``exact``)."""
        if self.then_tally is not None:
            tallies = self.pool.tally_distribution()
            if exact:
                return cast("Mapping[Outcome, Fraction | float]", tallies)
            return {k: float(w) for k, w in tallies.items()}
        if self.then_marked is not None:
            joint = self.pool.joint_distribution()
            return dict(joint) if exact else {k: float(w) for k, w in joint.items()}
        plain = self.pool.distribution() if exact else self.pool.float_distribution()
        # read-only, so a mapping keyed by hits alone serves as one keyed by outcomes
        return cast("Mapping[Outcome, Fraction | float]", plain)

    def after(self, outcome: Outcome) -> Step[S]:
        """The step that follows the outcome (a number of hits given to a chance node with
        ``then_tally``, as the stalemate check's paths give it, is a tally of those hits with
        nothing spent and no unit lost)."""
        if self.then_tally is not None:
            if not isinstance(outcome, Tally):
                assert isinstance(outcome, int)
                outcome = Tally(outcome, 0, (0,) * len(self.pool.groups))
            return self.then_tally(outcome)
        if isinstance(outcome, tuple):
            assert self.then_marked is not None
            return self.then_marked(*outcome)
        return self.then(outcome)

    def rolled(self, rolled: tuple[RolledGroup, ...]) -> Outcome:
        """The outcome of rolled faces."""
        if self.then_tally is not None:
            return self.pool.tally(rolled)
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


@runtime_checkable
class Quiet(Protocol[S]):
    """A process that can be played without its events (Monte Carlo's ``Sampler``)."""

    def quiet(self) -> Process[S]:
        """A twin of the process whose nodes are the same but for their events (none need
        be built): from each state the same steps, dice, draws, decisions and end."""
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
            outcome = node.rolled(rolled)
            fields = _roll(rolled, node.pool, outcome if isinstance(outcome, Tally) else None)
            emit((event("dice_rolled", player=node.roller, purpose=node.purpose, **fields),))
            step = node.after(outcome)
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


#: the most states and edges a ``Sampler`` remembers (with their points and nodes, about
#: 60 MB when full, as for a TI4 invasion of three planets; most battles need far fewer)
SAMPLER_MEMORY = 100_000


class Point(Generic[S]):
    """Where a battle played by a ``Sampler`` next depends on the dice: a chance node, a draw
    or the end, with ``state`` the state whose ``advance`` gave ``node``. ``following`` holds
    the point each outcome of the dice leads to, as the sampler meets them."""

    __slots__ = (
        "following",
        "groups",
        "marked",
        "node",
        "outcome",
        "special",
        "state",
        "tallied",
        "weights",
    )

    def __init__(self, node: Chance[S] | Draw[S] | End[S], state: S) -> None:
        self.node = node
        self.state = state
        self.following: dict[Outcome, Point[S]] = {}
        #: the end's outcome (None: not the end)
        self.outcome: Mapping[str, object] | None = None
        #: a chance node's groups as (dice, hit_on, mark_on), in rolling order
        self.groups: tuple[tuple[int, int, int | None], ...] | None = None
        #: whether a chance node's outcome is (hits, marks) rather than hits
        self.marked = False
        #: whether a chance node's outcome is a ``Tally``
        self.tallied = False
        #: a draw's weights
        self.weights: tuple[int, ...] | None = None
        #: a chance node's pool when some group is not plain (extra hits, rerolls): rolled
        #: with ``DicePool.sample``, as ``play`` rolls it
        self.special: DicePool | None = None
        if isinstance(node, Chance):
            self.groups = tuple((g.dice, g.hit_on, g.mark_on) for g in node.pool.groups)
            if not node.pool.plain:
                self.special = node.pool
            self.marked = node.then_marked is not None
            self.tallied = node.then_tally is not None
        elif isinstance(node, Draw):
            self.weights = node.weights
        else:
            self.outcome = node.outcome


class Sampler(Generic[S]):
    """Plays one process again and again with other dice (Monte Carlo), remembering what does
    not depend on them.

    From any state the rules go on deterministically (steps, and decisions the ``policies``
    answer from the request alone, as the stock policies do) to a chance node, a draw or the
    end: a ``Point``. Where an outcome of the dice leads from a point depends only on the point
    and the outcome, so the sampler walks the rules once for each (point, outcome) it meets
    and afterwards only rolls: each battle reads the dice exactly as ``play`` does (each
    group of a pool in order, one ``roll`` call per group; one ``pick`` per draw) and ends at
    the same state with the same outcome, without the log. The states a walk passes are
    remembered with the point it reaches, so a later walk that joins one stops there. It
    remembers at most ``memory`` states and edges; past that, new ones are walked every time
    (still the same battle). Once it is full, if fewer than one walk in ``JOINS`` still joins a
    remembered state (a large battle: its states almost never repeat), a battle that leaves
    what is remembered is played on to its end as ``play`` plays it, without points or
    look-ups (``lean``).

    A process with a ``quiet()`` method (``Quiet``) is played by the twin it returns, which
    takes the same steps and draws without building the events no one reads here.

    Only for policies whose answer depends on the request alone (not on earlier answers):
    ``ScriptedPolicy`` is not one."""

    def __init__(
        self, process: Process[S], policies: Mapping[str, Policy], memory: int = SAMPLER_MEMORY
    ) -> None:
        self.process = process.quiet() if isinstance(process, Quiet) else process
        self.policies = policies
        self.memory = memory
        #: points by the states they were reached from (and by their own state)
        self._points: dict[S, Point[S]] = {}
        self._remembered = 0
        self._start: Point[S] | None = None
        #: once full: the look-ups of walked states made, and those that joined one
        self._looked = 0
        self._joined = 0
        #: whether battles leaving what is remembered are played on without look-ups
        self.lean = False

    @property
    def remembered(self) -> int:
        """How many states and edges the sampler holds."""
        return self._remembered

    def play(self, dice: Dice) -> Point[S]:
        """Play one battle with ``dice``: its end (``state`` and ``outcome``)."""
        point = self._start
        if point is None:
            point = self._start = self._reach(self.process.start().state)
        roll = dice.roll
        while True:
            groups = point.groups
            key: Outcome
            special = point.special
            if special is not None:
                rolled = special.sample(dice)
                if point.tallied:
                    key = special.tally(rolled)
                else:
                    hits, marks = total_hits(rolled), total_marks(rolled)
                    key = (hits, marks) if point.marked else hits
            elif groups is not None:
                hits = marks = 0
                for count, hit_on, mark_on in groups:
                    faces = roll(count)
                    for face in faces:
                        if face >= hit_on:
                            hits += 1
                    if mark_on is not None:
                        for face in faces:
                            if face >= mark_on:
                                marks += 1
                key = (hits, marks) if point.marked else hits
            elif point.weights is not None:
                key = dice.pick(point.weights)
            else:
                return point
            following = point.following.get(key)
            if following is None:
                if self.lean:
                    return self._walk(point, key, dice)
                following = self._follow(point, key)
            point = following

    def _walk(self, point: Point[S], key: Outcome, dice: Dice) -> Point[S]:
        """The battle played on from ``point`` after the dice gave ``key`` to its end, as
        ``play`` plays it (the same dice read in the same order), without its log and
        remembering nothing."""
        node = point.node
        if isinstance(node, Draw):
            assert isinstance(key, int)
            state = node.after(key).state
        else:
            assert isinstance(node, Chance)
            state = node.after(key).state
        advance, policies = self.process.advance, self.policies
        while True:
            found = advance(state)
            if isinstance(found, Step):
                state = found.state
            elif isinstance(found, Draw):
                state = found.after(dice.pick(found.weights)).state
            elif isinstance(found, Chance):
                state = found.after(found.rolled(found.pool.sample(dice))).state
            elif isinstance(found, Decision):
                state = found.then(decide(found.request, policies)).state
            else:
                return Point(found, state)

    def _follow(self, point: Point[S], key: Outcome) -> Point[S]:
        """Walk the rules from ``point`` after the dice gave ``key``."""
        node = point.node
        assert isinstance(node, Chance | Draw)
        if isinstance(node, Draw):
            assert isinstance(key, int)
            found = self._reach(node.after(key).state)
        else:
            found = self._reach(node.after(key).state)
        if self._remembered < self.memory:
            point.following[key] = found
            self._remembered += 1
        return found

    def _met(self, joined: bool) -> None:
        """Count a walk (once full): whether it joined a remembered state; go ``lean`` when
        few do."""
        if self._remembered < self.memory:
            return
        self._looked += 1
        self._joined += joined
        if self._looked >= JUDGED_AFTER and self._joined * JOINS < self._looked:
            self.lean = True

    def _reach(self, state: S) -> Point[S]:
        """The point the rules reach from ``state``. Every state walked through on the way is
        remembered too: walks from other points often join it (the same units with the same
        hits left to assign), and then end there."""
        points = self._points
        found = points.get(state)
        if found is not None:
            self._met(True)
            return found
        walked = [state]
        advance = self.process.advance
        while True:
            node = advance(state)
            if isinstance(node, Step):
                state = node.state
            elif isinstance(node, Decision):
                state = node.then(decide(node.request, self.policies)).state
            else:
                found = Point(node, state)
                self._met(False)
                break
            found = points.get(state)
            if found is not None:
                self._met(True)
                break
            walked.append(state)
        room = self.memory - self._remembered
        if room > 0:
            for passed in walked[-room:]:
                points[passed] = found
            self._remembered += min(room, len(walked))
        return found


#: a full sampler goes ``lean`` when fewer than one walk in this many joins a remembered state
JOINS = 20
#: the walks a full sampler counts before it judges
JUDGED_AFTER = 2_000


def _roll(
    rolled: tuple[RolledGroup, ...], pool: DicePool | None = None, tally: Tally | None = None
) -> dict[str, object]:
    """The groups and hits of a ``dice_rolled`` event (marks only where a group counts them;
    with a ``tally``, the units lost and trade goods spent)."""
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
        if r.group.aimed:
            # every hit of these dice is a mark (docs/rulings.md 14RR-10)
            group["aimed"] = True
            group["marks"] = r.marks
        if r.group.extra_on is not None:
            group["extra_on"] = r.group.extra_on
            group["extra_hits"] = r.group.extra_hits
        if r.group.reroll is not None:
            group["reroll_modifier"] = r.group.reroll
        if r.group.reroll_at_most is not None:
            # only the misses showing a natural face at most this are rerolled (TI3 Spec Ops
            # Training: 1s; docs/rulings.md 27T-11)
            group["reroll_at_most"] = r.group.reroll_at_most
        if r.group.before:
            # rerolled by several effects: each reroll's modifier, in the order made
            group["reroll_modifiers"] = list(r.group.stages)
        if r.group.rerolled:
            group["rerolled"] = True
        if r.group.doom:
            group["dice_per_unit"] = r.group.doom
        groups.append(group)
    if tally is None or pool is None:
        return {"groups": groups, "hits": total_hits(rolled)}
    fields: dict[str, object] = {"groups": groups, "hits": tally.hits}
    if pool.budget:
        fields["trade_goods"] = pool.budget
        fields["trade_goods_spent"] = tally.spent
    if any(group.doom for group in pool.groups):
        lost: dict[str, int] = {}
        for doomed, gone in zip(pool.groups, tally.lost, strict=True):
            if doomed.doom:
                lost[doomed.unit] = lost.get(doomed.unit, 0) + gone
        fields["units_lost"] = lost
    return fields
