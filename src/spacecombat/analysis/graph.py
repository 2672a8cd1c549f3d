"""The battle's state graph, as the exact engine sees it.

Deterministic steps and policy decisions are followed at once ("settled"), so the graph's nodes
are the states where dice must be rolled (chance states) and the battle's ends. Each edge
carries the probability of one outcome of the roll and the number of combat rounds that began
on the way (from ``round_started`` events). The ruleset's ``canonical`` maps states that play
out alike to one key (e.g. round numbers past the last one any rule looks at), so the graph is
finite even though a battle may last for ever. States for which ``stop`` says so are not
explored: they become entries, handed to another solver (rounds in product form).

The graph is bounded: at most ``limit`` chance states, ``budget.GRAPH_SETTLED`` settled states
(each outcome of a roll leads to one) and ``budget.GRAPH_STEPS`` steps of the rules followed
(assigning h hits is h decisions), so its memory and time are bounded too; beyond any of them
the explorer stops with ``TooManyStates`` (a ``TooLarge``). The states a walk passes after an
outcome are remembered too, at most ``budget.GRAPH_PASSED`` of them, so that the walk of a
later outcome that meets one stops there (``Explorer.settle``).
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Generic, Protocol, TypeVar

from spacecombat.analysis import budget
from spacecombat.analysis.budget import TooLarge
from spacecombat.core.decisions import Policy, decide
from spacecombat.core.engine import Chance, Decision, Draw, End, Node, Process, Step
from spacecombat.core.events import Event

S = TypeVar("S", bound=Hashable)
S_contra = TypeVar("S_contra", bound=Hashable, contravariant=True)
Weight = Fraction | float


class Analysable(Process[S], Protocol):
    """What a ruleset's battle offers the odds engine, beyond being a process."""

    def canonical(self, state: S) -> S:
        """A state that plays out exactly like ``state`` from here on (the graph's key)."""
        ...

    def end_key(self, state: S) -> Hashable:
        """What distinguishes battle ends for the report (the final state, but not how many
        rounds it took)."""
        ...


class Leaping(Protocol[S]):
    """A battle that may take a deterministic stretch of its steps and decisions at once."""

    def leap(self, state: S, policies: Mapping[str, Policy]) -> S | None:
        """The state a stretch of steps and decisions from ``state`` leads to, decided by
        ``policies``, with no combat round begun on the way, or ``None`` where no stretch is
        taken at once: the walk from either state is the same from there on."""
        ...


class Joining(Protocol[S_contra]):
    """A battle some of whose chance states the exact engine may fold into the roll before."""

    def joins_roll_before(self, state: S_contra) -> bool:
        """Whether the chance state ``state``, reached from an outcome of another roll, may be
        folded into that roll (its outcomes become that roll's, their chances multiplied): the
        graph then holds one chance state where it held one for each outcome of the first."""
        ...


@dataclass(frozen=True)
class SplitRolls(Generic[S]):
    """A chance state's two rolls and the assignments of their hits, player by player (a
    ``Splitting`` battle's): each player's part of the state after its own roll (its units
    after the losses its own roll made, what it spent) with the hits it produced, and each
    part after taking the other's hits. The state after both players assigned is then a
    function of the two parts after, so the explorer walks on once for each pair of parts
    after rather than once for each pair of outcomes (the sum of the outcomes, not their
    product)."""

    #: the first roller's (part, hits it produced) with their chance (the hits as the battle
    #: keys them: a number, or a number and how many of them are free, TI4's marked hits)
    first: Mapping[tuple[Hashable, Hashable], Weight]
    #: the second roller's outcomes, in the roll's order: (part, hits it produced, chance)
    second: Sequence[tuple[Hashable, Hashable, Weight]]
    #: the first roller's part after taking the second's hits, by (part, hits taken)
    first_after: Mapping[Hashable, Hashable]
    #: the second roller's part after taking the first's hits, by (part, hits taken)
    second_after: Mapping[Hashable, Hashable]
    #: the state both assignments lead to, from the two parts after (first, second): the
    #: explorer walks on from it (no round begins between the chance state and it)
    state: Callable[[Hashable, Hashable], S]
    #: the states of the second roll, one for each of ``first`` in its order, as the rolls
    #: folded would have met them (``Joining``), and how many outcomes the first roll has:
    #: the budgets count them as they did (``Explorer._split_edges``)
    folded: Sequence[S] = ()
    rolled: int = 0
    #: whether each assignment also reads the other player's part as it stands when it
    #: begins (a handler asked then is not idle: the Mentak flagship): ``first_after`` is
    #: then by (first's part, second's part, hits taken) and ``second_after`` by (first's
    #: part after, second's part, hits taken)
    paired: bool = False
    #: what ``state`` reads besides the two parts after, or ``None``: two chance states'
    #: splits with the same ``shared`` put together the same state from the same parts after,
    #: so where a pair of parts after leads is remembered across them (``SHARED``)
    shared: Hashable | None = None


class Splitting(Protocol[S]):
    """A battle whose rounds' rolls the exact engine may take player by player."""

    def split_rolls(
        self, state: S, policies: Mapping[str, Policy], exact: bool
    ) -> SplitRolls[S] | None:
        """The chance state ``state``'s roll and the roll that follows it, player by player
        (``SplitRolls``), or ``None`` where they are not taken so (the explorer then follows
        every outcome of both)."""
        ...


class RollingBlind(Protocol[S]):
    """A battle some of whose rolls read nothing of a part of the state while they are made
    (TI4: a combat roll kept group by group, blind to the hits against its roller; 24AD-1)."""

    def roll_blind(self, state: S) -> tuple[S, Hashable, Hashable] | None:
        """For the chance state ``state``: the state with what its roll leaves unread left out,
        what was left out (for ``roll_put_back``) and which roll it is, or ``None``. The roll's
        chance states that follow one another (an outcome's state for which this gives itself
        back, nothing left out, and the same roll) are followed from the state left out once,
        to the states the roll's outcomes leave once it is past them."""
        ...

    def roll_stretch(self, state: S, roll: Hashable, policies: Mapping[str, Policy]) -> S:
        """The state a state such a roll leads to (left out as it was) reaches by stretches of
        steps and decisions that read nothing of what was left out either, decided by
        ``policies`` (``state`` itself where none is taken): the explorer walks on from there
        with what was left out put back."""
        ...

    def roll_put_back(self, state: S, left_out: Hashable) -> S | None:
        """``state``, reached by such a roll followed blind, with what was left out put back
        (the state the roll's outcomes leave from the state as it was); ``None`` where it
        cannot be (the walk changed what was left out: the roll is then followed as before)."""
        ...


#: whether the explorer takes a round's rolls player by player where the battle offers it
#: (``Splitting``; only with ``joins``, where the second roll is folded into the first); off,
#: every pair of outcomes is followed (the graph is the same: tests/odds/test_graph_splits.py)
SPLITS = True


#: whether the explorer remembers where each pair of players' parts after leads across the
#: chance states whose splits put the state walked on from together alike
#: (``SplitRolls.shared``): a pair met again in another round is neither put together nor
#: settled again; off, only within one chance state, as before (the graph is the same:
#: tests/odds/test_graph_splits_shared.py; 24AA-1)
SHARED = True


#: whether the explorer sums a split chance state's pairs of outcomes by numbers given each
#: player's part after and each edge's (target, rounds) once (``Explorer._split_edges_numbered``),
#: rather than by the parts and edges themselves, hashed again for every pair: the same sums in
#: the same order (off: as before, tests/odds/test_graph_splits_numbered.py; 24AE-2)
PARTS_NUMBERED = True


#: whether the explorer folds the chance states a battle says join the roll before
#: (``Joining``) into it, when asked to (``Explorer(joins=True)``); off, every chance state is
#: a state of the graph (the answers are the same: tests/odds/test_graph_joins.py)
JOINS = True


#: whether the explorer takes the stretches a battle offers (``Leaping``) at once; off, every
#: step of the rules is walked (the graph is the same: tests/odds/test_graph_leaps.py)
LEAPS = True


#: whether the roll a walk meets at a chance state not yet followed (the node the battle's
#: ``advance`` gave there) is kept for the state's following (``Explorer._followed``), rather
#: than asked of the battle again: ``advance`` is a function of the state alone (off: asked
#: again, as before; tests/odds/test_graph_nodes_kept.py; 24AB-2)
NODES_KEPT = True


#: why a battle is explored state by state, unless the caller says otherwise
NOT_IN_PRODUCT_FORM = "this battle's rounds are not in product form, and it is large"


class TooManyStates(TooLarge):
    """The battle has more states than the exact engine was allowed to explore."""

    def __init__(self, limit: int, why: str = NOT_IN_PRODUCT_FORM, *, where: str = "") -> None:
        where = where or f"at {limit:,} battle states"
        super().__init__(f"the exact engine stopped {where} ({why})")
        self.limit = limit
        self.why = why
        self.where = where
        #: the budget that stopped it grows with the budget a player asks for (``--budget``):
        #: the chance states, or a ruleset's settled states sized from them (``exact_odds``)
        self.budgeted = False


@dataclass(frozen=True)
class Terminal:
    """A battle end: its key and its outcome (from one of the paths that reach it)."""

    key: Hashable
    outcome: Mapping[str, object] = field(compare=False, hash=False)

    def __hash__(self) -> int:
        # the generated hash's value (of the compared fields), computed once: a terminal is a
        # key of every edge that reaches it, and its key a whole battle state, whose fields
        # hash in Python (24V-1); read as an attribute, no call but the first (24AL)
        try:
            return self._hash  # type: ignore[attr-defined, no-any-return]
        except AttributeError:
            known = hash((self.key,))
            object.__setattr__(self, "_hash", known)
            return known

    def __getstate__(self) -> dict[str, object]:
        # (a hash is worth only in the process that computed it)
        return {k: v for k, v in self.__dict__.items() if k != "_hash"}


@dataclass(frozen=True)
class Entry(Generic[S]):
    """A state left to another solver."""

    state: S


@dataclass(frozen=True)
class Joined(Generic[S]):
    """A chance state folded into the roll whose outcome reached it (``Joining``): never an
    edge's target in the graph, only the explorer's, on the way."""

    state: S


Target = int | Terminal | Entry  # type: ignore[type-arg]


@dataclass
class Edge:
    target: Target
    weight: Weight
    rounds: int


@dataclass
class StateGraph(Generic[S]):
    """Chance states (by index) with their outgoing edges, and where the battle starts."""

    states: list[S] = field(default_factory=list)
    edges: list[list[Edge]] = field(default_factory=list)
    start: Edge | None = None


def _rounds_begun(events: tuple[Event, ...]) -> int:
    return sum(1 for e in events if e.get("event") == "round_started")


class Explorer(Generic[S]):
    """Builds the state graph; its ``settle`` also serves other solvers."""

    def __init__(
        self,
        process: Analysable[S],
        policies: Mapping[str, Policy],
        *,
        exact: bool,
        stop: Callable[[S], bool] | None = None,
        limit: int | None = None,
        settled: int | None = None,
        why: str = NOT_IN_PRODUCT_FORM,
        start: S | None = None,
        joins: bool = False,
    ) -> None:
        """``limit``: the most chance states (``None``: no limit); ``settled``: the most states
        reached by an outcome (default ``budget.GRAPH_SETTLED``); ``why``: what
        ``TooManyStates`` says of the battle; ``start``: the first state, if not the
        process's own (a stage of a tactical action started from what the one before left);
        ``joins``: fold the chance states the battle says join the roll before into it
        (``Joining``; not where the graph's chance states are read as the battle's states at
        the start of a round, ``state_after``)."""
        self.start = start
        self.process = process
        self.policies = policies
        self.exact = exact
        self.stop = stop
        self.limit = limit
        self.most_settled = budget.GRAPH_SETTLED if settled is None else settled
        #: steps and decisions followed so far, and the most allowed (``budget.GRAPH_STEPS``)
        self.steps = 0
        self.most_steps = budget.GRAPH_STEPS
        #: outcomes of rolls followed so far, and the most allowed (``budget.GRAPH_OUTCOMES``)
        self.outcomes = 0
        self.most_outcomes = budget.GRAPH_OUTCOMES
        self.why = why
        self.graph: StateGraph[S] = StateGraph()
        self._index: dict[S, int] = {}
        #: where each state met on the way leads (a chance state or an end) and the rounds
        #: begun before it: the states outcomes of rolls reached (``settled``, bounded by
        #: ``most_settled``) and, while there is room (``budget.GRAPH_PASSED``), the states
        #: passed through after them, so a walk that meets one again stops there
        self._settled: dict[S, tuple[Target | Joined[S], int]] = {}
        #: how many of ``_settled`` are states reached by outcomes, and how many were passed
        #: (at most ``most_passed``)
        self._reached = 0
        self.passed = 0
        self.most_passed = budget.GRAPH_PASSED
        self._terminals: dict[Hashable, Terminal] = {}
        #: the process where it may take a stretch at once (``Leaping``), asked once
        self._leaping: Leaping[S] | None = process if hasattr(process, "leap") else None  # type: ignore[assignment]
        #: the roll or draw a walk met at each chance state not yet followed (``NODES_KEPT``),
        #: taken when it is followed
        self._met: dict[S, Chance[S] | Draw[S]] = {}
        self._pending: list[int] = []
        joining = getattr(process, "joins_roll_before", None) if joins and JOINS else None
        #: which chance states are folded into the roll before (``Joining``), and the edges
        #: each folded state leads to, by (target, rounds begun), once followed
        self._joins: Callable[[S], bool] | None = joining
        self._joined: dict[S, dict[tuple[Target, int], Weight]] = {}
        #: the states folded into the roll before, whether followed (``_joined``) or taken
        #: player by player (``SplitRolls.folded``): at most ``limit``
        self._folded: set[S] = set()
        #: a round's two rolls taken player by player (``Splitting``), where both are folded
        splitting = getattr(process, "split_rolls", None) if joining and SPLITS and LEAPS else None
        self._splits: Callable[[S, Mapping[str, Policy], bool], SplitRolls[S] | None] | None = (
            splitting
        )
        #: rolls followed blind (``RollingBlind``; only with the rolls folded, ``joins``), and
        #: where each roll followed so leads, by the state left out: the states its outcomes
        #: leave once past its chance states, with their chances (``None``: not taken so)
        self._kept_roll_blind: RollingBlind[S] | None = (
            process  # type: ignore[assignment]
            if joining and hasattr(process, "roll_blind")
            else None
        )
        self._kept_roll_chains: dict[S, dict[S, Weight] | None] = {}
        #: where each pair of parts after leads, by the splits' ``shared`` (``SHARED``)
        self._led: dict[Hashable, dict[tuple[Hashable, Hashable], tuple[Target, int]]] = {}
        #: the same by the parts' numbers, to the edge key's number (``PARTS_NUMBERED``); each
        #: part after met with its number and each edge key (target, rounds begun) with its own
        self._led_numbered: dict[Hashable, dict[tuple[int, int], int]] = {}
        self._parts_after_numbers: dict[Hashable, int] = {}
        self._parts_after_numbered: list[Hashable] = []
        self._edge_keys_numbers: dict[tuple[Target, int], int] = {}
        self._edge_keys_numbered: list[tuple[Target, int]] = []
        # a process whose folds follow decisions (``folded``: EC4X's sieges) is told whose
        # policies decide them
        told = getattr(process, "use_policies", None)
        if told is not None:
            told(policies)

    def _node_of(self, state: S) -> Target | Joined[S]:
        if self.stop is not None and self.stop(state):
            return Entry(state)
        if self._joins is not None and state not in self._index and self._joins(state):
            return Joined(state)
        return self._chance_state(state)

    def _chance_state(self, state: S) -> int:
        """The index of the chance state ``state`` in the graph, made (and left to follow)
        if new."""
        if state not in self._index:
            if self.limit is not None and len(self.graph.states) >= self.limit:
                raise TooManyStates(self.limit, self.why)
            self._index[state] = len(self.graph.states)
            self.graph.states.append(state)
            self.graph.edges.append([])
            self._pending.append(self._index[state])
        return self._index[state]

    def settle(self, state: S) -> tuple[Target, int]:
        """Follow steps and decisions to the next chance state or end; count rounds begun."""
        target, rounds = self._walk(state)
        if isinstance(target, Joined):
            return self._chance_state(target.state), rounds
        return target, rounds

    def _walk(self, state: S) -> tuple[Target | Joined[S], int]:
        """``settle``, where a chance state folded into the roll before (``Joining``) is left
        to the caller."""
        process = self.process
        advance, canonical, settled = process.advance, process.canonical, self._settled
        leaping = self._leaping if LEAPS else None
        policies = self.policies
        start = canonical(state)
        known = settled.get(start)
        if known is not None:
            return known
        rounds = 0
        current = start
        steps, most_steps = self.steps, self.most_steps
        #: the states passed after ``start``, each with the rounds begun before it
        passed: list[tuple[S, int]] = []
        target: Target | Joined[S]
        while True:
            steps += 1
            if steps > most_steps:
                self.steps = steps
                where = f"after {most_steps:,} steps of the rules"
                raise TooManyStates(most_steps, self.why, where=where)
            if leaping is not None:
                # a stretch taken at once (a player's whole assignment of hits, say): the
                # states on the way are neither made nor remembered
                landed = leaping.leap(current, policies)
                if landed is not None:
                    current = canonical(landed)
                    known = settled.get(current)
                    if known is not None:
                        target, rounds = known[0], rounds + known[1]
                        break
                    passed.append((current, rounds))
                    continue
            node: Node[S] = advance(current)
            if isinstance(node, Step):
                step = node
            elif isinstance(node, Decision):
                step = node.then(decide(node.request, self.policies))
            elif isinstance(node, End):
                key = process.end_key(current)
                terminal = self._terminals.get(key)
                if terminal is None:
                    terminal = self._terminals[key] = Terminal(key, node.outcome)
                target = terminal
                break
            else:  # a roll or a draw
                new = current not in self._index
                target = self._node_of(current)
                # a chance state just made, or a state folded not yet followed (followed once,
                # ``_joined_edges``, never a state of the graph)
                unfollowed = (
                    new
                    if isinstance(target, int)
                    else isinstance(target, Joined) and current not in self._joined
                )
                if NODES_KEPT and unfollowed:
                    self._met[current] = node
                break
            for happened in step.events:
                if happened.get("event") == "round_started":
                    rounds += 1
            current = canonical(step.state)
            known = settled.get(current)
            if known is not None:
                target, rounds = known[0], rounds + known[1]
                break
            passed.append((current, rounds))
        self.steps = steps
        if self._reached >= self.most_settled:
            where = f"at {self.most_settled:,} battle states reached by the dice"
            raise TooManyStates(self.most_settled, self.why, where=where)
        self._reached += 1
        settled[start] = (target, rounds)
        # The process is Markov in its (canonical) states: a state passed on the way leads to
        # the same place whichever outcome reached it, with the rounds begun after it. Many
        # outcomes meet again after a few steps (the hits assigned alike, the same round's
        # end), and their walks now stop there.
        room = self.most_passed - self.passed
        if room < len(passed):
            passed = passed[: max(0, room)]
        for state, before in passed:
            settled[state] = (target, rounds - before)
        self.passed += len(passed)
        return target, rounds

    def build(self, *, prune: float = 0.0) -> StateGraph[S]:
        """Explore every state the battle can reach from its start, weighting chance outcomes
        exactly (``Fraction``) or as floats; float outcomes below ``prune`` are dropped (their
        mass shows in the report's residual)."""
        first = self.process.start() if self.start is None else Step(self.start)
        target, rounds = self.settle(first.state)
        one: Weight = Fraction(1) if self.exact else 1.0
        self.graph.start = Edge(target, one, rounds + _rounds_begun(first.events))
        # a process may fold the draws that follow a chance state into one distribution of
        # the states they lead to (EC4X: an attack step's selections, ``Ec4xBattle.folded``)
        fold = getattr(self.process, "folded", None)
        while self._pending:
            at = self._pending.pop()
            met = self._met.pop(self.graph.states[at], None)
            if fold is not None:
                folded = fold(self.graph.states[at], self.exact)
                if folded is not None:
                    self.graph.edges[at] = self._folded_edges(folded, prune)
                    continue
            if self._splits is not None:
                split = self._splits(self.graph.states[at], self.policies, self.exact)
                if split is not None:
                    self.graph.edges[at] = self._split_edges(split, prune)
                    continue
            edges: dict[tuple[Target, int], Weight] = {}
            followed = self._followed(self.graph.states[at], prune, met)
            for (reached, more), weight in followed.items():
                if isinstance(reached, Joined):
                    # a roll folded into this one: its outcomes are this roll's, their chances
                    # multiplied, the rounds begun on the way added
                    for (then, after), chance in self._joined_edges(reached.state, prune).items():
                        key = (then, more + after)
                        edges[key] = edges.get(key, 0) + weight * chance
                    continue
                edges[(reached, more)] = edges.get((reached, more), 0) + weight
            self.graph.edges[at] = [Edge(t, w, r) for (t, r), w in edges.items()]
        return self.graph

    def _followed(
        self, state: S, prune: float, met: Chance[S] | Draw[S] | None = None
    ) -> dict[tuple[Target | Joined[S], int], Weight]:
        """Each outcome of the roll in ``state`` followed to the next chance state or end, by
        (target, rounds begun on the way), with its chance. ``met``: the roll the walk that
        reached ``state`` met there (``NODES_KEPT``), else it is asked of the battle."""
        if self._kept_roll_blind is not None and (self.exact or not prune):
            blind = self._kept_roll_blind.roll_blind(state)
            if blind is not None:
                taken = self._kept_roll_followed(*blind)
                if taken is not None:
                    return taken
        node = self.process.advance(state) if met is None else met
        assert isinstance(node, Chance | Draw)
        edges: dict[tuple[Target | Joined[S], int], Weight] = {}
        outcomes = chances(node, self.exact)
        self.outcomes += len(outcomes)
        if self.outcomes > self.most_outcomes:
            where = f"after {self.most_outcomes:,} outcomes of rolls"
            raise TooManyStates(self.most_outcomes, self.why, where=where)
        for outcome, weight in outcomes.items():
            if not self.exact and weight < prune:
                continue
            step = following(node, outcome)
            target, more = self._walk(step.state)
            key = (target, more + _rounds_begun(step.events))
            edges[key] = edges.get(key, 0) + weight
        return edges

    def _kept_roll_followed(
        self, blinded: S, left_out: Hashable, roll: Hashable
    ) -> dict[tuple[Target | Joined[S], int], Weight] | None:
        """``_followed`` for a chance state whose roll reads nothing of what ``blinded`` leaves
        out (``RollingBlind``): the roll's chance states followed once from ``blinded``
        (``_kept_roll_chain``), and each state they leave walked on from with what was left out
        put back. The chance states of the roll after the first are then no states of the
        graph: their outcomes' chances are multiplied into the first's (a chain eliminated,
        the same absorption; no round begins within a roll). ``None`` where it is not taken."""
        ends = self._kept_roll_chain(self.process.canonical(blinded), roll)
        if ends is None:
            return None
        assert self._kept_roll_blind is not None
        put_back = self._kept_roll_blind.roll_put_back
        states: list[tuple[S, Weight]] = []
        for end, weight in ends.items():
            back = put_back(end, left_out)
            if back is None:
                return None  # (before any is walked)
            states.append((back, weight))
        edges: dict[tuple[Target | Joined[S], int], Weight] = {}
        for state, weight in states:
            key = self._walk(state)
            edges[key] = edges.get(key, 0) + weight
        return edges

    def _kept_roll_chain(self, blinded: S, roll: Hashable) -> dict[S, Weight] | None:
        """The states the roll of the chance state ``blinded`` (what its roll reads nothing of
        left out) leads to once past its chance states, with their chances: each outcome's
        state that is again a chance state of the same ``roll`` with nothing left out is
        followed in its turn (remembered by state), any other is where the roll leaves it.
        Counted as states folded into the roll before (at most ``limit``) and their outcomes
        as outcomes of rolls. ``None`` where a round begins on the way or a state is an entry
        (not taken)."""
        if blinded in self._kept_roll_chains:
            return self._kept_roll_chains[blinded]
        self._kept_roll_chains[blinded] = None  # (while followed: a roll never meets itself)
        node = self.process.advance(blinded)
        if not isinstance(node, Chance):
            return None
        assert self._kept_roll_blind is not None
        self._fold(blinded)
        outcomes = chances(node, self.exact)
        self._count_outcomes(len(outcomes))
        ends: dict[S, Weight] = {}
        for outcome, weight in outcomes.items():
            step = following(node, outcome)
            if _rounds_begun(step.events):
                return None
            state = step.state
            if self.stop is not None and self.stop(state):
                return None
            inner = self._kept_roll_blind.roll_blind(state)
            if (
                inner is not None
                and inner[0] == state
                and inner[2] == roll
                and isinstance(self.process.advance(state), Chance)
            ):
                # the roll's next chance state, nothing left out: followed in its turn
                more = self._kept_roll_chain(self.process.canonical(state), roll)
                if more is None:
                    return None
                for end, chance in more.items():
                    ends[end] = ends.get(end, 0) + weight * chance
                continue
            if LEAPS:
                # the stretches after the roll that read nothing of what was left out either
                state = self._kept_roll_blind.roll_stretch(state, roll, self.policies)
            ends[state] = ends.get(state, 0) + weight
        self._kept_roll_chains[blinded] = ends
        return ends

    def _split_edges(self, split: SplitRolls[S], prune: float) -> list[Edge]:
        """The edges of a chance state whose round's rolls the battle took player by player
        (``Splitting``): each pair of outcomes weighs the product of their chances, and leads
        where the state after both assignments does, walked once for each pair of players'
        parts after (``SplitRolls``). The outcomes counted are those of both rolls. The sums
        are made in the order of the rolls folded (``_joined_edges``): the second roll's
        chances by where they lead, then times the first's, so the floats are the same."""
        if PARTS_NUMBERED:
            return self._split_edges_numbered(split, prune)
        # counted as the rolls folded counted them, in the same order (``_followed``,
        # ``_joined_edges``): the first roll's outcomes, then for each of the second roll's
        # states not met before (at most ``limit``) its outcomes, before the chance states its
        # outcomes lead to, so that a battle stops where and when it stopped before
        self._count_outcomes(split.rolled)
        first_after, second_after = split.first_after, split.second_after
        # where each pair of parts after leads; with the same ``shared``, the state walked on
        # from is the same function of the parts after as in the chance states met before
        shared = SHARED and split.shared is not None
        met: dict[tuple[Hashable, Hashable], tuple[Target, int]] = (
            self._led.setdefault(split.shared, {}) if shared else {}
        )
        edges: dict[tuple[Target, int], Weight] = {}
        seconds = self._kept_seconds(split, prune)
        for (first, produced), weight in self._kept_firsts(split, prune):
            led: dict[tuple[Target, int], Weight] = {}
            for second, taken, chance in seconds:
                if split.paired:
                    assigned = first_after[(first, second, taken)]
                    after = (assigned, second_after[(assigned, second, produced)])
                else:
                    after = (first_after[(first, taken)], second_after[(second, produced)])
                key = met.get(after)
                if key is None:
                    key = met[after] = self.settle(split.state(*after))
                led[key] = led.get(key, 0) + chance
            for key, chance in led.items():
                edges[key] = edges.get(key, 0) + weight * chance
        return [Edge(t, w, r) for (t, r), w in edges.items()]

    def _kept_seconds(
        self, split: SplitRolls[S], prune: float
    ) -> list[tuple[Hashable, Hashable, Weight]]:
        """The second roll's outcomes (part, hits produced, chance) kept: all when exact, else
        those of at least ``prune``."""
        return [
            (part, hits, chance)
            for part, hits, chance in split.second
            if self.exact or chance >= prune
        ]

    def _kept_firsts(
        self, split: SplitRolls[S], prune: float
    ) -> Iterator[tuple[tuple[Hashable, Hashable], Weight]]:
        """The first roll's outcomes ((part, hits produced), chance) kept (as
        ``_kept_seconds``), each one's folded chance states followed first where new."""
        for outcome, folded in zip(split.first.items(), split.folded, strict=True):
            if not self.exact and outcome[1] < prune:
                continue
            if folded not in self._folded:
                self._fold(folded)
                self._count_outcomes(len(split.second))
            yield outcome

    def _split_edges_numbered(self, split: SplitRolls[S], prune: float) -> list[Edge]:
        """``_split_edges`` with each player's part after and each edge's key numbered once
        (``PARTS_NUMBERED``): a pair of outcomes is looked up by two numbers, where it was
        looked up by the two parts after (hashed, and compared where met before); the parts
        after for each of the second roll's outcomes are read once for each of the first
        roll's parts (and, but in the paired tables, once for each number of hits it
        produced). The same lookups and walks in the same order, the same sums in the same
        order: the same edges to the last bit."""
        self._count_outcomes(split.rolled)
        first_after, second_after = split.first_after, split.second_after
        shared = SHARED and split.shared is not None
        met: dict[tuple[int, int], int] = (
            self._led_numbered.setdefault(split.shared, {}) if shared else {}
        )
        numbers, numbered = self._parts_after_numbers, self._parts_after_numbered
        key_numbers, keys = self._edge_keys_numbers, self._edge_keys_numbered

        def new(part: Hashable) -> int:
            known = numbers[part] = len(numbered)
            numbered.append(part)
            return known

        def number(parts: Iterable[Hashable]) -> list[int]:
            # each part's number, a new part numbered next (no call for a part met before)
            return [numbers[part] if part in numbers else new(part) for part in parts]

        seconds = self._kept_seconds(split, prune)
        chances = [chance for _, _, chance in seconds]
        #: the first player's parts after for each of the second roll's outcomes, by the
        #: first's part (the paired tables' read from ``rows``), numbered; the second's,
        #: numbered, by the hits produced
        rows: dict[Hashable, list[Hashable]] = {}
        row_numbers: dict[Hashable, list[int]] = {}
        columns: dict[Hashable, list[int]] = {}
        edges: dict[int, Weight] = {}
        for (first, produced), weight in self._kept_firsts(split, prune):
            pairs: list[tuple[int, int]]
            if split.paired:
                row = rows.get(first)
                if row is None:
                    row = rows[first] = [first_after[(first, s, t)] for s, t, _ in seconds]
                    # (each of the first player's parts after numbered once for the row)
                    row_numbers[first] = number(row)
                pairs = list(
                    zip(
                        row_numbers[first],
                        number(
                            [
                                second_after[(a, s, produced)]
                                for a, (s, _, _) in zip(row, seconds, strict=True)
                            ]
                        ),
                        strict=True,
                    )
                )
            else:
                numbers_row = row_numbers.get(first)
                if numbers_row is None:
                    numbers_row = row_numbers[first] = number(
                        [first_after[(first, t)] for _, t, _ in seconds]
                    )
                column = columns.get(produced)
                if column is None:
                    column = columns[produced] = number(
                        [second_after[(s, produced)] for s, _, _ in seconds]
                    )
                pairs = list(zip(numbers_row, column, strict=True))
            # (each sum begun with its first term, where ``0 + term`` gave the same value)
            led: dict[int, Weight] = {}
            for pair, chance in zip(pairs, chances, strict=True):
                if pair in met:
                    key = met[pair]
                else:
                    reached = self.settle(split.state(numbered[pair[0]], numbered[pair[1]]))
                    numbered_key = key_numbers.get(reached)
                    if numbered_key is None:
                        numbered_key = key_numbers[reached] = len(keys)
                        keys.append(reached)
                    key = met[pair] = numbered_key
                if key in led:
                    led[key] += chance
                else:
                    led[key] = chance
            for key, chance in led.items():
                if key in edges:
                    edges[key] += weight * chance
                else:
                    edges[key] = weight * chance
        return [Edge(keys[k][0], w, keys[k][1]) for k, w in edges.items()]

    def _joined_edges(self, state: S, prune: float) -> dict[tuple[Target, int], Weight]:
        """Where the roll of a chance state folded into the roll before leads (``Joining``),
        followed once and remembered: a chance state reached from one of its outcomes is a
        state of the graph, never folded in its turn. At most ``limit`` are folded, besides the
        ``limit`` chance states of the graph."""
        known = self._joined.get(state)
        if known is None:
            if state not in self._folded:
                self._fold(state)
            known = {}
            followed = self._followed(state, prune, self._met.pop(state, None))
            for (reached, more), weight in followed.items():
                target: Target = (
                    self._chance_state(reached.state) if isinstance(reached, Joined) else reached
                )
                known[(target, more)] = known.get((target, more), 0) + weight
            self._joined[state] = known
        return known

    def _fold(self, state: S) -> None:
        """Count a state folded into the roll before: at most ``limit`` of them."""
        if self.limit is not None and len(self._folded) >= self.limit:
            # as many again as the graph may hold: the time a roll's outcomes take stays
            # bounded as when each was a chance state of the graph (budget.CHANCE_STATES)
            where = f"at {self.limit:,} battle states folded into the rolls before them"
            raise TooManyStates(self.limit, self.why, where=where)
        self._folded.add(state)

    def _count_outcomes(self, more: int) -> None:
        """Count ``more`` outcomes of rolls followed: at most ``most_outcomes``."""
        self.outcomes += more
        if self.outcomes > self.most_outcomes:
            where = f"after {self.most_outcomes:,} outcomes of rolls"
            raise TooManyStates(self.most_outcomes, self.why, where=where)

    def _folded_edges(self, folded: Mapping[S, Weight], prune: float) -> list[Edge]:
        """The edges of a chance state whose draws the process folded: each state they lead
        to, settled, with its chance (counted as outcomes of rolls)."""
        self.outcomes += len(folded)
        if self.outcomes > self.most_outcomes:
            where = f"after {self.most_outcomes:,} outcomes of rolls"
            raise TooManyStates(self.most_outcomes, self.why, where=where)
        edges: dict[tuple[Target, int], Weight] = {}
        for state, weight in folded.items():
            if not self.exact and weight < prune:
                continue
            target, more = self.settle(state)
            key = (target, more)
            edges[key] = edges.get(key, 0) + weight
        return [Edge(t, w, r) for (t, r), w in edges.items()]


def chances(node: Chance[S] | Draw[S], exact: bool) -> Mapping[object, Weight]:
    """Each outcome of a roll or a draw with its chance."""
    return node.outcomes(exact)  # type: ignore[return-value]


def following(node: Chance[S] | Draw[S], outcome: object) -> Step[S]:
    """The step after one outcome of a roll (hits, or hits and marks) or a draw (an index)."""
    if isinstance(node, Draw):
        assert isinstance(outcome, int)
        return node.after(outcome)
    assert isinstance(outcome, int | tuple)
    return node.after(outcome)


def build_graph(
    process: Analysable[S], policies: Mapping[str, Policy], *, exact: bool
) -> StateGraph[S]:
    """The whole state graph (no entries)."""
    return Explorer(process, policies, exact=exact).build()
