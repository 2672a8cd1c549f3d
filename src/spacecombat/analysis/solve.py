"""Where the battle ends, and when: absorption in the state graph.

The chance states form an absorbing Markov chain whose absorbing states are the battle's ends.
We split the graph into strongly connected components (Tarjan) and push the probability mass
from the start through them in topological order. A component is a single state (most are; a
self-loop is a round in which nobody was hit) or a cycle of states (e.g. Duranium Armor
repairing what was damaged). Inside a component the expected number of visits solves
``x (I - Q) = m`` exactly (fractions) or in floating point, so rounds that repeat for ever are
accounted for exactly, never cut off.
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from fractions import Fraction
from typing import Generic, TypeVar

import numpy as np
from numpy.typing import NDArray

from spacecombat.analysis import budget
from spacecombat.analysis.budget import TooLarge
from spacecombat.analysis.graph import Edge, Entry, StateGraph, Target, Terminal, Weight

S = TypeVar("S", bound=Hashable)


def components(edges: Sequence[Sequence[Edge]]) -> list[list[int]]:
    """Strongly connected components of the chance states, sources first (topological)."""
    count = len(edges)
    order = [0] * count
    low = [0] * count
    seen = [False] * count
    on_stack = [False] * count
    stack: list[int] = []
    found: list[list[int]] = []
    counter = 0
    for root in range(count):
        if seen[root]:
            continue
        # each entry: a node, where its walk through its targets stands, and its targets
        # (listed once, when the node is first met: 24W-3)
        work: list[tuple[int, int, list[int]]] = [(root, 0, [])]
        while work:
            node, pos, targets = work.pop()
            if pos == 0:
                seen[node] = True
                order[node] = low[node] = counter
                counter += 1
                stack.append(node)
                on_stack[node] = True
                targets = [e.target for e in edges[node] if isinstance(e.target, int)]
            advanced = False
            while pos < len(targets):
                nxt = targets[pos]
                pos += 1
                if not seen[nxt]:
                    work.append((node, pos, targets))
                    work.append((nxt, 0, []))
                    advanced = True
                    break
                if on_stack[nxt]:
                    low[node] = min(low[node], order[nxt])
            if advanced:
                continue
            if low[node] == order[node]:
                component = []
                while True:
                    top = stack.pop()
                    on_stack[top] = False
                    component.append(top)
                    if top == node:
                        break
                found.append(component)
            if work:
                parent = work[-1][0]
                low[parent] = min(low[parent], low[node])
    found.reverse()  # Tarjan emits sinks first
    return found


class Absorption(Generic[S]):
    """Probability of each battle end, of each entry (a state left to another solver), and
    the mass that never ends (``residual``)."""

    def __init__(
        self,
        ends: dict[Terminal, Weight],
        residual: Weight,
        entries: dict[Entry[S], Weight] | None = None,
    ) -> None:
        self.ends = ends
        self.residual = residual
        self.entries: dict[Entry[S], Weight] = entries or {}


def absorb(graph: StateGraph[S], *, exact: bool) -> Absorption[S]:
    """Push the start's probability through the graph to the battle's ends."""
    zero: Weight = Fraction(0) if exact else 0.0
    ends: dict[Terminal, Weight] = {}
    entries: dict[Entry[S], Weight] = {}
    residual = zero
    start = graph.start
    assert start is not None
    if isinstance(start.target, Terminal):
        return Absorption({start.target: start.weight}, zero)
    if isinstance(start.target, Entry):
        return Absorption({}, zero, {start.target: start.weight})
    mass: list[Weight] = [zero] * len(graph.states)
    mass[start.target] = start.weight
    for component in components(graph.edges):
        inside = set(component)
        if len(component) == 1:
            (state,) = component
            if not mass[state]:
                continue
            loop = sum((e.weight for e in graph.edges[state] if e.target == state), zero)
            if loop == 1:
                residual += mass[state]  # a state that can never be left
                continue
            visits: dict[int, Weight] = {state: mass[state] / (1 - loop)}
        else:
            leaves = any(
                not isinstance(e.target, int) or e.target not in inside
                for state in component
                for e in graph.edges[state]
            )
            if not leaves:
                # A cycle of states with no way out (a battle that can never end): its mass is
                # reported as residual, never lost silently.
                residual += sum((mass[state] for state in component), zero)
                continue
            visits = _visits(graph, component, mass, exact)
        for state, expected in visits.items():
            for edge in graph.edges[state]:
                flow = expected * edge.weight
                if isinstance(edge.target, Terminal):
                    ends[edge.target] = ends.get(edge.target, zero) + flow
                elif isinstance(edge.target, Entry):
                    entries[edge.target] = entries.get(edge.target, zero) + flow
                elif edge.target not in inside:
                    mass[edge.target] += flow
    return Absorption(ends, residual, entries)


def _visits(
    graph: StateGraph[S], component: list[int], mass: list[Weight], exact: bool
) -> dict[int, Weight]:
    """Expected visits to each state of a cyclic component: ``x (I - Q) = m``."""
    where = {state: i for i, state in enumerate(component)}
    size = len(component)
    if exact and size > budget.FRACTION_COMPONENT:
        raise TooLarge(
            f"{size:,} battle states form a cycle (units repaired and damaged again), more than "
            f"the {budget.FRACTION_COMPONENT:,} the exact engine solves with exact fractions"
        )
    if exact:
        matrix: list[list[Fraction]] = [
            [Fraction(int(i == j)) for j in range(size)] for i in range(size)
        ]
        for state in component:
            for edge in graph.edges[state]:
                if isinstance(edge.target, int) and edge.target in where:
                    matrix[where[state]][where[edge.target]] -= Fraction(edge.weight)
        # Solve x M = m, i.e. M^T x^T = m^T, by Gaussian elimination over fractions.
        rows = [
            [matrix[j][i] for j in range(size)] + [Fraction(mass[component[i]])]
            for i in range(size)
        ]
        solution = _gauss(rows)
        return dict(zip(component, solution, strict=True))
    dense = np.eye(size)
    for state in component:
        for edge in graph.edges[state]:
            if isinstance(edge.target, int) and edge.target in where:
                dense[where[state], where[edge.target]] -= float(edge.weight)
    rhs = np.array([float(mass[s]) for s in component])
    solution_f = np.linalg.solve(dense.T, rhs)
    return {state: float(value) for state, value in zip(component, solution_f, strict=True)}


def _gauss(rows: list[list[Fraction]]) -> list[Fraction]:
    size = len(rows)
    for col in range(size):
        pivot = next(r for r in range(col, size) if rows[r][col] != 0)
        rows[col], rows[pivot] = rows[pivot], rows[col]
        lead = rows[col][col]
        rows[col] = [v / lead for v in rows[col]]
        for r in range(size):
            if r != col and rows[r][col] != 0:
                factor = rows[r][col]
                rows[r] = [a - factor * b for a, b in zip(rows[r], rows[col], strict=True)]
    return [rows[i][size] for i in range(size)]


#: the most sweeps over one round's states while mass circles within the round (a cycle of
#: states that begins no round); what is left after them is counted as unfinished
WITHIN_ROUND_SWEEPS = 100_000


def push_rounds(
    graph: StateGraph[S],
    *,
    until: int | None = None,
    tail: float = 1e-13,
    most: int | None = None,
) -> tuple[list[tuple[Terminal | Entry[S], int, float]], dict[int, dict[int, float]]]:
    """Push float mass forward one round at a time from the start (a chance state), through
    the rounds up to ``until`` (or until less than ``tail`` is left). Returns every exit to a
    battle end or an entry, with the rounds begun when it was reached and its mass, and the
    mass still in chance states, by the round in which it will be met. At most ``most``
    rounds are pushed (default ``budget.ROUNDS_PUSHED``)."""
    most = budget.ROUNDS_PUSHED if most is None else most
    start = graph.start
    assert start is not None
    assert isinstance(start.target, int)
    order = _within_round_order(graph)
    exits: list[tuple[Terminal | Entry[S], int, float]] = []
    frontier: dict[int, dict[int, float]] = {start.rounds: {start.target: float(start.weight)}}
    rounds = start.rounds
    place = {state: at for at, state in enumerate(order)}
    while frontier and rounds <= most and (until is None or rounds <= until):
        current = frontier.pop(rounds, {})
        sweeps = 0
        while current:
            # one sweep in the within-round order; mass sent back to a state already swept
            # (a cycle of states within a round: EC4X's ground combat, whose rounds begin no
            # combat round) waits in ``current`` for the next sweep, so none is lost
            for state in sorted(current, key=place.__getitem__) if sweeps else order:
                amount = current.pop(state, 0.0)
                if not amount:
                    continue
                for edge in graph.edges[state]:
                    flow = amount * float(edge.weight)
                    at = rounds + edge.rounds
                    if not isinstance(edge.target, int):
                        exits.append((edge.target, at, flow))
                    elif at == rounds:
                        current[edge.target] = current.get(edge.target, 0.0) + flow
                    else:
                        bucket = frontier.setdefault(at, {})
                        bucket[edge.target] = bucket.get(edge.target, 0.0) + flow
            sweeps += 1
            if current and (sweeps >= WITHIN_ROUND_SWEEPS or sum(current.values()) < tail * tail):
                # what still circles within the round is left unfinished (counted, not lost)
                stuck = frontier.setdefault(rounds, {})
                for state, amount in current.items():
                    stuck[state] = stuck.get(state, 0.0) + amount
                break
        rounds += 1
        if until is None and sum(sum(b.values()) for b in frontier.values()) < tail:
            break
    return exits, frontier


def rounds_distribution(
    graph: StateGraph[S], *, tail: float = 1e-13, most: int | None = None
) -> tuple[dict[int, float], float, dict[tuple[Entry[S], int], float]]:
    """P(the battle ends in round r), by pushing float mass round by round until less than
    ``tail`` is left. Returns that distribution, the mass still fighting, and the mass that
    reached each entry at the start of each round (``(entry, rounds begun)``)."""
    start = graph.start
    assert start is not None
    ended: dict[int, float] = {}
    entered: dict[tuple[Entry[S], int], float] = {}
    if isinstance(start.target, Terminal):
        return {start.rounds: 1.0}, 0.0, entered
    if isinstance(start.target, Entry):
        return {}, 0.0, {(start.target, start.rounds): 1.0}
    pushed = _push_rounds_arrays(graph, tail=tail, most=most)
    exits, frontier = pushed if pushed is not None else push_rounds(graph, tail=tail, most=most)
    for target, at, flow in exits:
        if isinstance(target, Terminal):
            ended[at] = ended.get(at, 0.0) + flow
        else:
            entered[(target, at)] = entered.get((target, at), 0.0) + flow
    left = sum(sum(b.values()) for b in frontier.values())
    return dict(sorted(ended.items())), left, entered


def _within_round_order(graph: StateGraph[S]) -> list[int]:
    """The chance states in an order where every edge that begins no round goes forward
    (such edges never form a cycle: every repeat of a state passes a round's start)."""
    within: list[list[Edge]] = [
        [e for e in edges if e.rounds == 0 and isinstance(e.target, int)] for edges in graph.edges
    ]
    return [state for component in components(within) for state in component]


def _push_rounds_arrays(
    graph: StateGraph[S], *, tail: float, most: int | None
) -> tuple[list[tuple[Terminal | Entry[S], int, float]], dict[int, dict[int, float]]] | None:
    """``push_rounds`` to the end, with arrays: each round moves the mass of every chance
    state at once, level by level of the edges that begin no round (a state's level is the
    longest path of such edges that reaches it, so its mass is whole when its level is
    pushed), then along every other edge at once. The same sums in another order (to about
    1e-16); the exits come summed by target and round. ``None`` when an edge leads to an
    entry (the rounds in product form read the entries' order: ``push_rounds`` serves them)
    or when states form a cycle within a round.
    A graph explored state by state (EC4X's) keeps mass in thousands of states for hundreds
    of rounds, where ``push_rounds`` visits each state in Python every round."""
    most = budget.ROUNDS_PUSHED if most is None else most
    start = graph.start
    assert start is not None
    assert isinstance(start.target, int)
    count = len(graph.states)
    level = [0] * count
    graph_edges = _through_cycles(graph)
    if graph_edges is None:
        return None
    order = _within_round_order(StateGraph(graph.states, graph_edges, start))
    place = [0] * count
    for at, state in enumerate(order):
        place[state] = at
    for state in order:
        for edge in graph_edges[state]:
            if edge.rounds == 0 and isinstance(edge.target, int):
                if place[edge.target] <= place[state]:
                    # a cycle of states within a round (ground combat rounds, which begin
                    # no combat round): ``push_rounds`` takes it as it always has
                    return None
                level[edge.target] = max(level[edge.target], level[state] + 1)
    within: dict[int, tuple[list[int], list[int], list[float]]] = {}
    later: dict[int, tuple[list[int], list[int], list[float]]] = {}
    ends: dict[int, tuple[list[int], list[int], list[float]]] = {}
    targets: dict[Terminal, int] = {}
    for state, edges in enumerate(graph_edges):
        for edge in edges:
            target = edge.target
            if isinstance(target, Entry):
                return None
            if isinstance(target, Terminal):
                column = targets.setdefault(target, len(targets))
                group = ends.setdefault(edge.rounds, ([], [], []))
            else:
                column = target
                if edge.rounds == 0:
                    group = within.setdefault(level[state], ([], [], []))
                else:
                    group = later.setdefault(edge.rounds, ([], [], []))
            group[0].append(state)
            group[1].append(column)
            group[2].append(float(edge.weight))

    def arrays(
        groups: dict[int, tuple[list[int], list[int], list[float]]],
    ) -> list[tuple[int, NDArray[np.intp], NDArray[np.intp], NDArray[np.float64]]]:
        return [
            (key, np.array(src, dtype=np.intp), np.array(dst, dtype=np.intp), np.array(w))
            for key, (src, dst, w) in sorted(groups.items())
        ]

    levels, crossing, ending = arrays(within), arrays(later), arrays(ends)
    by_target = list(targets)
    exits: list[tuple[Terminal | Entry[S], int, float]] = []
    frontier: dict[int, NDArray[np.float64]] = {start.rounds: np.zeros(count)}
    frontier[start.rounds][start.target] = float(start.weight)
    rounds = start.rounds
    while frontier and rounds <= most:
        current = frontier.pop(rounds, None)
        if current is not None:
            for _, src, dst, w in levels:
                current += _spread(dst, current[src] * w, count)
            for k, src, dst, w in crossing:
                moved = _spread(dst, current[src] * w, count)
                if rounds + k in frontier:
                    frontier[rounds + k] += moved
                else:
                    frontier[rounds + k] = moved
            for k, src, dst, w in ending:
                flows = _spread(dst, current[src] * w, len(by_target))
                for column in np.flatnonzero(flows).tolist():
                    exits.append((by_target[column], rounds + k, float(flows[column])))
        rounds += 1
        if sum(float(b.sum()) for b in frontier.values()) < tail:
            break
    left = {at: {int(i): float(b[i]) for i in np.flatnonzero(b)} for at, b in frontier.items()}
    return exits, left


#: states of one cycle of states within a round (EC4X's ground combat) that the array push
#: solves at once (a dense solve, cubic in it: 3,000 states ~1 s); beyond, ``push_rounds``
CYCLE_STATES = 3_000


def _through_cycles(graph: StateGraph[S]) -> list[list[Edge]] | None:
    """The graph's edges with every cycle of states within a round (edges that begin no
    round: EC4X's ground combat, 7.6.1) passed through at once: each state of such a cycle
    leads, with the chance that mass entering there leaves that way, to where the cycle's
    mass leaves it ((I - Q)^-1 R, Q the edges within the cycle, R the others). What leaves a
    cycle leaves it in the round it entered (nothing inside begins a round), so the rounds
    distribution is the same as sweeping the cycle until it is empty (to about 1e-15).
    None when a cycle is over ``CYCLE_STATES`` or never empties (``push_rounds`` then)."""
    within = [
        [e for e in edges if e.rounds == 0 and isinstance(e.target, int)] for edges in graph.edges
    ]
    found = list(graph.edges)
    for component in components(within):
        first = component[0]
        if len(component) == 1 and not any(e.target == first for e in within[first]):
            continue
        if len(component) > CYCLE_STATES:
            return None
        inside = {state: at for at, state in enumerate(component)}
        size = len(component)
        stay = np.zeros((size, size))
        columns: dict[tuple[Target, int], int] = {}
        leave: list[tuple[int, int, float]] = []
        for at, state in enumerate(component):
            for edge in graph.edges[state]:
                weight = float(edge.weight)
                if edge.rounds == 0 and isinstance(edge.target, int) and edge.target in inside:
                    stay[at, inside[edge.target]] += weight
                else:
                    column = columns.setdefault((edge.target, edge.rounds), len(columns))
                    leave.append((at, column, weight))
        exits = np.zeros((size, len(columns)))
        for at, column, weight in leave:
            exits[at, column] += weight
        try:
            through = np.linalg.solve(np.eye(size) - stay, exits)
        except np.linalg.LinAlgError:
            return None
        if not np.all(np.isfinite(through)):
            return None
        keys = list(columns)
        for at, state in enumerate(component):
            row = through[at]
            found[state] = [
                Edge(keys[c][0], float(row[c]), keys[c][1])
                for c in np.flatnonzero(row > 0).tolist()
            ]
    return found


def _spread(to: NDArray[np.intp], flows: NDArray[np.float64], size: int) -> NDArray[np.float64]:
    """``flows`` summed by where they go (``to``), over ``size`` places."""
    return np.asarray(np.bincount(to, weights=flows, minlength=size), dtype=np.float64)
