"""The exact odds engine: every outcome of a battle with its probability."""

from __future__ import annotations

from collections.abc import Mapping
from fractions import Fraction
from typing import Any

from spacecombat.core.decisions import Policy
from spacecombat.odds.graph import Terminal, Weight, build_graph
from spacecombat.odds.report import OddsReport, summarise
from spacecombat.odds.solve import absorb, rounds_distribution
from spacecombat.rulesets import ti4
from spacecombat.rulesets.ti4.battle import Ti4Battle
from spacecombat.scenario.schema import Scenario, parse_scenario


def exact_odds(
    scenario: Scenario | Mapping[str, Any],
    *,
    fractions: bool = False,
    rounds: int | None = None,
) -> OddsReport:
    """The exact odds of a scenario's battle, decisions taken by the scenario's stock policies.

    ``fractions``: compute with exact fractions (slower) instead of floats. ``rounds``: also
    report the distribution of the battle's state after that many rounds.
    """
    if not isinstance(scenario, Scenario):
        scenario = parse_scenario(scenario)
    battle = ti4.battle(scenario)
    policies: dict[str, Policy] = dict(ti4.stock_policies(battle.setup))
    graph = build_graph(battle, policies, exact=fractions)
    absorbed = absorb(graph, exact=fractions)
    by_round, still = rounds_distribution(graph)
    ends: dict[Terminal, Weight] = absorbed.ends
    report = summarise(battle, ends, absorbed.residual, by_round, still, method="exact")
    if rounds is not None:
        report.after_rounds = _after(battle, graph, rounds)
    return report


def _after(battle: Ti4Battle, graph: Any, rounds: int) -> dict[str, Any]:
    from spacecombat.odds.states import state_after

    return state_after(battle, graph, rounds)


__all__ = ["Fraction", "exact_odds"]
