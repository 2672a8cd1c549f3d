"""``spacecombat.odds(scenario)``: the odds of a battle, exactly when possible."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from spacecombat.analysis.budget import CHANCE_STATES, TooLarge
from spacecombat.analysis.montecarlo import check_options, monte_carlo
from spacecombat.analysis.report import OddsReport
from spacecombat.core.errors import ScenarioError
from spacecombat.core.limits import shown
from spacecombat.rulesets import parse_scenario
from spacecombat.scenario.schema import AnyScenario

#: Monte Carlo's trials when none are asked for
TRIALS = 20_000


def odds(
    scenario: AnyScenario | Mapping[str, Any],
    *,
    method: str = "exact",
    trials: int = TRIALS,
    seed: int = 0,
    rounds: int | None = None,
    fractions: bool = False,
    workers: int | None = None,
    progress: Callable[[int, int], None] | None = None,
    fallback: bool = True,
    limit: int | None = CHANCE_STATES,
) -> OddsReport:
    """The odds of a scenario's battle.

    ``method="exact"`` (default) carries probability through every battle state, decisions
    taken by the scenario's policies; ``method="montecarlo"`` plays ``trials`` battles with the
    resolver (seeded by ``seed``, spread over ``workers`` processes) and gives 95% intervals.
    ``rounds``: also the battle's state after that many rounds (exact only). ``fractions``:
    exact fractions instead of floats (exact only; slower). ``fallback``: when a battle is too
    large for the exact engine (``TooLarge``: over a budget of ``analysis/budget.py``; a
    ``TooManyStates`` is one), give Monte Carlo odds instead, saying why in ``note``, and that
    the state after ``rounds`` rounds is not available (otherwise the error is raised).
    ``limit``: the most chance states the exact engine explores outside rounds in product form
    (``None``: no limit on them; the other budgets still apply).
    """
    check_options(trials, seed, workers)  # before any work, whether or not Monte Carlo runs
    if method == "exact":
        # imported here for start-up time: Monte Carlo needs not the exact engine's arrays (numpy)
        from spacecombat.analysis.exact import check_rounds, exact_odds

        check_rounds(rounds)
        try:
            return exact_odds(scenario, fractions=fractions, rounds=rounds, limit=limit)
        except TooLarge as exc:
            if not fallback:
                raise
            report = monte_carlo(
                scenario, trials=trials, seed=seed, workers=workers, progress=progress
            )
            report.note = f"Monte Carlo instead of exact: {exc}"
            if rounds is not None:
                report.note += (
                    f"; the state after {rounds} round(s) is not available from Monte Carlo"
                )
            return report
    if method == "montecarlo":
        # Options of the exact method are refused, never dropped.
        if rounds is not None:
            raise ScenarioError(
                "rounds", "the state after N rounds comes from the exact method only"
            )
        if fractions:
            raise ScenarioError("fractions", "exact fractions come from the exact method only")
        return monte_carlo(scenario, trials=trials, seed=seed, workers=workers, progress=progress)
    raise ScenarioError("method", f"must be exact or montecarlo (got {shown(method)})")


def odds_result(
    scenario: object,
    *,
    method: str,
    trials: int | None,
    seed: int | None,
    workers: int | None,
    rounds: int | None,
    progress: Callable[[int, int], None] | None,
) -> dict[str, Any]:
    """The odds of a decoded scenario as ``spacecombat odds --format json`` prints them and
    the HTTP API answers them: the report, and a note naming the Monte Carlo options given
    (``None``: not given) but not used because the odds are exact."""
    report = odds(
        parse_scenario(scenario),
        method=method,
        trials=trials or TRIALS,
        seed=seed or 0,
        workers=workers,
        rounds=rounds,
        progress=progress,
    )
    result = report.to_json()
    given = {"trials": trials, "seed": seed, "workers": workers}
    unused = [f"--{name} {value}" for name, value in given.items() if value is not None]
    if method == "exact" and result["method"] == "exact" and unused:
        # Monte Carlo options are for a fallback that did not happen: say so, never drop them.
        note = f"{', '.join(unused)} not used: the odds are exact"
        result["note"] = f"{result['note']}; {note}" if result.get("note") else note
    return result
