"""The odds of a battle whose combat rounds are in product form (docs/architecture.md, "Rounds
in product form"): the generic state graph up to the first round's dice, the rounds solved with
arrays (``product.py``), announced retreats as a mask on the joint chain, and the ends of the
combat accounted player by player. An invasion of several planets is handed to ``planets.py``.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Mapping
from typing import Any

import numpy as np
from numpy.typing import NDArray

from spacecombat.analysis import budget, chain_cache, planets, product
from spacecombat.analysis.budget import TooLarge
from spacecombat.analysis.graph import Entry, Explorer, Terminal, Weight
from spacecombat.analysis.report import Accounts, OddsReport, Parts, Split, is_space
from spacecombat.analysis.solve import absorb, rounds_distribution
from spacecombat.core.decisions import Policy
from spacecombat.core.outcome import stays_in_space
from spacecombat.core.rounds import NOBODY, NotInProductForm, PlayerRounds
from spacecombat.rulesets import Battle


def with_product_form(
    battle: Battle, policies: Mapping[str, Policy], form: PlayerRounds[Any], limit: int | None
) -> OddsReport:
    """The report, the rounds solved in product form (``NotInProductForm`` if they turn out
    not to be; ``TooLarge`` beyond a budget)."""
    return product_parts(battle, policies, form, limit).report(battle)


def product_parts(
    battle: Battle,
    policies: Mapping[str, Policy],
    form: PlayerRounds[Any],
    limit: int | None,
    split: Split | None = None,
    start: Any = None,
) -> Parts:
    """What the report adds up, the rounds solved in product form; ``split``: also the ends
    that hand over to a next stage, by what they hand over (``Parts.handed``). ``start``:
    the first state, if not the battle's own."""
    # Before the rounds (space cannon, anti-fighter barrage, bombardment) the graph is small,
    # but it is bounded like any other.
    explorer: Explorer[Any] = Explorer(
        battle,
        policies,
        exact=False,
        stop=lambda s: form.round_start(s) is not None,
        limit=limit,
        why="space cannon, anti-fighter barrage or bombardment before its combat rounds can "
        "end in very many ways",
        start=start,
    )
    graph = explorer.build()
    absorbed = absorb(graph, exact=False)
    by_round, still, entered = rounds_distribution(graph)
    parts = Parts(Accounts(0.0), split=split)
    ends = dict(absorbed.ends)
    ended = sum(float(w) for w in ends.values())
    if (
        split is not None
        and absorbed.entries
        and len(form.fights(next(iter(absorbed.entries)).state)) > 1
    ):
        raise NotInProductForm("a stage handing over is a space battle")
    if absorbed.entries and len(form.fights(next(iter(absorbed.entries)).state)) > 1:
        solved = planets.fights(battle, form, explorer, absorbed.entries, entered, parts.accounts)
    elif absorbed.entries:
        solved = _rounds(battle, form, explorer, absorbed.entries, entered, parts)
    if absorbed.entries:
        ended += solved.mass
        for r, p in solved.rounds.items():
            by_round[r] = by_round.get(r, 0.0) + p
        still += solved.unfinished
    parts.add_ends(battle, ends)
    parts.residual = max(0.0, 1.0 - ended)
    parts.by_round = dict(sorted(by_round.items()))
    parts.still = still
    return parts


def _rounds(
    battle: Battle,
    form: PlayerRounds[Any],
    explorer: Explorer[Any],
    entries: Mapping[Entry[Any], Weight],
    entered: Mapping[tuple[Entry[Any], int], float],
    parts: Parts,
) -> product.Solved:
    """Solve the combat rounds from the entries in product form, and add their ends to the
    accounts."""
    template = next(iter(entries)).state
    sides = [form.round_start(e.state) for e in entries]
    attacker, defender = product.build_chains(
        form,
        [s[0] for s in sides if s is not None],
        [s[1] for s in sides if s is not None],
        template,
    )
    a_index = {u: i for i, u in enumerate(attacker.units)}
    d_index = {u: i for i, u in enumerate(defender.units)}

    def where(entry: Entry[Any], round: int) -> product.Where:
        pair = form.round_start(entry.state)
        assert pair is not None
        announced = form.announced(entry.state)
        return a_index[pair[0]], d_index[pair[1]], announced, round

    # Absorption uses the exact mass of each entry and the round its state is in; the rounds
    # distribution, the round in which the forward pass met it.
    masses: dict[product.Where, float] = {}
    for entry, total in entries.items():
        key = where(entry, entry.state.round)
        masses[key] = masses.get(key, 0.0) + float(total)
    starts: dict[product.Where, float] = {}
    for (entry, begun), weight in entered.items():
        key = where(entry, begun)
        starts[key] = starts.get(key, 0.0) + weight
    if form.retreats:
        # the arrays' budgets, checked before the announcements are evaluated
        begun = len({start for *_, start in starts}) or 1
        product.check(product.plan(attacker, defender, begun, form.last_round))
    announcements = _announcements(form, template, attacker, defender)
    solution = product.solve(attacker, defender, masses, starts, announcements=announcements)
    mass = _account(battle, form, explorer, template, solution, parts)
    return product.Solved(mass, solution.rounds, solution.unfinished)


def _announcements(
    form: PlayerRounds[Any],
    template: Any,
    attacker: product.Chain[Any],
    defender: product.Chain[Any],
) -> product.Announcements:
    """Who announces a retreat at the start of each round, for every pair of states where both
    players fight: the battle's own procedure, run once for each pair of what the decision
    reads of each player's units (``retreat_key``), for each round up to the last one a rule
    looks at from which the stock policies may answer differently (``round_differs``: a
    "retreat after round 100" is asked in round 1, 100 and 101, not in every round)."""
    if not form.retreats:
        return product.Announcements()
    a_keys, a_reps = _keys(form, "attacker", attacker, template)
    d_keys, d_reps = _keys(form, "defender", defender, template)
    rounds = sum(1 for r in range(1, form.last_round + 1) if form.round_differs(r))
    asked = len(a_reps) * len(d_reps) * rounds
    if asked > budget.ANNOUNCEMENTS:
        raise TooLarge(
            f"whether to retreat would be decided {asked:,} times ({len(a_reps):,} x "
            f"{len(d_reps):,} pairs of fleets, in {rounds} rounds), more than the exact "
            f"engine's budget of {budget.ANNOUNCEMENTS:,}"
        )
    both = attacker.alive[:, None] & defender.alive[None, :]
    arrays: list[NDArray[np.int8]] = []
    for r in range(1, form.last_round + 1):
        if not form.round_differs(r):
            arrays.append(arrays[-1])  # answered as in the round before
            continue
        table = np.zeros((len(a_reps), len(d_reps)), dtype=np.int8)
        for x, i in enumerate(a_reps):
            for y, j in enumerate(d_reps):
                table[x, y] = form.announcement(attacker.units[i], defender.units[j], r, template)
        arrays.append(np.where(both, table[a_keys][:, d_keys], NOBODY).astype(np.int8))
    # The announcements of the last rounds may already be those of every later round.
    while len(arrays) > 1 and np.array_equal(arrays[-1], arrays[-2]):
        arrays.pop()
    if not any(a.any() for a in arrays):
        return product.Announcements()
    return product.Announcements(tuple(arrays))


def _keys(
    form: PlayerRounds[Any], player: str, chain: product.Chain[Any], template: Any
) -> tuple[NDArray[np.int64], list[int]]:
    """For each state of ``player``, the index of its retreat key among the live states' keys
    (0 for a state out of the fight: its announcements are never read), and one live state for
    each key."""
    index: dict[Hashable, int] = {}
    reps: list[int] = []
    keys = np.zeros(len(chain.units), dtype=np.int64)
    for i, units in enumerate(chain.units):
        if not chain.alive[i]:
            continue
        key = form.retreat_key(player, units, template)
        if key not in index:
            index[key] = len(reps)
            reps.append(i)
        keys[i] = index[key]
    return keys, reps or [0]


def _account(
    battle: Battle,
    form: PlayerRounds[Any],
    explorer: Explorer[Any],
    template: Any,
    solution: product.ProductSolution[Any],
    parts: Parts,
) -> float:
    """Add the ends of the rounds to the accounts, player by player, and return their mass.

    Once a round has put a player out, or a retreat announced at its start has been carried out,
    what the end of the combat does to one player's units (capacity, survivors, losses, what
    gets away) depends on that player's units alone, and the result on who is still in the
    fight (tests/odds/test_product_form.py checks this against the whole state graph). So the
    ends are grouped by who announced and who is still in the fight; a group's result comes
    from one of its pairs, run through the end of the combat, and each player's part from one
    pair per state of that player, not one per pair of states."""
    attacker, defender = solution.attacker, solution.defender
    accounts = parts.accounts
    terminals: dict[tuple[int, int, int], Terminal] = {}
    # inside a sweep, remembered across its battles (chain_cache.py)
    remembered = chain_cache.ends(form, template)

    def terminal(i: int, j: int, announced: int) -> Terminal:
        known = terminals.get((i, j, announced))
        if known is None:
            a_units, d_units = attacker.units[i], defender.units[j]
            target = remembered(
                (a_units, d_units, announced),
                lambda: explorer.settle(form.rejoin(template, a_units, d_units, announced))[0],
            )
            if not isinstance(target, Terminal):
                raise NotInProductForm(
                    "the end of the combat rolls dice (a retreat leaving a gravity rift)"
                )
            known = terminals[(i, j, announced)] = target
        return known

    def outcome(i: int, j: int, announced: int) -> Mapping[str, object]:
        return terminal(i, j, announced).outcome

    total = 0.0
    groups = [(NOBODY, solution.ends), *solution.retreats.items()]
    for announced, mass in groups:
        for a_in in (True, False):
            for d_in in (True, False):
                rows = attacker.alive == a_in
                columns = defender.alive == d_in
                part = np.where(rows[:, None] & columns[None, :], mass, 0.0)
                by_row, by_column = part.sum(axis=1), part.sum(axis=0)
                chance = float(by_row.sum())
                if chance <= 0.0:
                    continue
                total += chance
                rows_in = [int(i) for i in np.flatnonzero(by_row)]
                columns_in = [int(j) for j in np.flatnonzero(by_column)]
                first = outcome(rows_in[0], columns_in[0], announced)
                accounts.result(first, chance)
                # whether each player's state leaves ships in the space area (a space battle)
                a_stays = np.zeros(len(attacker.units))
                d_stays = np.zeros(len(defender.units))
                # Each pair run gives both players' parts: pair the rows and the columns up,
                # so that every state of each player is in one of them.
                for k in range(max(len(rows_in), len(columns_in))):
                    i, j = rows_in[k % len(rows_in)], columns_in[k % len(columns_in)]
                    end = outcome(i, j, announced)
                    if k < len(rows_in):
                        accounts.player(battle, end, "attacker", float(by_row[i]))
                        _planets(battle, accounts, end, "attacker", float(by_row[i]))
                        a_stays[i] = stays_in_space(battle, end, "attacker")
                    if k < len(columns_in):
                        accounts.player(battle, end, "defender", float(by_column[j]))
                        _planets(battle, accounts, end, "defender", float(by_column[j]))
                        d_stays[j] = stays_in_space(battle, end, "defender")
                if is_space(first):
                    _hold(accounts, part, a_stays, d_stays)
                    if parts.split is not None:
                        _hand_over(parts, part, a_stays, d_stays, terminal, announced)
    return total


def _planets(
    battle: Battle, accounts: Accounts, end: Mapping[str, object], player: str, chance: float
) -> None:
    """An invasion of several planets whose ground combats left one to fight in rounds: the
    player's ground forces left on each planet (they depend on its own units alone, like the
    rest of its part of the end)."""
    records = end.get("planets")
    if isinstance(records, list) and len(records) > 1:
        for record in records:
            accounts.planet_player(battle, record, player, chance)


def _hand_over(
    parts: Parts,
    part: NDArray[np.float64],
    a_stays: NDArray[np.float64],
    d_stays: NDArray[np.float64],
    terminal: Callable[[int, int, int], Terminal],
    announced: int,
) -> None:
    """The ends of a group where the attacker holds the space area, by what they hand over
    to the next stage: it depends on the attacker's state alone (its units left in the space
    area; the rest of the state is the template's), so each of the attacker's states hands
    over what one of its pairs does (the state-by-state check is
    tests/odds/test_tactical.py)."""
    split = parts.split
    assert split is not None
    held = part * (d_stays == 0)[None, :]
    by_row = held.sum(axis=1)
    columns = [int(j) for j in np.flatnonzero(held.sum(axis=0))]
    for i in np.flatnonzero((by_row > 0) & (a_stays > 0)):
        end = terminal(int(i), columns[0], announced)
        parts.hand(split(end), str(end.outcome.get("result")), float(by_row[i]))


def _hold(
    accounts: Accounts,
    part: NDArray[np.float64],
    a_stays: NDArray[np.float64],
    d_stays: NDArray[np.float64],
) -> None:
    """Who holds the space area over a group of ends (``part``: the chance of each pair of
    states), from whether each player's state leaves ships in it: a player's part of an end
    depends on that player's units alone (``_account``), so who holds it is the sum over the
    pairs where one player's state stays and the other's does not."""
    a_goes, d_goes = 1.0 - a_stays, 1.0 - d_stays
    accounts.hold(
        float(a_stays @ part @ d_goes),
        float(a_goes @ part @ d_stays),
        float(a_stays @ part @ d_stays + a_goes @ part @ d_goes),
    )
