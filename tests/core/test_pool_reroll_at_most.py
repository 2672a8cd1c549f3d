"""Dice groups that reroll only their misses showing a low natural face (core/pool.py
``DiceGroup.reroll_at_most``; TI3 Spec Ops Training with the Shock Troops option, docs/
rulings.md 27T-11): the exact distributions (hits; hits and marks) are those of ``sample``, by
enumeration of every face sequence, and hand-derived for one die."""

from __future__ import annotations

from collections import Counter
from fractions import Fraction
from itertools import product

import pytest

from spacecombat.core.dice import ScriptedDice
from spacecombat.core.pool import DiceGroup, DicePool, total_hits, total_marks

GROUPS = [
    [DiceGroup("ground_force", 2, 8, reroll=0, reroll_at_most=1)],
    [DiceGroup("ground_force", 2, 8, mark_on=10, reroll=0, reroll_at_most=1)],
    [
        DiceGroup("mechanized_unit", 1, 6, reroll=0, reroll_at_most=1),
        DiceGroup("ground_force", 1, 8, 1, mark_on=10, reroll=0, reroll_at_most=1),
    ],
    [DiceGroup("ground_force", 2, 8, -3, mark_on=10, reroll=0, reroll_at_most=2)],
]


def by_enumeration(pool: DicePool) -> dict[tuple[int, int], Fraction]:
    """Every sequence of d10 faces the pool may read (at most a second face for each die),
    rolled through ``sample`` with scripted dice: (hits, marks)."""
    reads = 2 * pool.dice
    counts: Counter[tuple[int, int]] = Counter()
    for faces in product(range(1, 11), repeat=reads):
        rolled = pool.sample(ScriptedDice(faces))
        counts[(total_hits(rolled), total_marks(rolled))] += 1
    return {key: Fraction(n, 10**reads) for key, n in counts.items()}


@pytest.mark.parametrize("groups", GROUPS)
def test_the_distributions_are_those_of_sample(groups: list[DiceGroup]) -> None:
    pool = DicePool.of(groups)
    joint = by_enumeration(pool)
    assert pool.joint_distribution() == joint
    hits: dict[int, Fraction] = {}
    for (h, _), chance in joint.items():
        hits[h] = hits.get(h, Fraction(0)) + chance
    assert pool.distribution() == hits
    assert max(hits) == pool.max_hits
    for h, approx in pool.float_distribution().items():
        assert approx == pytest.approx(float(hits[h]), abs=1e-12)


def test_one_die_by_hand() -> None:
    """A ground force (8) whose 1s are rerolled: a natural 10 with 1/10 + 1/10 * 1/10 =
    11/100, an 8 or 9 with 2/10 + 1/10 * 2/10 = 22/100, a miss with 67/100."""
    pool = DicePool((DiceGroup("ground_force", 1, 8, mark_on=10, reroll=0, reroll_at_most=1),))
    assert pool.joint_distribution() == {
        (1, 1): Fraction(11, 100),
        (1, 0): Fraction(22, 100),
        (0, 0): Fraction(67, 100),
    }


def test_only_the_low_misses_are_rerolled_and_logged_after_their_group() -> None:
    group = DiceGroup("ground_force", 3, 8, mark_on=10, reroll=0, reroll_at_most=1)
    rolled = DicePool((group,)).sample(ScriptedDice([1, 5, 1, 10, 1]))
    assert [(r.faces, r.group.rerolled, r.hits, r.marks) for r in rolled] == [
        ((1, 5, 1), False, 0, 0),
        ((10, 1), True, 1, 1),
    ]


def test_a_group_rerolling_low_faces_is_one_reroll_by_one_effect() -> None:
    with pytest.raises(ValueError, match="has a reroll"):
        DiceGroup("ground_force", 1, 8, reroll_at_most=1)
    with pytest.raises(ValueError, match="once, by one effect"):
        DiceGroup("ground_force", 1, 8, reroll=0, before=(0,), reroll_at_most=1)
    group = DiceGroup("ground_force", 1, 8, reroll=0, reroll_at_most=1)
    with pytest.raises(ValueError, match="no other reroll"):
        group.with_reroll(0)
