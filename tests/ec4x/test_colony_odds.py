"""The odds report of a battle for a colony (issue 10: "spacecombat odds reports, besides each
house's space outcome, the chance that the colony falls, and the expected IU, PU, shields,
batteries, armies and marines left")."""

from __future__ import annotations

from typing import Any

import pytest

from spacecombat.analysis.api import odds
from spacecombat.analysis.text import render

#: one CA bombards (order 06) a colony with two batteries, no shield, one army, IU 10, PU 50:
#: small enough to solve exactly
BOMBARD: dict[str, Any] = {
    "ruleset": "ec4x",
    "game_id": "colony-odds",
    "turn": 1,
    "system": {"name": "Vega", "controller": "beta"},
    "houses": {"alpha": {"prestige": 45}, "beta": {"prestige": 45}},
    "diplomacy": [{"houses": ["alpha", "beta"], "status": "enemy"}],
    "colony": {"owner": "beta", "batteries": 2, "armies": 1, "iu": 10, "pu": 50},
    "fleets": [
        {
            "id": "A1",
            "owner": "alpha",
            "order": {"code": 6, "target": "Vega"},
            "roe": 8,
            "squadrons": [{"flagship": "CA"}],
        }
    ],
}


def test_a_bombardment_reports_what_is_left_of_the_colony_exactly() -> None:
    """7.5: bombardment never conquers; the expected IU and PU left lie between what the
    colony had and zero, and every result's chance adds up to 1."""
    report = odds(BOMBARD).to_json()
    assert report["method"] == "exact"
    colony = report["colony"]
    assert colony["falls"] == 0.0
    assert colony["seized"] == 0.0
    assert sum(colony["results"].values()) == pytest.approx(1.0)
    left = colony["expected_left"]
    assert 0.0 <= left["iu"] <= 10.0
    assert left["pu"] <= 50.0
    assert 0.0 <= left["batteries"] <= 2.0
    assert left["iu"] < 10.0  # three rounds of bombardment always leave some hits on IU


def test_an_invasion_reports_the_chance_the_colony_falls() -> None:
    """7.6.1: the colony falls exactly when the invasion conquers it; Monte Carlo gives the
    chance with its 95% interval, and the text says it."""
    scenario = dict(BOMBARD)
    scenario["fleets"] = [
        {
            "id": "A1",
            "owner": "alpha",
            "order": {"code": 7, "target": "Vega"},
            "roe": 8,
            "squadrons": [{"flagship": "DN", "escorts": {"CA": 1}}],
            "spacelift": {"TT": 3},
        }
    ]
    report = odds(scenario, method="montecarlo", trials=400, seed=3, workers=1).to_json()
    colony = report["colony"]
    assert colony["falls"] == pytest.approx(colony["results"].get("conquered", 0.0))
    low, high = report["confidence_95"]["colony"]["falls"]
    assert low <= colony["falls"] <= high
    assert "The colony:" in render(report)
    assert "falls" in render(report)


def test_a_battle_without_a_planetary_attack_has_no_colony_report() -> None:
    scenario = dict(BOMBARD)
    scenario["fleets"] = [dict(BOMBARD["fleets"][0], order=3)]
    assert "colony" not in odds(scenario).to_json()
