"""An invasion of several planets in product form: the planets' ground combats are fought one
after another and none touches another planet's units, so each is solved alone and their ends
combined planet by planet (docs/architecture.md, "Rounds in product form")."""

from __future__ import annotations

import itertools
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

import numpy as np

from spacecombat.analysis import budget, product
from spacecombat.analysis.budget import TooLarge
from spacecombat.analysis.graph import Entry, Explorer, Terminal, Weight
from spacecombat.analysis.report import PLAYERS, Accounts, Fleet
from spacecombat.core.rounds import NOBODY, NotInProductForm, PlayerRounds
from spacecombat.core.sides import SideState
from spacecombat.rulesets import Battle


def fights(
    battle: Battle,
    form: PlayerRounds[Any],
    explorer: Explorer[Any],
    entries: Mapping[Entry[Any], Weight],
    entered: Mapping[tuple[Entry[Any], int], float],
    accounts: Accounts,
) -> product.Solved:
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
    return product.Solved(mass, by_round, max(0.0, unfinished))


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
    attacker, defender = product.build_chains(form, [pair[0]], [pair[1]], start)
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
