"""Small hand-made EC4X game states: lanes written as text ("A-B major, B-C minor")."""

from __future__ import annotations

from typing import Any

from spacecombat.rulesets.ec4x.turn.game import parse_game
from spacecombat.scenario.ec4x_game import GameState


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
