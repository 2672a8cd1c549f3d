"""Forces (core/forces.py): the frozen multiset of units that battle states are made of."""

from __future__ import annotations

from collections import Counter

import pytest
from hypothesis import given
from hypothesis import strategies as st

from spacecombat.core.forces import Forces, Status

U, D, S = Status.UNDAMAGED, Status.DAMAGED, Status.SUSTAINED_THIS_ROUND


def test_items_of_one_unit_and_status_merge() -> None:
    assert Forces([("fighter", U, 2), ("fighter", U, 3)]).items == (("fighter", U, 5),)


def test_items_are_sorted_by_unit_then_status() -> None:
    forces = Forces([("fighter", U, 1), ("dreadnought", D, 1), ("dreadnought", U, 2)])
    assert forces.items == (("dreadnought", U, 2), ("dreadnought", D, 1), ("fighter", U, 1))


def test_zero_counts_are_dropped() -> None:
    assert Forces([("fighter", U, 0)]).items == ()


def test_no_units_is_falsy() -> None:
    assert not Forces([("fighter", U, 0)])


def test_a_negative_count_is_refused() -> None:
    with pytest.raises(ValueError, match="negative count -1 of fighter"):
        Forces([("fighter", U, -1)])


def test_forces_built_in_any_order_are_equal() -> None:
    one = Forces([("fighter", U, 1), ("cruiser", U, 2), ("fighter", U, 2)])
    two = Forces([("cruiser", U, 1), ("fighter", U, 3), ("cruiser", U, 1)])
    assert one == two


def test_equal_forces_hash_equal() -> None:
    """States are the exact engine's dictionary keys (DESIGN.md), so equal means same key."""
    one = Forces([("fighter", U, 1), ("fighter", U, 2)])
    two = Forces([("fighter", U, 3)])
    assert {one: "state"}[two] == "state"


def test_forces_differing_in_status_are_not_equal() -> None:
    assert Forces([("dreadnought", U, 1)]) != Forces([("dreadnought", D, 1)])


def test_forces_are_not_equal_to_their_items() -> None:
    forces = Forces([("fighter", U, 1)])
    assert forces != forces.items


def test_of_splits_damaged_units_from_undamaged() -> None:
    forces = Forces.of({"dreadnought": 3, "fighter": 2}, damaged={"dreadnought": 1})
    assert forces.items == (("dreadnought", U, 2), ("dreadnought", D, 1), ("fighter", U, 2))


def test_count_filters_by_unit_and_status() -> None:
    forces = Forces([("dreadnought", U, 2), ("dreadnought", D, 1), ("fighter", U, 4)])
    assert (forces.count("dreadnought"), forces.count(status=U), forces.count()) == (3, 6, 7)


def test_by_type_adds_all_statuses() -> None:
    forces = Forces([("dreadnought", U, 2), ("dreadnought", S, 1), ("fighter", U, 4)])
    assert forces.by_type() == {"dreadnought": 3, "fighter": 4}


def test_add_merges_with_units_already_there() -> None:
    assert Forces([("fighter", U, 2)]).add("fighter", U, 3) == Forces([("fighter", U, 5)])


def test_remove_takes_units_away() -> None:
    forces = Forces([("fighter", U, 3), ("cruiser", U, 1)]).remove("fighter", U, 2)
    assert forces == Forces([("fighter", U, 1), ("cruiser", U, 1)])


def test_removing_the_last_unit_leaves_no_entry() -> None:
    assert Forces([("fighter", U, 1)]).remove("fighter", U).items == ()


def test_remove_refuses_more_than_present() -> None:
    forces = Forces([("dreadnought", D, 1)])
    with pytest.raises(ValueError, match=r"cannot remove 2 dreadnought \(damaged\): 1 present"):
        forces.remove("dreadnought", D, 2)


def test_remove_refuses_a_status_not_present() -> None:
    with pytest.raises(ValueError, match="0 present"):
        Forces([("dreadnought", U, 1)]).remove("dreadnought", D)


def test_remove_refuses_a_negative_count() -> None:
    """Removing -1 units must not add one."""
    with pytest.raises(ValueError, match="negative"):
        Forces([("fighter", U, 1)]).remove("fighter", U, -1)


def test_move_changes_the_status_of_some_units() -> None:
    # SUSTAIN DAMAGE (ti4-space-combat.md step 4): an undamaged ship becomes damaged.
    forces = Forces([("dreadnought", U, 2)]).move("dreadnought", U, S)
    assert forces == Forces([("dreadnought", U, 1), ("dreadnought", S, 1)])


def test_move_refuses_more_than_present() -> None:
    with pytest.raises(ValueError, match="cannot remove"):
        Forces([("dreadnought", U, 1)]).move("dreadnought", U, D, 2)


def test_settle_round_makes_units_sustained_this_round_damaged() -> None:
    # docs/rulings.md R7: "sustained this round" matters only within the round.
    forces = Forces([("dreadnought", S, 1), ("dreadnought", D, 1), ("war_sun", S, 1)])
    assert forces.settle_round() == Forces([("dreadnought", D, 2), ("war_sun", D, 1)])


def test_settle_round_leaves_other_forces_as_they_are() -> None:
    forces = Forces([("dreadnought", D, 1), ("fighter", U, 2)])
    assert forces.settle_round() is forces


def test_keep_and_without_split_by_unit_type() -> None:
    forces = Forces([("fighter", U, 2), ("infantry", U, 3), ("cruiser", U, 1)])
    ground = {"infantry"}
    assert forces.keep(lambda u: u in ground).plus(forces.without(lambda u: u in ground)) == forces


def test_to_json_omits_the_status_of_undamaged_units() -> None:
    forces = Forces([("dreadnought", U, 2), ("dreadnought", S, 1)])
    assert forces.to_json() == [
        {"unit": "dreadnought", "count": 2},
        {"unit": "dreadnought", "count": 1, "status": "sustained this round"},
    ]


def test_str_lists_counts_and_statuses() -> None:
    forces = Forces([("fighter", U, 3), ("dreadnought", D, 1)])
    assert str(forces) == "1 dreadnought (damaged), 3 fighter"


def test_str_of_no_units_is_none() -> None:
    assert str(Forces()) == "none"


# --- property: counts never go negative ----------------------------------------------------

units = st.sampled_from(["fighter", "cruiser", "dreadnought"])
statuses = st.sampled_from(list(Status))
operations = st.lists(
    st.tuples(st.sampled_from(["add", "remove"]), units, statuses, st.integers(0, 3)),
    max_size=30,
)


@given(operations)
def test_counts_never_go_negative_under_add_and_remove(
    ops: list[tuple[str, str, Status, int]],
) -> None:
    """Each add or remove gives what a plain counter says; a remove of more than present is
    refused and leaves the forces as they were."""
    forces = Forces()
    model: Counter[tuple[str, Status]] = Counter()
    for op, unit, status, count in ops:
        if op == "add":
            forces = forces.add(unit, status, count)
            model[unit, status] += count
        elif model[unit, status] >= count:
            forces = forces.remove(unit, status, count)
            model[unit, status] -= count
        else:
            with pytest.raises(ValueError, match="cannot remove"):
                forces.remove(unit, status, count)
        assert all(n > 0 for _, _, n in forces)
        assert {(u, s): n for u, s, n in forces} == +model
