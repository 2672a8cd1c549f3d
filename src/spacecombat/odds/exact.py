"""The exact odds engine: every outcome of a battle with its probability.

Every part is bounded by the budgets of ``odds/budget.py`` and stops with ``TooLarge`` (a
``TooManyStates`` is one) before it would go over them; ``odds()`` then answers by Monte Carlo.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from spacecombat import rulesets
from spacecombat.core.decisions import Policy
from spacecombat.core.errors import ScenarioError
from spacecombat.core.limits import MAX_ROUNDS, shown
from spacecombat.core.rounds import PlayerRounds
from spacecombat.core.sides import SideState
from spacecombat.odds import budget, product
from spacecombat.odds.graph import NOT_IN_PRODUCT_FORM, Entry, Explorer, Terminal, Weight
from spacecombat.odds.report import OddsReport, summarise
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
    if form is not None:
        try:
            report = _with_product_form(battle, policies, form, limit)
            report.notices = list(battle.notices())
            return report
        except product.NotInProductForm:
            pass
    why = NOT_IN_PRODUCT_FORM
    if scenario.ruleset == "ec4x":
        why = (
            "an EC4X battle is explored state by state, every CER die and target choice a "
            "branch, and this one is large"
        )
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
    ends: dict[Terminal, Weight] = dict(absorbed.ends)
    if absorbed.entries:
        template = next(iter(absorbed.entries)).state
        sides = [form.round_start(e.state) for e in absorbed.entries]
        a_starts = [s[0] for s in sides if s is not None]
        d_starts = [s[1] for s in sides if s is not None]
        a_most = max(form.pool("attacker", u, template).max_hits for u in a_starts)
        d_most = max(form.pool("defender", u, template).max_hits for u in d_starts)
        attacker = product.build_chain(form, "attacker", a_starts, d_most, template)
        defender = product.build_chain(form, "defender", d_starts, a_most, template)
        a_index = {u: i for i, u in enumerate(attacker.units)}
        d_index = {u: i for i, u in enumerate(defender.units)}
        # Absorption uses the exact mass of each entry; the rounds distribution, the round in
        # which the forward pass met it.
        entries: dict[tuple[int, int], float] = {}
        for entry, total in absorbed.entries.items():
            pair = _pair(form, entry, a_index, d_index)
            entries[pair] = entries.get(pair, 0.0) + float(total)
        starts: dict[tuple[tuple[int, int], int], float] = {}
        for (entry, begun), weight in entered.items():
            pair = _pair(form, entry, a_index, d_index)
            starts[(pair, begun)] = starts.get((pair, begun), 0.0) + weight
        solution = product.solve(attacker, defender, entries, starts)
        for (i, j), weight in solution.ends.items():
            joined = form.rejoin(template, attacker.units[i], defender.units[j])
            target, _ = explorer.settle(joined)
            assert isinstance(target, Terminal), "a pair with a player out ends the battle"
            ends[target] = ends.get(target, 0.0) + weight
        for r, p in solution.rounds.items():
            by_round[r] = by_round.get(r, 0.0) + p
        still += solution.unfinished
    residual = max(0.0, 1.0 - sum(float(w) for w in ends.values()))
    return summarise(battle, ends, residual, dict(sorted(by_round.items())), still, method="exact")


def _pair(
    form: PlayerRounds[Any],
    entry: Entry[Any],
    a_index: dict[SideState, int],
    d_index: dict[SideState, int],
) -> tuple[int, int]:
    sides = form.round_start(entry.state)
    assert sides is not None
    return a_index[sides[0]], d_index[sides[1]]
