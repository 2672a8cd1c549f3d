"""Issue 24: Monte Carlo stops when it knows enough (analysis/montecarlo.py ``Stopping``,
docs/protocol.md "Monte Carlo's stopping rule"): once at least ``MIN_TRIALS`` are played, after
the first batch at which every headline probability's 95% Wilson interval is within
``precision`` (default ±0.5 points) of it, or at the cap (``trials``); ``precision=0`` plays
exactly ``trials``. Batches are cut by trial counts alone, so where it stops does not depend on
the workers. Its probabilities are counts of trials divided once by the trials: none leaves
[0, 1], and the results add up to 1."""

from __future__ import annotations

import io
import math
from collections.abc import Iterator
from fractions import Fraction
from typing import Any

import pytest

from spacecombat import odds, rulesets
from spacecombat.analysis import montecarlo
from spacecombat.analysis.graph import Terminal, Weight
from spacecombat.analysis.montecarlo import (
    MIN_TRIALS,
    PRECISION,
    TerminalProgress,
    Trials,
    half_width,
    monte_carlo,
    needed_trials,
)
from spacecombat.analysis.report import summarise
from spacecombat.core.errors import ScenarioError
from spacecombat.rulesets import parse_scenario
from tests.helpers import space

DUEL = space({"units": "2 cruiser, 2 fighter"}, {"units": "1 destroyer, 1 dreadnought"})
#: a battle the attacker always wins, by many different ends: at 7,000 trials (seed 0) the
#: chances of its ends, each divided by the trials and then summed, came to 1.0000000000000002
ALWAYS_WON = space({"units": "1 dreadnought, 2 destroyer, 2 cruiser"}, {"units": "1 carrier"})


def widest(report: Any) -> float:
    """The widest half-width of the report's headline intervals."""
    n = report.trials
    return max(half_width(round(float(p) * n), n) for p in report.headlines().values())


def test_the_default_cap_is_enough_at_any_probability() -> None:
    # The normal interval's half-width at one half, 1.96 * sqrt(1/4 / n) <= 0.005, needs
    # n >= 38,414.6; the Wilson interval of 19,208 in 38,415 is narrower still.
    assert needed_trials(0.005) == 38_415
    assert half_width(19_208, 38_415) <= 0.005


def test_it_stops_at_the_first_batch_where_every_headline_is_known_within_the_precision() -> None:
    report = monte_carlo(DUEL, seed=3, workers=1)
    assert report.precision is not None
    assert report.precision["reached"] is True
    assert report.trials is not None
    assert MIN_TRIALS <= report.trials < needed_trials(PRECISION)
    assert report.trials % montecarlo.CHECK_EVERY == 0  # a batch boundary
    assert widest(report) <= PRECISION
    # one batch fewer, the same trials (the same seed), was not enough: a fixed run of them
    before = monte_carlo(
        DUEL, seed=3, workers=1, precision=0, trials=report.trials - montecarlo.CHECK_EVERY
    )
    assert widest(before) > PRECISION


def test_a_wider_precision_stops_sooner() -> None:
    narrow = monte_carlo(DUEL, seed=3, workers=1)
    wide = monte_carlo(DUEL, seed=3, workers=1, precision=0.01)
    assert wide.trials is not None
    assert narrow.trials is not None
    assert wide.trials < narrow.trials
    assert widest(wide) <= 0.01


def test_the_cap_stops_it_first_and_says_so() -> None:
    report = monte_carlo(DUEL, seed=3, workers=1, trials=2_000)
    assert report.trials == 2_000
    assert report.precision is not None
    assert report.precision["reached"] is False
    assert report.precision["widest"] > PRECISION
    assert report.to_json()["precision"] == report.precision


def test_precision_0_plays_exactly_the_trials_asked_for() -> None:
    report = monte_carlo(DUEL, seed=3, workers=1, trials=1_234, precision=0)
    assert (report.trials, report.precision) == (1_234, None)
    assert "precision" not in report.to_json()
    # without trials, the fixed number of old
    assert montecarlo.FIXED_TRIALS == 20_000


def test_where_it_stops_does_not_depend_on_the_workers(monkeypatch: pytest.MonkeyPatch) -> None:
    # POOL_AFTER 0: the pool of 2 workers plays the batches after the first, and batches still
    # in flight when the rule is met are dropped; the report is the one of one worker.
    monkeypatch.setattr(montecarlo, "POOL_AFTER", 0.0)
    alone = monte_carlo(DUEL, seed=5, workers=1)
    shared = monte_carlo(DUEL, seed=5, workers=2)
    assert alone.trials is not None
    assert alone.trials < needed_trials(PRECISION)
    assert alone.to_json() == shared.to_json()


def test_progress_says_the_trials_done_the_cap_and_the_widest_interval() -> None:
    seen: list[tuple[int, int, float | None]] = []
    report = monte_carlo(DUEL, seed=3, workers=1, progress=lambda *told: seen.append(told))
    cap = needed_trials(PRECISION)
    done = [d for d, _, _ in seen]
    assert done == sorted(done)
    assert all(total == cap for _, total, _ in seen[:-1])
    # not read before MIN_TRIALS, then read at every batch
    assert all(w is None for d, _, w in seen if d < MIN_TRIALS)
    assert all(w is not None for d, _, w in seen if d >= MIN_TRIALS)
    # the last word: every trial played done, the rule met
    last = seen[-1]
    assert (last[0], last[1]) == (report.trials, report.trials)
    assert last[2] is not None
    assert last[2] <= PRECISION
    assert all(w > PRECISION for _, _, w in seen[:-1] if w is not None)


def test_the_terminal_bar_shows_the_widest_interval_against_the_target(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    err = io.StringIO()
    monkeypatch.setattr("sys.stderr", err)
    bar = TerminalProgress(0.005)
    bar(1_000, 38_415, None)
    bar(12_000, 38_415, 0.0071)
    bar(27_000, 27_000, 0.00496)
    lines = err.getvalue().split("\r")
    assert lines[1].startswith("[")
    assert "1,000/38,415 trials" in lines[1]
    assert "points" not in lines[1]
    assert "12,000/38,415 trials, ±0.71 points (target ±0.50)" in lines[2]
    assert "27,000/27,000 trials, ±0.50 points (target ±0.50)" in lines[3]
    assert lines[3].endswith("\n")


@pytest.mark.parametrize("precision", [-0.1, 0.00001, 0.3, math.nan, "0.01", True])
def test_a_bad_precision_is_refused_naming_it(precision: object) -> None:
    with pytest.raises(ScenarioError) as caught:
        monte_carlo(DUEL, precision=precision)  # type: ignore[arg-type]
    assert caught.value.field == "precision"
    with pytest.raises(ScenarioError):
        odds(DUEL, method="montecarlo", precision=precision)  # type: ignore[arg-type]


# ---- probabilities in [0, 1], adding up to 1 -----------------------------------------------


def _walk(value: object, path: str = "") -> Iterator[tuple[str, float]]:
    if isinstance(value, dict):
        for key, item in value.items():
            yield from _walk(item, f"{path}/{key}")
    elif isinstance(value, list):
        for index, item in enumerate(value):
            yield from _walk(item, f"{path}[{index}]")
    elif isinstance(value, float):
        yield path, value


def test_a_chance_of_one_is_one_not_a_rounding_error_above() -> None:
    scenario = parse_scenario(ALWAYS_WON)
    battle = rulesets.battle(scenario)
    tally = Trials(scenario, battle).run(0, 0, 7_000)
    # the old way, each end's count divided by the trials and the floats summed, passed 1
    ends: dict[Terminal, Weight] = {
        Terminal(key, outcome): count / 7_000 for key, (outcome, count) in tally.ends.items()
    }
    summed = summarise(battle, ends, 0.0, {}, 0.0, method="montecarlo")
    assert float(summed.attacker_win) > 1.0
    report = monte_carlo(ALWAYS_WON, seed=0, workers=1, trials=7_000, precision=0)
    out = report.to_json()
    assert out["attacker_win"] == out["holds"]["attacker"] == 1.0
    assert out["survivors"]["defender"]["fleets"][0]["probability"] == 1.0
    probabilities = [
        (path, p)
        for path, p in _walk(out)
        if "expected" not in path and "losses" not in path and "confidence" not in path
    ]
    assert all(0.0 <= p <= 1.0 for _, p in probabilities), probabilities


def test_the_results_add_up_to_one() -> None:
    # each result is its count over the trials, rounded once: their exact sum is 1, so their
    # floats add up to 1 within the rounding of each
    report = monte_carlo(DUEL, seed=9, workers=1, trials=3_001, precision=0)
    results = [report.attacker_win, report.defender_win, report.draw, *report.other.values()]
    counts = [Fraction(p).limit_denominator(3_001) * 3_001 for p in results]
    assert sum(counts) == 3_001
    assert math.fsum(float(p) for p in results) == pytest.approx(1.0, abs=4e-16)
    assert report.holds is not None
    assert math.fsum(report.holds.values()) == pytest.approx(1.0, abs=4e-16)
