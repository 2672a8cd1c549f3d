"""``spacecombat.odds(scenario)``: the odds of a battle, exactly when possible."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from spacecombat.odds.exact import STATE_LIMIT, exact_odds
from spacecombat.odds.graph import TooManyStates
from spacecombat.odds.montecarlo import monte_carlo
from spacecombat.odds.report import OddsReport
from spacecombat.scenario.schema import Scenario


def odds(
    scenario: Scenario | Mapping[str, Any],
    *,
    method: str = "exact",
    trials: int = 20_000,
    seed: int = 0,
    rounds: int | None = None,
    fractions: bool = False,
    workers: int | None = None,
    progress: Callable[[int, int], None] | None = None,
    fallback: bool = True,
    limit: int | None = STATE_LIMIT,
) -> OddsReport:
    """The odds of a scenario's battle.

    ``method="exact"`` (default) carries probability through every battle state, decisions
    taken by the scenario's policies; ``method="montecarlo"`` plays ``trials`` battles with the
    resolver (seeded by ``seed``, spread over ``workers`` processes) and gives 95% intervals.
    ``rounds``: also the battle's state after that many rounds (exact only). ``fractions``:
    exact fractions instead of floats (exact only; slower). ``fallback``: when a battle is too
    large for the exact engine (``TooManyStates``), give Monte Carlo odds instead, saying so in
    ``note`` (otherwise the error is raised). ``limit``: the most battle states the exact
    engine explores outside rounds in product form (``None``: no limit).
    """
    if method == "exact":
        try:
            return exact_odds(scenario, fractions=fractions, rounds=rounds, limit=limit)
        except TooManyStates as exc:
            if not fallback:
                raise
            report = monte_carlo(
                scenario, trials=trials, seed=seed, workers=workers, progress=progress
            )
            report.note = f"Monte Carlo instead of exact: {exc}"
            return report
    if method == "montecarlo":
        return monte_carlo(scenario, trials=trials, seed=seed, workers=workers, progress=progress)
    raise ValueError(f"method: {method!r} is not one of exact, montecarlo")
