"""Issue 23 "Scale": the turn's routes are found once per house, source and lane permission
(``movement.Routing``), seek home's closest system stops its search at the first level that
holds one, and retreats search only as far as the closest friendly system. Each must give
exactly what the former search per fleet and destination gave (tests/ec4x/game/
reference_routes.py, the code before the change): the same routes with the same ties (G8),
the same closest system (G12) and the same retreat paths (G13), on random maps.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Collection
from typing import Any

import pytest
from benchmarks.ec4x_scale import big_map, game
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from spacecombat.cli.turn import dumps
from spacecombat.rulesets.ec4x.turn import orders as o
from spacecombat.rulesets.ec4x.turn.conflict import turn
from spacecombat.rulesets.ec4x.turn.game import parse_game
from spacecombat.rulesets.ec4x.turn.movement import MovementOptions, NoRoute, Route, Routing
from spacecombat.scenario.ec4x_game import FleetSpec, GameState
from tests.ec4x.game.reference_routes import reference_retreat_destination, reference_route

OWNED_PATH = st.sampled_from(
    ["start_and_through", "through", "through_and_destination", "whole_path"]
)


@st.composite
def maps(draw: st.DrawFn, largest: int = 120) -> tuple[GameState, MovementOptions]:
    """A generated map (10 to ``largest`` systems, 1 to 4 houses) where each system not a homeworld
    holds a colony of a random house or none, each house has explored a random set, and
    twelve fleets of random houses stand anywhere, some crippled, some with spacelift."""
    seed = draw(st.integers(min_value=0, max_value=2**32))
    houses = draw(st.integers(min_value=1, max_value=4))
    systems = draw(st.integers(min_value=[10, 12, 14, 16][houses - 1], max_value=largest))
    s: dict[str, Any] = big_map(seed, systems, houses)
    names = sorted(s["houses"])
    ids = [x["id"] for x in s["systems"]]
    homes = {h["home"] for h in s["houses"].values()}
    for system in s["systems"]:
        if system["id"] not in homes:
            owner = draw(st.sampled_from([None, None, *names]))
            if owner is not None:
                system["planets"][0]["colony"] = {"owner": owner}
    for house in names:
        s["houses"][house]["explored"] = sorted(draw(st.sets(st.sampled_from(ids))))
    fleets = []
    for n in range(12):
        fleet: dict[str, Any] = {
            "id": f"X{n}",
            "owner": draw(st.sampled_from(names)),
            "location": draw(st.sampled_from(ids)),
            "squadrons": [
                {"flagship": "DD", "state": draw(st.sampled_from(["undamaged", "crippled"]))}
            ],
        }
        if draw(st.booleans()):
            fleet["spacelift"] = {"ET": 1}
        fleets.append(fleet)
    s["fleets"] = fleets
    return parse_game(s), MovementOptions.model_validate({"owned_path": draw(OWNED_PATH)})


def answer(find: Any) -> Route | str:
    try:
        found: Route = find()
    except NoRoute as exc:
        return f"no route to {exc.destination}: {exc.reason}"
    return found


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(game=maps(), picks=st.lists(st.integers(min_value=0, max_value=10**6), min_size=30))
def test_routes_are_the_former_routes(
    game: tuple[GameState, MovementOptions], picks: list[int]
) -> None:
    """One ``Routing`` for many (fleet, destination) pairs, asked in a random order (so a
    search is resumed, and reused for fleets of one house and permission at one system),
    gives every route the former search gave, ties included (G8)."""
    s, opts = game
    routing = Routing(s, opts)
    for pick in picks:
        fleet = s.fleets[pick % len(s.fleets)]
        destination = s.systems[pick // 7 % len(s.systems)].id
        old = answer(lambda f=fleet, d=destination: reference_route(s, f, d, opts))
        new = answer(lambda f=fleet, d=destination: routing.route(f, d))
        assert new == old, (fleet.id, destination)
        if pick % 3 == 0:
            routing.release(fleet)  # a released search found afresh gives the same


def former_closest(world: o.World, fleet: FleetSpec) -> str | None:
    """``orders.closest_friendly`` before issue 23: a route to every friendly system."""
    home = world.state.houses[fleet.owner].home
    best: tuple[int, int, bool, str] | None = None
    for system in world.friendly(fleet.owner):
        try:
            way = reference_route(world.state, fleet, system)
        except NoRoute:
            continue
        first = world.options.closest_tie == "home_first" and system != home
        key = (way.turns, way.jumps, first, system)
        if best is None or key < best:
            best = key
    return best[3] if best else None


def world_of(s: GameState, **options: str) -> o.World:
    return o.World(
        state=s,
        options=o.TurnOptions.model_validate(options),
        fleets={f.id: f for f in s.fleets},
        colonies={
            x.id: (i, p.colony)
            for x in s.systems
            for i, p in enumerate(x.planets)
            if p.colony is not None
        },
    )


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    game=maps(largest=50),
    closest_tie=st.sampled_from(["lowest_id", "home_first"]),
    retreat_tie=st.sampled_from(["lowest_id", "best_lane"]),
)
def test_closest_and_retreats_are_the_former_ones(
    game: tuple[GameState, MovementOptions], closest_tie: str, retreat_tie: str
) -> None:
    """Seek home's and salvage's closest system (G12) and each retreat path (G13), from every
    system, are those the former full searches found."""
    s, _ = game
    world = world_of(s, closest_tie=closest_tie, retreat_tie=retreat_tie)
    for n, fleet in enumerate(s.fleets):
        assert o.closest_friendly(world, fleet) == former_closest(world, fleet)
        for system in s.systems if n < 6 else ():
            old = reference_retreat_destination(world, fleet, system.id)
            assert o.retreat_destination(world, fleet, system.id) == old


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_a_whole_turn_is_the_same_with_the_former_searches(
    seed: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A turn of a generated 8-house game at war (benchmarks/ec4x_scale.py's orders: moves
    near and far, seek home, patrols, rendezvous; battles and retreats) gives the same next
    state and reports with the former per-fleet searches patched in."""
    state, orders = game(60, 150, seed)
    new = turn(state, orders)

    def former_route(self: Routing, fleet: FleetSpec, destination: str) -> Route:
        return reference_route(self.state, fleet, destination, self.options)

    def former_closest(
        self: Routing, fleet: FleetSpec, targets: Collection[str], tie: Callable[[str], bool]
    ) -> str | None:
        best: tuple[int, int, bool, str] | None = None
        for system in targets:
            try:
                way = reference_route(self.state, fleet, system, self.options)
            except NoRoute:
                continue
            key = (way.turns, way.jumps, tie(system), system)
            best = key if best is None or key < best else best
        return best[3] if best else None

    monkeypatch.setattr(Routing, "route", former_route)
    monkeypatch.setattr(Routing, "closest", former_closest)
    monkeypatch.setattr(o, "retreat_destination", reference_retreat_destination)
    old = turn(state, orders)
    assert new.battles
    assert any(b["wave"] == 2 for b in new.battles)
    assert dumps(new.state.to_json()) == dumps(old.state.to_json())
    assert json.dumps(new.reports, sort_keys=True) == json.dumps(old.reports, sort_keys=True)
