"""``spacecombat.odds(scenario)``: the odds of a battle, exactly when possible."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from spacecombat.odds.exact import exact_odds
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
) -> OddsReport:
    """The odds of a scenario's battle.

    ``method="exact"`` (default) carries probability through every battle state, decisions
    taken by the scenario's policies; ``method="montecarlo"`` plays ``trials`` battles with the
    resolver (seeded by ``seed``, spread over ``workers`` processes) and gives 95% intervals.
    ``rounds``: also the battle's state after that many rounds (exact only). ``fractions``:
    exact fractions instead of floats (exact only; slower).
    """
    if method == "exact":
        return exact_odds(scenario, fractions=fractions, rounds=rounds)
    if method == "montecarlo":
        return monte_carlo(scenario, trials=trials, seed=seed, workers=workers, progress=progress)
    raise ValueError(f"method: {method!r} is not one of exact, montecarlo")
