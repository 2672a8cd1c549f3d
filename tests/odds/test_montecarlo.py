"""Monte Carlo odds (analysis/montecarlo.py): battles played by the resolver agree with the exact
odds within sampling error, do not depend on how many processes share the work, and come with
95% Wilson score intervals."""

from __future__ import annotations

import math
import random
from typing import Any

import pytest

from spacecombat import odds
from spacecombat.analysis import montecarlo
from spacecombat.analysis.montecarlo import wilson
from tests.helpers import invasion, space

SHIPS = ("dreadnought", "cruiser", "carrier", "destroyer", "fighter")
GROUND = ("infantry", "mech")
UPGRADABLE = ("dreadnought", "cruiser", "destroyer", "fighter", "infantry")
RESULTS = ("attacker_win", "defender_win", "draw")
#: every outcome the two methods must agree on (no_combat: docs/rulings.md R27)
OUTCOMES = (*RESULTS, "no_combat")
TRIALS = 1000
RETREAT_TO_B = {"name": "A", "adjacent": [{"name": "B", "units": ["attacker"]}]}


def random_side(rng: random.Random, kinds: tuple[str, ...]) -> dict[str, Any]:
    units: dict[str, int] = {}
    for _ in range(rng.randint(1, 3)):
        unit = rng.choice(kinds)
        units[unit] = units.get(unit, 0) + 1
    return {"units": units, "upgrades": rng.sample(UPGRADABLE, rng.randint(0, 1))}


def scenarios() -> list[dict[str, Any]]:
    """18 random small battles (a fixed draw), and two in which the attacker's policy retreats."""
    rng = random.Random(20240611)
    found = []
    for _ in range(18):
        if rng.random() < 0.7:
            found.append(space(random_side(rng, SHIPS), random_side(rng, SHIPS)))
        else:
            found.append(invasion(random_side(rng, GROUND), random_side(rng, GROUND)))
    found.append(
        space(
            {"units": "2 cruiser", "policy": {"retreat": {"after_round": 1}}},
            {"units": "1 dreadnought, 1 fighter"},
            system=RETREAT_TO_B,
        )
    )
    found.append(
        space(
            {"units": "1 cruiser, 2 fighter", "policy": {"retreat": {"when_outnumbered": 1.5}}},
            {"units": "2 destroyer, 2 cruiser"},
            system=RETREAT_TO_B,
        )
    )
    return found


SCENARIOS = scenarios()


def z_scores(scenario: dict[str, Any], seed: int) -> dict[str, float]:
    exact = odds(scenario)
    sampled = odds(scenario, method="montecarlo", trials=TRIALS, seed=seed, workers=1)
    scores = {}
    for name in OUTCOMES:
        p, q = float(getattr(exact, name)), float(getattr(sampled, name))
        # p may be a rounding error away from 0 or 1
        error = math.sqrt(max(0.0, p * (1 - p)) / TRIALS)
        scores[name] = abs(q - p) / error if error > 1e-9 else (0.0 if abs(q - p) < 1e-9 else 1e9)
    return scores


@pytest.mark.parametrize("index", range(len(SCENARIOS)))
def test_monte_carlo_agrees_with_the_exact_odds(index: int) -> None:
    # Both play the same rules code; the sample proportion of each result is within 4 standard
    # errors of the exact probability (an outcome the exact engine calls impossible never
    # happens).
    scores = z_scores(SCENARIOS[index], seed=index)
    assert max(scores.values()) <= 4, (SCENARIOS[index], scores)


def test_the_same_seed_gives_the_same_report_whatever_the_workers(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # analysis/montecarlo.py: trial k is played with dice seeded from (seed, k), so the result does
    # not depend on how many processes share the work. 500 trials on 2 workers are split into
    # 8 batches, so the process pool is used (however short the run: POOL_AFTER 0).
    monkeypatch.setattr(montecarlo, "POOL_AFTER", 0.0)
    scenario = space({"units": "2 cruiser, 2 fighter"}, {"units": "1 destroyer, 1 dreadnought"})
    alone = odds(scenario, method="montecarlo", trials=500, seed=11, workers=1)
    shared = odds(scenario, method="montecarlo", trials=500, seed=11, workers=2)
    assert alone.to_json() == shared.to_json()


def test_another_seed_gives_another_sample() -> None:
    # The test above could not fail if the seed did nothing.
    scenario = space({"units": "2 cruiser, 2 fighter"}, {"units": "1 destroyer, 1 dreadnought"})
    first = odds(scenario, method="montecarlo", trials=500, seed=11, workers=1)
    second = odds(scenario, method="montecarlo", trials=500, seed=12, workers=1)
    assert first.to_json() != second.to_json()


@pytest.mark.parametrize(
    ("successes", "trials"), [(0, 10), (1, 10), (50, 100), (999, 1000), (7, 7)]
)
def test_the_wilson_interval_contains_the_proportion_and_stays_in_0_1(
    successes: int, trials: int
) -> None:
    low, high = wilson(successes, trials)
    assert 0.0 <= low <= successes / trials <= high <= 1.0


def test_the_wilson_interval_of_half_of_a_hundred() -> None:
    # The textbook value: 50 of 100 gives [0.4038, 0.5962] at 95%.
    low, high = wilson(50, 100)
    assert (round(low, 4), round(high, 4)) == (0.4038, 0.5962)


def test_the_report_intervals_contain_its_estimates() -> None:
    scenario = space({"units": "1 dreadnought"}, {"units": "2 cruiser"})
    report = odds(scenario, method="montecarlo", trials=400, seed=5, workers=1)
    assert report.confidence is not None
    assert all(
        report.confidence[name][0] <= float(getattr(report, name)) <= report.confidence[name][1]
        for name in RESULTS
    )
