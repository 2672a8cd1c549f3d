"""Patrol (6.2.4) and spy (6.2.12) intelligence on cloaked fleets: 7.1.3 "Scouts and Starbases
present in opposing forces have the opportunity to counter for cloaking. Roll for detection in
accordance with Section 2.4.3" (facts §4: each ELI unit rolls against the fleet's highest CLK,
the first success detects; a crippled Raider loses its cloak). An undetected cloaked fleet is
not reported (ruling G37). Scripted dice: a 1D3 is ``pick([1, 1, 1])`` (0 lower, 1 middle,
2 upper), a 1D20 ``pick([1] * 20) + 1``.

ELI1 against CLK1 reads the 14-16 cell with a 1D3 (ELI = CLK): the lower bound 14 with pick 0,
so a 1D20 of 14 (pick 13) detects and 13 (pick 12) does not."""

from __future__ import annotations

from typing import Any

import pytest

from spacecombat.rulesets.ec4x.turn.conflict import TurnResult
from spacecombat.scenario.ec4x_game import GameState
from tests.ec4x.game.helpers import fleet, play_scripted, two_systems

#: a beta fleet of one Raider (CLK1), holding; beta and alpha are neutral (no battle)
RAIDER: dict[str, Any] = {"squadrons": [{"flagship": "RR", "clk": 1}]}
SCOUTED: dict[str, Any] = {"squadrons": [{"flagship": "DD"}], "scouts": [{"eli": 1}]}
DETECTED, MISSED = [0, 13], [0, 12]


def game(fleets: list[dict[str, Any]], **options: object) -> GameState:
    return two_systems(fleets, **options)


def play(state: GameState, picks: list[int], **orders: list[dict[str, Any]]) -> TurnResult:
    return play_scripted(state, picks, **orders)


def reported(result: TurnResult, house: str = "alpha") -> list[list[str]]:
    return [[str(f["fleet"]) for f in i["fleets"]] for i in result.reports[house]["intelligence"]]


@pytest.mark.parametrize(("picks", "seen"), [(DETECTED, ["G1", "G2"]), (MISSED, ["G2"])])
def test_a_patrol_reports_a_cloaked_fleet_only_if_detected(
    picks: list[int], seen: list[str]
) -> None:
    """Alpha's patrol F1 (one ELI1 scout) at B with beta's Raider fleet G1 (CLK1) and beta's
    destroyer G2 (not cloaked: always reported, no roll)."""
    s = game(
        [
            fleet("F1", at="B", **SCOUTED),
            fleet("G1", owner="beta", at="B", **RAIDER),
            fleet("G2", owner="beta", at="B"),
        ]
    )
    r = play(s, picks, alpha=[{"fleet": "F1", "order": 3}])
    assert r.battles == ()
    assert reported(r) == [seen]


def test_a_crippled_raider_has_no_cloak() -> None:
    """Facts §4 "A crippled Raider loses its cloak until repaired": reported with no roll."""
    crippled = {"squadrons": [{"flagship": "RR", "clk": 3, "state": "crippled"}]}
    s = game([fleet("F1", at="B"), fleet("G1", owner="beta", at="B", **crippled)])
    r = play(s, [], alpha=[{"fleet": "F1", "order": 3}])
    assert reported(r) == [["G1"]]


def test_without_eli_units_a_cloaked_fleet_passes_unseen() -> None:
    """A patrol with no scouts and no starbase of its house there rolls nothing: the Raider
    fleet is not reported, the destroyer is."""
    s = game(
        [
            fleet("F1", at="B"),
            fleet("G1", owner="beta", at="B", **RAIDER),
            fleet("G2", owner="beta", at="B"),
        ]
    )
    r = play(s, [], alpha=[{"fleet": "F1", "order": 3}])
    assert reported(r) == [["G2"]]


@pytest.mark.parametrize(
    ("detectors", "picks", "seen"),
    [("house_units", DETECTED, [["G1"]]), ("patrol_fleet", [], [])],
)
def test_g37_patrol_detectors(detectors: str, picks: list[int], seen: list[list[str]]) -> None:
    """The patrol F1 has no scouts; alpha's fleet F2 there has one (ELI1). ``house_units``:
    F2 rolls and detects; ``patrol_fleet``: nothing rolls and the Raider fleet is unseen (the
    patrol reports nothing)."""
    s = game(
        [
            fleet("F1", at="B"),
            fleet("F2", at="B", **SCOUTED),
            fleet("G1", owner="beta", at="B", **RAIDER),
        ],
        patrol_detectors=detectors,
    )
    r = play(s, picks, alpha=[{"fleet": "F1", "order": 3}])
    assert reported(r) == seen


def test_a_house_rolls_once_for_all_its_patrols() -> None:
    """Two patrols of alpha at B share one detection (the house's units roll once a turn
    against a fleet): two draws, both reports name G1."""
    s = game(
        [
            fleet("F1", at="B", **SCOUTED),
            fleet("F2", at="B", **SCOUTED),
            fleet("G1", owner="beta", at="B", **RAIDER),
        ]
    )
    # the house's units F1 then F2: F1 misses (13), F2 detects (14)
    r = play(s, MISSED + DETECTED, alpha=[{"fleet": "F1", "order": 3}, {"fleet": "F2", "order": 3}])
    assert reported(r) == [["G1"], ["G1"]]


@pytest.mark.parametrize(("picks", "seen"), [(DETECTED, [["G1"]]), (MISSED, [[]])])
def test_a_spy_on_a_system_reports_a_cloaked_fleet_only_if_its_scout_detects_it(
    picks: list[int], seen: list[list[str]]
) -> None:
    """6.2.12: alpha's spy (one ELI1 scout) on B, where beta's Raider fleet holds: beta has no
    ELI unit there, so the spy is not rolled against (facts §4); then the spy's own scout
    rolls against the Raider fleet's CLK1."""
    spy = fleet("F1", at="B", squadrons=[], scouts=[{"eli": 1}])
    s = game([spy, fleet("G1", owner="beta", at="B", **RAIDER)])
    r = play(s, picks, alpha=[{"fleet": "F1", "order": 11}])
    assert reported(r) == seen
