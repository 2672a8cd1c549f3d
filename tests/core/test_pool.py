"""Dice pools (core/pool.py): which face hits, rolling order, exact hit distributions.

ti4-space-combat.md step 3: a result equal to or greater than the combat value is a hit.
docs/rulings.md R5: there is no "natural 10 always hits" rule; modifiers can make a hit
impossible.
"""

from __future__ import annotations

from collections import Counter
from fractions import Fraction

from hypothesis import given, settings
from hypothesis import strategies as st

from spacecombat.core.dice import ScriptedDice, SeededDice
from spacecombat.core.pool import NEVER, DiceGroup, DicePool, hit_face, total_hits

F = Fraction


# --- hit_face ------------------------------------------------------------------------------


def test_hit_face_is_the_combat_value_without_modifiers() -> None:
    # ti4-space-combat.md step 3: equal to or greater than the combat value hits.
    assert hit_face(7, 0) == 7


def test_a_plus_one_modifier_lowers_the_face_needed() -> None:
    # docs/rulings.md R5: the modifier is added to the die result.
    assert hit_face(7, 1) == 6


def test_value_10_with_minus_1_can_never_hit() -> None:
    # docs/rulings.md R5: no "natural 10" rule, so a 10 modified to 9 misses a value of 10.
    assert hit_face(10, -1) == NEVER


def test_a_group_that_can_never_hit_has_no_hit_chance() -> None:
    # docs/rulings.md R5.
    assert DiceGroup("war_sun", 3, 10, -1).hit_chance == 0


def test_a_face_of_10_misses_when_modifiers_push_the_value_past_10() -> None:
    # docs/rulings.md R5: no "natural 10" rule.
    group = DiceGroup("fighter", 1, 9, -2)
    (rolled,) = DicePool.of([group]).sample(ScriptedDice([10]))
    assert rolled.hits == 0


def test_a_modifier_can_make_a_hit_certain() -> None:
    # docs/rulings.md R5: a face of 1 plus the modifier reaches the value.
    assert DiceGroup("dreadnought", 1, 5, 4).hit_chance == 1


def test_hit_face_is_never_below_1() -> None:
    assert hit_face(2, 5) == 1


def test_max_hits_leaves_out_dice_that_cannot_hit() -> None:
    # docs/rulings.md R5.
    pool = DicePool.of([DiceGroup("carrier", 2, 10, -1), DiceGroup("cruiser", 3, 7)])
    assert pool.max_hits == 3


# --- rolling order -------------------------------------------------------------------------


def test_pool_rolls_in_ascending_printed_value() -> None:
    # ti4-space-combat.md step 3.3: roll combat value 1 first, then 2, and so on.
    pool = DicePool.of(
        [DiceGroup("fighter", 3, 9), DiceGroup("war_sun", 1, 3), DiceGroup("cruiser", 2, 7)]
    )
    assert [g.unit for g in pool.groups] == ["war_sun", "cruiser", "fighter"]


def test_rolling_order_uses_the_printed_value_not_the_modified_one() -> None:
    # ti4-space-combat.md step 3.3 orders by combat value (what is printed on the card).
    pool = DicePool.of([DiceGroup("fighter", 1, 9, 4), DiceGroup("cruiser", 1, 7)])
    assert [g.unit for g in pool.groups] == ["cruiser", "fighter"]


def test_groups_with_the_same_value_roll_in_unit_name_order() -> None:
    pool = DicePool.of([DiceGroup("fighter", 1, 9), DiceGroup("carrier", 1, 9)])
    assert [g.unit for g in pool.groups] == ["carrier", "fighter"]


def test_pool_drops_groups_without_dice() -> None:
    pool = DicePool.of([DiceGroup("fighter", 0, 9), DiceGroup("cruiser", 2, 7)])
    assert [g.unit for g in pool.groups] == ["cruiser"]


def test_sample_hands_faces_to_groups_in_rolling_order() -> None:
    # ti4-space-combat.md step 3.3: the value-5 dreadnought rolls before the value-9 fighters.
    pool = DicePool.of([DiceGroup("fighter", 2, 9), DiceGroup("dreadnought", 1, 5)])
    rolled = pool.sample(ScriptedDice([5, 9, 8]))
    assert [(r.group.unit, r.faces, r.hits) for r in rolled] == [
        ("dreadnought", (5,), 1),
        ("fighter", (9, 8), 1),
    ]


def test_total_hits_adds_every_group() -> None:
    pool = DicePool.of([DiceGroup("fighter", 2, 9), DiceGroup("dreadnought", 2, 5)])
    assert total_hits(pool.sample(ScriptedDice([5, 4, 10, 9]))) == 3


# --- exact distribution --------------------------------------------------------------------


def test_one_die_hitting_on_9() -> None:
    # faces 9 and 10 hit: 2 of 10.
    assert DicePool.of([DiceGroup("fighter", 1, 9)]).distribution() == {0: F(4, 5), 1: F(1, 5)}


def test_two_dice_of_one_group_are_binomial() -> None:
    # By hand: p = 1/5; (4/5)^2, 2(1/5)(4/5), (1/5)^2.
    assert DicePool.of([DiceGroup("fighter", 2, 9)]).distribution() == {
        0: F(16, 25),
        1: F(8, 25),
        2: F(1, 25),
    }


def test_two_groups_are_convolved() -> None:
    # By hand: fighter p = 1/5, dreadnought p = 6/10 = 3/5.
    # 0: 4/5 * 2/5 = 8/25; 1: 1/5 * 2/5 + 4/5 * 3/5 = 14/25; 2: 1/5 * 3/5 = 3/25.
    pool = DicePool.of([DiceGroup("fighter", 1, 9), DiceGroup("dreadnought", 1, 5)])
    assert pool.distribution() == {0: F(8, 25), 1: F(14, 25), 2: F(3, 25)}


def test_two_fighters_and_a_cruiser_are_convolved() -> None:
    # By hand: two dice at 9 {0: 16/25, 1: 8/25, 2: 1/25} with one die at 8, +1 (hits on 7+,
    # p = 2/5):
    # 0: 16/25*3/5 = 48/125; 1: 16/25*2/5 + 8/25*3/5 = 56/125;
    # 2: 8/25*2/5 + 1/25*3/5 = 19/125; 3: 1/25*2/5 = 2/125.
    pool = DicePool.of([DiceGroup("fighter", 2, 9), DiceGroup("cruiser", 1, 8, 1)])
    assert pool.distribution() == {0: F(48, 125), 1: F(56, 125), 2: F(19, 125), 3: F(2, 125)}


def test_dice_that_cannot_hit_give_zero_hits_for_certain() -> None:
    # docs/rulings.md R5: value 10 with -1 never hits.
    assert DicePool.of([DiceGroup("war_sun", 3, 10, -1)]).distribution() == {0: 1}


def test_an_empty_pool_gives_zero_hits_for_certain() -> None:
    assert DicePool.of([]).distribution() == {0: 1}


groups = st.builds(
    DiceGroup,
    unit=st.sampled_from(["fighter", "cruiser", "dreadnought", "war_sun", "destroyer"]),
    dice=st.integers(0, 4),
    value=st.integers(1, 10),
    modifier=st.integers(-3, 3),
)


@given(st.lists(groups, max_size=4))
def test_distribution_sums_to_one(pool_groups: list[DiceGroup]) -> None:
    assert sum(DicePool.of(pool_groups).distribution().values()) == 1


@given(st.lists(groups, max_size=4))
def test_distribution_spans_certain_hits_to_max_hits(pool_groups: list[DiceGroup]) -> None:
    """Every count from the dice that always hit to the dice that can hit is possible."""
    pool = DicePool.of(pool_groups)
    certain = sum(g.dice for g in pool.groups if g.hit_chance == 1)
    assert set(pool.distribution()) == set(range(certain, pool.max_hits + 1))


SAMPLES = 2000


@settings(max_examples=20, deadline=None, derandomize=True)
@given(st.lists(groups, min_size=1, max_size=3), st.integers(0, 2**32))
def test_sampled_hit_frequencies_match_the_distribution(
    pool_groups: list[DiceGroup], seed: int
) -> None:
    """DESIGN.md: sample and distribution come from one description, so they agree; sampled
    frequencies stay within 5 standard errors (plus one sample) of the exact chances."""
    pool = DicePool.of(pool_groups)
    dice = SeededDice(seed)
    counts = Counter(total_hits(pool.sample(dice)) for _ in range(SAMPLES))
    exact = pool.distribution()
    assert set(counts) <= set(exact)
    for hits, chance in exact.items():
        p = float(chance)
        tolerance = 5 * (p * (1 - p) / SAMPLES) ** 0.5 + 1 / SAMPLES
        assert abs(counts[hits] / SAMPLES - p) <= tolerance, (hits, counts[hits], p)


# --- the joint distribution of hits and marks ----------------------------------------------


def _joint_by_enumeration(groups: list[DiceGroup]) -> dict[tuple[int, int], Fraction]:
    """Every roll of every die, counted one by one."""
    counts: Counter[tuple[int, int]] = Counter()
    dice = [g for g in groups for _ in range(g.dice)]

    def roll(at: int, hits: int, marks: int) -> None:
        if at == len(dice):
            counts[(hits, marks)] += 1
            return
        group = dice[at]
        for face in range(1, 11):
            hit = face >= group.hit_on
            mark = group.mark_on is not None and face >= group.mark_on
            roll(at + 1, hits + hit, marks + mark)

    roll(0, 0, 0)
    total = 10 ** len(dice)
    return {key: Fraction(n, total) for key, n in counts.items()}


@settings(max_examples=40, deadline=None)
@given(
    st.lists(
        st.tuples(
            st.integers(1, 3),
            st.integers(1, 11),
            st.integers(-2, 2),
            st.none() | st.integers(1, 10),
        ),
        min_size=1,
        max_size=2,
    ).filter(lambda groups: sum(g[0] for g in groups) <= 4)
)
def test_the_joint_distribution_of_hits_and_marks_counts_every_roll(
    groups: list[tuple[int, int, int, int | None]],
) -> None:
    """TI3 Shock Troops count natural 10s (marks) beside hits: the joint distribution, by
    multinomial sums, equals the count of every roll."""
    pool_groups = [
        DiceGroup(f"unit{i}", dice, value, modifier, mark_on)
        for i, (dice, value, modifier, mark_on) in enumerate(groups)
    ]
    assert dict(DicePool(tuple(pool_groups)).joint_distribution()) == _joint_by_enumeration(
        pool_groups
    )


def test_the_joint_distribution_of_many_dice_sums_to_one() -> None:
    """190 ground forces (hit on 5+, a natural 10 marks): one distribution, total 1."""
    pool = DicePool((DiceGroup("ground_force", 190, 5, 0, 10),))
    joint = pool.joint_distribution()
    assert sum(joint.values()) == 1
    assert joint[(0, 0)] == Fraction(4, 10) ** 190
    assert sum(p for (hits, _), p in joint.items() if hits == 190) == Fraction(6, 10) ** 190
