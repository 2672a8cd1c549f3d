"""Ground units keep their state from turn to turn (7.1.2 "Squadron units and installations
are either undamaged, crippled, or destroyed"; 7.5.3, 7.6): the game state, the house reports
and the planetary battle a turn builds carry each battery, army and marine undamaged or
crippled, as they carry squadrons (ruling G22). Scripted dice: picks are the draws' indices
(the morale d20 first, 0-based; then each d10 face 0-9)."""

from __future__ import annotations

import json
from typing import Any

import pytest

from spacecombat.core.dice import ScriptedDice
from spacecombat.core.errors import ScenarioError
from spacecombat.rulesets.ec4x.turn.conflict import TurnResult, turn
from spacecombat.rulesets.ec4x.turn.game import parse_game
from spacecombat.scenario.ec4x import GroundSpec
from spacecombat.scenario.ec4x_game import GameState
from spacecombat.scenario.ec4x_orders import parse_orders
from tests.ec4x.game.helpers import data

#: an outcome's battery count: one standing, crippled
CRIPPLED_ONE = {"undamaged": 0, "crippled": 1, "destroyed": 0, "seized": 0}


def game(colony: dict[str, Any], squadrons: list[dict[str, Any]]) -> GameState:
    """Alpha's fleet F1 at beta's colony in B (``colony`` its fields), the houses at war."""
    fleets = [{"id": "F1", "owner": "alpha", "location": "B", "squadrons": squadrons}]
    raw = data("A-B major", colonies={"A": "alpha", "B": "beta"}, fleets=fleets)
    raw["systems"][1]["planets"][0]["colony"] = {"owner": "beta", **colony}
    raw["diplomacy"] = [{"houses": ["alpha", "beta"], "status": "enemy"}]
    return parse_game(raw)


def play(state: GameState, picks: list[int], **orders: list[dict[str, Any]]) -> TurnResult:
    given = parse_orders({"game_id": "test", "turn": state.turn, "orders": orders}, state)
    return turn(state, given, dice=ScriptedDice(picks=picks))


def block(result: TurnResult) -> dict[str, Any]:
    (record,) = result.battles
    found: dict[str, Any] = record["outcome"]["colony"]
    return found


def test_a_crippled_battery_stays_crippled_and_fights_crippled_next_turn() -> None:
    """Turn 5: a CA (AS 12) bombards a colony with one battery (DS 8). Draws: the morale d20,
    then round 1 the CA's d10 6 (CER 1: 12 hits, the battery crippled, 4 left on the IU) and
    the battery's 0 (1/4 x 10 = 3 hits on the CA, DS 13: nothing); rounds 2 and 3 all 0s
    (3 hits on a crippled battery of DS 8: nothing). The next state keeps it crippled; turn 6
    (the fleet bombards again, its standing order) starts with it crippled: the CA's 0s
    (3 hits a round) reduce nothing, and the outcome still shows it crippled, not undamaged
    (a battery healed overnight would be ``undamaged: 1``)."""
    s = game({"pu": 100, "iu": 40, "batteries": 1}, [{"flagship": "CA"}])
    first = play(s, [9, 6, 0, 0, 0, 0, 0], alpha=[{"fleet": "F1", "order": 6}])
    assert block(first)["batteries"] == CRIPPLED_ONE
    nxt = first.state
    colony = nxt.system("B").colony()
    assert colony is not None
    assert colony.batteries == GroundSpec(undamaged=0, crippled=1)
    written = nxt.to_json()["systems"][1]["planets"][0]["colony"]
    assert written["batteries"] == {"undamaged": 0, "crippled": 1}
    assert written["armies"] == 0  # none crippled: a plain count, as before
    assert parse_game(json.loads(json.dumps(nxt.to_json()))) == nxt  # the file reads back
    (own,) = first.reports["beta"]["colonies"]
    assert own["colony"]["batteries"] == {"undamaged": 0, "crippled": 1}
    assert own["colony"]["armies"] == {"undamaged": 0, "crippled": 0}

    second = play(nxt, [9, 0, 6, 0, 0, 0, 0])
    assert block(second)["batteries"] == CRIPPLED_ONE


def test_the_battle_starts_with_the_crippled_units_of_the_state() -> None:
    """The same bombardment's first round with a CA rolling 6 (12 hits) on a battery the state
    gives as crippled: 8 hits destroy it (a crippled unit is destroyed by DS hits, 7.1.2),
    where an undamaged one would only be crippled."""
    crippled = game({"iu": 40, "batteries": {"undamaged": 0, "crippled": 1}}, [{"flagship": "CA"}])
    undamaged = game({"iu": 40, "batteries": 1}, [{"flagship": "CA"}])
    picks = [9, 6, 0, 0, 0, 0, 0]
    gone = play(crippled, picks, alpha=[{"fleet": "F1", "order": 6}])
    kept = play(undamaged, picks, alpha=[{"fleet": "F1", "order": 6}])
    assert block(gone)["batteries"]["destroyed"] == 1
    assert block(kept)["batteries"]["crippled"] == 1
    colony = gone.state.system("B").colony()
    assert colony is not None
    assert colony.batteries == GroundSpec()


def test_a_conquest_keeps_the_invaders_state() -> None:
    """G22: the invading divisions standing after ground combat, undamaged and crippled, are
    the colony's marines, each in its state."""
    s = game({"pu": 200, "iu": 40, "armies": 1}, [{"flagship": "BB"}, {"flagship": "BB"}])
    raw = s.to_json()
    raw["fleets"][0]["spacelift"] = {"TT": 6}
    s = parse_game(raw)
    # the turn's own dice (seeded by game id and turn) take the colony
    r = turn(
        s,
        parse_orders(
            {"game_id": "test", "turn": 5, "orders": {"alpha": [{"fleet": "F1", "order": 7}]}}, s
        ),
    )
    invaders = block(r)["invaders"]
    assert block(r)["result"] == "conquered"
    colony = r.state.system("B").colony()
    assert colony is not None
    assert colony.marines == GroundSpec(
        undamaged=invaders["undamaged"], crippled=invaders["crippled"]
    )


@pytest.mark.parametrize(
    ("value", "expected"),
    [
        (3, GroundSpec(undamaged=3)),
        ({"undamaged": 2, "crippled": 1}, GroundSpec(undamaged=2, crippled=1)),
        ({"crippled": 2}, GroundSpec(crippled=2)),
    ],
)
def test_ground_units_read_as_a_count_or_by_state(value: object, expected: GroundSpec) -> None:
    s = game({"armies": value}, [{"flagship": "DD"}])
    colony = s.system("B").colony()
    assert colony is not None
    assert colony.armies == expected


@pytest.mark.parametrize(
    ("value", "field"),
    [
        (-1, "systems[1].planets[0].colony.marines.undamaged"),
        ({"crippled": 1, "lost": 2}, "systems[1].planets[0].colony.marines.lost"),
        ("two", "systems[1].planets[0].colony.marines"),
    ],
)
def test_a_bad_ground_value_names_the_field(value: object, field: str) -> None:
    with pytest.raises(ScenarioError) as caught:
        game({"marines": value}, [{"flagship": "DD"}])
    assert caught.value.field == field
