"""The conflict phase end to end: the example game's three turns (examples/ec4x/game), a
retreat with a second battle on arrival (7.3.5 "No Retreat Sanctuary"), determinism."""

from __future__ import annotations

import json
from pathlib import Path

from spacecombat.cli.turn import dumps
from spacecombat.rulesets.ec4x.turn.conflict import TurnResult, turn
from spacecombat.rulesets.ec4x.turn.game import load_game, parse_game
from spacecombat.scenario.ec4x_game import GameState
from spacecombat.scenario.ec4x_orders import load_orders, parse_orders
from tests.ec4x.game.helpers import data, fleet

GAME = Path(__file__).parents[3] / "examples" / "ec4x" / "game"


def three_turns() -> list[TurnResult]:
    state = load_game(GAME / "state.json")
    results = []
    for n in (1, 2, 3):
        result = turn(state, load_orders(GAME / f"orders-turn-{n}.json", state))
        results.append(result)
        state = result.state
    return results


def test_the_example_game_plays_as_recorded() -> None:
    for n, result in enumerate(three_turns(), start=1):
        expected = GAME / "expected" / f"state-{n + 1}.json"
        assert dumps(result.state.to_json()) == expected.read_text()
        for house, report in result.reports.items():
            assert dumps(report) == (GAME / "expected" / f"turn-{n}-{house}.json").read_text()


def test_the_example_game_meets_fights_retreats_blockades_colonises_joins_salvages() -> None:
    first, second, third = three_turns()
    # turn 1: alpha's patrol and beta's fleet meet in S00; beta retreats home to S06 (7.3.5)
    assert [b["system"] for b in first.battles] == ["S00"]
    beta = first.reports["beta"]
    assert {"event": "retreated", "fleet": "beta-1", "path": ["S00", "S06"]} in beta["events"]
    assert first.state.system("S13").colony().owner == "alpha"  # type: ignore[union-attr]
    assert first.reports["alpha"]["credited_pp"] == 20  # alpha-3 salvaged (6.2.16)
    assert {"event": "merged", "fleet": "gamma-3", "host": "gamma-1"} in (
        first.reports["gamma"]["events"]
    )
    # turn 2: alpha blockades beta's S06 (6.2.6): −2 prestige, GCO × 0.4
    assert second.state.houses["beta"].prestige == 48
    s06 = next(c for c in second.reports["beta"]["colonies"] if c["system"] == "S06")
    assert s06["blockaded"]
    assert s06["gco_factor"] == 0.4
    assert second.reports["beta"]["intelligence"][0]["source"] == "Spy on a System"
    # turn 3: beta's guard fights the blockade (7.3 rule 1) and is destroyed
    assert third.battles[0]["system"] == "S06"
    assert third.reports["gamma"]["battles"] == []  # gamma saw none of it
    assert third.state.houses["beta"].prestige == 46


def test_reports_hold_only_what_each_house_saw() -> None:
    for result in three_turns():
        for house, report in result.reports.items():
            assert all(f["owner"] == house for f in report["fleets"])
            assert all(c["colony"]["owner"] == house for c in report["colonies"])
            for battle in report["battles"]:
                assert house in battle["houses"]


def _retreat_game() -> GameState:
    # alpha's weak fleet at B meets beta; its closest friendly system is C, where beta waits too
    raw = data(
        "A-B major, B-C major",
        colonies={"A": "beta", "C": "alpha"},
        fleets=[
            fleet("F1", at="B", roe=0, squadrons=[{"flagship": "DD"}]),
            fleet("G1", owner="beta", at="B"),  # one DD: 5 hits cannot cripple F1 (DS 6)
            fleet("G2", owner="beta", at="C", squadrons=[{"flagship": "BB"}] * 3),
        ],
    )
    raw["diplomacy"] = [{"houses": ["alpha", "beta"], "status": "enemy"}]
    return parse_game(raw)


def test_a_retreat_meets_hostiles_on_arrival_once() -> None:  # 7.3.5, G14
    state = _retreat_game()
    result = turn(state, parse_orders({"game_id": "test", "turn": 5}, state))
    waves = [(b["system"], b["wave"]) for b in result.battles]
    # no battle at C before F1 arrives (an undefended colony and no alpha fleet); then one
    assert waves == [("B", 1), ("C", 2)]


def test_same_inputs_same_bytes() -> None:
    state = load_game(GAME / "state.json")
    orders = load_orders(GAME / "orders-turn-1.json", state)
    a, b = turn(state, orders), turn(state, orders)
    assert dumps(a.state.to_json()) == dumps(b.state.to_json())
    assert json.dumps(a.reports, sort_keys=True) == json.dumps(b.reports, sort_keys=True)
