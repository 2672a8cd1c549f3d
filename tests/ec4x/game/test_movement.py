"""6.1 Jump Lanes: one turn's moves (``legal_moves``) and routes over several turns (``route``).

Each test quotes the sentence of 6.1 it checks. Maps are lines of systems A, B, C…; alpha's
fleet F1 starts at A with one destroyer squadron unless said otherwise.
"""

from __future__ import annotations

from typing import Any

import pytest

from spacecombat.core.errors import ScenarioError
from spacecombat.rulesets.ec4x.turn.game import parse_game
from spacecombat.rulesets.ec4x.turn.movement import (
    Move,
    MovementOptions,
    NoRoute,
    legal_moves,
    move_problem,
    movement_options,
    route,
)
from tests.ec4x.game.helpers import data, fleet, state

TWO_MAJORS = "A-B major, B-C major"
OWN_AB = {"A": "alpha", "B": "alpha"}


def destinations(moves: set[Move]) -> dict[str, set[tuple[str, ...]]]:
    out: dict[str, set[tuple[str, ...]]] = {}
    for move in moves:
        out.setdefault(move.destination, set()).add(move.path)
    return out


# --- "If a player owns all systems along the travel path, fleets can jump two major lanes" --


def test_two_major_jumps_through_own_systems() -> None:
    s = state(TWO_MAJORS, colonies=OWN_AB, explored={"alpha": ["C"]})
    assert legal_moves(s, "F1") == {Move("B", ("A", "B")), Move("C", ("A", "B", "C"))}


def test_two_jumps_into_an_own_system() -> None:
    s = state(TWO_MAJORS, colonies={"A": "alpha", "B": "alpha", "C": "alpha"})
    assert Move("C", ("A", "B", "C")) in legal_moves(s, "F1")


def test_one_jump_when_the_system_passed_through_is_not_owned() -> None:
    s = state(TWO_MAJORS, colonies={"A": "alpha"}, explored={"alpha": ["B", "C"]})
    assert legal_moves(s, "F1") == {Move("B", ("A", "B"))}
    assert "B is not alpha's" in (move_problem(s, "F1", ("A", "B", "C")) or "")


def test_one_jump_when_the_start_is_not_owned_by_default() -> None:
    """G1 default ``start_and_through``: the start is on the travel path."""
    s = state(TWO_MAJORS, colonies={"B": "alpha"}, explored={"alpha": ["C"]})
    assert legal_moves(s, "F1") == {Move("B", ("A", "B"))}


def test_owned_path_through_ignores_the_start() -> None:
    s = state(
        TWO_MAJORS,
        colonies={"B": "alpha"},
        explored={"alpha": ["C"]},
        options={"owned_path": "through"},
    )
    assert Move("C", ("A", "B", "C")) in legal_moves(s, "F1")


@pytest.mark.parametrize("owned_path", ["through_and_destination", "whole_path"])
def test_owned_path_options_that_need_the_destination(owned_path: str) -> None:
    s = state(TWO_MAJORS, colonies=OWN_AB, explored={"alpha": ["C"]})
    opts = MovementOptions.model_validate({"owned_path": owned_path})
    assert legal_moves(s, "F1", opts) == {Move("B", ("A", "B"))}
    assert "C is not alpha's" in (move_problem(s, "F1", ("A", "B", "C"), opts) or "")


def test_the_state_options_are_read() -> None:
    s = state(TWO_MAJORS, options={"owned_path": "whole_path"})
    assert movement_options(s).owned_path == "whole_path"
    assert movement_options(state(TWO_MAJORS)).owned_path == "start_and_through"


def test_a_fleet_with_two_jumps_may_stop_after_one() -> None:
    """G4."""
    s = state(TWO_MAJORS, colonies=OWN_AB, explored={"alpha": ["C"]})
    assert Move("B", ("A", "B")) in legal_moves(s, "F1")


def test_never_more_than_two_jumps() -> None:
    s = state(
        "A-B major, B-C major, C-D major",
        colonies={"A": "alpha", "B": "alpha", "C": "alpha", "D": "alpha"},
    )
    assert "D" not in destinations(legal_moves(s, "F1"))
    assert "at most 2 jumps" in (move_problem(s, "F1", ("A", "B", "C", "D")) or "")


def test_a_move_does_not_return_to_its_start() -> None:
    s = state(
        "A-B major, B-C major, C-A major", colonies={"A": "alpha", "B": "alpha", "C": "alpha"}
    )
    assert destinations(legal_moves(s, "F1")) == {
        "B": {("A", "B"), ("A", "C", "B")},
        "C": {("A", "C"), ("A", "B", "C")},
    }


# --- "Minor and restricted jump lanes enable a single jump per turn, regardless of the
#      destination." -------------------------------------------------------------------------


@pytest.mark.parametrize(
    "lanes",
    [
        "A-B minor, B-C major",
        "A-B major, B-C minor",
        "A-B restricted, B-C major",
        "A-B major, B-C restricted",
    ],
)
def test_one_jump_on_a_minor_or_restricted_lane(lanes: str) -> None:
    s = state(lanes, colonies={"A": "alpha", "B": "alpha", "C": "alpha"})
    assert destinations(legal_moves(s, "F1")) == {"B": {("A", "B")}}
    assert "single jump" in (move_problem(s, "F1", ("A", "B", "C")) or "")


# --- "If jumping into an unexplored or rival system, the maximum number of jumps is one." ---


def test_one_jump_into_an_unexplored_system() -> None:
    s = state(TWO_MAJORS, colonies=OWN_AB)
    assert legal_moves(s, "F1") == {Move("B", ("A", "B"))}
    assert "C is unexplored" in (move_problem(s, "F1", ("A", "B", "C")) or "")
    # a single jump into it is allowed
    s = state(TWO_MAJORS, colonies=OWN_AB, fleets=[fleet(at="B")])
    assert Move("C", ("B", "C")) in legal_moves(s, "F1")


def test_one_jump_into_a_rival_system() -> None:
    s = state(TWO_MAJORS, colonies={**OWN_AB, "C": "beta"}, explored={"alpha": ["C"]})
    assert legal_moves(s, "F1") == {Move("B", ("A", "B"))}
    assert "C is a rival system" in (move_problem(s, "F1", ("A", "B", "C")) or "")
    s = state(TWO_MAJORS, colonies={**OWN_AB, "C": "beta"}, fleets=[fleet(at="B")])
    assert Move("C", ("B", "C")) in legal_moves(s, "F1")


def test_a_fleet_present_explores_its_system() -> None:
    """G6: another alpha fleet at C makes C explored."""
    s = state(TWO_MAJORS, colonies=OWN_AB, fleets=[fleet(), fleet("F2", at="C")])
    assert Move("C", ("A", "B", "C")) in legal_moves(s, "F1")


# --- "Fleets containing crippled ships or Spacelift Command ships can not jump across
#      restricted lanes." -------------------------------------------------------------------


def test_restricted_lane_open_to_a_sound_fleet() -> None:
    s = state("A-B restricted")
    assert legal_moves(s, "F1") == {Move("B", ("A", "B"))}


@pytest.mark.parametrize(
    ("fields", "why"),
    [
        ({"squadrons": [{"flagship": "DD", "state": "crippled"}]}, "crippled ships"),
        (
            {"squadrons": [{"flagship": "DD"}, {"flagship": "CA", "state": "crippled"}]},
            "crippled ships (squadrons[1])",
        ),
        ({"squadrons": [], "spacelift": {"ET": 1}}, "Spacelift Command ships (ET)"),
        ({"spacelift": {"TT": 2}, "loaded_tt": 0}, "Spacelift Command ships (TT)"),
    ],
)
def test_restricted_lane_closed_to_crippled_or_spacelift_fleets(
    fields: dict[str, Any], why: str
) -> None:
    s = state("A-B restricted, A-C minor", fleets=[fleet(**fields)])
    assert legal_moves(s, "F1") == {Move("C", ("A", "C"))}
    assert why in (move_problem(s, "F1", ("A", "B")) or "")


def test_scouts_alone_may_cross_a_restricted_lane() -> None:
    s = state("A-B restricted", fleets=[fleet(squadrons=[], scouts=[{"eli": 1}])])
    assert legal_moves(s, "F1") == {Move("B", ("A", "B"))}


def test_spacelift_may_still_jump_two_majors() -> None:
    s = state(
        TWO_MAJORS,
        colonies=OWN_AB,
        explored={"alpha": ["C"]},
        fleets=[fleet(spacelift={"ET": 1}, squadrons=[{"flagship": "DD", "state": "crippled"}])],
    )
    assert Move("C", ("A", "B", "C")) in legal_moves(s, "F1")


def test_move_problem_names_a_missing_lane_and_a_wrong_start() -> None:
    s = state(TWO_MAJORS)
    assert move_problem(s, "F1", ("A", "C")) == "no jump lane joins A and C"
    assert "starts where the fleet is" in (move_problem(s, "F1", ("B", "C")) or "")
    assert move_problem(s, "F1", ("A", "B")) is None


# --- routes over several turns ---------------------------------------------------------------

LINE = "A-B major, B-C major, C-D major, D-E major"


def test_route_two_major_jumps_a_turn_through_own_systems() -> None:
    s = state(
        LINE,
        colonies={"A": "alpha", "B": "alpha", "C": "alpha", "D": "alpha"},
        explored={"alpha": ["E"]},
    )
    r = route(s, "F1", "E")
    assert r.legs == (("A", "B", "C"), ("C", "D", "E"))
    assert (r.path, r.turns, r.jumps) == (("A", "B", "C", "D", "E"), 2, 4)
    assert r.arrival_turn == 7  # turn 5's orders: at E in the state of turn 7 (G7)


def test_route_one_jump_a_turn_outside_own_territory() -> None:
    r = route(state(LINE), "F1", "E")
    assert r.turns == 4
    assert r.legs == (("A", "B"), ("B", "C"), ("C", "D"), ("D", "E"))
    assert r.arrival_turn == 9


def test_route_prefers_fewer_turns_to_fewer_jumps() -> None:
    s = state(
        "A-B major, B-C major, C-D major, D-E major, A-X minor, X-Y minor, Y-E minor",
        colonies={"A": "alpha", "B": "alpha", "C": "alpha", "D": "alpha"},
        explored={"alpha": ["E"]},
    )
    assert route(s, "F1", "E").path == ("A", "B", "C", "D", "E")


def test_route_ties_go_to_fewer_jumps_then_lower_ids() -> None:
    """G8."""
    s = state("A-C minor, A-B minor, B-D minor, C-D minor")
    assert route(s, "F1", "D").path == ("A", "B", "D")
    s = state(
        "A-B major, B-C major, C-D minor, A-X minor, X-D minor",
        colonies={"A": "alpha", "B": "alpha"},
        explored={"alpha": ["C"]},
    )
    assert route(s, "F1", "D").path == ("A", "X", "D")  # 2 turns either way; 2 jumps, not 3


def test_route_to_where_the_fleet_is() -> None:
    r = route(state(LINE), "F1", "A")
    assert (r.path, r.turns, r.arrival_turn) == (("A",), 0, 5)


def test_route_avoids_restricted_lanes_for_a_crippled_fleet() -> None:
    s = state(
        "A-B restricted, B-D minor, A-C minor, C-E minor, E-D minor",
        fleets=[fleet(squadrons=[{"flagship": "DD", "state": "crippled"}])],
    )
    assert route(s, "F1", "D").path == ("A", "C", "E", "D")


def test_no_route_says_why() -> None:
    s = state("A-B major, C-D major")
    with pytest.raises(NoRoute) as caught:
        route(s, "F1", "D")
    assert caught.value.reason == "no chain of jump lanes joins A to it"
    s = state("A-B restricted, B-C major", fleets=[fleet(spacelift={"ET": 1})])
    with pytest.raises(NoRoute) as caught:
        route(s, "F1", "C")
    assert "crosses a restricted lane" in caught.value.reason
    assert "Spacelift Command ships (ET)" in caught.value.reason
    with pytest.raises(NoRoute, match="not a system of the map"):
        route(s, "F1", "Z")


def test_bad_movement_option_is_refused() -> None:
    with pytest.raises(ScenarioError) as caught:
        parse_game(data(TWO_MAJORS, options={"owned_path": "some"}))
    assert caught.value.field == "options.owned_path"
    assert "'start_and_through'" in caught.value.message


def test_route_tie_fewest_jumps_is_g8_by_default() -> None:
    """G8/G33 default ``fewest_jumps``: A-B-D and A-C-D take 2 turns and 2 jumps each; the
    first list of ids wins (B before C), though alpha owns C."""
    s = state("A-B minor, B-D minor, A-C minor, C-D minor", colonies={"C": "alpha"})
    assert route(s, "F1", "D").path == ("A", "B", "D")


def test_route_tie_own_systems_prefers_the_houses_systems() -> None:
    """G33 ``own_systems``: among routes of equally few turns, fewest systems entered that the
    house does not own: A-C-D enters one (D), A-B-D two (B, D)."""
    s = state(
        "A-B minor, B-D minor, A-C minor, C-D minor",
        colonies={"C": "alpha"},
        options={"route_tie": "own_systems"},
    )
    assert route(s, "F1", "D").path == ("A", "C", "D")
    # never at the cost of a turn: A-B-D (2 turns) over A-C-E-D (3 turns through own systems)
    s = state(
        "A-B minor, B-D minor, A-C minor, C-E minor, E-D minor",
        colonies={"C": "alpha", "E": "alpha"},
        options={"route_tie": "own_systems"},
    )
    assert route(s, "F1", "D").path == ("A", "B", "D")
