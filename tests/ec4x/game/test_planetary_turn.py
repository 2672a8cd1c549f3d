"""Planetary combat in a turn (7.5, 7.6; E62-E69; G21-G23): bombardment, invasion and blitz
played by the battle ruleset inside the conflict phase, and their end applied to the next
state (the colony, its owner, the transports, prestige, the reports)."""

from __future__ import annotations

from typing import Any

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


def invade_and_blitz(**options: str) -> GameState:
    """Alpha's F1 (a DD, one loaded TT) and F2 (one loaded TT) at beta's undefended colony:
    no battery and no garrison, so whatever the dice the first landing takes it."""
    s = game(
        {"pu": 100, "iu": 40},
        [
            fleet("F1", at="B", spacelift={"TT": 1}),
            fleet("F2", at="B", squadrons=[], spacelift={"TT": 1}),
        ],
    )
    if not options:
        return s
    return parse_game(s.to_json() | {"options": options})


def invade_f1_blitz_f2(state: GameState) -> TurnResult:
    return play(state, alpha=[{"fleet": "F1", "order": 7}, {"fleet": "F2", "order": 8}])


def test_g25_invasion_then_blitz_in_a_turn() -> None:
    """G25 default: F1's invasion takes the colony (no battery, no garrison); F2's blitz is
    abandoned (G24: no siege after the colony falls): its transport stays loaded, and both
    fleets hold (G23: after a conquest every fleet of the conqueror holds)."""
    s = invade_and_blitz()
    r = invade_f1_blitz_f2(s)
    block = r.battles[0]["outcome"]["colony"]
    assert [(x["mission"], x["result"]) for x in block["sieges"]] == [
        ("invade", "conquered"),
        ("blitz", "already_fallen"),
    ]
    assert (block["mission"], block["owner_after"]) == ("invade", "alpha")
    c = colony_at(r)
    assert (c.owner, c.marines) == ("alpha", GroundSpec(undamaged=1))  # G22: landed whole
    assert c.iu == block["iu"] <= 20  # 50% of what the round left destroyed (E69)
    f1, f2 = r.state.fleet("F1"), r.state.fleet("F2")
    assert (f1.loaded_tt, f1.order_code) == (0, 0)
    assert (f2.loaded_tt, f2.order_code) == (None, 0)
    assert r.state.houses["alpha"].prestige == 60  # one conquest (facts §11)
    assert len(planetary(r, "alpha")["sieges"]) == 2
    accounted(s, r)


def test_g25_blitz_only_and_invasion_only_in_a_turn() -> None:
    """Option ``invade_and_blitz``: ``blitz_only``: one blitz by F1 and F2, both divisions
    land and every asset is seized; ``invasion_only``: one invasion by both (two divisions
    land, half the IU destroyed)."""
    s = invade_and_blitz(invade_and_blitz="blitz_only")
    r = invade_f1_blitz_f2(s)
    block = r.battles[0]["outcome"]["colony"]
    assert (block["mission"], block["seized"], block["invaders"]["landed"]) == ("blitz", True, 2)
    assert "sieges" not in block
    assert (colony_at(r).owner, colony_at(r).iu) == ("alpha", 40)
    assert r.state.fleet("F2").loaded_tt == 0
    accounted(s, r)
    s = invade_and_blitz(invade_and_blitz="invasion_only")
    r = invade_f1_blitz_f2(s)
    block = r.battles[0]["outcome"]["colony"]
    assert (block["mission"], block["seized"], block["invaders"]["landed"]) == ("invade", False, 2)
    assert colony_at(r).owner == "alpha"
    assert colony_at(r).iu == block["iu"] <= 20
    accounted(s, r)


def two_bombardments(**options: str) -> GameState:
    """Alpha's F1 and gamma's A9 (a battleship each) bombard beta's colony at B (both at war
    with beta, neutral to each other): no space combat, two sieges."""
    raw = game({"pu": 100, "iu": 1000}, []).to_json()
    raw["houses"]["gamma"] = {"explored": []}
    raw["diplomacy"].append({"houses": ["beta", "gamma"], "status": "enemy"})
    raw["fleets"] = [
        fleet("A9", "gamma", at="B", squadrons=[{"flagship": "BB"}]),
        fleet("F1", at="B", squadrons=[{"flagship": "BB"}]),
    ]
    if options:
        raw["options"] = options
    return parse_game(raw)


def bombard_both(state: GameState) -> TurnResult:
    return play(state, alpha=[{"fleet": "F1", "order": 6}], gamma=[{"fleet": "A9", "order": 6}])


def test_g24_two_houses_bombard_one_colony_in_a_turn() -> None:
    """G24: the turn no longer stops; both sieges are played, one after another (default: in
    a drawn order), each against the colony as the one before left it, and the next state's
    colony is the last one's. Both houses keep bombarding (G23) and hear of their own siege;
    the owner hears of both."""
    s = two_bombardments()
    r = bombard_both(s)
    (record,) = r.battles
    block = record["outcome"]["colony"]
    first, second = block["sieges"]
    assert {first["attacker"], second["attacker"]} == {"alpha", "gamma"}
    assert first["iu"] > second["iu"] == block["iu"] == colony_at(r).iu
    assert block["attacker"] == second["attacker"]
    assert r.state.fleet("F1").order_code == r.state.fleet("A9").order_code == 6
    told = [e for e in r.reports["beta"]["events"] if e["event"] == "planetary_combat"]
    assert [e["attacker"] for e in told] == [first["attacker"], second["attacker"]]
    own = [e for e in r.reports["alpha"]["events"] if e["event"] == "planetary_combat"]
    assert [e["attacker"] for e in own] == ["alpha"]
    accounted(s, r)


def test_g24_option_house_order_and_fleet_order_in_a_turn() -> None:
    """``siege_order: house_order``: the houses by name, alpha before gamma;
    ``fleet_order``: by fleet id, gamma's A9 before alpha's F1. No siege_order draw."""
    for order, first in (("house_order", "alpha"), ("fleet_order", "gamma")):
        r = bombard_both(two_bombardments(siege_order=order))
        block = r.battles[0]["outcome"]["colony"]
        assert block["sieges"][0]["attacker"] == first


def test_g26_a_turn_bombardment_destroys_the_spaceport_unless_never() -> None:
    """6.2.7 (G26): ten battleships (AS 200) bombard: at least 1/4 of it, 50 hits a round,
    whatever the dice: the spaceport falls in the first round by default; with option
    ``bombard_spaceports: never`` (settable in the game's options) it stands."""
    fleets = [fleet(at="B", squadrons=[{"flagship": "BB"}] * 10)]
    s = game({"pu": 100, "iu": 5000, "spaceports": 1}, fleets)
    r = play(s, alpha=[{"fleet": "F1", "order": 6}])
    assert colony_at(r).spaceports == 0
    never = parse_game(s.to_json() | {"options": {"bombard_spaceports": "never"}})
    r = play(never, alpha=[{"fleet": "F1", "order": 6}])
    assert colony_at(r).spaceports == 1
    assert colony_at(r).iu < 5000


def test_the_siege_options_are_settable_in_a_game() -> None:  # G24-G27
    options = {
        "siege_order": "fleet_order",
        "invade_and_blitz": "blitz_only",
        "bombard_spaceports": "never",
        "invasion_bombardment": "three_rounds",
    }
    s = game({"pu": 100}, [fleet(at="B")])
    assert parse_game(s.to_json() | {"options": options}).options == options
