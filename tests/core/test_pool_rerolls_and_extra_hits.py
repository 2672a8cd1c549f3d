"""Dice pools with rerolls and extra hits (core/pool.py ``DiceGroup.reroll``, ``extra_on``,
``extra_hits``): the exact distribution, the float one, ``sample`` (with the rerolled faces as
a group of their own) and the Monte Carlo sampler (core/engine.py) agree, by enumeration."""

from __future__ import annotations

from collections import Counter
from fractions import Fraction
from itertools import product
from typing import Any

import pytest

from spacecombat.core.dice import ScriptedDice
from spacecombat.core.pool import DiceGroup, DicePool, total_hits
from tests.helpers import assert_sampled_as_played, space

GROUPS = [
    [DiceGroup("cruiser", 2, 7, reroll=0)],
    [DiceGroup("cruiser", 1, 7, reroll=1), DiceGroup("fighter", 2, 9)],
    [DiceGroup("flagship", 2, 6, -1, extra_on=9, extra_hits=2)],
    [DiceGroup("flagship", 1, 6, -5, extra_on=9, extra_hits=2, reroll=2)],
    [
        DiceGroup("dreadnought", 1, 5, reroll=0),
        DiceGroup("flagship", 1, 7, extra_on=9, extra_hits=2),
    ],
]


def by_enumeration(pool: DicePool) -> dict[int, Fraction]:
    """Every sequence of d10 faces the pool may read (rerolls read a second face for each die
    that produced no hit), rolled through ``sample`` with scripted dice."""
    rolls = sum(g.dice * (2 if g.reroll is not None else 1) for g in pool.groups)
    counts: Counter[int] = Counter()
    for faces in product(range(1, 11), repeat=rolls):
        dice = ScriptedDice(faces)
        hits = total_hits(pool.sample(dice))
        # the unread faces do not change the roll: weight each roll by the unread ones
        counts[hits] += 1
    return {hits: Fraction(n, 10**rolls) for hits, n in counts.items()}


@pytest.mark.parametrize("groups", GROUPS)
def test_the_distribution_is_that_of_sample(groups: list[DiceGroup]) -> None:
    pool = DicePool.of(groups)
    exact = pool.distribution()
    assert exact == by_enumeration(pool)
    assert sum(exact.values()) == 1
    assert max(exact) == pool.max_hits
    floats = pool.float_distribution()
    assert set(floats) == set(exact)
    for hits, chance in exact.items():
        assert floats[hits] == pytest.approx(float(chance), abs=1e-12)


def test_a_reroll_is_rolled_after_its_group_and_logged_as_its_own() -> None:
    pool = DicePool.of([DiceGroup("cruiser", 3, 7, reroll=1), DiceGroup("carrier", 1, 9)])
    rolled = pool.sample(ScriptedDice([7, 2, 5, 6, 9, 10]))
    # ascending printed value: the cruisers (7) first, their misses rerolled at once (on 6)
    assert [(r.group.unit, r.faces, r.group.rerolled, r.hits) for r in rolled] == [
        ("cruiser", (7, 2, 5), False, 1),
        ("cruiser", (6, 9), True, 2),
        ("carrier", (10,), False, 1),
    ]


def test_no_reroll_call_when_nothing_missed() -> None:
    pool = DicePool.of([DiceGroup("cruiser", 2, 7, reroll=0)])
    dice = ScriptedDice([7, 8])
    assert len(pool.sample(dice)) == 1
    assert dice.remaining == 0


def test_a_counted_mark_that_may_miss_is_not_rerolled() -> None:
    # a natural 7 would be a mark that missed (hits on 8): rerolling it is a choice
    with pytest.raises(ValueError, match="marks hits only"):
        DiceGroup("gf", 1, 8, mark_on=7, reroll=0)
    with pytest.raises(ValueError, match="marks hits only"):
        DiceGroup("gf", 1, 8, mark_on=8, reroll=-1)
    # every mark hits: the misses rerolled cannot be marks (docs/rulings.md 14RR-4)
    assert DiceGroup("gf", 1, 8, mark_on=10, reroll=0).stages == (0,)


def test_the_sampler_reads_the_dice_as_play_does() -> None:
    """A battle with rerolls (Munitions Reserves) and extra hits (Jol-Nar flagship): each
    trial of the sampler ends where ``play`` ends with the same dice."""
    scenario_data: dict[str, Any] = space(
        {"faction": "letnev", "units": "2 cruiser, 1 destroyer", "trade_goods": 4},
        {"faction": "jolnar", "units": "1 flagship, 1 cruiser"},
    )
    assert_sampled_as_played(scenario_data, trials=150)
