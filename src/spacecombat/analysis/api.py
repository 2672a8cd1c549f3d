"""``spacecombat.odds(scenario)``: the odds of a battle, exactly when possible."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from contextlib import AbstractContextManager, nullcontext
from typing import Any

from spacecombat.analysis.budget import CHANCE_STATES, TooLarge
from spacecombat.analysis.graph import TooManyStates
from spacecombat.analysis.montecarlo import (
    FIXED_TRIALS,
    PRECISION,
    Progress,
    check_options,
    monte_carlo,
)
from spacecombat.analysis.report import OddsReport
from spacecombat.core.errors import ScenarioError
from spacecombat.core.limits import MAX_CHANCE_STATES, shown
from spacecombat.rulesets import parse_scenario
from spacecombat.scenario.schema import AnyScenario

#: Monte Carlo's trials when none are asked for and the precision is 0 (a fixed number)
TRIALS = FIXED_TRIALS


def odds(
    scenario: AnyScenario | Mapping[str, Any],
    *,
    method: str = "exact",
    trials: int | None = None,
    seed: int = 0,
    rounds: int | None = None,
    fractions: bool = False,
    workers: int | None = None,
    precision: float = PRECISION,
    progress: Progress | None = None,
    fallback: bool = True,
    limit: int | None = CHANCE_STATES,
    deadline: float | None = None,
    exact_within: Callable[[], AbstractContextManager[Any]] = nullcontext,
) -> OddsReport:
    """The odds of a scenario's battle.

    ``method="exact"`` (default) carries probability through every battle state, decisions
    taken by the scenario's policies; ``method="montecarlo"`` plays battles with the resolver
    (seeded by ``seed``, spread over ``workers`` processes) until every headline probability's
    95% interval is within ``precision`` of it (default ±0.5 points), at most ``trials``
    (default: enough at any probability); ``precision=0``: exactly ``trials`` battles (default
    ``TRIALS``). ``progress(done, most, widest)`` is told as Monte Carlo's batches are done.
    ``rounds``: also the battle's state after that many rounds (exact only). ``fractions``:
    exact fractions instead of floats (exact only; slower). ``fallback``: when a battle is too
    large for the exact engine (``TooLarge``: over a budget of ``analysis/budget.py``; a
    ``TooManyStates`` is one), give Monte Carlo odds instead, saying why in ``note``, and that
    the state after ``rounds`` rounds is not available (otherwise the error is raised).
    ``limit``: the most chance states the exact engine explores outside rounds in product form
    (``None``: no limit on them; the other budgets still apply). ``deadline``: Monte Carlo's
    (``monte_carlo``: no batch started after that ``time.monotonic()`` reading);
    ``exact_within``: the context the exact engine runs in (the server's: a time limit that
    stops it with a ``TooLarge``, ``web/jobs.py``), and only it, not the fallback.
    """
    # before any work, whether or not Monte Carlo runs
    check_options(trials, seed, workers, precision)
    check_limit(limit)

    def sample() -> OddsReport:
        return monte_carlo(
            scenario,
            trials=trials,
            seed=seed,
            workers=workers,
            precision=precision,
            progress=progress,
            deadline=deadline,
        )

    if method == "exact":
        # imported here for start-up time: Monte Carlo needs not the exact engine's arrays (numpy)
        from spacecombat.analysis.exact import check_rounds, exact_odds

        check_rounds(rounds)
        try:
            with exact_within():
                return exact_odds(scenario, fractions=fractions, rounds=rounds, limit=limit)
        except TooLarge as exc:
            if not fallback:
                raise
            report = sample()
            report.note = fallback_note(exc, limit)
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
        return sample()
    raise ScenarioError("method", f"must be exact or montecarlo (got {shown(method)})")


def check_limit(limit: object) -> None:
    """``limit`` (the exact engine's chance states) must be ``None`` or a whole number from 1
    to ``MAX_CHANCE_STATES`` (docs/limits.md); ``ScenarioError`` naming ``budget`` otherwise
    (the command line's ``--budget``)."""
    if limit is None:
        return
    if isinstance(limit, bool) or not isinstance(limit, int) or not 1 <= limit <= MAX_CHANCE_STATES:
        raise ScenarioError(
            "budget",
            f"must be a whole number from 1 to {MAX_CHANCE_STATES:,} (got {shown(limit)})",
        )


def fallback_note(exc: TooLarge, limit: int | None) -> str:
    """The note of odds given by Monte Carlo because the exact engine stopped (``exc``): which
    budget stopped it and why the battle was explored that way (the rule that kept it out of
    the faster solvers, and what made its states many: ``exc``'s message, from the budget's
    check), and, when the budget is the chance states, how to ask for more."""
    note = f"Monte Carlo instead of exact: {exc}"
    stopped_by_limit = isinstance(exc, TooManyStates) and (exc.budgeted or exc.limit == limit)
    if stopped_by_limit and limit is not None and limit < MAX_CHANCE_STATES:
        note += (
            f"; a larger budget (--budget, up to {MAX_CHANCE_STATES:,} battle states) "
            "may solve it exactly"
        )
    return note


def odds_result(
    scenario: object,
    *,
    method: str,
    trials: int | None,
    seed: int | None,
    workers: int | None,
    rounds: int | None,
    progress: Progress | None,
    precision: float | None = None,
    fractions: bool = False,
    budget: int | None = None,
    deadline: float | None = None,
    exact_within: Callable[[], AbstractContextManager[Any]] = nullcontext,
    fallback: bool = True,
) -> dict[str, Any]:
    """The odds of a decoded scenario as ``spacecombat odds --format json`` prints them and
    the HTTP API answers them: the report (with ``fractions``, the headline probabilities as
    exact fractions too: ``fractions``), and a note naming the Monte Carlo options given
    (``None``: not given) but not used because the odds are exact. ``budget``: the exact
    engine's chance states (default ``CHANCE_STATES``); ``deadline``, ``exact_within`` and
    ``fallback``: as ``odds``'s."""
    report = odds(
        parse_scenario(scenario),
        method=method,
        trials=trials,
        seed=seed or 0,
        workers=workers,
        rounds=rounds,
        fractions=fractions,
        precision=PRECISION if precision is None else precision,
        progress=progress,
        limit=CHANCE_STATES if budget is None else budget,
        deadline=deadline,
        exact_within=exact_within,
        fallback=fallback,
    )
    result = report.to_json()
    if fractions:
        result["fractions"] = report.fractions_json()
    given = {"trials": trials, "seed": seed, "workers": workers, "precision": precision}
    unused = [f"--{name} {value}" for name, value in given.items() if value is not None]
    if method == "exact" and result["method"] == "exact" and unused:
        # Monte Carlo options are for a fallback that did not happen: say so, never drop them.
        note = f"{', '.join(unused)} not used: the odds are exact"
        result["note"] = f"{result['note']}; {note}" if result.get("note") else note
    return result
