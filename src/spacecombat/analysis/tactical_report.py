"""A tactical action's report (``battle: tactical``): what it adds up over the action's ends,
whole (Monte Carlo, the state-by-state engine) or stage by stage (``analysis/tactical.py``).

It leads with who holds the space area, then the chance to take each planet and every planet;
the action's result is the last combat's (the invasion's, if one was fought, else the space
combat's); survivors are each player's units in the space area at the end of the space combat
(or that retreated from it), and on each planet at the end; the losses are those of both
stages; the rounds are given for each stage.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from spacecombat.analysis.graph import Terminal, Weight
from spacecombat.analysis.report import (
    HOLDERS,
    PLAYERS,
    Accounts,
    Fleet,
    OddsReport,
    planet_entry,
    rounds_report,
    survivors_report,
)
from spacecombat.rulesets.tactical import TacticalBattle

#: a planet's result when no invasion is fought (the attacker does not hold the space area)
NOT_INVADED = "not_invaded"


@dataclass
class TacticalAccounts:
    """What a tactical action's report adds up over its ends."""

    zero: Weight
    planets: tuple[str, ...]
    #: the action's results (the last combat's), and its yes/no facts (``invaded``,
    #: ``taken_all``)
    results: dict[str, Weight] = field(default_factory=dict)
    holds: dict[str, Weight] = field(default_factory=dict)
    taken: dict[str, Weight] = field(default_factory=dict)
    planet_results: dict[str, dict[str, Weight]] = field(default_factory=dict)
    planet_fleets: dict[str, dict[str, dict[Fleet, float]]] = field(default_factory=dict)
    losses: dict[str, float] = field(default_factory=dict)
    #: the space stage's own accounts: its results, the survivors in space, its retreats
    space: Accounts | None = None
    space_rounds: dict[int, float] = field(default_factory=dict)
    ground_rounds: dict[int, float] = field(default_factory=dict)
    residual: Weight = 0.0

    def __post_init__(self) -> None:
        self.holds = dict.fromkeys(HOLDERS, self.zero)
        self.taken = dict.fromkeys(self.planets, self.zero)
        self.losses = dict.fromkeys(PLAYERS, 0.0)
        for name in ("invaded", "taken_all"):
            self.results[name] = self.zero
        if self.space is None:
            self.space = Accounts(self.zero)

    def add(self, name: str, chance: Weight) -> None:
        self.results[name] = self.results.get(name, self.zero) + chance

    def planet(self, name: str, result: str, fleets: Mapping[str, Fleet], chance: Weight) -> None:
        """One planet at some ends: their result, and each player's ground forces left."""
        seen = self.planet_results.setdefault(name, {})
        seen[result] = seen.get(result, self.zero) + chance
        mine = self.planet_fleets.setdefault(name, {})
        for player, units in fleets.items():
            kept = mine.setdefault(player, {})
            kept[units] = kept.get(units, 0.0) + float(chance)

    # --- one end, whole (the state-by-state engine, Monte Carlo) ---

    def end(self, battle: TacticalBattle, outcome: Mapping[str, object], chance: Weight) -> None:
        assert self.space is not None
        self.add(str(outcome.get("result")), chance)
        for name, value in outcome.items():
            if isinstance(value, bool):
                self.add(name, chance if value else self.zero)
        self.holds[str(outcome.get("holds"))] += chance
        records = outcome.get("planets")
        for record in records if isinstance(records, list) else ():
            name = str(record.get("planet"))
            if record.get("controller") == "attacker":
                self.taken[name] += chance
            fleets = {
                player: fleet(battle.planet_survivors(outcome, player, name)) for player in PLAYERS
            }
            self.planet(name, str(record.get("result")), fleets, chance)
        space = outcome.get("space")
        stages = battle.stages
        if isinstance(space, Mapping) and stages.space is not None:
            self.space.result(space, chance)
            for player in PLAYERS:
                self.space.player(stages.space, space, player, chance)
        for player in PLAYERS:
            self.losses[player] += float(chance) * battle.losses(outcome, player)
        for rounds, name in (
            (self.space_rounds, "space_rounds"),
            (self.ground_rounds, "ground_rounds"),
        ):
            r = int(str(outcome.get(name, 0)))
            rounds[r] = rounds.get(r, 0.0) + float(chance)

    # --- the report ---

    def report(
        self, method: str, rounds: Mapping[str, Any] | None = None, still: float = 0.0
    ) -> OddsReport:
        """The report; ``rounds``: the rounds of the whole action (state by state), else those
        of each stage."""
        assert self.space is not None
        results = dict(self.results)
        zero = self.zero
        if rounds is None:
            space, ground = (
                rounds_report(self.space_rounds, still),
                rounds_report(self.ground_rounds, 0.0),
            )
            rounds = {
                "expected": space["expected"] + ground["expected"],
                "space": space,
                "ground": ground,
            }
        return OddsReport(
            attacker_win=results.pop("attacker_win", zero),
            defender_win=results.pop("defender_win", zero),
            draw=results.pop("draw", zero),
            residual=self.residual,
            method=method,
            other=results,
            survivors={p: self.space.survivors(p) for p in PLAYERS},
            expected_losses={p: round(self.losses[p], 12) for p in PLAYERS},
            rounds=dict(rounds),
            retreats=self.space.retreat_report(),
            planets={name: self._planet_report(name) for name in self.planets},
            holds=self.holds,
            taken=self.taken,
        )

    def _planet_report(self, name: str) -> dict[str, Any]:
        fleets = self.planet_fleets.get(name, {})
        survivors = {player: survivors_report(fleets.get(player, {})) for player in PLAYERS}
        return planet_entry(self.taken[name], self.planet_results.get(name, {}), survivors)


def summarise_tactical(
    battle: TacticalBattle,
    ends: Mapping[Terminal, Weight],
    residual: Weight,
    by_round: Mapping[int, float],
    still: float,
    *,
    method: str,
    stages: Mapping[str, Mapping[int, float]] | None = None,
) -> OddsReport:
    """The report of a tactical action from its ends, whole (Monte Carlo; the state-by-state
    engine, whose rounds are those of the whole action: ``by_round``). ``stages``: the rounds
    of each stage (``space``, ``ground``) too, as Monte Carlo counts them."""
    zero: Weight = Fraction(0) if isinstance(residual, Fraction) else 0.0
    accounts = TacticalAccounts(zero, battle.stages.planets, residual=residual)
    for end, chance in ends.items():
        accounts.end(battle, end.outcome, chance)
    # (the ends' outcomes are one per end, whatever its rounds: the rounds come from the
    # battles played or the whole graph)
    rounds = rounds_report(by_round, still)
    if stages:
        rounds = {
            "expected": rounds["expected"],
            **{stage: rounds_report(stages.get(stage, {}), 0.0) for stage in ("space", "ground")},
        }
    return accounts.report(method, rounds, still)


def fleet(counts: Mapping[str, int]) -> Fleet:
    """A fleet's counts as the report keys them."""
    return tuple(sorted((unit, n) for unit, n in counts.items() if n))
