"""The odds of a tactical action (``battle: tactical``; rulesets/tactical.py), stage by stage.

The space stage is solved alone (in product form when its rounds allow it), its ends where the
attacker holds the space area grouped by what they hand over to the invasion (the attacker's
units left in the space area, and what the combat used up); each invasion is solved alone from
what it is handed, and weighted by the chance of being handed it. So a tactical action's odds
are, by construction, the composition of its parts: for every fleet that can leave the space
combat, the chance of that fleet times the invasion's odds with it, summed.
tests/odds/test_tactical.py checks them against the whole action explored state by state.

The report (``TacticalAccounts``) leads with who holds the space area, then the chance to take
each planet and every planet; the action's result is the last combat's (the invasion's, if one
was fought, else the space combat's); survivors are each player's units in the space area at
the end of the space combat (or that retreated from it), and on each planet at the end; the
losses are those of both stages; the rounds are given for each stage.
"""

from __future__ import annotations

from collections.abc import Hashable
from fractions import Fraction

from spacecombat.analysis.graph import Terminal, Weight
from spacecombat.analysis.parts import solved_parts
from spacecombat.analysis.report import PLAYERS, OddsReport
from spacecombat.analysis.tactical_report import NOT_INVADED, TacticalAccounts, fleet
from spacecombat.rulesets.tactical import TacticalBattle


def tactical_odds(
    battle: TacticalBattle, *, fractions: bool = False, limit: int | None = None
) -> OddsReport:
    """The exact odds of a tactical action, stage by stage (the module's docstring)."""
    stages = battle.stages
    zero: Weight = Fraction(0) if fractions else 0.0
    one: Weight = Fraction(1) if fractions else 1.0
    accounts = TacticalAccounts(zero, stages.planets)
    if stages.space is None:
        handed: dict[Hashable, dict[str, Weight]] = {stages.hand_over(None): {"": one}}
        accounts.holds["attacker"] = one
        accounts.space_rounds = {0: 1.0}
        space_results: dict[str, Weight] = {"": one}
        still = 0.0
    else:

        def split(end: Terminal) -> Hashable:
            return stages.hand_over(end.key)  # the space battle's final state

        space = solved_parts(
            stages.space,
            fractions=fractions,
            limit=limit,
            split=split if stages.planets else None,
        )
        accounts.space = space.accounts
        assert space.accounts.holds is not None
        accounts.holds = dict(space.accounts.holds)
        accounts.space_rounds = dict(space.by_round)
        accounts.residual += space.residual
        still = space.still
        handed = space.handed
        space_results = dict(space.accounts.outcomes)
        for player in PLAYERS:
            accounts.losses[player] += space.accounts.losses.get(player, 0.0)
    # the ends that invade; the others end the action with the space combat's result, the
    # planets as they were
    invading = {key: by_result for key, by_result in handed.items() if stages.invades(key)}
    for by_result in invading.values():
        for result, chance in by_result.items():
            space_results[result] -= chance
    for result, chance in space_results.items():
        if chance and result:
            accounts.add(result, chance)
    not_invaded = sum(space_results.values(), zero)
    if not_invaded:
        accounts.ground_rounds[0] = float(not_invaded)
        for record in stages.untouched():
            fleets = {
                player: fleet(battle.planet_survivors({"planets": [record]}, player))
                for player in PLAYERS
            }
            accounts.planet(str(record["planet"]), NOT_INVADED, fleets, not_invaded)
    for key, by_result in invading.items():
        mass = sum(by_result.values(), zero)
        _invade(battle, accounts, key, mass, fractions=fractions, limit=limit)
    return accounts.report("exact", None, still)


def _invade(
    battle: TacticalBattle,
    accounts: TacticalAccounts,
    key: Hashable,
    mass: Weight,
    *,
    fractions: bool,
    limit: int | None,
) -> None:
    """Add the invasion handed ``key``, at the chance ``mass`` of being handed it."""
    invasion, first = battle.stages.invasion(key)
    part = solved_parts(invasion, fractions=fractions, limit=limit, start=first)
    solved = part.accounts
    weight = float(mass)
    accounts.add("invaded", mass)
    accounts.add("taken_all", mass * solved.taken_all)
    for result, chance in solved.outcomes.items():
        accounts.add(result, mass * chance)
    accounts.residual += mass * part.residual
    for name in accounts.planets:
        accounts.taken[name] += mass * solved.taken.get(name, accounts.zero)
        # one planet: its ground forces are the invasion's survivors
        one = len(accounts.planets) == 1
        fleets = solved.fleets if one else solved.planet_fleets.get(name, {})
        results = solved.planet_outcomes.get(name, {})
        seen = accounts.planet_results.setdefault(name, {})
        for result, chance in results.items():
            seen[result] = seen.get(result, accounts.zero) + mass * chance
        mine = accounts.planet_fleets.setdefault(name, {})
        for player in PLAYERS:
            kept = mine.setdefault(player, {})
            for units, chance in fleets.get(player, {}).items():
                kept[units] = kept.get(units, 0.0) + weight * chance
    for player in PLAYERS:
        accounts.losses[player] += weight * solved.losses.get(player, 0.0)
    for r, chance in part.by_round.items():
        accounts.ground_rounds[r] = accounts.ground_rounds.get(r, 0.0) + weight * chance
