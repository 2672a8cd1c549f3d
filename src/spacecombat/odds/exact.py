"""The exact odds engine: every outcome of a battle with its probability.

Every part is bounded by the budgets of ``odds/budget.py`` and stops with ``TooLarge`` (a
``TooManyStates`` is one) before it would go over them; ``odds()`` then answers by Monte Carlo.
"""

from __future__ import annotations

import itertools
from collections.abc import Hashable, Mapping
from dataclasses import dataclass
from typing import Any

import numpy as np
from numpy.typing import NDArray

from spacecombat import rulesets
from spacecombat.core.decisions import Policy
from spacecombat.core.errors import ScenarioError
from spacecombat.core.limits import MAX_ROUNDS, shown
from spacecombat.core.rounds import NOBODY, NotInProductForm, PlayerRounds
from spacecombat.core.sides import SideState
from spacecombat.odds import budget, product
from spacecombat.odds.budget import TooLarge
from spacecombat.odds.graph import NOT_IN_PRODUCT_FORM, Entry, Explorer, Terminal, Weight
from spacecombat.odds.report import PLAYERS, Accounts, Fleet, OddsReport, summarise
from spacecombat.odds.solve import absorb, rounds_distribution
from spacecombat.odds.states import state_after
from spacecombat.rulesets import Battle
from spacecombat.scenario.schema import AnyScenario, is_scenario, parse_scenario

#: chance states the generic graph may explore by default (``budget.CHANCE_STATES``)
STATE_LIMIT = budget.CHANCE_STATES


def exact_odds(
    scenario: AnyScenario | Mapping[str, Any],
    *,
    fractions: bool = False,
    rounds: int | None = None,
    product_form: bool = True,
    limit: int | None = STATE_LIMIT,
) -> OddsReport:
    """The exact odds of a scenario's battle, decisions taken by the scenario's stock policies.

    ``fractions``: exact fractions (slower) instead of floats. ``rounds``: also report the
    distribution of the battle's state after that many rounds. ``product_form``: solve combat
    rounds in product form with arrays when the rules allow it (floats only). ``limit``: the
    most chance states the generic graph may have (``TooManyStates`` beyond; ``None``: no
    limit).
    """
    check_rounds(rounds)
    if not is_scenario(scenario):
        scenario = parse_scenario(scenario)
    battle = rulesets.battle(scenario)
    policies: dict[str, Policy] = battle.stock_policies()
    fast = product_form and not fractions and rounds is None
    form = battle.product_rounds() if fast else None
    why = battle.product_refusal() or NOT_IN_PRODUCT_FORM
    if form is not None:
        try:
            report = _with_product_form(battle, policies, form, limit)
            report.notices = list(battle.notices())
            return report
        except NotInProductForm as exc:
            why = f"its rounds are not in product form: {exc}"
    if fractions:
        why = "exact fractions were asked for, which only the state-by-state engine gives"
    elif rounds is not None:
        why = f"the state after {rounds} round(s) was asked for, which only the state-by-state "
        why += "engine gives"
    explorer: Explorer[Any] = Explorer(battle, policies, exact=fractions, limit=limit, why=why)
    graph = explorer.build()
    absorbed = absorb(graph, exact=fractions)
    by_round, still, _ = rounds_distribution(graph)
    report = summarise(battle, absorbed.ends, absorbed.residual, by_round, still, method="exact")
    if rounds is not None:
        report.after_rounds = state_after(battle, graph, rounds)
    report.notices = list(battle.notices())
    return report


def check_rounds(rounds: object) -> None:
    """``rounds`` (the state after that many rounds) must be a whole number from 0 to
    ``MAX_ROUNDS``, or ``None``; ``ScenarioError`` otherwise (for library callers: the command
    line checks its option itself)."""
    if rounds is None:
        return
    if isinstance(rounds, bool) or not isinstance(rounds, int) or not 0 <= rounds <= MAX_ROUNDS:
        raise ScenarioError(
            "rounds", f"must be a whole number from 0 to {MAX_ROUNDS} (got {shown(rounds)})"
        )


def _with_product_form(
    battle: Battle, policies: Mapping[str, Policy], form: PlayerRounds[Any], limit: int | None
) -> OddsReport:
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
    )
    graph = explorer.build()
    absorbed = absorb(graph, exact=False)
    by_round, still, entered = rounds_distribution(graph)
    accounts = Accounts(0.0)
    ends = dict(absorbed.ends)
    ended = sum(float(w) for w in ends.values())
    if absorbed.entries and len(form.fights(next(iter(absorbed.entries)).state)) > 1:
        solved = _fights(battle, form, explorer, absorbed.entries, entered, accounts)
    elif absorbed.entries:
        solved = _rounds(battle, form, explorer, absorbed.entries, entered, accounts)
    if absorbed.entries:
        ended += solved.mass
        for r, p in solved.rounds.items():
            by_round[r] = by_round.get(r, 0.0) + p
        still += solved.unfinished
    residual = max(0.0, 1.0 - ended)
    return summarise(
        battle,
        ends,
        residual,
        dict(sorted(by_round.items())),
        still,
        method="exact",
        accounts=accounts,
    )


@dataclass
class _Solved:
    """What the rounds in product form added to the accounts: the mass of their ends, the
    round each ends in, and what was still fighting when the forward pass stopped."""

    mass: float
    rounds: dict[int, float]
    unfinished: float


def _rounds(
    battle: Battle,
    form: PlayerRounds[Any],
    explorer: Explorer[Any],
    entries: Mapping[Entry[Any], Weight],
    entered: Mapping[tuple[Entry[Any], int], float],
    accounts: Accounts,
) -> _Solved:
    """Solve the combat rounds from the entries in product form, and add their ends to the
    accounts."""
    template = next(iter(entries)).state
    sides = [form.round_start(e.state) for e in entries]
    attacker, defender = _chains(
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
    if form.announcing(template, attacker.units[0], defender.units[0], 1) is not None:
        # the arrays' budgets, checked before the announcements are evaluated
        begun = len({start for *_, start in starts}) or 1
        product.check(product.plan(attacker, defender, begun, form.last_round))
    announcements = _announcements(form, template, attacker, defender)
    solution = product.solve(attacker, defender, masses, starts, announcements=announcements)
    mass = _account(battle, form, explorer, template, solution, accounts)
    return _Solved(mass, solution.rounds, solution.unfinished)


def _fights(
    battle: Battle,
    form: PlayerRounds[Any],
    explorer: Explorer[Any],
    entries: Mapping[Entry[Any], Weight],
    entered: Mapping[tuple[Entry[Any], int], float],
    accounts: Accounts,
) -> _Solved:
    """Fights one after another (an invasion's planets), none touching another's units: from
    each entry, each fight is solved alone in product form; their ends are independent given
    the entry. The rounds are those of every fight together: the sum of independent round
    counts. The ends are run through what follows the last fight (establishing control) by
    ``_invasion_ends``."""
    mass = unfinished = 0.0
    by_round: dict[int, float] = {}
    solved: dict[Any, _Fight] = {}
    begun: dict[Entry[Any], dict[int, float]] = {}
    for (entry, start), share in entered.items():
        begun.setdefault(entry, {})[start] = share
    for entry, weight in entries.items():
        fights = []
        for start in form.fights(entry.state):
            if start not in solved:
                solved[start] = _fight(form, start)
            fights.append(solved[start])
        mass += _invasion_ends(battle, form, explorer, fights, float(weight), accounts)
        # Rounds: the first fight's first round was begun on the way to the entry.
        total = {0: 1.0}
        for fight in fights:
            total = _convolve(total, fight.rounds)
        for start, share in begun.get(entry, {}).items():
            for r, p in total.items():
                by_round[start - 1 + r] = by_round.get(start - 1 + r, 0.0) + share * p
        unfinished += float(weight) * (1.0 - sum(total.values()))
    return _Solved(mass, by_round, max(0.0, unfinished))


def _invasion_ends(
    battle: Battle,
    form: PlayerRounds[Any],
    explorer: Explorer[Any],
    fights: list[_Fight],
    weight: float,
    accounts: Accounts,
) -> float:
    """Add to the accounts the ends of independent fights from one entry (of mass
    ``weight``), and return their mass.

    Every end is a combination of one end of each fight, run through establishing control. What
    the report needs of it decomposes by planet (tests/odds/test_product_form_retreats_and_
    planets.py checks this against the whole state graph): the result depends on who is left
    on each planet, so each combination of who is left gets its result from one combination
    run; a player's survivors are the sum of what is left on each planet, and the resources
    they lose a sum over the planets, so each fight's ends are run once, the other fights at
    their most likely ends (the base), and a player's fleets are the convolution of the
    planets' fleets."""
    outcomes: dict[tuple[int, ...], Mapping[str, object]] = {}

    def run(choice: tuple[int, ...]) -> Mapping[str, object]:
        known = outcomes.get(choice)
        if known is None:
            joined = form.combine(
                [(f.start, *f.ends[k][:2]) for f, k in zip(fights, choice, strict=True)]
            )
            target, _ = explorer.settle(joined)
            if not isinstance(target, Terminal):
                raise NotInProductForm("the ground combats' ends did not end the invasion")
            known = outcomes[choice] = target.outcome
        return known

    # Who is left in each fight: (attacker, defender) -> its ends
    classes: list[dict[tuple[bool, bool], list[int]]] = []
    for fight in fights:
        grouped: dict[tuple[bool, bool], list[int]] = {}
        for k, (a_units, d_units, _) in enumerate(fight.ends):
            left = (
                form.alive("attacker", a_units, fight.start),
                form.alive("defender", d_units, fight.start),
            )
            grouped.setdefault(left, []).append(k)
        classes.append(grouped)
    count = 1
    for grouped in classes:
        count *= len(grouped)
    if count > budget.COMBINATIONS:
        raise TooLarge(
            f"the planets' ground combats can end in {count:,} combinations of who is left on "
            "each, more than the exact engine runs through establishing control "
            f"({budget.COMBINATIONS:,})"
        )
    mass = 0.0
    for combination in itertools.product(*(c.values() for c in classes)):
        chance = weight
        for fight, ends in zip(fights, combination, strict=True):
            chance *= sum(fight.ends[k][2] for k in ends)
        accounts.result(run(tuple(ends[0] for ends in combination)), chance)
        mass += chance
    base = tuple(_most_likely(f) for f in fights)
    at_base = run(base)
    records = at_base.get("planets")
    assert isinstance(records, list)
    fought = {form.arena(f.start) for f in fights}
    # Planets nobody fought over are as at the base in every end.
    fleets: dict[str, dict[Fleet, float]] = {}
    expected: dict[str, float] = {}
    for player in PLAYERS:
        fleets[player] = {(): 1.0}
        expected[player] = battle.losses(at_base, player)
    for index, record in enumerate(records):
        if index in fought:
            continue
        accounts.planet(battle, record, weight)
        for player in PLAYERS:
            fleets[player] = _convolve_fleets(
                fleets[player], {_planet_fleet(battle, record, player): 1.0}
            )
    for position, fight in enumerate(fights):
        where = form.arena(fight.start)
        assert isinstance(where, int)
        here: dict[str, dict[Fleet, float]] = {player: {} for player in PLAYERS}
        for k, (_, _, chance) in enumerate(fight.ends):
            outcome = run((*base[:position], k, *base[position + 1 :]))
            planets = outcome.get("planets")
            assert isinstance(planets, list)
            accounts.planet(battle, planets[where], weight * chance)
            for player in PLAYERS:
                units = _planet_fleet(battle, planets[where], player)
                here[player][units] = here[player].get(units, 0.0) + chance
                lost = battle.losses(outcome, player) - battle.losses(at_base, player)
                expected[player] += chance * lost
        for player in PLAYERS:
            fleets[player] = _convolve_fleets(fleets[player], here[player])
    for player in PLAYERS:
        for units, chance in fleets[player].items():
            accounts.fleet(player, units, weight * chance)
        accounts.loss(player, weight * expected[player])
    return mass


def _most_likely(fight: _Fight) -> int:
    chances = [chance for _, _, chance in fight.ends]
    return chances.index(max(chances))


def _planet_fleet(battle: Battle, record: Mapping[str, object], player: str) -> Fleet:
    """What ``battle.survivors`` counts of ``player``'s units on one planet."""
    return tuple(
        sorted(battle.survivors({player: {"planets": [record.get(player)]}}, player).items())
    )


def _convolve_fleets(
    first: Mapping[Fleet, float], second: Mapping[Fleet, float]
) -> dict[Fleet, float]:
    """The fleets of two independent parts together, with their chances."""
    out: dict[Fleet, float] = {}
    for units, p in first.items():
        for more, q in second.items():
            counts = dict(units)
            for unit, n in more:
                counts[unit] = counts.get(unit, 0) + n
            together = tuple(sorted(counts.items()))
            out[together] = out.get(together, 0.0) + p * q
    return out


@dataclass
class _Fight:
    """One fight solved alone: its start, its ends (each player's units, and the chance) and
    the distribution of its number of rounds."""

    start: Any
    ends: list[tuple[SideState, SideState, float]]
    rounds: dict[int, float]


def _fight(form: PlayerRounds[Any], start: Any) -> _Fight:
    pair = form.round_start(start)
    if pair is None:
        raise NotInProductForm("a fight did not start at its dice")
    attacker, defender = _chains(form, [pair[0]], [pair[1]], start)
    first = (attacker.units.index(pair[0]), defender.units.index(pair[1]), NOBODY, 1)
    solution = product.solve(attacker, defender, {first: 1.0}, {first: 1.0})
    ends = [
        (attacker.units[int(i)], defender.units[int(j)], float(solution.ends[i, j]))
        for i, j in zip(*np.nonzero(solution.ends), strict=True)
    ]
    return _Fight(start, ends, solution.rounds)


def _convolve(first: Mapping[int, float], second: Mapping[int, float]) -> dict[int, float]:
    out: dict[int, float] = {}
    for r, p in first.items():
        for s, q in second.items():
            out[r + s] = out.get(r + s, 0.0) + p * q
    return out


def _chains(
    form: PlayerRounds[Any], a_starts: list[SideState], d_starts: list[SideState], template: Any
) -> tuple[product.Chain[SideState], product.Chain[SideState]]:
    """Each player's chain from their starting units, under up to as many hits a round as the
    other player can roll."""
    a_most = max(form.pool("attacker", u, template).max_hits for u in a_starts)
    d_most = max(form.pool("defender", u, template).max_hits for u in d_starts)
    attacker = product.build_chain(form, "attacker", a_starts, d_most, template)
    defender = product.build_chain(form, "defender", d_starts, a_most, template)
    return attacker, defender


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
    if form.announcing(template, attacker.units[0], defender.units[0], 1) is None:
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
    accounts: Accounts,
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
    outcomes: dict[tuple[int, int, int], Mapping[str, object]] = {}

    def outcome(i: int, j: int, announced: int) -> Mapping[str, object]:
        known = outcomes.get((i, j, announced))
        if known is None:
            joined = form.rejoin(template, attacker.units[i], defender.units[j], announced)
            target, _ = explorer.settle(joined)
            if not isinstance(target, Terminal):
                raise NotInProductForm(
                    "the end of the combat rolls dice (a retreat leaving a gravity rift)"
                )
            known = outcomes[(i, j, announced)] = target.outcome
        return known

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
                accounts.result(outcome(rows_in[0], columns_in[0], announced), chance)
                # Each pair run gives both players' parts: pair the rows and the columns up,
                # so that every state of each player is in one of them.
                for k in range(max(len(rows_in), len(columns_in))):
                    i, j = rows_in[k % len(rows_in)], columns_in[k % len(columns_in)]
                    end = outcome(i, j, announced)
                    if k < len(rows_in):
                        accounts.player(battle, end, "attacker", float(by_row[i]))
                    if k < len(columns_in):
                        accounts.player(battle, end, "defender", float(by_column[j]))
    return total
