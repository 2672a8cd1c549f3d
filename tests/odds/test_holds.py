"""Issue 22: who holds the system, the headline of every odds report (docs/rulings.md 22H-1).

A space battle's report says, beside its results, the chance that each player holds the space
area of the active system once the battle is over (``holds``: the one player with ships left
in it, whether combat was fought or space cannon left the other without ships; a retreat leaves
it to the other player; a draw, a stalemate or both gone: ``neither``; TI4 LRR 78.9-10, spec
ti4-space-combat.md 9, 10, 13). An invasion's report says the chance that the attacker takes
each planet (``taken``). The result fields keep their meaning."""

from __future__ import annotations

import json
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest

from spacecombat import odds
from spacecombat.analysis.exact import exact_odds
from spacecombat.analysis.montecarlo import monte_carlo
from spacecombat.analysis.text import render
from spacecombat.rulesets import load_scenario
from tests.helpers import invasion, run_cli, space

F = Fraction
ROOT = Path(__file__).parent.parent.parent
#: the issue's case: 1 destroyer and 2 PDS against a Destroyer II
EXAMPLE = ROOT / "examples" / "space-cannon-holds-the-system.yaml"
ISSUE_CASE = space({"units": {"destroyer": 1, "pds": 2}}, {"units": "1 destroyer"})
ISSUE_CASE["defender"]["upgrades"] = ["destroyer"]
#: a lone destroyer under the defender's PDS (tests/odds/test_no_combat.py)
UNDER_PDS = space({"units": "1 destroyer"}, {"units": {"cruiser": 1, "pds": 1}})


def test_the_issue_case_the_attacker_holds_the_system_82_95_percent() -> None:
    """Space cannon offense (LRR 77): the attacker's 2 PDS (space cannon 6, a hit with 1/2 each)
    destroy the Destroyer II (no space cannon of its own) with 1 - (1/2)² = 3/4: no combat, the
    attacker's destroyer alone in the system. Otherwise destroyer (combat 9: 1/5) against
    Destroyer II (combat 8: 3/10), no fighters for either barrage: attacker alone 1/5 * 7/10 =
    7/50, defender alone 4/5 * 3/10 = 12/50, both 3/50, decided with 22/50: 7/22, 12/22, 3/22,
    each times 1/4. The attacker holds the system 3/4 + 7/88 = 73/88 = 82.95%: no combat (where
    it has its ships) plus its wins; the defender 12/88; neither (a draw) 3/88."""
    report = odds(ISSUE_CASE, fractions=True)
    assert (report.no_combat, report.attacker_win, report.defender_win, report.draw) == (
        F(3, 4),
        F(7, 88),
        F(3, 22),
        F(3, 88),
    )
    assert report.holds == {"attacker": F(73, 88), "defender": F(12, 88), "neither": F(3, 88)}
    assert report.holds["attacker"] == report.no_combat + report.attacker_win
    # the fast path (product form, floats) says the same
    fast = exact_odds(ISSUE_CASE)
    assert fast.holds is not None
    assert fast.holds["attacker"] == pytest.approx(73 / 88, abs=1e-12)
    assert "The attacker holds the system 82.95%" in render(fast.to_json())


def test_the_example_file_reads_82_95_percent_in_text_and_json(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """``spacecombat odds examples/space-cannon-holds-the-system.yaml``: the report leads with
    who holds the system; its JSON has ``holds``, the existing fields as before."""
    status, text, _ = run_cli(capsys, "odds", str(EXAMPLE))
    assert status == 0
    assert text.splitlines()[:2] == [
        "Exact odds",
        "The attacker holds the system 82.95% (the defender 13.64%, neither 3.41%)",
    ]
    assert "  attacker wins    7.9545%" in text
    assert "  no combat       75.0000%" in text
    status, out, _ = run_cli(capsys, "odds", str(EXAMPLE), "--format", "json")
    report = json.loads(out)
    assert f"{100 * report['holds']['attacker']:.2f}%" == "82.95%"
    assert report["holds"]["attacker"] == pytest.approx(
        report["no_combat"] + report["attacker_win"], abs=1e-15
    )
    assert (report["attacker_win"], report["no_combat"]) == (pytest.approx(7 / 88), 0.75)


def test_space_cannon_that_destroys_the_attacker_leaves_the_system_to_the_defender() -> None:
    """The defender's PDS hits with 1/2: no combat, the defender's cruiser alone in the system;
    otherwise 3/26 attacker, 4/13 defender, 1/13 draw (test_no_combat.py). The defender holds it
    1/2 + 4/13 = 21/26."""
    report = odds(UNDER_PDS, fractions=True)
    assert report.holds == {"attacker": F(3, 26), "defender": F(21, 26), "neither": F(1, 13)}


def test_a_defender_without_ships_leaves_the_system_to_the_attacker() -> None:
    """Only a PDS defends, which misses the carrier or not: no combat either way (LRR 78: a
    space combat needs both players' ships), and the attacker's ships are left in the system.
    Its PDS hits the carrier (space cannon 6: 1/2) whose sustain-less loss leaves the attacker
    without ships: neither holds it."""
    report = odds(space({"units": "1 carrier"}, {"units": {"pds": 1}}), fractions=True)
    assert report.no_combat == 1
    assert report.holds == {"attacker": F(1, 2), "defender": F(0), "neither": F(1, 2)}


ADJACENT = {"adjacent": [{"name": "B", "units": ["attacker"]}]}


def test_a_retreat_leaves_the_system_to_the_other_player() -> None:
    """1 cruiser each (combat 7: 2/5), the attacker retreating after round 1
    (test_product_form_retreats_and_planets.py): attacker alone hits 6/25 (it wins, its
    retreat cancelled), defender alone 6/25, both 4/25 (a draw), neither 9/25: the attacker
    retreats and the defender holds the system: 6/25 + 9/25."""
    scenario = space(
        {"units": "1 cruiser", "policy": {"retreat": {"after_round": 1}}},
        {"units": "1 cruiser"},
        system=ADJACENT,
    )
    report = odds(scenario, fractions=True)
    assert report.holds == {"attacker": F(6, 25), "defender": F(15, 25), "neither": F(4, 25)}
    fast = exact_odds(scenario)  # product form, the retreat as a mask
    assert fast.holds is not None
    for name, chance in report.holds.items():
        assert fast.holds[name] == pytest.approx(float(chance), abs=1e-12)


def test_a_win_with_only_fighters_that_capacity_then_removes_holds_nothing() -> None:
    """LRR 78 note 13 (spec 13): capacity is checked after the winner is determined; a winner
    left with fighters and no carrier removes them and has no ship in the system (22H-1). The
    attacker's carrier is its first casualty: every win it keeps its carrier for holds the
    system, every other win does not. Exact fractions, the product form and the attacker's
    survivors (after capacity) agree."""
    scenario = space(
        {"units": "1 carrier, 3 fighter", "policy": {"casualty_order": ["carrier", "fighter"]}},
        {"units": "1 cruiser"},
    )
    report = odds(scenario, fractions=True)
    assert report.holds is not None
    kept = sum(
        f["probability"] for f in report.survivors["attacker"]["fleets"] if f["units"]
    )  # the attacker's ships left in the system
    assert float(report.holds["attacker"]) == pytest.approx(kept, abs=1e-12)
    assert 0 < report.holds["attacker"] < report.attacker_win
    assert report.holds["neither"] == report.draw + report.attacker_win - report.holds["attacker"]
    assert report.holds["defender"] == report.defender_win
    fast = exact_odds(scenario)
    assert fast.holds is not None
    for name, chance in report.holds.items():
        assert fast.holds[name] == pytest.approx(float(chance), abs=1e-12)


def test_ti3_a_withdrawal_and_a_stalemate() -> None:
    """TI3: PDS fire that leaves the attacker without ships is no combat, the defender's ships
    holding the system; a stalemate (T15: both fleets stay) is held by neither."""
    pds = {
        "ruleset": "ti3",
        "battle": "space",
        "attacker": {"units": {"cruiser": 1}},
        "defender": {"units": {"pds": 1, "carrier": 1}},
    }
    report = odds(pds, fractions=True)
    assert report.holds is not None
    assert report.holds["defender"] == report.no_combat + report.defender_win
    assert report.holds["attacker"] == report.attacker_win
    stuck = {
        "ruleset": "ti3",
        "battle": "space",
        "attacker": {"units": {"dreadnought": 1}, "technologies": ["duranium_armor"]},
        "defender": {"units": {"dreadnought": 1}, "technologies": ["duranium_armor"]},
    }
    report = odds(stuck)
    assert report.other == {"stalemate": 1.0}
    assert report.holds == {"attacker": 0.0, "defender": 0.0, "neither": 1.0}


def test_an_invasion_of_one_planet_says_the_chance_the_attacker_takes_it() -> None:
    """1 infantry against 1 (combat 8: 3/10): attacker alone 21/100, decided with 51/100 (rounds
    where both miss repeat): the attacker takes the planet 21/51 = 7/17, its win. One planet
    gets ``planets`` like several, and the text leads with it."""
    scenario = invasion(
        {"units": "1 carrier, 1 infantry"},
        {},
        planets=[{"name": "Lodor", "defender": "1 infantry", "commit": "1 infantry"}],
    )
    report = odds(scenario, fractions=True)
    assert report.taken == {"Lodor": F(7, 17)}
    assert report.holds is None
    assert report.attacker_win == F(7, 17)
    fast = exact_odds(scenario)
    assert fast.taken is not None
    assert fast.taken["Lodor"] == pytest.approx(7 / 17, abs=1e-12)
    assert fast.planets["Lodor"]["taken"] == pytest.approx(7 / 17, abs=1e-12)
    assert fast.planets["Lodor"]["survivors"] == fast.survivors
    text = render(fast.to_json())
    assert text.splitlines()[1] == "The attacker takes Lodor 41.18%"
    assert "Planet Lodor" not in text  # the planet's block is the invasion's own


def test_an_invasion_of_several_planets_says_each_planets_chance() -> None:
    """Two planets of 1 infantry against 1 each, fought alone (note 3): each taken 7/17, as
    ``planets`` says."""
    scenario = invasion(
        {"units": "1 carrier, 2 infantry"},
        {},
        planets=[
            {"name": "A", "defender": "1 infantry", "commit": "1 infantry"},
            {"name": "B", "defender": "1 infantry", "commit": "1 infantry"},
        ],
    )
    report = exact_odds(scenario)
    assert report.taken is not None
    for name in ("A", "B"):
        assert report.taken[name] == pytest.approx(7 / 17, abs=1e-12)
        assert report.planets[name]["taken"] == pytest.approx(7 / 17, abs=1e-12)
    lines = render(report.to_json()).splitlines()
    assert lines[1:3] == ["The attacker takes A 41.18%", "The attacker takes B 41.18%"]
    slow = odds(scenario, fractions=True)
    assert slow.taken == {"A": F(7, 17), "B": F(7, 17)}


def test_ti3_an_invasion_takes_the_planet_as_planet_taken_says() -> None:
    """TI3 (ti3-combat.md, Invasion success): ``taken`` of the one planet is ``planet_taken``."""
    scenario = {
        "ruleset": "ti3",
        "battle": "invasion",
        "attacker": {"units": {"dreadnought": 1, "ground_force": 2}},
        "defender": {"units": {"ground_force": 2}},
    }
    report = odds(scenario, fractions=True)
    assert report.taken == {"planet": report.other["planet_taken"]}
    assert "The attacker takes the planet " in render(report.to_json())


def test_monte_carlo_gives_holds_and_taken_with_intervals() -> None:
    """Monte Carlo counts the same ends: its ``holds`` and ``taken`` lie within their 95%
    intervals of the exact figures (a loose check: 4,000 trials, each interval about ±1.2%)."""
    report = monte_carlo(ISSUE_CASE, trials=4000, seed=1, workers=1)
    out: dict[str, Any] = report.to_json()
    low, high = out["confidence_95"]["holds"]["attacker"]
    assert low <= out["holds"]["attacker"] <= high
    assert low <= 73 / 88 <= high
    assert sum(out["holds"].values()) == pytest.approx(1.0, abs=1e-12)
    assert out["holds"]["attacker"] == pytest.approx(out["no_combat"] + out["attacker_win"])
    assert "The attacker holds the system " in render(out)
    assert "[" in render(out).splitlines()[1]
    planet = {
        "ruleset": "ti3",
        "battle": "invasion",
        "attacker": {"units": {"dreadnought": 1, "ground_force": 2}},
        "defender": {"units": {"ground_force": 2}},
    }
    out = monte_carlo(planet, trials=2000, seed=1, workers=1).to_json()
    assert out["taken"]["planet"] == out["planet_taken"]
    assert out["confidence_95"]["taken"]["planet"] == out["confidence_95"]["planet_taken"]


def test_a_battle_of_houses_keeps_its_own_holds() -> None:
    """EC4X reports who holds the system per house (its fates); nothing is added to it."""
    report = odds(load_scenario(ROOT / "examples" / "ec4x" / "two-houses.yaml"))
    assert report.holds is None
    assert report.taken is None
    out = report.to_json()
    assert "holds" not in out
    assert "taken" not in out
    assert set(next(iter(out["houses"].values()))) >= {"holds", "retreated", "destroyed"}
