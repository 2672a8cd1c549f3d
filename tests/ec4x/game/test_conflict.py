"""The conflict phase end to end: the example game's three turns (examples/ec4x/game), a
retreat with a second battle on arrival (7.3.5 "No Retreat Sanctuary"), determinism."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from spacecombat.cli.turn import dumps
from spacecombat.core.dice import ScriptedDice
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


def _long_retreat(options: dict[str, str] | None = None) -> GameState:
    """alpha's fleet F1 at A meets a beta destroyer and retreats (ROE 0: at once; a
    destroyer, not battleships, so that it is not destroyed before it can, E24's 2 x DS); its
    only colony, its closest friendly system, is D, three major jumps away: A-B-C-D."""
    raw = data(
        "A-B major, B-C major, C-D major",
        colonies={"D": "alpha"},
        explored={"alpha": ["C"]},
        fleets=[
            fleet("F1", at="A", roe=0, squadrons=[{"flagship": "DD"}]),
            fleet("G1", owner="beta", at="A", squadrons=[{"flagship": "DD"}]),
        ],
        options=options,
    )
    raw["diplomacy"] = [{"houses": ["alpha", "beta"], "status": "enemy"}]
    return parse_game(raw)


def _retreat_of(result: Any) -> list[dict[str, Any]]:
    return [e for e in result.reports["alpha"]["events"] if "retreat" in str(e.get("event"))]


def test_a_retreat_goes_one_move_and_continues_next_turn() -> None:  # 7.3.5, 6.1, G30
    """Default ``retreat_range: one_move``: one jump to B (B is not alpha's, so no second
    jump, 6.1), order 01 to D; the next turns move on to D, where it holds."""
    state = _long_retreat()
    result = turn(state, parse_orders({"game_id": "test", "turn": 5}, state))
    f1 = result.state.fleet("F1")
    assert (f1.location, f1.order_code, f1.order.target) == ("B", 1, "D")  # type: ignore[union-attr]
    assert _retreat_of(result) == [
        {"event": "retreated", "fleet": "F1", "path": ["A", "B"]},
        {"event": "retreat_continues", "fleet": "F1", "toward": "D"},
    ]
    s = result.state
    for _ in range(2):
        s = turn(s, parse_orders({"game_id": "test", "turn": s.turn}, s)).state
    assert (s.fleet("F1").location, s.fleet("F1").order_code) == ("D", 0)


def test_a_retreat_reaches_the_friendly_system_at_once_with_whole_way() -> None:  # G30
    state = _long_retreat({"retreat_range": "whole_way"})
    result = turn(state, parse_orders({"game_id": "test", "turn": 5}, state))
    f1 = result.state.fleet("F1")
    assert (f1.location, f1.order_code) == ("D", 0)
    assert _retreat_of(result) == [
        {"event": "retreated", "fleet": "F1", "path": ["A", "B", "C", "D"]}
    ]


def _passing(options: dict[str, str] | None = None, status: str = "enemy") -> GameState:
    """alpha owns A and B; C is explored; beta's fleet G1 stands in B. alpha's F1 moves A → C:
    two major jumps through B (6.1)."""
    raw = data(
        "A-B major, B-C major",
        colonies={"A": "alpha", "B": "alpha"},
        explored={"alpha": ["C"]},
        fleets=[
            fleet(
                "F1", at="A", order={"code": 1, "target": "C"}, squadrons=[{"flagship": "BB"}] * 3
            ),
            fleet("G1", owner="beta", at="B"),
        ],
        options=options,
    )
    raw["diplomacy"] = [{"houses": ["alpha", "beta"], "status": status}]
    return parse_game(raw)


def test_a_two_jump_move_passes_enemy_fleets_by_default() -> None:  # 6.1, G35
    state = _passing()
    result = turn(state, parse_orders({"game_id": "test", "turn": 5}, state))
    assert result.moves["F1"] == ("A", "B", "C")
    assert result.state.fleet("F1").location == "C"
    assert result.battles == ()


def test_a_two_jump_move_stops_at_enemy_fleets_with_stops() -> None:  # G35
    """``pass_through: stops``: F1 ends its move in B, fights beta there (alpha's own
    system: beta's fleet is an Enemy in alpha's territory), and keeps its order to C."""
    state = _passing({"pass_through": "stops"})
    result = turn(state, parse_orders({"game_id": "test", "turn": 5}, state))
    assert result.moves["F1"] == ("A", "B")
    assert {"event": "stopped", "fleet": "F1", "system": "B"} in result.reports["alpha"]["events"]
    assert [b["system"] for b in result.battles] == ["B"]
    f1 = result.state.fleet("F1")
    assert (f1.location, f1.order_code) == ("B", 1)


def test_only_enemy_fleets_stop_a_move() -> None:  # G35
    state = _passing({"pass_through": "stops"}, status="neutral")
    result = turn(state, parse_orders({"game_id": "test", "turn": 5}, state))
    assert result.moves["F1"] == ("A", "B", "C")


def _crisis(prestige: int, options: dict[str, str] | None = None) -> GameState:
    """alpha (prestige given) has F1 and F2 at A, both ordered to B."""
    raw = data(
        "A-B minor",
        fleets=[
            fleet("F1", order={"code": 1, "target": "B"}),
            fleet("F2", order={"code": 1, "target": "B"}),
        ],
        options=options,
    )
    raw["houses"]["alpha"]["prestige"] = prestige
    return parse_game(raw)


@pytest.mark.parametrize(("pick", "refuses", "moves"), [(0, "F1", "F2"), (1, "F2", "F1")])
def test_morale_crisis_one_random_fleet_holds_for_the_turn(
    pick: int, refuses: str, moves: str
) -> None:  # 7.1.4, G36
    """Prestige 0: "One random fleet refuses orders and holds position for the turn": the
    turn's first draw is a pick among alpha's fleets (by id); that one stays at A and keeps
    its order 01 for next turn, the other moves."""
    state = _crisis(0)
    orders = parse_orders({"game_id": "test", "turn": 5}, state)
    result = turn(state, orders, dice=ScriptedDice(picks=[pick]))
    assert set(result.moves) == {moves}
    assert result.state.fleet(refuses).location == "A"
    assert result.state.fleet(refuses).order_code == 1
    assert result.state.fleet(moves).location == "B"
    event = {"event": "refused_orders", "fleet": refuses, "reason": "morale crisis (7.1.4)"}
    assert event in result.reports["alpha"]["events"]


def test_no_crisis_no_draw() -> None:  # 7.1.4: prestige above 0
    state = _crisis(1)
    result = turn(state, parse_orders({"game_id": "test", "turn": 5}, state), dice=ScriptedDice())
    assert set(result.moves) == {"F1", "F2"}


def test_crisis_refusal_ignore_draws_nothing() -> None:  # E44 option in a game, G36
    state = _crisis(-5, {"crisis_refusal": "ignore"})
    result = turn(state, parse_orders({"game_id": "test", "turn": 5}, state), dice=ScriptedDice())
    assert set(result.moves) == {"F1", "F2"}
