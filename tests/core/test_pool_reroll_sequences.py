"""Dice rerolled by more than one effect (core/pool.py ``DiceGroup.before``, ``stages``,
``with_reroll``, ``dooming``; docs/rulings.md 14RR-1, 14RR-2): each reroll rolls again the dice
that still produced no hit, logged as a group of its own, and the last one is the one a
``doom`` reads. The exact distributions (hits, marks, tallies) are those of ``sample`` for
every sequence of faces, by enumeration."""

from __future__ import annotations

from fractions import Fraction

import pytest

from spacecombat.core.dice import ScriptedDice
from spacecombat.core.pool import DiceGroup, DicePool, Tally, total_hits, total_marks

GROUPS = [
    [DiceGroup("cruiser", 1, 7, before=(0,), reroll=1)],
    [DiceGroup("cruiser", 2, 4).with_reroll(0).with_reroll(0), DiceGroup("fighter", 1, 9)],
    [DiceGroup("gf", 1, 8, mark_on=9).with_reroll(0).with_reroll(1)],
    [DiceGroup("flagship", 1, 6, -5, extra_on=9, extra_hits=2, before=(1,), reroll=2)],
    # hits that are also marks (the L1Z1X flagship's), rerolled at +1, and with extra hits
    [DiceGroup("flagship", 1, 5, aimed=True).with_reroll(1), DiceGroup("fighter", 1, 9)],
    [DiceGroup("flagship", 1, 6, -3, extra_on=9, extra_hits=2, aimed=True)],
]

# (the dice of several units hit often, so that few sequences of faces are enumerated)
TALLIED = [
    # Munitions Reserves then the Crown (relic: +1, no hit at all) on 2 cruisers
    [DiceGroup("cruiser", 2, 4).with_reroll(0).dooming(1, 1, False, "crown_of_thalnos")],
    # the Crown (law) first asked, Fire Team after: Fire Team's reroll is made first
    [DiceGroup("infantry", 2, 5).dooming(0, 1, True, "crown_of_thalnos").with_reroll(0)],
    [DiceGroup("flagship", 2, 4).with_reroll(0).dooming(0, 2, True, "crown_of_thalnos")],
    # the Crown (relic) on dice whose hits are marks, beside plain marked dice
    [
        DiceGroup("flagship", 2, 4, aimed=True).dooming(1, 1, False, "crown_of_thalnos"),
        DiceGroup("dreadnought", 1, 5, mark_on=5),
    ],
    # the Crown (relic, +1) and the Hacan flagship's trade goods, spent on the misses left,
    # at equal cost those of units at risk first
    [
        DiceGroup("cruiser", 2, 5, budget=2).dooming(1, 1, False, "crown_of_thalnos"),
        DiceGroup("fighter", 1, 6, budget=2),
    ],
    [DiceGroup("dreadnought", 2, 6, budget=3).dooming(0, 1, True, "crown_of_thalnos")],
    # one unit of 2 dice (the Hacan flagship) at risk with the relic: one of its misses saves it
    [
        DiceGroup("flagship", 2, 5, budget=3).dooming(1, 2, False, "crown_of_thalnos"),
        DiceGroup("cruiser", 1, 7, budget=3),
    ],
    # War Funding and the Hacan flagship's trade goods
    [DiceGroup("cruiser", 2, 7, budget=3).with_reroll(0), DiceGroup("fighter", 1, 9, budget=3)],
]


class _Wanted(Exception):
    """The roll needs one more face than the prefix gives."""


class _Prefix:
    """Dice showing ``faces`` and then asking for more (``_Wanted``)."""

    def __init__(self, faces: tuple[int, ...]) -> None:
        self.faces = faces
        self.at = 0

    def roll(self, count: int) -> tuple[int, ...]:
        if self.at + count > len(self.faces):
            raise _Wanted
        self.at += count
        return self.faces[self.at - count : self.at]

    def pick(self, weights: object) -> int:
        raise AssertionError("a pool does not pick")


def every_roll(pool: DicePool) -> list[tuple[tuple[int, ...], Fraction]]:
    """Every sequence of faces ``sample`` may read, each with its chance (a sequence that
    reads ``n`` faces has chance 10**-n): the faces it never reads are not enumerated."""
    found: list[tuple[tuple[int, ...], Fraction]] = []
    waiting: list[tuple[int, ...]] = [()]
    while waiting:
        faces = waiting.pop()
        try:
            pool.sample(_Prefix(faces))
        except _Wanted:
            waiting += [(*faces, face) for face in range(1, 11)]
            continue
        found.append((faces, Fraction(1, 10 ** len(faces))))
    return found


def slow_at(pools: list[list[DiceGroup]], *slow: int) -> list[object]:
    """``pools``, those at the indexes ``slow`` (seconds to enumerate) marked slow: the whole
    suite's, not the fast loop's."""
    slow_mark = pytest.mark.slow
    return [pytest.param(p, marks=slow_mark) if i in slow else p for i, p in enumerate(pools)]


@pytest.mark.parametrize("groups", slow_at(GROUPS, 1))
def test_hits_and_marks_are_those_of_sample(groups: list[DiceGroup]) -> None:
    pool = DicePool.of(groups)
    joint: dict[tuple[int, int], Fraction] = {}
    for faces, chance in every_roll(pool):
        rolled = pool.sample(ScriptedDice(faces))
        key = (total_hits(rolled), total_marks(rolled))
        joint[key] = joint.get(key, Fraction(0)) + chance
    assert dict(pool.joint_distribution()) == joint
    hits: dict[int, Fraction] = {}
    for (h, _), chance in joint.items():
        hits[h] = hits.get(h, Fraction(0)) + chance
    assert dict(pool.distribution()) == hits
    assert max(hits) == pool.max_hits


@pytest.mark.parametrize("groups", slow_at(TALLIED, 1, 2, 3, 4, 6, 7))
def test_tallies_are_those_of_sample(groups: list[DiceGroup]) -> None:
    pool = DicePool.of(groups)
    tallies: dict[Tally, Fraction] = {}
    for faces, chance in every_roll(pool):
        key = pool.tally(pool.sample(ScriptedDice(faces)))
        tallies[key] = tallies.get(key, Fraction(0)) + chance
    assert dict(pool.tally_distribution()) == tallies


def test_each_reroll_is_logged_as_a_group_of_its_own() -> None:
    # Munitions Reserves (+0), then the relic (+1) on 3 cruisers hitting on 7
    group = DiceGroup("cruiser", 3, 7).with_reroll(0).dooming(1, 1, False, "crown_of_thalnos")
    assert group.stages == (0, 1)
    pool = DicePool.of([group])
    rolled = pool.sample(ScriptedDice([8, 2, 3, 9, 4, 5]))
    assert [(r.faces, r.group.rerolled, r.group.modifier, r.hits) for r in rolled] == [
        ((8, 2, 3), False, 0, 1),
        ((9, 4), True, 0, 1),  # Munitions Reserves: the 2 and the 3 again
        ((5,), True, 1, 0),  # the Crown: the 4 again, 5 + 1 misses: that cruiser is lost
    ]
    assert pool.tally(rolled) == Tally(2, 0, (1,))
    # the Crown's reroll hits: nothing lost, and no third call when nothing is left to reroll
    assert pool.tally(pool.sample(ScriptedDice([8, 2, 3, 9, 4, 6]))) == Tally(3, 0, (0,))
    dice = ScriptedDice([8, 2, 3, 9, 7, 1])
    assert pool.tally(pool.sample(dice)) == Tally(3, 0, (0,))
    assert dice.remaining == 1
    dice = ScriptedDice([8, 7, 9])
    assert len(pool.sample(dice)) == 1


def test_plain_rerolls_come_before_the_one_that_dooms() -> None:
    doomed = DiceGroup("cruiser", 1, 7).dooming(1, 1, False, "crown_of_thalnos")
    assert doomed.with_reroll(0).stages == (0, 1)
    assert DiceGroup("cruiser", 1, 7).with_reroll(0).with_reroll(2).stages == (0, 2)
    with pytest.raises(ValueError, match="one effect"):
        doomed.dooming(0, 1, True, "crown_of_thalnos")


def test_one_cruiser_with_munitions_reserves_and_the_crown() -> None:
    """Hand-derived: a cruiser (7) rerolled at +0, then at +1 by the relic: it hits with
    1 - 0.6 * 0.6 * 0.5 = 41/50 and is lost (it rerolled with the Crown and missed) with
    0.6 * 0.6 * 0.5 = 9/50."""
    pool = DicePool.of(
        [DiceGroup("cruiser", 1, 7).with_reroll(0).dooming(1, 1, False, "crown_of_thalnos")]
    )
    assert dict(pool.tally_distribution()) == {
        Tally(1, 0, (0,)): Fraction(41, 50),
        Tally(0, 0, (1,)): Fraction(9, 50),
    }


def test_hits_that_are_marks_count_once_each() -> None:
    group = DiceGroup("flagship", 2, 7, aimed=True).dooming(1, 1, False, "crown_of_thalnos")
    pool = DicePool.of([group, DiceGroup("cruiser", 1, 7)])
    # the cruiser (first by name) 8: a hit, not a mark; the flagship 3 and 9 (a hit), the 3
    # rerolled 6 + 1 (a hit): 2 marks
    rolled = pool.sample(ScriptedDice([8, 3, 9, 6]))
    assert pool.tally(rolled) == Tally(3, 0, (0, 0), 2)
    with pytest.raises(ValueError, match="not both"):
        DiceGroup("flagship", 1, 7, mark_on=7, aimed=True)


def test_trade_goods_save_a_unit_the_crown_would_destroy_first() -> None:
    # cruisers (hit on 5): 4 and 2, the Crown rerolls both at +1 (hit on 4): 2 and 2 miss,
    # each needing 2; the fighter (hit on 6) shows 4, needing 2 too. 2 trade goods buy one
    # miss: a cruiser's (its unit is saved), not the fighter's
    group = DiceGroup("cruiser", 2, 5, budget=2).dooming(1, 1, False, "crown_of_thalnos")
    pool = DicePool.of([group, DiceGroup("fighter", 1, 6, budget=2)])
    rolled = pool.sample(ScriptedDice([4, 2, 2, 2, 4]))
    assert pool.tally(rolled) == Tally(1, 2, (1, 0))


def test_one_dreadnought_with_the_crown_and_a_trade_good() -> None:
    """Hand-derived: a dreadnought (5) with the law's reroll (5) and 1 trade good: it hits at
    once or on the reroll with 3/5 + 2/5 * 3/5 = 21/25; else its last face is 1-4 alike and a 4
    is bought (1/4): a hit, 1 spent, the unit saved (1/25); else it is lost (3/25)."""
    group = DiceGroup("dreadnought", 1, 5, budget=1).dooming(0, 1, True, "crown_of_thalnos")
    assert dict(DicePool.of([group]).tally_distribution()) == {
        Tally(1, 0, (0,)): Fraction(21, 25),
        Tally(1, 1, (0,)): Fraction(1, 25),
        Tally(0, 0, (1,)): Fraction(3, 25),
    }


def test_one_miss_bought_saves_a_unit_of_two_dice_then_the_cheapest() -> None:
    # the flagship (hit on 5; the relic's reroll on 4): 3 and 2, rerolled 2 and 1 (need 2 and
    # 3); the cruiser (7) shows 5 (needs 2). 4 trade goods: at cost 2, the flagship's first
    # (it saves the unit), then the cruiser's; the flagship's 1 (needs 3) is not bought
    flagship = DiceGroup("flagship", 2, 5, budget=4).dooming(1, 2, False, "crown_of_thalnos")
    pool = DicePool.of([flagship, DiceGroup("cruiser", 1, 7, budget=4)])
    rolled = pool.sample(ScriptedDice([3, 2, 2, 1, 5]))
    assert pool.tally(rolled) == Tally(2, 4, (0, 0))
    # 2 trade goods: the flagship's 2 only: saved, the cruiser's miss stays
    poor = DicePool.of(
        [
            DiceGroup("flagship", 2, 5, budget=2).dooming(1, 2, False, "crown_of_thalnos"),
            DiceGroup("cruiser", 1, 7, budget=2),
        ]
    )
    assert poor.tally(poor.sample(ScriptedDice([3, 2, 2, 1, 5]))) == Tally(1, 2, (0, 0))
    # the law (docs/rulings.md 27V-3): 6 (a hit) and 3, rerolled 4 (needs 1): its only reroll
    # missed, so the unit is at risk though it hit; the trade good on the 4 saves it
    law = DiceGroup("flagship", 2, 5, budget=1).dooming(0, 2, True, "crown_of_thalnos")
    assert DicePool((law,)).tally(law.roll(ScriptedDice([6, 3, 4]))) == Tally(2, 1, (0,))
    with pytest.raises(ValueError, match="one to a unit"):
        DiceGroup("war_sun", 6, 3, budget=2).dooming(1, 3, False, "crown_of_thalnos")


def test_the_hacan_flagship_with_the_relic_and_a_trade_good() -> None:
    """Hand-derived: 2 dice (7), the relic's reroll (6): a die misses at last with 3/5 * 1/2 =
    3/10 showing 1-5 alike (a 5 needs 1 trade good). Both hit: 49/100. One misses (42/100):
    bought with 1/5. Both miss (9/100): a 5 among them (9/25) is bought and saves the unit,
    else it is lost (16/25)."""
    flagship = DiceGroup("flagship", 2, 7, budget=1).dooming(1, 2, False, "crown_of_thalnos")
    assert dict(DicePool.of([flagship]).tally_distribution()) == {
        Tally(2, 0, (0,)): Fraction(49, 100),
        Tally(2, 1, (0,)): Fraction(42, 100) * Fraction(1, 5),
        Tally(1, 0, (0,)): Fraction(42, 100) * Fraction(4, 5),
        Tally(1, 1, (0,)): Fraction(9, 100) * Fraction(9, 25),
        Tally(0, 0, (1,)): Fraction(9, 100) * Fraction(16, 25),
    }


@pytest.mark.parametrize("budget", [1, 2, 3])
def test_the_law_with_trade_goods_every_roll_tallied_as_its_distribution_says(budget: int) -> None:
    """docs/rulings.md 27V-3: the Hacan flagship (2 dice on 7) and a cruiser (7), the law
    rerolling the flagship's misses (no bonus), ``budget`` trade goods: every face sequence
    (the first roll, then the reroll of each miss), tallied as ``tally`` reads it, weighs as
    ``tally_distribution`` says (the cruiser rolls first: rolling order)."""
    from itertools import product

    flagship = DiceGroup("flagship", 2, 7, budget=budget).dooming(0, 2, True, "crown_of_thalnos")
    pool = DicePool.of([flagship, DiceGroup("cruiser", 1, 7, budget=budget)])
    counted: dict[Tally, Fraction] = {}
    for first in product(range(1, 11), repeat=2):
        misses = sum(1 for face in first if face < 7)
        for again in product(range(1, 11), repeat=misses):
            for cruiser in range(1, 11):
                faces = [cruiser, *first, *again]
                tally = pool.tally(pool.sample(ScriptedDice(faces)))
                weight = Fraction(1, 10 ** len(faces))
                counted[tally] = counted.get(tally, Fraction(0)) + weight
    assert counted == dict(pool.tally_distribution())
