"""The exact odds engine: every outcome of a battle with its probability.

Every part is bounded by the budgets of ``analysis/budget.py`` and stops with ``TooLarge`` (a
``TooManyStates`` is one) before it would go over them; ``odds()`` then answers by Monte Carlo.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from spacecombat import rulesets
from spacecombat.analysis import budget
from spacecombat.analysis.graph import NOT_IN_PRODUCT_FORM, Explorer, TooManyStates
from spacecombat.analysis.product_odds import with_product_form
from spacecombat.analysis.report import OddsReport, summarise
from spacecombat.analysis.solve import absorb, rounds_distribution
from spacecombat.analysis.states import state_after
from spacecombat.analysis.tactical import tactical_odds
from spacecombat.analysis.tactical_report import summarise_tactical
from spacecombat.core.decisions import Policy
from spacecombat.core.errors import ScenarioError
from spacecombat.core.limits import MAX_ROUNDS, shown
from spacecombat.core.rounds import NotInProductForm
from spacecombat.rulesets import is_scenario, parse_scenario
from spacecombat.rulesets.tactical import TacticalBattle
from spacecombat.scenario.schema import AnyScenario

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
    if scenario.ruleset == "ec4x":
        # a game turn's battle may pass 200 units a house (MAX_GAME_BATTLE_UNITS): the odds
        # engines take a battle scenario's limit only (docs/limits.md)
        # imported here for start-up time: only an EC4X battle loads EC4X's scenario
        from spacecombat.scenario.ec4x import Ec4xScenario, check_house_units

        if isinstance(scenario, Ec4xScenario):
            check_house_units(scenario)
    battle = rulesets.battle(scenario)
    # deciding with the stock policies alone: a ruleset's battle without the effects they
    # never play (TI4: docs/rulings.md 24B-1)
    for_stock = getattr(battle, "for_stock_policies", None)
    if for_stock is not None:
        battle = for_stock()
    if isinstance(battle, TacticalBattle):
        if rounds is not None and fractions:
            raise ScenarioError(
                "rounds",
                "the state after N rounds of a tactical action is given in floats only: ask "
                "without exact fractions",
            )
        if not product_form and not fractions:
            return _state_by_state(battle, limit, rounds)
        report = tactical_odds(battle, fractions=fractions, limit=limit)
        if rounds is not None:
            # the rounds of a tactical action count on from the space combat's into the
            # ground combat's (docs/rulings.md 22T-4): its whole state graph has them
            report.after_rounds = _state_by_state(battle, limit, rounds).after_rounds
        report.notices = list(battle.notices())
        return report
    if rounds is not None and getattr(battle, "alike_runs", None):
        # the state after N rounds names each unit: interchangeable units are kept apart
        battle.alike_runs = ()  # type: ignore[attr-defined]
    settled = sized_settled(battle, limit)
    size_folds = getattr(battle, "size_folds", None)
    if size_folds is not None and settled is not None:
        # the work of folded draws, bounded beside the settled states (EC4X's)
        size_folds(settled)
    limit = sized_limit(battle, limit)
    policies: dict[str, Policy] = battle.stock_policies()
    fast = product_form and not fractions and rounds is None
    form = battle.product_rounds() if fast else None
    why = battle.product_refusal() or NOT_IN_PRODUCT_FORM
    if form is not None:
        try:
            report = with_product_form(battle, policies, form, limit)
            report.notices = list(battle.notices())
            return report
        except NotInProductForm as exc:
            why = f"its rounds are not in product form: {exc}"
    if fractions:
        why = "exact fractions were asked for, which only the state-by-state engine gives"
    elif rounds is not None:
        why = f"the state after {rounds} round(s) was asked for, which only the state-by-state "
        why += "engine gives"
    # rolls that join the roll before are folded into it, but where the state after N rounds
    # is asked for (read from the graph's chance states as rounds begin)
    explorer: Explorer[Any] = Explorer(
        battle,
        policies,
        exact=fractions,
        limit=limit,
        why=why,
        settled=settled,
        joins=rounds is None,
    )
    try:
        graph = explorer.build()
    except TooManyStates as exc:
        # what multiplied the states, as the battle finds it in those explored (EC4X's)
        growth = getattr(battle, "growth", None)
        stopped = exc
        if growth is not None:
            why = f"{exc.why}; {growth(explorer.graph.states)}"
            stopped = TooManyStates(exc.limit, why, where=exc.where)
        scaled_settled = settled is not None and settled < budget.MOST_SETTLED
        # (a ruleset's own budgets sized from the settled states say so themselves: EC4X's
        # folds', ``Ec4xBattle.size_folds``)
        stopped.budgeted = (
            exc.budgeted or exc.limit == limit or (scaled_settled and exc.limit == settled)
        )
        raise stopped from None
    absorbed = absorb(graph, exact=fractions)
    by_round, still, _ = rounds_distribution(graph)
    report = summarise(battle, absorbed.ends, absorbed.residual, by_round, still, method="exact")
    if rounds is not None:
        report.after_rounds = state_after(battle, graph, rounds)
    report.notices = list(battle.notices())
    return report


def _state_by_state(
    battle: rulesets.Battle, limit: int | None, rounds: int | None = None
) -> OddsReport:
    """The odds of a battle over its whole state graph, as one process (a tactical action:
    the check of its stage-by-stage odds, and its state after ``rounds`` rounds)."""
    why = NOT_IN_PRODUCT_FORM
    if rounds is not None:
        why = f"the state after {rounds} round(s) was asked for, which only the state-by-state "
        why += "engine gives"
    explorer: Explorer[Any] = Explorer(
        battle, battle.stock_policies(), exact=False, limit=limit, why=why
    )
    graph = explorer.build()
    absorbed = absorb(graph, exact=False)
    by_round, still, _ = rounds_distribution(graph)
    assert isinstance(battle, TacticalBattle)
    report = summarise_tactical(
        battle, absorbed.ends, absorbed.residual, by_round, still, method="exact"
    )
    if rounds is not None:
        report.after_rounds = state_after(battle, graph, rounds)
    report.notices = list(battle.notices())
    return report


def sized_limit(battle: object, limit: int | None) -> int | None:
    """The chance states ``battle`` may explore under ``limit``, a budget sized for TI's
    states (``budget.CHANCE_STATES``): a battle whose chance states cost less to explore and
    solve says how many of its own one of TI's is worth (its ``chance_state_scale``, e.g.
    EC4X's, where each is one die)."""
    scale = getattr(battle, "chance_state_scale", 1)
    if limit is None or not isinstance(scale, int) or scale <= 1:
        return limit
    return limit * scale


def sized_settled(battle: object, limit: int | None) -> int | None:
    """The settled states ``battle`` may reach under ``limit`` (chance states in TI's units,
    ``budget.CHANCE_STATES`` by default): a ruleset's own cap (its ``settled_states``, EC4X's)
    is for the default budget and grows and shrinks with the budget asked for, so that a
    larger ``--budget`` reaches further (``None``: its cap as it is); ``None`` for a battle
    without one (``budget.GRAPH_SETTLED``). At most ``budget.MOST_SETTLED`` (memory)."""
    own = getattr(battle, "settled_states", None)
    if not isinstance(own, int) or limit is None:
        return own if isinstance(own, int) else None
    scaled = -(-own * limit // budget.CHANCE_STATES)
    return min(scaled, budget.MOST_SETTLED)


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
