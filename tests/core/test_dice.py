"""Dice: the one door for randomness (core/dice.py).

ti4-space-combat.md note 14: a d10's "0" side is a 10, so every face is 1 to 10.
"""

from __future__ import annotations

import random

import pytest

from spacecombat.core.dice import SIDES, ScriptedDice, SeededDice
from spacecombat.core.errors import ReplayError


def test_same_seed_rolls_the_same_faces() -> None:
    assert SeededDice(42).roll(50) == SeededDice(42).roll(50)


def test_different_seeds_roll_different_faces() -> None:
    assert SeededDice(1).roll(50) != SeededDice(2).roll(50)


def test_seeded_dice_ignore_the_global_generator() -> None:
    random.seed(1)
    first = SeededDice(7).roll(30)
    random.seed(2)
    random.random()
    assert SeededDice(7).roll(30) == first


def test_seeded_dice_leave_the_global_generator_alone() -> None:
    before = random.getstate()
    SeededDice(7).roll(30)
    assert random.getstate() == before


def test_one_roll_of_n_dice_equals_n_rolls_of_one() -> None:
    """The resolver rolls one group at a time; splitting a roll must not change the faces."""
    dice = SeededDice(3)
    singles = tuple(face for _ in range(20) for face in dice.roll(1))
    assert SeededDice(3).roll(20) == singles


def test_seeded_faces_are_every_face_from_1_to_10_and_nothing_else() -> None:
    # ti4-space-combat.md note 14: the "0" side is a 10.
    assert set(SeededDice(5).roll(1000)) == set(range(1, SIDES + 1))


def test_seeded_dice_roll_the_count_asked() -> None:
    assert len(SeededDice(5).roll(7)) == 7


def test_scripted_dice_return_faces_in_order_across_rolls() -> None:
    dice = ScriptedDice([3, 10, 1, 7, 7])
    assert [dice.roll(2), dice.roll(1), dice.roll(2)] == [(3, 10), (1,), (7, 7)]


def test_scripted_dice_count_what_remains() -> None:
    dice = ScriptedDice([3, 10, 1])
    dice.roll(2)
    assert dice.remaining == 1


@pytest.mark.parametrize("face", [0, 11, -1])
def test_scripted_dice_refuse_a_face_outside_1_to_10(face: int) -> None:
    with pytest.raises(ReplayError, match=f"1 to 10, not {face}"):
        ScriptedDice([5, face])


def test_scripted_dice_that_run_out_raise_replay_error() -> None:
    dice = ScriptedDice([4, 4])
    with pytest.raises(ReplayError, match="ran out: 3 more asked after 0 of 2"):
        dice.roll(3)


def test_scripted_dice_that_run_out_do_not_consume_faces() -> None:
    dice = ScriptedDice([4, 5])
    with pytest.raises(ReplayError):
        dice.roll(3)
    assert dice.roll(2) == (4, 5)
