"""A battle solved exactly, before its report (``Parts``): what ``exact.py`` reports, and what
a tactical action's stages are solved into (``tactical.py``)."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from spacecombat import rulesets
from spacecombat.analysis.graph import NOT_IN_PRODUCT_FORM, Explorer, Weight
from spacecombat.analysis.product_odds import product_parts
from spacecombat.analysis.report import Accounts, Parts, Split
from spacecombat.analysis.solve import absorb, rounds_distribution
from spacecombat.core.decisions import Policy
from spacecombat.core.rounds import NotInProductForm


def solved_parts(
    battle: rulesets.Battle,
    *,
    fractions: bool = False,
    limit: int | None,
    split: Split | None = None,
    start: Any = None,
) -> Parts:
    """A battle solved exactly, before its report (``Parts``), from ``start`` (default: its
    own first state): in product form when the rules allow it, else state by state; with
    ``split``, its ends that hand over to a tactical action's next stage apart."""
    policies: dict[str, Policy] = battle.stock_policies()
    form = battle.product_rounds() if not fractions else None
    why = battle.product_refusal() or NOT_IN_PRODUCT_FORM
    if form is not None:
        try:
            return product_parts(battle, policies, form, limit, split, start)
        except NotInProductForm as exc:
            why = f"its rounds are not in product form: {exc}"
    if fractions:
        why = "exact fractions were asked for, which only the state-by-state engine gives"
    explorer: Explorer[Any] = Explorer(
        battle, policies, exact=fractions, limit=limit, why=why, start=start
    )
    graph = explorer.build()
    absorbed = absorb(graph, exact=fractions)
    by_round, still, _ = rounds_distribution(graph)
    zero: Weight = Fraction(0) if fractions else 0.0
    parts = Parts(Accounts(zero), split=split, residual=absorbed.residual)
    parts.by_round, parts.still = dict(by_round), still
    parts.add_ends(battle, absorbed.ends)
    return parts
