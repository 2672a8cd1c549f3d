"""Each house's report of a turn holds what the house needs to plan its next orders and only
what it knows (turn/views.py; rulings G44, G45): its explored systems and the lanes out of
them, the colony owners there, its fleets' routes with arrival turns (G7), the foreign forces it
met or spied; never an unexplored system's colony or another house's fleet elsewhere."""

from __future__ import annotations

import json

from spacecombat.rulesets.ec4x.turn.conflict import turn
from spacecombat.rulesets.ec4x.turn.game import parse_game
from spacecombat.rulesets.ec4x.turn.views import _as_seen
from spacecombat.scenario.ec4x_orders import parse_orders
from tests.ec4x.game.helpers import data, fleet
from tests.ec4x.game.test_conflict import three_turns


def _played() -> dict[str, dict[str, object]]:
    # alpha holds A and sends F1 toward D; beta holds C and E, with fleets at D and E
    raw = data(
        "A-B major, B-C major, C-D major, D-E major",
        colonies={"A": "alpha", "C": "beta", "E": "beta"},
        fleets=[
            fleet("F1", at="A", order={"code": 1, "target": "D"}),
            fleet("G1", owner="beta", at="E"),
            fleet("G2", owner="beta", at="D"),
        ],
    )
    state = parse_game(raw)
    result = turn(state, parse_orders({"game_id": "test", "turn": 5}, state))
    return result.reports


def test_a_house_sees_its_explored_systems_and_the_ends_of_their_lanes() -> None:
    report = _played()["alpha"]
    known = {s["id"]: s for s in report["map"]["systems"]}  # type: ignore[index]
    # G6: A (its colony) and B (its fleet went there) are explored; C is the end of B's lane
    assert sorted(known) == ["A", "B", "C"]
    assert known["A"]["explored"]
    assert known["A"]["owner"] == "alpha"
    assert known["B"]["explored"]
    assert known["B"]["owner"] is None
    assert known["B"]["planets"] == [{"class": "benign", "resources": "abundant"}]
    # C is beta's colony, but alpha never went there: where it is, nothing of what is there
    assert known["C"] == {"id": "C", "q": 2, "r": 0, "explored": False}
    assert report["map"]["lanes"] == [  # type: ignore[index]
        {"systems": ["A", "B"], "class": "major"},
        {"systems": ["B", "C"], "class": "major"},
    ]


def test_a_house_never_sees_an_unexplored_colony_or_a_fleet_it_did_not_meet() -> None:
    reports = _played()
    assert "beta" not in json.dumps(reports["alpha"])  # beta's colonies and fleets
    assert "G1" not in json.dumps(reports["alpha"])
    assert "alpha" not in json.dumps(reports["beta"])
    assert "F1" not in json.dumps(reports["beta"])
    beta = {s["id"]: s for s in reports["beta"]["map"]["systems"]}  # type: ignore[index]
    assert sorted(beta) == ["B", "C", "D", "E"]
    assert beta["B"] == {"id": "B", "q": 1, "r": 0, "explored": False}


def test_a_standing_order_shows_its_route_and_arrival_turn() -> None:
    # F1 moved A -> B this turn (6.1: one jump into unexplored B); from B, C is a rival system
    # and D unexplored: one jump a turn, two turns; the state after this turn is turn 6, so D
    # is reached in the state of turn 8 (G7)
    route = _played()["alpha"]["routes"]["F1"]  # type: ignore[index]
    assert route == {
        "order": 1,
        "goal": "D",
        "path": ["B", "C", "D"],
        "legs": [["B", "C"], ["C", "D"]],
        "turns": 2,
        "arrival_turn": 8,
    }


def test_a_route_that_cannot_be_made_says_why() -> None:
    raw = data(
        "A-B restricted",
        colonies={"A": "alpha"},
        fleets=[fleet("F1", at="A", order={"code": 1, "target": "B"}, spacelift={"ET": 1})],
    )
    state = parse_game(raw)
    report = turn(state, parse_orders({"game_id": "test", "turn": 5}, state)).reports["alpha"]
    # the move was refused this turn (no_route) and the order became 00, so no route is left
    assert report["routes"] == {}
    assert any(e["event"] == "no_route" for e in report["events"])


def test_the_houses_in_a_battle_it_did_not_fight_show_no_survivors() -> None:
    block = {"fate": "not_engaged", "losses": 0, "survivors": {"DD": 1}, "crippled": {}}
    assert _as_seen(block) == {"fate": "not_engaged", "losses": 0}


def test_repairs_are_a_number() -> None:
    # 7.3.6: 25% of the PC of crippled ships; the outcome writes 75/2 as text
    block = {"fate": "holds", "losses": 0, "survivors": {}, "crippled": {}, "repairs": "75/2"}
    assert _as_seen(block)["repairs"] == 37.5
    assert _as_seen(block | {"repairs": "10"})["repairs"] == 10
    assert _as_seen(block | {"repairs": 5})["repairs"] == 5


def test_contacts_come_from_battles_fought_and_intelligence_only() -> None:
    for result in three_turns():
        for house, report in result.reports.items():
            seen = {(b["system"], h) for b in report["battles"] for h in b["houses"]}
            seen |= {
                (i["system"], f["owner"])
                for i in report["intelligence"]
                for f in i.get("fleets", [])
            }
            for contact in report["contacts"]:
                assert contact["owner"] != house
                assert (contact["system"], contact["owner"]) in seen
            for battle in report["battles"]:
                for block in battle["houses"].values():
                    assert not isinstance(block.get("repairs"), str)


def test_seek_home_shows_the_way_to_the_closest_friendly_system() -> None:
    # 6.2.3: F1 seeks the closest friendly system (A, two jumps back; G12); F2, at home, has
    # nowhere to go; F3's move to C is done this turn (6.2.2: it then holds)
    raw = data(
        "A-B minor, B-C minor, C-D minor",
        colonies={"A": "alpha"},
        explored={"alpha": ["B", "C", "D"]},
        fleets=[
            fleet("F1", at="D", order={"code": 1, "target": "C"}),
            fleet("F2", at="A", order=2),
            fleet("F3", at="D", order={"code": 1, "target": "C"}),
        ],
    )
    state = parse_game(raw)
    orders = {"game_id": "test", "turn": 5, "orders": {"alpha": [{"fleet": "F1", "order": 2}]}}
    report = turn(state, parse_orders(orders, state)).reports["alpha"]
    # F1 moved D -> C this turn (minor lanes: one jump a turn); A is two turns away
    assert report["routes"]["F1"] == {
        "order": 2,
        "goal": "A",
        "path": ["C", "B", "A"],
        "legs": [["C", "B"], ["B", "A"]],
        "turns": 2,
        "arrival_turn": 8,
    }
    assert "F2" not in report["routes"]
    assert "F3" not in report["routes"]
