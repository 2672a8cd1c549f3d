"""EC4X raider detection (7.1.3, 7.3.1.1; facts §4): effective ELI, the starbase bonus, the
threshold table with its NA cells and range rule, and the detection roll."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from spacecombat.rulesets.ec4x.space_combat.detection import (
    detects,
    effective_eli,
    mesh_bonus,
    range_rule,
    starbase_eli,
    threshold,
    threshold_range,
)


def test_worked_example_2xeli2_3xeli4_as_example_gives_5() -> None:
    """Facts §4 example 1: ceil(3.2) = 4, -1 (applied by the spec although 40% < 50%),
    mesh +2 -> ELI5 (E1, dominant_penalty="as_example")."""
    assert effective_eli([2, 2, 4, 4, 4], dominant_penalty="as_example") == 5


def test_worked_example_2xeli2_3xeli4_as_written_is_capped_at_5() -> None:
    """Facts §4 example 1 by the rule as written: no penalty, 4 + 2 = 6, capped at ELI5."""
    assert effective_eli([2, 2, 4, 4, 4]) == 5


def test_worked_example_eli1_eli3_gives_3_under_both_readings() -> None:
    """Facts §4 example 2: ELI1 + ELI3 -> ELI2, mesh +1 -> ELI3 (no penalty at 50%)."""
    assert effective_eli([1, 3]) == 3
    assert effective_eli([1, 3], dominant_penalty="as_example") == 3


def test_the_readings_differ_below_the_cap() -> None:
    """E1: ELI2 + 2xELI3: ceil(8/3) = 3; as written one of three below (no penalty) -> 3+1;
    as the example reads it the ceiling rounded up -> 2+1."""
    assert effective_eli([2, 3, 3]) == 4
    assert effective_eli([2, 3, 3], dominant_penalty="as_example") == 3


def test_dominant_penalty_as_written_applies_above_half() -> None:
    """Facts §4 step 2: "more than 50% of the scouts are below that rounded average":
    ELI1, ELI1, ELI4: ceil(2) = 2, two of three below -> 1, mesh +1 -> 2."""
    assert effective_eli([1, 1, 4]) == 2
    assert effective_eli([1, 1, 4], dominant_penalty="as_example") == 3


@pytest.mark.parametrize(
    ("scouts", "bonus"), [(1, 0), (2, 1), (3, 1), (4, 2), (5, 2), (6, 3), (12, 3)]
)
def test_mesh_bonus(scouts: int, bonus: int) -> None:
    """Facts §4 step 3: 1 -> 0, 2-3 -> +1, 4-5 -> +2, 6+ -> +3."""
    assert mesh_bonus(scouts) == bonus


@given(st.lists(st.integers(1, 5), min_size=1, max_size=12))
def test_effective_eli_is_always_1_to_5(levels: list[int]) -> None:
    """Facts §4 step 4 caps at ELI5; E2: it never falls below ELI1, under either reading."""
    assert 1 <= effective_eli(levels) <= 5
    assert 1 <= effective_eli(levels, dominant_penalty="as_example") <= 5


@given(st.lists(st.integers(1, 5), min_size=1, max_size=12))
def test_as_example_is_the_mean_rounded_down_plus_mesh(levels: list[int]) -> None:
    """E1 "as_example": the base is the mean rounded down."""
    base = sum(levels) // len(levels)
    expected = min(5, base + mesh_bonus(len(levels)))
    assert effective_eli(levels, dominant_penalty="as_example") == expected


@given(st.integers(1, 5), st.integers(1, 12))
def test_identical_scouts_get_no_penalty(level: int, count: int) -> None:
    """Facts §4: scouts all at one level are never below their mean."""
    expected = min(5, level + mesh_bonus(count))
    assert effective_eli([level] * count) == expected
    assert effective_eli([level] * count, dominant_penalty="as_example") == expected


def test_effective_eli_refuses_no_scouts_and_bad_levels() -> None:
    with pytest.raises(ValueError, match="at least one scout"):
        effective_eli([])
    with pytest.raises(ValueError, match=r"1\.\.5"):
        effective_eli([0, 3])


@pytest.mark.parametrize(
    ("level", "capped", "uncapped"), [(1, 3, 3), (3, 5, 5), (4, 5, 6), (5, 5, 7)]
)
def test_starbase_eli_is_plus_2(level: int, capped: int, uncapped: int) -> None:
    """7.3.1.1 "Starbases receive +2 ELI modifier for detection rolls"; E3 cap at ELI5."""
    assert starbase_eli(level) == capped
    assert starbase_eli(level, cap="uncapped") == uncapped


@pytest.mark.parametrize(("eli", "clk"), [(1, 3), (1, 4), (1, 5), (2, 4), (2, 5), (3, 5)])
def test_na_cells_cannot_detect(eli: int, clk: int) -> None:
    """Facts §4 table: NA cells (ELI two or more below CLK) cannot detect."""
    assert threshold_range(eli, clk) is None
    assert threshold(eli, clk) is None


@pytest.mark.parametrize(
    ("eli", "clk", "cell"),
    [(1, 1, (14, 16)), (1, 2, (17, 19)), (2, 3, (17, 19)), (3, 1, (6, 8)), (4, 5, (17, 19)),
     (5, 1, (1, 3)), (5, 2, (3, 5)), (5, 5, (14, 16))],
)  # fmt: skip
def test_threshold_ranges(eli: int, clk: int, cell: tuple[int, int]) -> None:
    """Facts §4 detection thresholds table."""
    assert threshold_range(eli, clk) == cell


@pytest.mark.parametrize(
    ("eli", "clk", "rule"),
    [(3, 1, "lower"), (5, 3, "lower"), (2, 2, "d3"), (3, 2, "d3"), (1, 2, "upper"),
     (4, 5, "upper"), (7, 5, "lower"), (6, 5, "d3")],
)  # fmt: skip
def test_range_rule(eli: int, clk: int, rule: str) -> None:
    """Facts §4: ELI >= CLK+2 lower; ELI = CLK or CLK+1 1D3; ELI < CLK upper."""
    assert range_rule(eli, clk) == rule


def test_threshold_lower_and_upper_bounds() -> None:
    """Facts §4: ELI4 vs CLK2 (>= CLK+2) uses 6; ELI2 vs CLK3 (< CLK) uses 19."""
    assert threshold(4, 2) == 6
    assert threshold(2, 3) == 19


def test_threshold_d3_picks_lower_middle_upper() -> None:
    """Facts §4: ELI = CLK or CLK+1: 1D3 picks lower, middle, upper (ELI3 vs CLK3: 14-16)."""
    assert [threshold(3, 3, d3) for d3 in (1, 2, 3)] == [14, 15, 16]
    assert [threshold(4, 3, d3) for d3 in (1, 2, 3)] == [10, 11, 12]


def test_d3_is_required_exactly_when_the_rule_rolls_it() -> None:
    with pytest.raises(ValueError, match="d3 is given iff"):
        threshold(3, 3)
    with pytest.raises(ValueError, match="d3 is given iff"):
        threshold(5, 1, 2)
    with pytest.raises(ValueError, match=r"1\.\.3"):
        threshold(3, 3, 4)


def test_uncapped_starbase_reads_the_eli5_row_with_its_own_rule() -> None:
    """E3 "uncapped": an ELI7 starbase vs CLK5 reads ELI5's 14-16 with the lower bound."""
    assert threshold(7, 5) == 14
    assert threshold(5, 5, 3) == 16


def test_detection_roll_meets_or_exceeds() -> None:
    """Facts §4: "1D20 must meet or exceed" (the examples over the table's "> x"; E4)."""
    assert detects(14, 14)
    assert not detects(13, 14)
    assert not detects(14, 14, comparison="greater")
    assert detects(15, 14, comparison="greater")


def test_detection_roll_must_be_a_d20() -> None:
    with pytest.raises(ValueError, match="1D20"):
        detects(21, 3)
