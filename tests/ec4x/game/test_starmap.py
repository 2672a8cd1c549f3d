"""The star map (rulesets/ec4x/turn/starmap.py): territory (8.1.5), exploration, the generator
(facts §10)."""

from __future__ import annotations

from pathlib import Path

import pytest

from spacecombat.rulesets.ec4x.turn.game import load_game
from spacecombat.rulesets.ec4x.turn.starmap import (
    LANE_WEIGHTS,
    controller,
    explored,
    generate_map,
    hex_distance,
    hex_ring,
    is_connected,
    is_explored,
    is_own,
    is_rival,
    lane_class,
    lanes_of,
    territory,
)
from tests.ec4x.game.helpers import fleet, state

EXAMPLE = Path(__file__).parents[3] / "examples" / "ec4x" / "game" / "state.json"


def test_territory_is_where_the_colonies_are() -> None:
    """8.1.5: "A house controls each system that holds its colony"; no colony: neutral."""
    s = state("A-B major, B-C minor", colonies={"A": "alpha", "C": "beta"})
    assert territory(s) == {"A": "alpha", "B": None, "C": "beta"}
    assert controller(s, "B") is None
    assert is_own(s, "A", "alpha")
    assert not is_own(s, "B", "alpha")
    assert is_rival(s, "C", "alpha")
    assert not is_rival(s, "A", "alpha")
    assert not is_rival(s, "B", "alpha")  # neutral space is not rival


def test_explored_is_listed_colonies_and_fleets() -> None:
    """G6."""
    s = state(
        "A-B major, B-C minor, C-D minor",
        colonies={"B": "alpha"},
        explored={"alpha": ["D"]},
        fleets=[fleet(at="A"), fleet("F2", owner="beta", at="C")],
    )
    assert explored(s, "alpha") == {"A", "B", "D"}
    assert is_explored(s, "C", "beta")
    assert not is_explored(s, "C", "alpha")


def test_lanes() -> None:
    s = state("B-A major, B-C restricted")
    assert lanes_of(s) == {
        "A": {"B": "major"},
        "B": {"A": "major", "C": "restricted"},
        "C": {"B": "restricted"},
    }
    assert lane_class(s, "C", "B") == "restricted"
    assert lane_class(s, "A", "C") is None
    assert is_connected(s)
    assert not is_connected(state("A-B major, C-D major"))


def test_hexes() -> None:
    assert hex_ring(0) == [(0, 0)]
    assert len(hex_ring(2)) == 12
    assert {hex_distance(c, (0, 0)) for c in hex_ring(3)} == {3}


def test_example_map() -> None:
    s = load_game(EXAMPLE)
    assert is_connected(s)
    lanes = lanes_of(s)
    assert len(lanes["S00"]) == 6
    for house in s.houses.values():
        assert house.home is not None
        assert len(lanes[house.home]) == 3


def test_generated_map_facts() -> None:
    """facts §10: "The hub has 6 lanes and homeworlds have 3"; §11: prestige starts at 50."""
    s = generate_map(seed=7, systems=16, houses=3)
    assert len(s.systems) == 16
    assert set(s.houses) == {"alpha", "beta", "gamma"}
    assert is_connected(s)
    lanes = lanes_of(s)
    assert s.systems[0].id == "S00"
    assert (s.systems[0].q, s.systems[0].r) == (0, 0)
    assert len(lanes["S00"]) == 6
    for name, house in s.houses.items():
        assert house.prestige == 50
        assert house.home is not None
        assert len(lanes[house.home]) == 3
        assert controller(s, house.home) == name
        assert [f.id for f in s.fleets if f.owner == name and f.location == house.home] == [
            f"{name}-1",
            f"{name}-2",
        ]


def test_generated_map_is_the_same_for_the_same_seed() -> None:
    assert generate_map(11, 20, 3) == generate_map(11, 20, 3)
    assert generate_map(11, 20, 3) != generate_map(12, 20, 3)


def test_lane_weights_are_documented() -> None:
    assert dict(LANE_WEIGHTS) == {"major": 50, "minor": 35, "restricted": 15}


def test_lane_classes_come_out_near_their_weights() -> None:
    counts = dict.fromkeys(("major", "minor", "restricted"), 0)
    for seed in range(40):
        for lane in generate_map(seed, 37, 4).lanes:
            counts[lane.lane_class] += 1
    total = sum(counts.values())
    for lane_class_name, weight in LANE_WEIGHTS:
        assert abs(counts[lane_class_name] / total - weight / 100) < 0.05


@pytest.mark.parametrize(
    ("systems", "houses", "words"),
    [
        (6, 2, "systems: from 7"),
        (20, 0, "houses: from 1"),
        (20, 9, "houses: from 1"),
        (7, 2, "no room"),
    ],
)
def test_generator_bounds(systems: int, houses: int, words: str) -> None:
    with pytest.raises(ValueError, match=words):
        generate_map(1, systems, houses)
