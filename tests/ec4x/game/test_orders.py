"""Each of 6.2's sixteen orders: its requirement (refused by name, the fleet holds) and its
effect, on small hand-made maps (tests/ec4x/game/helpers.py)."""

from __future__ import annotations

from typing import Any

import pytest

from spacecombat.core.errors import ScenarioError
from spacecombat.rulesets.ec4x.turn.conflict import TurnResult, turn
from spacecombat.rulesets.ec4x.turn.game import parse_game
from spacecombat.scenario.ec4x_game import GameState
from spacecombat.scenario.ec4x_orders import parse_orders
from tests.ec4x.game.helpers import data, fleet

SCOUT: dict[str, Any] = {"squadrons": [], "scouts": [{"eli": 1}]}
ETAC: dict[str, Any] = {"spacelift": {"ET": 1}}


def game(lanes: str = "A-B major, B-C major, C-D minor", **fields: Any) -> GameState:
    raw = data(lanes, **fields)
    raw["diplomacy"] = [{"houses": ["alpha", "beta"], "status": "enemy"}]
    return parse_game(raw)


def play(state: GameState, **orders: list[dict[str, Any]]) -> TurnResult:
    return turn(state, parse_orders({"game_id": "test", "turn": 5, "orders": orders}, state))


def where(result: TurnResult, fid: str) -> str | None:
    return next((f.location for f in result.state.fleets if f.id == fid), None)


def refused(result: TurnResult, house: str, fid: str) -> str | None:
    items = result.reports[house]["orders"]
    return next((i.get("refused") for i in items if i["fleet"] == fid), None)


def test_00_hold_position_stays() -> None:  # 6.2.1
    r = play(game(colonies={"A": "alpha"}), alpha=[{"fleet": "F1", "order": 0}])
    assert where(r, "F1") == "A"
    assert r.moves == {}


def test_01_move_fleet_then_holds() -> None:  # 6.2.2 "Move ... and hold position (00)"
    s = game(colonies={"A": "alpha", "B": "alpha"}, explored={"alpha": ["C"]})
    r = play(s, alpha=[{"fleet": "F1", "order": {"code": 1, "target": "C"}}])
    assert r.moves["F1"] == ("A", "B", "C")
    assert r.state.fleet("F1").order == 0


def test_01_move_fleet_far_takes_turns_and_keeps_its_order() -> None:  # 6.2.2, 6.1
    r = play(game(), alpha=[{"fleet": "F1", "order": {"code": 1, "target": "D"}}])
    assert r.moves["F1"] == ("A", "B")
    assert r.state.fleet("F1").order_code == 1


def test_02_seek_home_goes_to_the_closest_friendly_system() -> None:  # 6.2.3
    s = game(colonies={"C": "alpha", "D": "alpha"}, fleets=[fleet(at="B")])
    r = play(s, alpha=[{"fleet": "F1", "order": 2}])
    assert where(r, "F1") == "C"
    assert r.state.fleet("F1").order == 0


def test_02_seek_home_retargets_when_home_falls() -> None:  # 6.2.3 "the next closest planet"
    s = game(colonies={"D": "alpha"}, fleets=[fleet(at="B")])
    r = play(s, alpha=[{"fleet": "F1", "order": 2}])
    assert where(r, "F1") == "C"  # toward D, the only one left


def test_02_seek_home_without_friendly_system_is_refused() -> None:  # 6.2.3
    r = play(game(), alpha=[{"fleet": "F1", "order": 2}])
    assert "friendly system" in (refused(r, "alpha", "F1") or "")


def test_03_patrol_engages_enemies_and_reports_them() -> None:  # 6.2.4
    s = game(fleets=[fleet("F1", at="B"), fleet("G1", owner="beta", at="B")])
    r = play(s, alpha=[{"fleet": "F1", "order": 3}])
    assert [b["system"] for b in r.battles] == ["B"]
    assert r.reports["alpha"]["battles"][0]["system"] == "B"


def test_03_patrol_gathers_intelligence_on_neutral_forces() -> None:  # 6.2.4
    raw = data("A-B major", fleets=[fleet("F1", at="B"), fleet("G1", owner="beta", at="B")])
    s = parse_game(raw)  # neutral: no battle
    r = play(s, alpha=[{"fleet": "F1", "order": 3}])
    assert r.battles == ()
    intel = r.reports["alpha"]["intelligence"]
    assert intel[0]["fleets"][0]["fleet"] == "G1"
    assert r.reports["beta"]["intelligence"] == []


@pytest.mark.parametrize("code", [4, 5, 6, 7])
def test_04_to_07_need_combat_ships(code: int) -> None:  # 6.2 table
    s = game(fleets=[fleet(squadrons=[], scouts=[{"eli": 1}], spacelift={"TT": 1})])
    r = play(s, alpha=[{"fleet": "F1", "order": code}])
    assert "combat ship(s)" in (refused(r, "alpha", "F1") or "")
    assert r.state.fleet("F1").order == 0


def test_08_blitz_needs_loaded_troop_transports() -> None:  # 6.2.9
    r = play(game(), alpha=[{"fleet": "F1", "order": 8}])
    assert "loaded Troop Transports" in (refused(r, "alpha", "F1") or "")


@pytest.mark.parametrize("code", [9, 10, 11])
def test_09_to_11_need_one_scout_alone(code: int) -> None:  # 6.2.10-6.2.12
    r = play(game(fleets=[fleet(scouts=[{"eli": 1}])]), alpha=[{"fleet": "F1", "order": code}])
    assert "one Scout ship" in (refused(r, "alpha", "F1") or "")


def test_12_colonize_needs_an_etac() -> None:  # 6.2.13
    r = play(game(), alpha=[{"fleet": "F1", "order": 12}])
    assert "one ETAC" in (refused(r, "alpha", "F1") or "")


def test_15_salvage_needs_a_friendly_colony() -> None:  # 6.2.16
    r = play(game(), alpha=[{"fleet": "F1", "order": 15}])
    assert "friendly colony" in (refused(r, "alpha", "F1") or "")


def test_04_guard_a_starbase_holds_back_without_threat() -> None:  # 6.2.5, 7.3
    s = game(colonies={"A": "alpha"}, fleets=[fleet("F1"), fleet("G1", owner="beta", at="B")])
    r = play(s, alpha=[{"fleet": "F1", "order": 4}])
    assert r.battles == ()
    assert where(r, "F1") == "A"


def test_05_blockade_costs_prestige_and_cuts_gco() -> None:  # 6.2.6, facts §11
    s = game(colonies={"B": "beta"}, fleets=[fleet("F1", at="A")])
    r = play(s, alpha=[{"fleet": "F1", "order": {"code": 5, "target": "B"}}])
    assert r.state.houses["beta"].prestige == 48
    colony = r.reports["beta"]["colonies"][0]
    assert colony["blockaded"] is True
    assert colony["gco_factor"] == 0.4
    assert r.reports["alpha"]["blockading"] == ["B"]
    # the next turn begins blockaded: −2 again
    r2 = turn(r.state, parse_orders({"game_id": "test", "turn": 6}, r.state))
    assert r2.state.houses["beta"].prestige == 46
    # lifted: full GCO and no loss the turn after
    r3 = turn(
        r2.state,
        parse_orders(
            {"game_id": "test", "turn": 7, "orders": {"alpha": [{"fleet": "F1", "order": 0}]}},
            r2.state,
        ),
    )
    assert r3.reports["beta"]["colonies"][0]["gco_factor"] == 0.4  # it began blockaded
    r4 = turn(r3.state, parse_orders({"game_id": "test", "turn": 8}, r3.state))
    assert r4.reports["beta"]["colonies"][0]["blockaded"] is False
    assert r4.state.houses["beta"].prestige == r3.state.houses["beta"].prestige


@pytest.mark.parametrize(("code", "mission"), [(6, "bombard"), (8, "blitz")])
def test_06_08_planetary_combat_is_played_when_a_colony_is_attacked(
    code: int, mission: str
) -> None:  # 7.5, 7.6; tests/ec4x/game/test_planetary_turn.py has the rest
    s = game(colonies={"B": "beta"}, fleets=[fleet(at="B", spacelift={"TT": 1})])
    r = play(s, alpha=[{"fleet": "F1", "order": code}])
    assert r.battles[0]["outcome"]["colony"]["mission"] == mission


def test_06_bombard_without_a_colony_is_harmless() -> None:  # 6.2.7 needs a planet to attack
    r = play(game(), alpha=[{"fleet": "F1", "order": 6}])
    assert where(r, "F1") == "A"


def test_11_spy_reports_without_rival_eli() -> None:  # 6.2.12, facts §4
    s = game(fleets=[fleet("F1", **SCOUT), fleet("G1", owner="beta", at="B")])
    r = play(s, alpha=[{"fleet": "F1", "order": {"code": 11, "target": "B"}}])
    intel = r.reports["alpha"]["intelligence"]
    assert intel[0]["fleets"][0]["fleet"] == "G1"
    assert r.battles == ()  # spies take no part in space combat (E48)


def test_09_a_detected_spy_is_destroyed() -> None:  # facts §4: spy ELI1 vs ELI5 detector 0-1
    watcher = fleet("G1", owner="beta", at="B", squadrons=[], scouts=[{"eli": 5, "count": 6}])
    s = game(colonies={"B": "beta"}, fleets=[fleet("F1", at="B", **SCOUT), watcher])
    r = play(s, alpha=[{"fleet": "F1", "order": 9}])
    assert where(r, "F1") is None
    assert r.state.houses["alpha"].prestige == 47  # −3 (facts §11)
    assert r.ledger["destroyed"] == {"SC": 1}


def test_10_hack_a_starbase_without_one_fails() -> None:  # 6.2.11 (G16)
    s = game(colonies={"B": "beta"}, fleets=[fleet("F1", at="B", **SCOUT)])
    r = play(s, alpha=[{"fleet": "F1", "order": 10}])
    assert r.reports["alpha"]["intelligence"][0]["result"] == "no rival starbase to hack"


def test_12_colonize_lands_a_level_one_colony_and_uses_the_etac() -> None:  # 6.2.13
    r = play(
        game(fleets=[fleet(**ETAC)]), alpha=[{"fleet": "F1", "order": {"code": 12, "target": "B"}}]
    )
    colony = r.state.system("B").colony()
    assert colony is not None
    assert colony.owner == "alpha"
    assert colony.pu == 1
    assert r.state.fleet("F1").spacelift == {}
    assert r.ledger["consumed"] == {"ET": 1}


def test_12_colonize_an_occupied_system_holds() -> None:  # 6.2.13
    s = game(colonies={"A": "beta"}, fleets=[fleet(**ETAC, at="A")])
    raw = s.to_json()
    raw["diplomacy"] = []
    s = parse_game(raw)
    r = play(s, alpha=[{"fleet": "F1", "order": 12}])
    assert r.state.system("A").colony().owner == "beta"  # type: ignore[union-attr]
    assert r.state.fleet("F1").order == 0


def test_13_join_another_fleet_merges() -> None:  # 6.2.14
    s = game(fleets=[fleet("F1"), fleet("F2", at="B")])
    r = play(s, alpha=[{"fleet": "F2", "order": {"code": 13, "target": "F1"}}])
    assert [f.id for f in r.state.fleets] == ["F1"]
    assert len(r.state.fleet("F1").squadrons) == 2


def test_13_joiners_hold_when_the_host_is_gone() -> None:  # 6.2.14
    s = game(colonies={"A": "alpha"}, fleets=[fleet("F1"), fleet("F2", at="C")])
    r = play(
        s,
        alpha=[
            {"fleet": "F1", "order": 15},
            {"fleet": "F2", "order": {"code": 13, "target": "F1"}},
        ],
    )
    assert r.state.fleet("F2").order == 0


def test_14_rendezvous_lowest_id_hosts() -> None:  # 6.2.15
    s = game(fleets=[fleet("F2"), fleet("F1", at="C"), fleet("F3", at="B")])
    go = {"code": 14, "target": "B"}
    r = play(s, alpha=[{"fleet": f, "order": go} for f in ("F1", "F2", "F3")])
    assert [f.id for f in r.state.fleets] == ["F1"]
    assert len(r.state.fleet("F1").squadrons) == 3
    assert r.state.fleet("F1").location == "B"


def test_15_salvage_credits_half_the_pc() -> None:  # 6.2.16, facts other.salvage
    s = game(colonies={"A": "alpha"}, fleets=[fleet(squadrons=[{"flagship": "CA"}])])
    r = play(s, alpha=[{"fleet": "F1", "order": 15}])
    assert r.state.fleets == ()
    assert r.reports["alpha"]["credited_pp"] == 40
    assert r.ledger["salvaged"] == {"CA": 1}


def test_roe_in_orders_replaces_the_fleets() -> None:  # 7.1.1
    r = play(game(), alpha=[{"fleet": "F1", "order": 0, "roe": 9}])
    assert r.state.fleet("F1").roe == 9


@pytest.mark.parametrize(
    ("orders", "field"),
    [
        ({"game_id": "other", "turn": 5}, "game_id"),
        ({"game_id": "test", "turn": 4}, "turn"),
        ({"game_id": "test", "turn": 5, "orders": {"alpha": [{"fleet": "X", "order": 0}]}},
         "orders.alpha[0].fleet"),
        ({"game_id": "test", "turn": 5, "orders": {"beta": [{"fleet": "F1", "order": 0}]}},
         "orders.beta[0].fleet"),
        ({"game_id": "test", "turn": 5,
          "orders": {"alpha": [{"fleet": "F1", "order": {"code": 1, "target": "Z"}}]}},
         "orders.alpha[0].order.target"),
        ({"game_id": "test", "turn": 5, "orders": {"alpha": [{"fleet": "F1", "order": 1}]}},
         "orders.alpha[0].order"),
        ({"game_id": "test", "turn": 5, "orders": {"zeta": []}}, "orders.zeta"),
    ],
)  # fmt: skip
def test_bad_orders_name_the_field(orders: dict[str, Any], field: str) -> None:
    with pytest.raises(ScenarioError) as caught:
        parse_orders(orders, game())
    assert caught.value.field == field


def test_14_rendezvous_host_is_the_lowest_id_number() -> None:  # 6.2.15, G31
    """ "The fleet with the lowest ID Number becomes the host": alpha-2 before alpha-10 (as
    text alpha-10 would come first)."""
    s = game(fleets=[fleet("alpha-10"), fleet("alpha-2", at="B"), fleet("alpha-9", at="C")])
    go = {"code": 14, "target": "B"}
    r = play(s, alpha=[{"fleet": f, "order": go} for f in ("alpha-10", "alpha-2", "alpha-9")])
    assert [f.id for f in r.state.fleets] == ["alpha-2"]
    assert len(r.state.fleet("alpha-2").squadrons) == 3


@pytest.mark.parametrize(
    ("ids", "lowest"),
    [
        (["F10", "F9", "F100"], "F9"),
        (["a-2-10", "a-2-9"], "a-2-9"),
        (["b1", "a10"], "a10"),  # the text before the number first
        (["F02", "F2"], "F02"),  # equal numbers: by the text
        (["F", "F0"], "F"),
    ],
)
def test_id_numbers_compare_in_natural_order(ids: list[str], lowest: str) -> None:  # G31
    from spacecombat.rulesets.ec4x.turn.orders import id_number_order

    assert min(ids, key=id_number_order) == lowest


def test_14_a_fleet_arriving_a_turn_later_still_merges() -> None:  # 6.2.15, G32
    """F1 and F2 meet at B on turn 5 and merge (F1 hosts and keeps order 14 there); F3, two
    jumps away on minor lanes, arrives on turn 6 and merges into F1 too."""
    s = game(
        lanes="A-B minor, B-C minor, C-D minor",
        fleets=[fleet("F1", at="B"), fleet("F2", at="A"), fleet("F3", at="D")],
    )
    go = {"code": 14, "target": "B"}
    r = play(s, alpha=[{"fleet": f, "order": go} for f in ("F1", "F2", "F3")])
    assert [f.id for f in r.state.fleets] == ["F1", "F3"]
    host = r.state.fleet("F1")
    assert (host.order_code, len(host.squadrons)) == (14, 2)
    again = turn(r.state, parse_orders({"game_id": "test", "turn": 6, "orders": {}}, r.state))
    assert [f.id for f in again.state.fleets] == ["F1"]
    assert len(again.state.fleet("F1").squadrons) == 3
    assert again.state.fleet("F1").location == "B"


def test_14_a_fleet_waiting_at_its_rendezvous_fights_as_00() -> None:  # G32
    """A host waiting under 14 at its target (there since the turn began) fights as under 00;
    a fleet just arriving under 14 fights under 14 (a movement order, 7.2)."""
    from spacecombat.core.dice import SplitMixDice
    from spacecombat.rulesets.ec4x.turn import orders as o
    from spacecombat.rulesets.ec4x.turn.conflict import _Battles

    go = {"code": 14, "target": "B"}
    s = game(fleets=[fleet("F1", at="B", order=go), fleet("F2", at="A", order=go)])
    world = o.World(
        state=s, options=o.TurnOptions(), fleets={f.id: f for f in s.fleets}, colonies={}
    )
    battles = _Battles(world, SplitMixDice(1))
    arrived = s.fleet("F2").model_copy(update={"location": "B"})
    assert battles.acting(s.fleet("F1"), "B") == 0
    assert battles.acting(arrived, "B") == 14


def test_01_waypoints_are_visited_in_turn_then_the_target() -> None:  # 6.2.2, G34
    """A-B-C-D in a line of minor lanes and a side lane A-D: straight to D is one jump, but
    via C the fleet goes A-B, B-C (each turn's move ends at the waypoint it heads for), then
    C-D, where it holds. The standing order keeps the waypoints not yet reached."""
    s = game(lanes="A-B minor, B-C minor, C-D minor, A-D minor")
    go = {"code": 1, "target": "D", "via": ["C"]}
    r = play(s, alpha=[{"fleet": "F1", "order": go}])
    assert r.moves["F1"] == ("A", "B")
    assert r.state.fleet("F1").order.via == ("C",)  # type: ignore[union-attr]
    states = [r.state]
    for _ in range(2):
        last = states[-1]
        states.append(turn(last, parse_orders({"game_id": "test", "turn": last.turn}, last)).state)
    assert [x.fleet("F1").location for x in states] == ["B", "C", "D"]
    assert states[1].fleet("F1").order.via is None  # type: ignore[union-attr]
    assert states[2].fleet("F1").order == 0


def test_01_a_waypoint_where_the_fleet_is_counts_as_reached() -> None:  # G34
    s = game(lanes="A-B minor, B-C minor")
    r = play(s, alpha=[{"fleet": "F1", "order": {"code": 1, "target": "C", "via": ["A", "B"]}}])
    assert r.moves["F1"] == ("A", "B")
    assert r.state.fleet("F1").order.via is None  # type: ignore[union-attr]


@pytest.mark.parametrize(
    ("order", "field", "says"),
    [
        ({"code": 1, "target": "C", "via": ["Z"]}, "orders.alpha[0].order.via[0]", "not a system"),
        ({"code": 3, "target": "C", "via": ["B"]}, "orders.alpha[0].order.via", "only order 01"),
        ({"code": 1, "target": "C", "via": ["B", "B"]}, "orders.alpha[0].order.via[1]", "also"),
        ({"code": 1, "target": "C", "via": ["A", "B"] * 11}, "orders.alpha[0].order.via", "limit"),
    ],
)
def test_bad_waypoints_are_refused_naming_the_field(
    order: dict[str, Any], field: str, says: str
) -> None:  # G34
    s = game()
    with pytest.raises(ScenarioError) as caught:
        play(s, alpha=[{"fleet": "F1", "order": order}])
    assert caught.value.field == field
    assert says in caught.value.message


def test_waypoints_in_the_state_are_checked() -> None:  # G34
    with pytest.raises(ScenarioError) as caught:
        game(fleets=[fleet(order={"code": 1, "target": "C", "via": ["Q"]})])
    assert caught.value.field == "fleets[0].order.via[0]"
