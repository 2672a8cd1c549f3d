"""Small hand-made EC4X game states: lanes written as text ("A-B major, B-C minor")."""

from __future__ import annotations

from typing import Any

from spacecombat.core.dice import ScriptedDice
from spacecombat.rulesets.ec4x.turn.conflict import TurnResult, turn
from spacecombat.rulesets.ec4x.turn.game import parse_game
from spacecombat.scenario.ec4x_game import GameState
from spacecombat.scenario.ec4x_orders import parse_orders


def fleet(fid: str = "F1", owner: str = "alpha", at: str = "A", **fields: Any) -> dict[str, Any]:
    """A fleet of one destroyer squadron unless ``fields`` say otherwise."""
    return {"id": fid, "owner": owner, "location": at, "squadrons": [{"flagship": "DD"}], **fields}


def data(
    lanes: str,
    *,
    colonies: dict[str, str] | None = None,
    explored: dict[str, list[str]] | None = None,
    fleets: list[dict[str, Any]] | None = None,
    options: dict[str, Any] | None = None,
) -> dict[str, Any]:
    """A decoded state: the systems are the lanes' ends (in order of appearance, on hexes
    (i, 0)), ``colonies`` maps a system to its owner, houses alpha and beta (no home)."""
    names: list[str] = []
    lane_list = []
    for part in lanes.split(","):
        ends, lane_class = part.split()
        a, b = ends.split("-")
        names += [n for n in (a, b) if n not in names]
        lane_list.append({"systems": [a, b], "class": lane_class})
    colonies = colonies or {}
    systems = []
    for i, name in enumerate(names):
        planet: dict[str, Any] = {"class": "benign"}
        if name in colonies:
            planet["colony"] = {"owner": colonies[name], "pu": 100}
        systems.append({"id": name, "q": i, "r": 0, "planets": [planet]})
    explored = explored or {}
    out: dict[str, Any] = {
        "ruleset": "ec4x",
        "game_id": "test",
        "turn": 5,
        "systems": systems,
        "lanes": lane_list,
        "houses": {h: {"explored": explored.get(h, [])} for h in ("alpha", "beta")},
        "fleets": fleets if fleets is not None else [fleet()],
    }
    if options is not None:
        out["options"] = options
    return out


def state(lanes: str, **fields: Any) -> GameState:
    return parse_game(data(lanes, **fields))


def two_systems(fleets: list[dict[str, Any]], **options: object) -> GameState:
    """Systems A and B (a major lane), houses alpha and beta, ``fleets``, ``options``."""
    return parse_game(data("A-B major", fleets=fleets, options=options or None))


def play_scripted(state: GameState, picks: list[int], **orders: list[dict[str, Any]]) -> TurnResult:
    """One turn with each house's ``orders`` and the turn's draws scripted: ``picks``, every
    one of them drawn and no other."""
    given = parse_orders({"game_id": "test", "turn": state.turn, "orders": orders}, state)
    dice = ScriptedDice(picks=picks)
    result = turn(state, given, dice=dice)
    assert dice._next_pick == len(picks)  # every scripted draw was made, and no other
    return result
