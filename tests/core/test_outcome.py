"""The shared shapes of a battle's end (core/outcome.py)."""

from __future__ import annotations

from spacecombat.core.outcome import (
    ending,
    overall,
    planet_record,
    resources_lost,
    unit_counts,
    unit_records,
    winner,
)
from tests.core._fakes import CARDS, FakeState, units


def test_winner_is_the_player_a_win_names() -> None:
    assert winner("attacker_win") == "attacker"
    assert winner("defender_win") == "defender"
    for result in ("draw", "no_combat", "stalemate", "mixed"):
        assert winner(result) is None


def test_overall_is_the_shared_result_or_mixed() -> None:
    assert overall(["draw"]) == "draw"
    assert overall(["attacker_win", "attacker_win"]) == "attacker_win"
    assert overall(["attacker_win", "draw"]) == "mixed"


def test_ending_lists_facts_in_order_then_each_players_units() -> None:
    state = FakeState("over", units("1 cruiser"), units(""))
    record = ending("space", "attacker_win", state, rounds=2)
    assert list(record) == ["battle", "result", "winner", "rounds", "attacker", "defender"]
    assert record["winner"] == "attacker"
    assert record["attacker"] == state.attacker.to_json()


def test_planet_record_gives_the_units_on_that_planet() -> None:
    state = FakeState("over", units("", "", "2 infantry"), units("", "", "1 infantry"))
    record = planet_record(state, 1, "Mecatol", "draw", controller="defender", rounds=1)
    assert list(record) == ["planet", "result", "controller", "rounds", "attacker", "defender"]
    assert record["attacker"] == [{"unit": "infantry", "count": 2}]


def test_unit_records_skip_what_is_not_a_list() -> None:
    lists: list[object] = [[{"unit": "cruiser", "count": 2}], None, [{"unit": "pds", "count": 1}]]
    assert list(unit_records(lists)) == [("cruiser", 2), ("pds", 1)]


def test_unit_counts_add_space_and_planets() -> None:
    assert unit_counts(units("2 infantry", "1 infantry, 1 pds")) == {"infantry": 3, "pds": 1}


def test_resources_lost_count_cost_per_unit_and_gains_against_losses() -> None:
    before = {"cruiser": 2, "fighter": 3, "pds": 1}
    after = {"cruiser": 1, "fighter": 1, "infantry": 1}
    card = CARDS.__getitem__
    # a cruiser (2) and two fighters (2 x 1/2); the PDS costs nothing
    assert resources_lost(before, before, after, card) == 3.0
    # an infantry gained counts against the losses
    assert resources_lost(["cruiser", "infantry"], before, after, card) == 1.0
