"""Hypothesis properties of the star map generator and of 6.1 movement, checked against an
independent reading of 6.1 written here."""

from __future__ import annotations

from itertools import pairwise
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from spacecombat.rulesets.ec4x.turn.game import parse_game
from spacecombat.rulesets.ec4x.turn.movement import (
    MovementOptions,
    NoRoute,
    legal_moves,
    move_problem,
    route,
)
from spacecombat.rulesets.ec4x.turn.starmap import ROOMY, generate_map, is_connected, lanes_of
from spacecombat.scenario.ec4x_game import GameState

SEEDS = st.integers(min_value=0, max_value=2**64 - 1)
OWNED_PATH = st.sampled_from(
    ["start_and_through", "through", "through_and_destination", "whole_path"]
)


@st.composite
def sizes(draw: st.DrawFn) -> tuple[int, int]:
    houses = draw(st.integers(min_value=1, max_value=4))
    systems = draw(st.integers(min_value=ROOMY[houses], max_value=ROOMY[houses] + 30))
    return systems, houses


@settings(max_examples=40, deadline=None)
@given(seed=SEEDS, size=sizes())
def test_generated_map_is_connected_and_deterministic(seed: int, size: tuple[int, int]) -> None:
    systems, houses = size
    s = generate_map(seed, systems, houses)
    assert is_connected(s)
    assert s == generate_map(seed, systems, houses)
    assert parse_game(s.to_json()) == s
    lanes = lanes_of(s)
    assert len(lanes["S00"]) == 6
    for house in s.houses.values():
        assert house.home is not None
        assert len(lanes[house.home]) == 3


@st.composite
def games(draw: st.DrawFn) -> tuple[GameState, str, MovementOptions]:
    """A generated map where alpha's fleet stands anywhere, owning a random set of systems,
    having explored another, with a random composition and a random ``owned_path``."""
    seed = draw(SEEDS)
    s = generate_map(seed, draw(st.integers(min_value=14, max_value=30)), 3).to_json()
    ids = [x["id"] for x in s["systems"]]
    homes = {h["home"] for h in s["houses"].values()}
    for system in s["systems"]:
        if system["id"] in homes:
            continue
        owner = draw(st.sampled_from([None, None, "alpha", "alpha", "beta"]))
        if owner is not None:
            system["planets"][0]["colony"] = {"owner": owner}
    s["houses"]["alpha"]["explored"] = sorted(draw(st.sets(st.sampled_from(ids))))
    fleet: dict[str, Any] = {
        "id": "X",
        "owner": "alpha",
        "location": draw(st.sampled_from(ids)),
        "squadrons": [
            {"flagship": "DD", "state": draw(st.sampled_from(["undamaged", "crippled"]))}
        ],
    }
    if draw(st.booleans()):
        fleet["spacelift"] = {"ET": 1}
    s["fleets"] = [fleet]
    return parse_game(s), "X", MovementOptions.model_validate({"owned_path": draw(OWNED_PATH)})


def oracle(s: GameState, fid: str, opts: MovementOptions) -> set[tuple[str, tuple[str, ...]]]:
    """6.1, read afresh: every path of 1 or 2 jumps from the fleet, kept if legal."""
    fleet = s.fleet(fid)
    lanes: dict[str, dict[str, str]] = {x.id: {} for x in s.systems}
    for lane in s.lanes:
        a, b = lane.systems
        lanes[a][b] = lanes[b][a] = lane.lane_class
    owner = {x.id: (x.colony().owner if x.colony() else None) for x in s.systems}  # type: ignore[union-attr]
    seen = set(s.houses["alpha"].explored) | {k for k, v in owner.items() if v == "alpha"}
    seen |= {f.location for f in s.fleets if f.owner == "alpha"}
    barred = any(q.state == "crippled" for q in fleet.squadrons) or bool(fleet.spacelift)
    start = fleet.location
    out: set[tuple[str, tuple[str, ...]]] = set()
    for b, first in lanes[start].items():
        if first == "restricted" and barred:
            continue
        out.add((b, (start, b)))
        for c, second in lanes[b].items():
            if c == start or first != "major" or second != "major":
                continue
            needed = {
                "start_and_through": [start, b],
                "through": [b],
                "through_and_destination": [b, c],
                "whole_path": [start, b, c],
            }[opts.owned_path]
            if any(owner[x] != "alpha" for x in needed):
                continue
            if owner[c] not in (None, "alpha") or c not in seen:
                continue
            out.add((c, (start, b, c)))
    return out


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(game=games())
def test_legal_moves_are_exactly_6_1s(game: tuple[GameState, str, MovementOptions]) -> None:
    s, fid, opts = game
    moves = legal_moves(s, fid, opts)
    assert {(m.destination, m.path) for m in moves} == oracle(s, fid, opts)
    barred = any(q.state == "crippled" for q in s.fleet(fid).squadrons) or bool(
        s.fleet(fid).spacelift
    )
    lanes = lanes_of(s)
    for move in moves:
        assert 2 <= len(move.path) <= 3
        classes = [lanes[a][b] for a, b in pairwise(move.path)]
        assert not (barred and "restricted" in classes)
        assert len(classes) == 1 or classes == ["major", "major"]
        assert move_problem(s, fid, move.path, opts) is None


@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(game=games(), pick=st.integers(min_value=0, max_value=10**6))
def test_route_turns_are_legal_and_fewest(
    game: tuple[GameState, str, MovementOptions], pick: int
) -> None:
    s, fid, opts = game
    fleet = s.fleet(fid)
    destination = s.systems[pick % len(s.systems)].id
    # fewest turns by breadth-first search over the oracle's moves (ownership held fixed, G2)
    layers = {fleet.location: 0}
    frontier = [fleet.location]
    while frontier:
        nxt = []
        for here in frontier:
            moved = s.model_copy(update={"fleets": (fleet.model_copy(update={"location": here}),)})
            for there, _ in oracle(moved, fid, opts):
                if there not in layers:
                    layers[there] = layers[here] + 1
                    nxt.append(there)
        frontier = nxt
    try:
        r = route(s, fid, destination, opts)
    except NoRoute:
        assert destination not in layers
        return
    assert r.turns == layers[destination]
    assert r.arrival_turn == s.turn + r.turns
    assert r.path[0] == fleet.location
    assert r.path[-1] == destination
    at = fleet.location
    for leg in r.legs:
        placed = fleet.model_copy(update={"location": at})
        assert move_problem(s, placed, leg, opts) is None
        at = leg[-1]
    assert at == destination
