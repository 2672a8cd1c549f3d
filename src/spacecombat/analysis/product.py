"""Combat rounds in product form, solved with arrays.

When a ruleset says a battle's rounds are in product form (each player's dice depend only on
their own units, and each player's hits change only the other player's units), the exact
engine need not walk joint states one by one. For each player it indexes the states their
units can reach, with two tables from the rules code: the distribution of the hits they roll
(``H``) and the state they are left in after taking h hits (``T``). The joint chain over pairs
(i, j) then moves by ``(i, j) -> (T_A[i, h_D], T_D[j, h_A])``. With no repairs each player's
states are ordered (taking a hit always moves forward), so the joint chain is acyclic but for
the round in which nobody is hit, and it is solved row by row: inside a row (the attacker's
state fixed) a triangular system accounts exactly for rounds that repeat; between rows one
matrix product per row carries the mass on.

Before any array is allocated, ``plan`` estimates the bytes and the multiply-adds the solution
needs and refuses (``TooLarge``) beyond the budgets of ``analysis/budget.py``; chains are capped
while they are built. Kernels (one defender transition matrix per attacker state) are cached
only within a byte budget and rebuilt beyond it.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Mapping
from dataclasses import dataclass
from typing import Generic, Protocol, TypeVar

import numpy as np
from numpy.typing import NDArray

from spacecombat.analysis import budget, chain_cache
from spacecombat.analysis.budget import TooLarge, count_text, size_text
from spacecombat.core.pool import DicePool
from spacecombat.core.rounds import ANNOUNCERS, NOBODY, NotInProductForm

S = TypeVar("S")
U = TypeVar("U", bound=Hashable)


class ProductForm(Protocol[S, U]):
    """What a ruleset offers for rounds in product form (``U``: one player's units)."""

    def round_start(self, state: S) -> tuple[U, U] | None: ...

    def pool(self, player: str, units: U, template: S) -> DicePool: ...

    def alive(self, player: str, units: U, template: S) -> bool: ...

    def after_hits(self, player: str, units: U, hits: int, template: S) -> U: ...

    def after_hits_row(self, player: str, units: U, most: int, template: S) -> list[U]:
        """``after_hits`` for 1, 2, ..., ``most`` hits."""
        ...

    def rejoin(self, template: S, attacker: U, defender: U) -> S: ...


@dataclass
class Chain(Generic[U]):
    """One player's reachable units, in an order where taking hits only moves forward."""

    units: list[U]
    hits: NDArray[np.float64]  # hits[i, h]: chance that state i rolls h hits
    after: NDArray[np.int64]  # after[i, h]: state after taking h hits
    alive: NDArray[np.bool_]


def build_chain(
    form: ProductForm[S, U],
    player: str,
    starts: list[U],
    most_hits: int,
    template: S,
    *,
    most_states: int | None = None,
) -> Chain[U]:
    """Index ``player``'s states from ``starts`` under up to ``most_hits`` hits per round;
    ``TooLarge`` beyond ``most_states`` states (default ``budget.CHAIN_STATES``)."""
    most_states = budget.CHAIN_STATES if most_states is None else most_states
    found: dict[U, int] = {}
    order: list[U] = []
    table: dict[U, list[U]] = {}
    stack = list(starts)
    while stack:
        units = stack.pop()
        if units in found:
            continue
        if len(order) >= most_states:
            raise TooLarge(
                f"the {player}'s units can be left in more than {most_states:,} different ways "
                "during the combat rounds, more than the exact engine indexes"
            )
        found[units] = len(order)
        order.append(units)
        if form.alive(player, units, template):
            row = form.after_hits_row(player, units, most_hits, template)
            if units in set(row):
                raise NotInProductForm("a hit left a player's units unchanged")
            table[units] = row
            stack.extend(row)
    succ = [[found[n] for n in table.get(units, [])] for units in order]
    ranks = _topological(succ)
    ordered = [order[i] for i in ranks]
    where = {units: i for i, units in enumerate(ordered)}
    size = len(ordered)
    alive = np.array([form.alive(player, u, template) for u in ordered], dtype=bool)
    pools = [form.pool(player, u, template) for u in ordered]
    width = max([p.max_hits for p in pools] + [0]) + 1
    hits = np.zeros((size, width))
    after = np.zeros((size, most_hits + 1), dtype=np.int64)
    for i, (units, pool) in enumerate(zip(ordered, pools, strict=True)):
        after[i, :] = i
        if not alive[i]:
            continue
        if pool.max_hits == 0:
            raise NotInProductForm("a player with units left cannot hit")
        for h, chance in pool.float_distribution().items():
            hits[i, h] = chance
        after[i, 1:] = [where[n] for n in table[units]]
    return Chain(ordered, hits, after, alive)


def _topological(succ: list[list[int]]) -> list[int]:
    """Indices in an order where every edge goes forward; a cycle means not product form."""
    state = [0] * len(succ)  # 0 new, 1 on the path, 2 done
    post: list[int] = []
    for root in range(len(succ)):
        if state[root]:
            continue
        work = [(root, iter(succ[root]))]
        state[root] = 1
        while work:
            node, children = work[-1]
            for child in children:
                if state[child] == 1:
                    raise NotInProductForm("a player's units can return to an earlier state")
                if state[child] == 0:
                    state[child] = 1
                    work.append((child, iter(succ[child])))
                    break
            else:
                work.pop()
                state[node] = 2
                post.append(node)
    post.reverse()
    return post


def build_chains(
    form: ProductForm[S, U], a_starts: list[U], d_starts: list[U], template: S
) -> tuple[Chain[U], Chain[U]]:
    """Each player's chain from their starting units, under up to as many hits a round as the
    other player can roll. Inside a sweep (``chain_cache.sharing``) the per-player steps are
    remembered across battles."""
    form = chain_cache.wrap(form, template)
    a_most = max(form.pool("attacker", u, template).max_hits for u in a_starts)
    d_most = max(form.pool("defender", u, template).max_hits for u in d_starts)
    attacker = chain_cache.chain(
        form,
        "attacker",
        a_starts,
        d_most,
        lambda: build_chain(form, "attacker", a_starts, d_most, template),
    )
    defender = chain_cache.chain(
        form,
        "defender",
        d_starts,
        a_most,
        lambda: build_chain(form, "defender", d_starts, a_most, template),
    )
    return attacker, defender


@dataclass
class Solved:
    """What solving rounds in product form added to a report's accounts: the mass of their
    ends, the round each ends in, and what was still fighting when the forward pass
    stopped."""

    mass: float
    rounds: dict[int, float]
    unfinished: float


@dataclass
class ProductSolution(Generic[U]):
    """Where the rounds end: ``ends[i, j]``, the mass on pairs (i, j) with a player out of the
    fight; ``retreats[k][i, j]``, the mass on the pairs a round left after ``ANNOUNCERS[k]``
    announced a retreat at its start (the Retreat procedure carries it out, or not)."""

    attacker: Chain[U]
    defender: Chain[U]
    ends: NDArray[np.float64]
    retreats: dict[int, NDArray[np.float64]]
    rounds: dict[int, float]
    unfinished: float


@dataclass(frozen=True)
class Announcements:
    """Who announces a retreat at the start of a round, for each pair of states (i, j): one
    array for each round from round 1 (``NOBODY``, ``ATTACKER_ANNOUNCED``,
    ``DEFENDER_ANNOUNCED``; ``NOBODY`` where a player is out), the last one for every later
    round. No arrays: nobody ever announces one."""

    by_round: tuple[NDArray[np.int8], ...] = ()

    def at(self, round: int) -> NDArray[np.int8] | None:
        if not self.by_round:
            return None
        return self.by_round[min(round, len(self.by_round)) - 1]

    @property
    def last(self) -> int:
        """The first round from which the announcements are the same in every round."""
        return max(1, len(self.by_round))


#: a pair of states, who announced a retreat at the start of the round, and the round
Where = tuple[int, int, int, int]

#: up to this many (rows x columns x columns x hits), a round is pushed in one batched product
BATCHED = 2_000_000
#: ... and up to this many bytes for the batched arrays
BATCHED_BYTES = 32_000_000


@dataclass(frozen=True)
class Plan:
    """How the rounds will be solved, and what it will cost (estimated before allocating)."""

    batched: bool
    bytes: int  # arrays held at once, at most
    work: int  # multiply-adds, absorption and the round-by-round pass together
    pairs: tuple[int, int]  # states of the attacker, of the defender


def plan(
    attacker: Chain[U], defender: Chain[U], start_rounds: int = 1, announced_rounds: int = 0
) -> Plan:
    """The solution's memory and work, from the chains' sizes alone (``start_rounds``: how
    many different rounds the mass enters the rounds in; ``announced_rounds``: how many arrays
    of announcements there are, 0 if nobody may retreat)."""
    size_a, size_d = len(attacker.units), len(defender.units)
    width = _width(attacker, defender)
    live_a = int(attacker.alive.sum())
    tables = sum(c.hits.nbytes + c.after.nbytes + c.alive.nbytes for c in (attacker, defender))
    tables += announced_rounds * size_a * size_d  # the announcements, one byte a pair
    # mass by pair, and with retreats: where each announcer's rounds end, and the round's split
    pairs = 8 * size_a * size_d * (1 if not announced_rounds else 6)
    batched_ops = size_a * size_d * size_d * width
    batched_bytes = 8 * (
        size_a * size_d * size_d  # the kernels, stacked
        + size_a * width * size_a  # where each attacker row's hits send it
        + 2 * size_a * size_d * width  # the round's spread
        + size_a * size_d * size_a  # the spread sent on, before summing
    )
    kernel = 8 * size_d * size_d
    cache = min(budget.KERNEL_CACHE_BYTES, live_a * kernel)
    row = kernel * 2 + 8 * 3 * size_d * width  # a kernel, the triangle solved in, the spread
    if batched_ops <= BATCHED and batched_bytes <= BATCHED_BYTES:
        # a round costs about batched_ops; battles this small last tens of rounds
        work = batched_ops * (1 + 100)
        held = tables + pairs * (3 + start_rounds) + max(row, batched_bytes) + cache
        return Plan(True, held, work, (size_a, size_d))
    held = tables + pairs * (3 + start_rounds) + row + cache
    per_row = size_d * size_d * (width + 3)
    # the rounds before the announcements stop changing are pushed one by one, like the pass
    work = live_a * per_row * (1 + budget.ROUNDS_FACTOR + max(0, announced_rounds - 1))
    return Plan(False, held, work, (size_a, size_d))


def check(chosen: Plan) -> None:
    """``TooLarge`` if the plan is over the budgets of ``analysis/budget.py``, saying which."""
    size_a, size_d = chosen.pairs
    over = []
    if chosen.bytes > budget.ARRAY_BYTES:
        over.append((f"{size_text(chosen.bytes)} of memory", size_text(budget.ARRAY_BYTES)))
    if chosen.work > budget.WORK:
        over.append((f"{count_text(chosen.work)} operations", count_text(budget.WORK)))
    if over:
        raise TooLarge(
            f"the attacker's units can be left in {size_a:,} ways and the defender's in "
            f"{size_d:,}, so solving the combat rounds exactly would take about "
            f"{' and '.join(need for need, _ in over)}, more than the exact engine's "
            f"{'budget' if len(over) == 1 else 'budgets'} of {' and '.join(b for _, b in over)}"
        )


def solve(
    attacker: Chain[U],
    defender: Chain[U],
    entries: Mapping[Where, float],
    starts: Mapping[Where, float],
    *,
    announcements: Announcements | None = None,
    tail: float = 1e-13,
) -> ProductSolution[U]:
    """Absorption from the entry pairs (``entries``: mass by pair, who announced a retreat in
    its round and that round), and, forward round by round from ``starts`` (the same, by the
    round that begins there), the distribution of the round in which the battle ends.
    ``TooLarge`` (before anything large is allocated) when the estimate is over the budgets."""
    announcements = announcements or Announcements()
    begun = len({start for *_, start in starts}) or 1
    chosen = plan(attacker, defender, begun, len(announcements.by_round))
    check(chosen)
    kernels = Kernels(attacker, defender, budget.KERNEL_CACHE_BYTES)
    ends, retreats = _absorb(attacker, defender, entries, kernels, announcements)
    rounds, unfinished = _rounds(attacker, defender, starts, tail, kernels, chosen, announcements)
    return ProductSolution(attacker, defender, ends, retreats, rounds, unfinished)


def _width(attacker: Chain[U], defender: Chain[U]) -> int:
    """Columns of the defender's hits that matter (more hits than the attacker can take do
    nothing more)."""
    return min(int(defender.hits.shape[1]), int(attacker.after.shape[1]))


def _kernel(i: int, attacker: Chain[U], defender: Chain[U]) -> NDArray[np.float64]:
    """K[j, j2]: chance that the defender goes from j to j2 when the attacker (state i) rolls."""
    size = len(defender.units)
    rolls = attacker.hits[i]
    hits = np.flatnonzero(rolls[: defender.after.shape[1]])
    # Row j goes to column after[j, h] with the chance of h hits: one weighted count over the
    # cells (for a cell reached by several h, added in the order of h, as a loop would).
    cells = (np.arange(size)[:, None] * size + defender.after[:, hits]).ravel()
    weights = np.broadcast_to(rolls[hits], (size, len(hits))).ravel()
    counted = np.bincount(cells, weights, minlength=size * size)
    kernel = np.asarray(counted, dtype=np.float64).reshape(size, size)
    kernel[~defender.alive, :] = 0.0
    return kernel


class Kernels(Generic[U]):
    """The defender's kernel for each attacker state, kept while they fit in ``room`` bytes
    and rebuilt beyond (each kernel is size_d² floats)."""

    def __init__(self, attacker: Chain[U], defender: Chain[U], room: int) -> None:
        self.attacker = attacker
        self.defender = defender
        size = len(defender.units)
        self.most = room // max(1, 8 * size * size)
        self.kept: dict[int, NDArray[np.float64]] = {}

    def __getitem__(self, i: int) -> NDArray[np.float64]:
        kernel = self.kept.get(i)
        if kernel is None:
            kernel = _kernel(i, self.attacker, self.defender)
            if len(self.kept) < self.most:
                self.kept[i] = kernel
        return kernel


def _scatter(
    mass: NDArray[np.float64], targets: NDArray[np.int64], rows: NDArray[np.float64]
) -> None:
    """``mass[targets[k]] += rows[k]`` for every k, targets possibly repeated (the attacker
    left with nothing, whatever the number of hits beyond)."""
    if rows.size <= SCATTER_AT:
        np.add.at(mass, targets, rows)
        return
    # np.add.at is slow on large rows: sum the rows sent to the same target, then add once
    order = np.argsort(targets, kind="stable")
    sorted_targets = targets[order]
    first = np.flatnonzero(np.r_[True, sorted_targets[1:] != sorted_targets[:-1]])
    if len(first) == len(targets):
        mass[targets] += rows
    else:
        mass[sorted_targets[first]] += np.add.reduceat(rows[order], first, axis=0)


#: up to this many values, ``_scatter`` uses ``np.add.at`` (fastest on small arrays)
SCATTER_AT = 4_096


def _push(
    i: int,
    mass: NDArray[np.float64],
    out: NDArray[np.float64],
    kernel: NDArray[np.float64],
    attacker: Chain[U],
    defender: Chain[U],
    first: int,
    width: int,
) -> None:
    """One round from row ``i`` (``mass``: live defender states only): the defender's kernel
    for the attacker's dice, and the attacker moved by the defender's hits from ``first`` on."""
    spread = kernel.T @ (mass[:, None] * defender.hits[:, first:width])
    _scatter(out, attacker.after[i, first:width], spread.T)


def _absorb(
    attacker: Chain[U],
    defender: Chain[U],
    entries: Mapping[Where, float],
    kernels: Kernels[U],
    announcements: Announcements,
) -> tuple[NDArray[np.float64], dict[int, NDArray[np.float64]]]:
    size_a, size_d = len(attacker.units), len(defender.units)
    width = _width(attacker, defender)
    both = attacker.alive[:, None] & defender.alive[None, :]
    ends = np.zeros((size_a, size_d))
    retreats = {k: np.zeros((size_a, size_d)) for k in ANNOUNCERS} if announcements.by_round else {}
    last = announcements.last
    # Rounds before ``last``: the announcements change from round to round, so the mass is
    # pushed one round at a time (a retreat announced ends the combat at the round's end).
    mass = np.zeros((size_a, size_d))
    latest = max((min(c, last) for *_, c in entries), default=1)
    r = 0
    while r < last:
        r += 1
        split: dict[int, NDArray[np.float64]] = {k: np.zeros((size_a, size_d)) for k in retreats}
        for (i, j, k, c), weight in entries.items():
            if min(c, last) != r:
                continue
            if k == NOBODY:
                mass[i, j] += weight
            else:
                split[k][i, j] += weight
        mask = announcements.at(r)
        if mask is not None:
            for k, part in split.items():
                chosen = both & (mask == k)
                part += np.where(chosen, mass, 0.0)
                mass[chosen] = 0.0
        for k, part in split.items():
            for i in map(int, np.flatnonzero(part.any(axis=1))):
                _push(i, part[i], retreats[k], kernels[i], attacker, defender, 0, width)
        if r == last:
            break
        ends += np.where(both, 0.0, mass)
        mass = np.where(both, mass, 0.0)
        pushed = np.zeros((size_a, size_d))
        for i in map(int, np.flatnonzero(mass.any(axis=1))):
            _push(i, mass[i], pushed, kernels[i], attacker, defender, 0, width)
        mass = pushed
        if r >= latest and float(mass.sum()) < NEGLIGIBLE:
            # what is still fighting goes on under the last round's announcements: it
            # changes no figure by more than its own mass
            r = last - 1
    # From round ``last`` on the announcements are the same every round: row by row.
    mask = announcements.at(last)
    d_dead = ~defender.alive
    misses = np.where(defender.alive, defender.hits[:, 0], 0.0)
    diagonal = np.arange(size_d)
    for i in range(size_a):
        row = mass[i]
        if not row.any():
            continue
        if not attacker.alive[i]:
            ends[i] += row
            continue
        kernel = kernels[i]
        stays = misses if mask is None else np.where(mask[i] == NOBODY, misses, 0.0)
        # Inside the row the defender rolled no hit: x = row + x W, W = diag(stays) K (a pair
        # where a retreat is announced does not come round again). States are in topological
        # order, so I - W is upper triangular: x (I - W) = row, solved as (I - W)^T x = row on
        # the transposed view (no copy).
        within = stays[:, None] * kernel
        np.negative(within, out=within)
        within[diagonal, diagonal] += 1.0
        visits = _solve_lower(within.T, row)
        del within
        ends[i, d_dead] += visits[d_dead]
        live = np.where(defender.alive, visits, 0.0)
        if mask is not None:
            for k, out in retreats.items():
                announced = np.where(mask[i] == k, live, 0.0)
                if announced.any():
                    _push(i, announced, out, kernel, attacker, defender, 0, width)
            live = np.where(mask[i] == NOBODY, live, 0.0)
        if width > 1:
            _push(i, live, mass, kernel, attacker, defender, 1, width)
    return ends, retreats


#: mass still fighting below which the rounds before the announcements settle are no longer
#: pushed one by one ("retreat after round 100": a battle rarely lasts that long)
NEGLIGIBLE = 1e-18


#: up to this many states, a triangular system is solved by numpy's general solver (scipy's
#: triangular solver is faster on large systems but takes ~150 ms to import)
SMALL_SYSTEM = 96


def _solve_lower(lower: NDArray[np.float64], right: NDArray[np.float64]) -> NDArray[np.float64]:
    """x with ``lower @ x = right``, ``lower`` lower triangular."""
    if len(right) <= SMALL_SYSTEM:
        return np.asarray(np.linalg.solve(lower, right), dtype=np.float64)
    # imported here for start-up time: only large systems need it (~150 ms to import)
    from scipy.linalg import solve_triangular

    return solve_triangular(lower, right, lower=True, check_finite=False)


#: one round of the forward pass: the mass at the start of the next round, the mass that had
#: a player out (finished in the round before), the mass that announced a retreat (finished
#: at the end of this round), and the multiply-adds spent
RoundStep = Callable[
    [NDArray[np.float64], NDArray[np.int8] | None],
    tuple[NDArray[np.float64], float, float, int],
]


def _batched_round(
    attacker: Chain[U],
    defender: Chain[U],
    kernels: Kernels[U],
    width: int,
) -> RoundStep:
    """One round for all rows at once: the same sums as the row-by-row loop, as two batched
    matrix products (for chains small enough to hold every kernel in one array)."""
    size_a, size_d = len(attacker.units), len(defender.units)
    stack = np.zeros((size_a, size_d, size_d))
    onto = np.zeros((size_a, width, size_a))
    for i in map(int, np.flatnonzero(attacker.alive)):
        stack[i] = kernels[i]
        onto[i, np.arange(width), attacker.after[i, :width]] = 1.0
    turned = stack.transpose(0, 2, 1)
    rolls = defender.hits[:, :width]
    both = attacker.alive[:, None] & defender.alive[None, :]

    cost = size_a * size_d * size_d * width

    def step(
        mass: NDArray[np.float64], mask: NDArray[np.int8] | None
    ) -> tuple[NDArray[np.float64], float, float, int]:
        live = np.where(both, mass, 0.0)
        finished = float(mass.sum() - live.sum())
        retreating = 0.0
        if mask is not None:
            announced = live.sum()
            live = np.where(mask == NOBODY, live, 0.0)
            retreating = float(announced - live.sum())
        spread = np.matmul(turned, live[:, :, None] * rolls[None, :, :])  # (i, k, h)
        return np.matmul(spread, onto).sum(axis=0).T, finished, retreating, cost

    return step


def _rounds(
    attacker: Chain[U],
    defender: Chain[U],
    starts: Mapping[Where, float],
    tail: float,
    kernels: Kernels[U],
    chosen: Plan,
    announcements: Announcements,
) -> tuple[dict[int, float], float]:
    """P(the battle ends in round r), pushing the mass one round at a time (at most
    ``budget.ROUNDS_PUSHED`` rounds and ``budget.WORK`` multiply-adds: what is left then is
    reported as unfinished). A round that begins with a retreat announced is the last."""
    size_a, size_d = len(attacker.units), len(defender.units)
    by_start: dict[int, NDArray[np.float64]] = {}
    ended: dict[int, float] = {}
    for (i, j, k, start), weight in starts.items():
        if k == NOBODY:
            by_start.setdefault(start, np.zeros((size_a, size_d)))[i, j] += weight
        else:
            ended[start] = ended.get(start, 0.0) + weight
    width = _width(attacker, defender)
    current_round = min(by_start) if by_start else 1
    mass = by_start.pop(current_round, np.zeros((size_a, size_d)))
    if chosen.batched:
        step = _batched_round(attacker, defender, kernels, width)
    else:
        step = _row_by_row_round(attacker, defender, kernels, width, tail)
    last = current_round + budget.ROUNDS_PUSHED
    spent = 0
    while True:
        nxt, finished, retreating, cost = step(mass, announcements.at(current_round))
        spent += cost
        if finished:
            # Pairs reached this round are at the start of the next round; those with a player
            # out are counted when met, so the round in which they were reached is the one before.
            ended[current_round - 1] = ended.get(current_round - 1, 0.0) + finished
        if retreating:
            ended[current_round] = ended.get(current_round, 0.0) + retreating
        current_round += 1
        mass = nxt + by_start.pop(current_round, 0.0)
        left = float(mass.sum())
        if left < tail and not by_start:
            return {r: p for r, p in sorted(ended.items()) if p}, left
        if current_round >= last or spent > budget.WORK:
            left += sum(float(later.sum()) for later in by_start.values())
            return {r: p for r, p in sorted(ended.items()) if p}, left


def _row_by_row_round(
    attacker: Chain[U],
    defender: Chain[U],
    kernels: Kernels[U],
    width: int,
    tail: float,
) -> RoundStep:
    """One round, row by row (for chains too large to batch). Rows holding less than
    ``tail`` / rows are dropped; their mass is counted as finished, well below the report's
    precision."""
    size_a, size_d = len(attacker.units), len(defender.units)

    per_row = size_d * size_d * width

    def step(
        mass: NDArray[np.float64], mask: NDArray[np.int8] | None
    ) -> tuple[NDArray[np.float64], float, float, int]:
        nxt = np.zeros((size_a, size_d))
        row_mass = mass.sum(axis=1)
        finished = float(row_mass[row_mass <= tail / size_a].sum())
        retreating = 0.0
        rows = np.flatnonzero(row_mass > tail / size_a)
        for i in map(int, rows):
            row = mass[i]
            if not attacker.alive[i]:
                finished += float(row.sum())
                continue
            finished += float(row[~defender.alive].sum())
            live = np.where(defender.alive, row, 0.0)
            if mask is not None:
                staying = np.where(mask[i] == NOBODY, live, 0.0)
                retreating += float(live.sum() - staying.sum())
                live = staying
            _push(i, live, nxt, kernels[i], attacker, defender, 0, width)
        return nxt, finished, retreating, len(rows) * per_row

    return step
