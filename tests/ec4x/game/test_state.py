"""The game state format (scenario/ec4x_game.py, then the ruleset's checks in
rulesets/ec4x/turn/game.py): every refusal names its field."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from spacecombat.core.errors import ScenarioError
from spacecombat.rulesets.ec4x.turn.game import load_game, parse_game
from spacecombat.scenario import ec4x_game
from tests.ec4x.game.helpers import data, fleet

EXAMPLE = Path(__file__).parents[3] / "examples" / "ec4x" / "game" / "state.json"


def base() -> dict[str, Any]:
    return data("A-B major, B-C minor", colonies={"A": "alpha", "C": "beta"})


def refused(value: object) -> ScenarioError:
    with pytest.raises(ScenarioError) as caught:
        parse_game(value)
    return caught.value


def test_example_loads_and_round_trips() -> None:
    s = load_game(EXAMPLE)
    assert (len(s.systems), len(s.houses)) == (16, 3)
    assert parse_game(s.to_json()) == s
    assert parse_game(json.loads(json.dumps(s.to_json()))) == s
    assert s.turn == 1
    assert all(h.prestige == 50 for h in s.houses.values())  # facts §11


def test_defaults() -> None:
    s = parse_game(base())
    assert s.houses["alpha"].prestige == 50
    assert s.fleets[0].order_code == 0
    assert s.status("alpha", "beta") == "neutral"
    assert s.system("A").colony() is not None


def test_not_a_mapping() -> None:
    assert refused([]).field == "state"


def test_lane_between_unknown_systems() -> None:
    d = base()
    d["lanes"].append({"systems": ["A", "Z"], "class": "major"})
    e = refused(d)
    assert (e.field, e.message) == (
        "lanes[2].systems[1]",
        "'Z' is not a system id listed in systems",
    )


def test_lane_listed_twice() -> None:
    d = base()
    d["lanes"].append({"systems": ["B", "A"], "class": "minor"})
    e = refused(d)
    assert e.field == "lanes[2].systems"
    assert "already joined by lanes[0]" in e.message


def test_lane_self_loop() -> None:
    d = base()
    d["lanes"][1]["systems"] = ["B", "B"]
    e = refused(d)
    assert e.field == "lanes[1].systems"
    assert "two different systems" in e.message


def test_lane_class() -> None:
    d = base()
    d["lanes"][0]["class"] = "wormhole"
    e = refused(d)
    assert e.field == "lanes[0].class"
    assert e.message == "allowed: 'major', 'minor', 'restricted' (got 'wormhole')"


def test_fleet_in_unknown_system() -> None:
    d = base()
    d["fleets"] = [fleet(), fleet("F2"), fleet("F3"), fleet("F4", at="Nowhere")]
    e = refused(d)
    assert (e.field, e.message) == (
        "fleets[3].location",
        "'Nowhere' is not a system id listed in systems",
    )


def test_two_colonies_in_one_system() -> None:
    d = base()
    d["systems"][0]["planets"].append({"class": "harsh", "colony": {"owner": "beta"}})
    e = refused(d)
    assert e.field == "systems[0].planets[1].colony"
    assert "only one colony (8.1.5)" in e.message


def test_a_colony_has_one_owner() -> None:
    d = base()
    d["systems"][0]["planets"][0]["colony"]["owner"] = ["alpha", "beta"]
    e = refused(d)
    assert e.field == "systems[0].planets[0].colony.owner"
    assert "must be text" in e.message


def test_colony_owner_not_listed() -> None:
    d = base()
    d["systems"][2]["planets"][0]["colony"]["owner"] = "gamma"
    e = refused(d)
    assert e.field == "systems[2].planets[0].colony.owner"
    assert e.message == "'gamma' is not a house listed in houses (alpha, beta)"


def test_fleet_id_used_twice() -> None:
    d = base()
    d["fleets"] = [fleet(), fleet("F2"), fleet("F1", owner="beta")]
    e = refused(d)
    assert (e.field, e.message) == ("fleets[2].id", "'F1' is also fleets[0]")


def test_fleet_owner_not_listed() -> None:
    d = base()
    d["fleets"] = [fleet(owner="gamma")]
    assert refused(d).field == "fleets[0].owner"


def test_diplomacy_for_an_unknown_pair() -> None:
    d = base()
    d["diplomacy"] = [{"houses": ["alpha", "gamma"], "status": "enemy"}]
    e = refused(d)
    assert e.field == "diplomacy[0].houses[1]"
    assert "'gamma' is not a house listed" in e.message


def test_diplomacy_pair_of_one_house_or_twice() -> None:
    d = base()
    d["diplomacy"] = [{"houses": ["alpha", "alpha"], "status": "enemy"}]
    assert refused(d).field == "diplomacy[0].houses"
    d["diplomacy"] = [
        {"houses": ["alpha", "beta"], "status": "enemy"},
        {"houses": ["beta", "alpha"], "status": "neutral"},
    ]
    e = refused(d)
    assert e.field == "diplomacy[1].houses"
    assert "each pair at most once" in e.message


def test_home_system_not_the_house_colony() -> None:
    d = base()
    d["houses"]["alpha"]["home"] = "C"
    e = refused(d)
    assert (e.field, e.message) == (
        "houses.alpha.home",
        "a home system holds the house's own colony; C holds the colony of 'beta'",
    )
    d["houses"]["alpha"]["home"] = "B"
    assert refused(d).message.endswith("B holds no colony")
    d["houses"]["alpha"]["home"] = "Q"
    assert refused(d).field == "houses.alpha.home"
    d["houses"]["alpha"]["home"] = "A"
    assert parse_game(d).houses["alpha"].home == "A"


def test_explored_systems_are_known_and_listed_once() -> None:
    d = base()
    d["houses"]["beta"]["explored"] = ["A", "X"]
    assert refused(d).field == "houses.beta.explored[1]"
    d["houses"]["beta"]["explored"] = ["A", "A"]
    e = refused(d)
    assert e.field == "houses.beta.explored"
    assert "listed twice" in e.message


def test_system_ids_and_hexes_unique() -> None:
    d = base()
    d["systems"][2]["id"] = "A"
    assert refused(d).field == "systems[2].id"
    d = base()
    d["systems"][2]["q"] = 0
    e = refused(d)
    assert e.field == "systems[2]"
    assert "one system per hex" in e.message


def test_planet_keys_are_spelt_as_in_the_file() -> None:
    d = base()
    d["systems"][0]["planets"][0]["size"] = 3
    e = refused(d)
    assert e.field == "systems[0].planets[0].size"
    assert e.message == "unknown key; allowed: class, resources, colony"
    d = base()
    del d["systems"][1]["planets"][0]["class"]
    e = refused(d)
    assert (e.field, e.message) == ("systems[1].planets[0].class", "is required")


def test_shield_level() -> None:
    d = base()
    d["systems"][0]["planets"][0]["colony"]["shield"] = 7
    e = refused(d)
    assert e.field == "systems[0].planets[0].colony.shield"
    assert "at most 6" in e.message


def test_empty_fleet() -> None:
    d = base()
    d["fleets"] = [fleet(squadrons=[])]
    assert refused(d).field == "fleets[0]"


def test_squadron_checked_as_in_battle() -> None:
    d = base()
    d["fleets"] = [fleet(squadrons=[{"flagship": "XX"}])]
    e = refused(d)
    assert e.field == "fleets[0].squadrons[0].flagship"
    assert "unknown class 'XX'" in e.message


@pytest.mark.parametrize(
    ("order", "field", "words"),
    [
        ({"code": 1, "target": "Z"}, "fleets[0].order.target", "'Z' is not a system id"),
        (1, "fleets[0].order", "needs a target: the system to go to"),
        ({"code": 2, "target": "B"}, "fleets[0].order.target", "leave its target out"),
        ({"code": 13, "target": "F9"}, "fleets[0].order.target", "'F9' is not a fleet id"),
        ({"code": 13, "target": "F1"}, "fleets[0].order.target", "another fleet of the same house"),
        ({"code": 9, "target": "C"}, "fleets[0].order", "exactly one Scout ship"),
        ({"code": 12}, "fleets[0].order", "one ETAC"),
    ],
)
def test_orders(order: object, field: str, words: str) -> None:
    d = base()
    d["fleets"] = [fleet(order=order)]
    e = refused(d)
    assert e.field == field
    assert words in e.message


def test_orders_accepted() -> None:
    d = base()
    d["fleets"] = [
        fleet(order={"code": 1, "target": "C"}),
        fleet("F2", order={"code": 13, "target": "F1"}),
        fleet("F3", order={"code": 6, "target": "C"}),
        fleet("F4", order=15),
        fleet("S1", squadrons=[], scouts=[{"eli": 2}], order={"code": 11, "target": "C"}),
    ]
    assert len(parse_game(d).fleets) == 5


def test_salvage_needs_a_colony() -> None:
    d = data("A-B major")
    d["fleets"] = [fleet(order=15)]
    e = refused(d)
    assert e.field == "fleets[0].order"
    assert "friendly colony" in e.message


def test_options() -> None:
    d = base()
    d["options"] = {"owned_path": "through", "max_rounds": 20}
    assert parse_game(d).options == {"owned_path": "through", "max_rounds": 20}
    d["options"] = {"speed": 3}
    e = refused(d)
    assert e.field == "options.speed"
    assert "owned_path" in e.message
    d["options"] = {"max_rounds": "x"}
    assert refused(d).field == "options.max_rounds"


def test_options_and_squadrons_are_the_rulesets_to_check() -> None:
    """The scenario layer checks the shape; the options and each squadron's classes are read
    against the ruleset's tables by rulesets/ec4x/turn/game.py."""
    d = base()
    d["options"] = {"speed": 3}
    d["fleets"] = [fleet(squadrons=[{"flagship": "XX"}])]
    assert ec4x_game.parse_game(d).options == {"speed": 3}
    assert refused(d).field == "options.speed"
    d["options"] = None
    assert refused(d).field == "fleets[0].squadrons[0].flagship"


def test_the_scenario_layer_imports_no_ec4x_rules() -> None:
    code = (
        "import sys, spacecombat.scenario.ec4x_game, spacecombat.scenario.ec4x_orders; "
        "print(sorted(m for m in sys.modules if m.startswith('spacecombat.rulesets.ec4x.')))"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert done.stdout.strip() == "[]"


def test_size_limits() -> None:
    d = base()
    d["fleets"] = [fleet(f"F{i}") for i in range(5001)]
    e = refused(d)
    assert e.field == "fleets"
    assert "limit is 5,000" in e.message


def test_at_least_one_system_and_house() -> None:
    d = base()
    d["systems"], d["lanes"], d["fleets"] = [], [], []
    assert refused(d).field == "systems"
    d = base()
    d["houses"] = {}
    assert refused(d).field == "houses"
