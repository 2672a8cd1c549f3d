"""Issue 3: Monte Carlo is the fallback for what the exact engine does not do (a battle too
large for the generic graph), and the output says so."""

from __future__ import annotations

from typing import Any

import pytest

from spacecombat import odds
from spacecombat.odds.graph import TooManyStates

# A retreat can be announced, so the rounds are not in product form: the generic graph is used.
RETREATING: dict[str, Any] = {
    "ruleset": "ti4",
    "battle": "space",
    "attacker": {"units": "2 cruiser", "policy": {"retreat": {"when_outnumbered": 1.5}}},
    "defender": {"units": "2 cruiser"},
    "system": {"adjacent": [{"name": "B", "units": ["attacker"]}]},
}


def test_within_the_limit_the_answer_is_exact() -> None:
    report = odds(RETREATING)
    assert report.method == "exact"
    assert report.note is None


def test_beyond_the_limit_odds_fall_back_to_monte_carlo_and_say_so() -> None:
    report = odds(RETREATING, limit=2, trials=300, workers=1)
    assert report.method == "montecarlo"
    assert report.note is not None
    assert "Monte Carlo instead of exact" in report.note
    assert report.to_json()["note"] == report.note


def test_without_fallback_the_limit_is_an_error() -> None:
    with pytest.raises(TooManyStates, match="stopped at 2 battle states"):
        odds(RETREATING, limit=2, fallback=False)
