"""Planetary combat in a turn (7.5, 7.6; E62-E69; G21-G23): bombardment, invasion and blitz
played by the battle ruleset inside the conflict phase, and their end applied to the next
state (the colony, its owner, the transports, prestige, the reports)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from spacecombat.cli import main
from spacecombat.core.errors import RuleNotImplemented
from spacecombat.rulesets.ec4x.turn.conflict import TurnResult, turn
from spacecombat.rulesets.ec4x.turn.game import parse_game
from spacecombat.rulesets.ec4x.turn.orders import ships_of
from spacecombat.scenario.ec4x import GroundSpec
from spacecombat.scenario.ec4x_game import GameState
from spacecombat.scenario.ec4x_orders import parse_orders
from tests.ec4x.game.helpers import data, fleet

BIG = [{"flagship": "BB"}, {"flagship": "BB"}, {"flagship": "CA"}]


def game(colony: dict[str, Any], fleets: list[dict[str, Any]]) -> GameState:
    """Alpha at A, beta's colony at B (``colony`` its fields), the houses at war."""
    raw = data("A-B major, B-C minor", colonies={"A": "alpha", "B": "beta"}, fleets=fleets)
    raw["systems"][1]["planets"][0]["colony"] = {"owner": "beta", **colony}
    raw["diplomacy"] = [{"houses": ["alpha", "beta"], "status": "enemy"}]
    return parse_game(raw)


def play(state: GameState, **orders: list[dict[str, Any]]) -> TurnResult:
    return turn(state, parse_orders({"game_id": "test", "turn": 5, "orders": orders}, state))


def colony_at(result: TurnResult, system: str = "B") -> Any:
    return result.state.system(system).colony()


def planetary(result: TurnResult, house: str) -> dict[str, Any]:
    found: list[dict[str, Any]] = [
        b["planetary"] for b in result.reports[house]["battles"] if "planetary" in b
    ]
    (one,) = found
    return one


def by_state(units: dict[str, int]) -> GroundSpec:
    """Ground units as an outcome's block gives them, undamaged and crippled."""
    return GroundSpec(undamaged=units["undamaged"], crippled=units["crippled"])


def accounted(before: GameState, result: TurnResult) -> None:
    """Every ship of the start is in a fleet of the next state or in the ledger."""
    start: dict[str, int] = {}
    for f in before.fleets:
        for code, n in ships_of(f).items():
            start[code] = start.get(code, 0) + n
    end: dict[str, int] = {}
    for f in result.state.fleets:
        for code, n in ships_of(f).items():
            end[code] = end.get(code, 0) + n
    for book in result.ledger.values():
        for code, n in book.items():
            end[code] = end.get(code, 0) + n
    assert start == end


def test_bombardment_turn_damages_the_colony_alone_in_orbit() -> None:  # 7.5, E62
    s = game(
        {"pu": 100, "iu": 40, "batteries": 1, "armies": 2, "spaceports": 1},
        [fleet(at="B", squadrons=BIG)],
    )
    r = play(s, alpha=[{"fleet": "F1", "order": 6}])
    (record,) = r.battles  # no space combat, yet the system is resolved
    block = record["outcome"]["colony"]
    assert block["mission"] == "bombard"
    assert block["result"] == "bombarded"
    c = colony_at(r)
    assert c.owner == "beta"
    assert (c.iu, c.pu, c.spaceports) == (block["iu"], block["pu"], block["spaceports"])
    assert c.batteries == by_state(block["batteries"])  # each in its state (7.1.2)
    assert c.armies == by_state(block["armies"])
    assert (c.batteries, c.armies, c.iu) != (GroundSpec(undamaged=1), GroundSpec(undamaged=2), 40)
    assert planetary(r, "alpha") == planetary(r, "beta")
    assert r.state.fleet("F1").order_code == 6  # it keeps bombarding (standing order)
    assert r.state.houses["alpha"].prestige == r.state.houses["beta"].prestige == 50
    accounted(s, r)


def test_successful_invasion_changes_owner_halves_iu_and_prestige() -> None:  # 7.6.1, §11
    s = game(
        {"pu": 200, "iu": 40, "armies": 1, "shield": 1, "spaceports": 1},
        [fleet(at="B", squadrons=BIG, spacelift={"TT": 6})],
    )
    r = play(s, alpha=[{"fleet": "F1", "order": 7}])
    block = r.battles[0]["outcome"]["colony"]
    assert block["result"] == "conquered"
    c = colony_at(r)
    assert c.owner == "alpha"
    assert c.iu == block["iu"] <= 20  # loyal citizens destroy 50% (E69)
    assert (c.shield, c.spaceports, c.armies, c.batteries) == (0, 0, GroundSpec(), GroundSpec())
    invaders = block["invaders"]
    assert c.marines == by_state(invaders)  # G22
    assert invaders["undamaged"] + invaders["crippled"] > 0
    f1 = r.state.fleet("F1")
    assert f1.spacelift == {"TT": 6}
    assert f1.loaded_tt == 0
    assert f1.order_code == 0
    assert r.state.houses["alpha"].prestige == 60
    assert r.state.houses["beta"].prestige == 40
    changes = r.reports["beta"]["prestige"]["changes"]
    assert {"reason": "colony in B lost", "change": -10} in changes
    assert planetary(r, "beta")["owner_after"] == "alpha"
    assert any(e["event"] == "planetary_combat" for e in r.reports["beta"]["events"])
    assert r.reports["alpha"]["colonies"][-1]["system"] == "B"
    accounted(s, r)


def test_failed_invasion_keeps_the_colony() -> None:  # 7.6.1, E69
    s = game(
        {"pu": 200, "iu": 40, "armies": 8},
        [fleet(at="B", spacelift={"TT": 1})],
    )
    r = play(s, alpha=[{"fleet": "F1", "order": 7}])
    block = r.battles[0]["outcome"]["colony"]
    assert block["mission"] == "invade"
    assert block["result"] in ("held", "stalemate", "failed")
    c = colony_at(r)
    assert c.owner == "beta"
    assert c.armies == by_state(block["armies"]) != GroundSpec()
    assert c.marines == GroundSpec()  # no invader stays on the ground (G22)
    assert r.state.houses["alpha"].prestige == r.state.houses["beta"].prestige == 50
    if block["invaders"]["landed"]:
        assert r.state.fleet("F1").loaded_tt == 0
    accounted(s, r)


def test_blitz_seizes_the_assets() -> None:  # 7.6.2
    s = game(
        {"pu": 100, "iu": 40, "batteries": 1, "shield": 2, "spaceports": 1, "shipyards": 1},
        [fleet(at="B", squadrons=[], spacelift={"TT": 6})],
    )
    r = play(s, alpha=[{"fleet": "F1", "order": 8}])
    block = r.battles[0]["outcome"]["colony"]
    assert block["mission"] == "blitz"
    assert block["result"] == "conquered"
    assert block["seized"]
    c = colony_at(r)
    assert c.owner == "alpha"
    assert (c.iu, c.shield, c.spaceports, c.shipyards) == (40, 2, 1, 1)
    assert c.batteries.undamaged + c.batteries.crippled == block["batteries"]["seized"] == 1
    f1 = r.state.fleet("F1")
    assert f1.loaded_tt == 0
    assert f1.spacelift.get("TT", 0) == 6 - r.ledger.get("destroyed", {}).get("TT", 0)
    assert r.state.houses["alpha"].prestige == 60
    assert r.state.houses["beta"].prestige == 40
    accounted(s, r)


def test_a_fleet_passing_through_under_07_does_not_invade() -> None:  # G21
    s = game(
        {"pu": 100, "iu": 40, "starbases": [{"eli": 1}]},
        [fleet(at="A", squadrons=BIG * 3, spacelift={"TT": 2}, roe=10)],
    )
    r = play(s, alpha=[{"fleet": "F1", "order": {"code": 7, "target": "C"}}])
    assert r.moves["F1"] == ("A", "B")  # into a rival system: one jump (6.1)
    (record,) = r.battles  # beta's starbase fights it (E54) ...
    assert "mission" not in record["outcome"].get("colony", {})  # ... but nobody lands
    assert colony_at(r).owner == "beta"
    assert colony_at(r).iu == 40
    f1 = r.state.fleet("F1")
    assert (f1.order_code, f1.loaded_tt) == (7, None)
    accounted(s, r)


def test_invade_and_blitz_by_one_house_is_refused() -> None:  # E62
    s = game(
        {"pu": 100},
        [
            fleet("F1", at="B", spacelift={"TT": 1}),
            fleet("F2", at="B", squadrons=[], spacelift={"TT": 1}),
        ],
    )
    with pytest.raises(RuleNotImplemented, match="F1, F2 in B"):
        play(s, alpha=[{"fleet": "F1", "order": 7}, {"fleet": "F2", "order": 8}])


def test_the_turn_command_reports_a_refused_siege_as_exit_2(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:  # E62
    s = game(
        {"pu": 100},
        [
            fleet("F1", at="B", spacelift={"TT": 1}),
            fleet("F2", at="B", squadrons=[], spacelift={"TT": 1}),
        ],
    )
    (tmp_path / "state.json").write_text(json.dumps(s.to_json()))
    orders = {"F1": 7, "F2": 8}
    alpha = [{"fleet": f, "order": c} for f, c in orders.items()]
    (tmp_path / "orders.json").write_text(
        json.dumps({"game_id": "test", "turn": 5, "orders": {"alpha": alpha}})
    )
    args = ["turn", str(tmp_path / "state.json"), str(tmp_path / "orders.json")]
    assert main(args) == 2
    err = capsys.readouterr().err
    assert "orders for F1, F2 in B" in err
    assert "(08) by one house" in err


def test_same_inputs_same_planetary_turn() -> None:
    s = game(
        {"pu": 200, "iu": 40, "armies": 2}, [fleet(at="B", squadrons=BIG, spacelift={"TT": 3})]
    )
    a = play(s, alpha=[{"fleet": "F1", "order": 7}])
    b = play(s, alpha=[{"fleet": "F1", "order": 7}])
    assert a.state == b.state
    assert a.reports == b.reports


def test_a_blitz_whose_transports_all_fall_loses_the_fleet() -> None:  # 7.6.2, G23
    s = game(
        {"pu": 100, "batteries": 6, "armies": 4},
        [fleet(at="B", squadrons=[], spacelift={"TT": 1})],
    )
    r = play(s, alpha=[{"fleet": "F1", "order": 8}])
    block = r.battles[0]["outcome"]["colony"]
    assert block["mission"] == "blitz"
    assert colony_at(r).owner == "beta"
    assert block["invaders"]["landed"] == 0
    assert all(f.id != "F1" for f in r.state.fleets)
    assert r.ledger["destroyed"] == {"TT": 1}
    accounted(s, r)
