"""Shared views of a state (core/state.py)."""

from __future__ import annotations

from spacecombat.core.sides import Side
from spacecombat.core.state import ground_forces, ships
from tests.core._fakes import FakeSetup, FakeState, units


def test_ships_count_only_ships_in_space() -> None:
    state = FakeState("x", units("2 cruiser, 1 fighter, 2 infantry"), units("", "1 infantry"))
    setup = FakeSetup(state)
    assert ships(setup, state, Side.ATTACKER) == 3
    assert ships(setup, state, Side.DEFENDER) == 0


def test_ground_forces_count_only_ground_forces_on_the_planet() -> None:
    state = FakeState("x", units("2 infantry", ""), units("", "2 infantry, 1 pds"))
    setup = FakeSetup(state)
    assert ground_forces(setup, state, Side.DEFENDER, 0) == 2
    assert ground_forces(setup, state, Side.ATTACKER, 0) == 0
