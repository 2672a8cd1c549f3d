"""Issue 8: what a player should know before the dice (``Battle.notices()``: units removed
before the battle for lack of capacity, a retreat policy that can never act) is in the odds
report, exact or Monte Carlo: ``OddsReport.notices``, JSON key ``notices`` (a list of strings,
present only when there is one), and a ``Note: ...`` line each in text."""

from __future__ import annotations

from typing import Any

import pytest

from spacecombat import odds, rulesets
from spacecombat.analysis.text import render
from spacecombat.rulesets import parse_scenario
from tests.helpers import space

#: the attacker's 5 fighters need capacity 5, its one carrier has 4: 1 fighter is removed
#: before the battle (docs/rulings.md R31)
CROWDED = space({"units": "1 carrier, 5 fighter"}, {"units": "2 cruiser"})
PLAIN = space({"units": "1 cruiser"}, {"units": "1 destroyer"})


def notices_of(scenario: dict[str, Any]) -> list[str]:
    return list(rulesets.battle(parse_scenario(scenario)).notices())


def test_the_scenario_has_a_notice() -> None:
    """The tests below mean something: a carrier of capacity 4 with 5 fighters leaves one over."""
    assert len(notices_of(CROWDED)) == 1
    assert notices_of(PLAIN) == []


@pytest.mark.parametrize("method", ["exact", "montecarlo"])
def test_the_report_carries_the_battles_notices(method: str) -> None:
    report = odds(CROWDED, method=method, trials=50, workers=1)
    assert report.notices == notices_of(CROWDED)
    assert report.to_json()["notices"] == notices_of(CROWDED)


@pytest.mark.parametrize("method", ["exact", "montecarlo"])
def test_text_shows_each_notice_as_a_note(method: str) -> None:
    text = render(odds(CROWDED, method=method, trials=50, workers=1).to_json())
    for notice in notices_of(CROWDED):
        assert f"Note: {notice}\n" in text


def test_the_fallback_keeps_the_notices() -> None:
    """Monte Carlo instead of exact (a limit of 1 chance state, rounds asked for so the
    generic graph is used): the notices are there too, beside the note."""
    report = odds(CROWDED, rounds=1, limit=1, trials=50, workers=1)
    assert report.method == "montecarlo"
    assert report.notices == notices_of(CROWDED)


def test_without_notices_there_is_no_key_and_no_note() -> None:
    report = odds(PLAIN)
    assert report.notices == []
    assert "notices" not in report.to_json()
    assert "Note:" not in render(report.to_json())
