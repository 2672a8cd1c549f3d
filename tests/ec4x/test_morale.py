"""EC4X morale (7.1.4): the bands at their boundaries, success strictly above the threshold,
each band's effect, and the crisis without a roll."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from spacecombat.rulesets.ec4x.space_combat.morale import (
    MoraleBand,
    MoraleEffect,
    band,
    morale_effect,
    needs_roll,
)


@pytest.mark.parametrize(
    ("prestige", "name"),
    [
        (-7, "Crisis"),
        (0, "Crisis"),
        (1, "Low"),
        (20, "Low"),
        (21, "Average"),
        (40, "Average"),
        (41, "Good"),
        (60, "Good"),
        (61, "High"),
        (80, "High"),
        (81, "Elite"),
        (500, "Elite"),
    ],
)
def test_band_boundaries_7_1_4(prestige: int, name: str) -> None:
    """7.1.4 Morale Check Table: <= 0, 1-20, 21-40, 41-60, 61-80, 81+."""
    assert band(prestige).name == name


def test_bands_carry_their_thresholds_7_1_4() -> None:
    """7.1.4: Never, > 18, > 15, > 12, > 9, > 6."""
    assert band(0) == MoraleBand("Crisis", None, 0, None)
    assert band(1) == MoraleBand("Low", 1, 20, 18)
    assert [band(p).succeeds_above for p in (21, 41, 61, 81)] == [15, 12, 9, 6]
    assert band(81).high is None


@pytest.mark.parametrize(("prestige", "threshold"), [(1, 18), (21, 15), (41, 12), (61, 9), (81, 6)])
def test_success_is_strictly_above_the_threshold_7_1_4(prestige: int, threshold: int) -> None:
    """7.1.4 "> 18" etc.: the threshold itself fails, one more succeeds."""
    assert not morale_effect(prestige, threshold).success
    assert morale_effect(prestige, threshold + 1).success


def test_crisis_needs_no_roll_and_penalises_7_1_4() -> None:
    """7.1.4 "Prestige <= 0 automatically triggers morale crisis without requiring a roll":
    -1 to all CER rolls, one random fleet refuses orders."""
    assert not needs_roll(0)
    assert needs_roll(1)
    assert morale_effect(0, None) == MoraleEffect("Crisis", None, False, -1, 0, False, True)


def test_crisis_refuses_a_roll_and_other_bands_need_one() -> None:
    with pytest.raises(ValueError, match="no roll"):
        morale_effect(0, 12)
    with pytest.raises(ValueError, match="needs a 1D20"):
        morale_effect(1, None)
    with pytest.raises(ValueError, match="needs a 1D20"):
        morale_effect(50, 21)


def test_low_band_success_has_no_effect_7_1_4() -> None:
    assert morale_effect(20, 19) == MoraleEffect("Low", 19, True, 0, 0, False, False)


def test_average_band_gives_one_squadron_plus_1_7_1_4() -> None:
    """7.1.4 21-40: "+1 to CER for one random squadron"."""
    assert morale_effect(40, 16) == MoraleEffect("Average", 16, True, 0, 1, False, False)


def test_good_band_gives_all_cer_plus_1_7_1_4() -> None:
    assert morale_effect(41, 13) == MoraleEffect("Good", 13, True, 1, 0, False, False)


def test_high_band_gives_plus_1_and_an_auto_critical_7_1_4() -> None:
    """7.1.4 61-80: "+1 CER + one critical auto-succeeds" (E8: +1 to all CER)."""
    assert morale_effect(80, 10) == MoraleEffect("High", 10, True, 1, 0, True, False)


def test_elite_band_gives_all_cer_plus_2_7_1_4() -> None:
    assert morale_effect(81, 7) == MoraleEffect("Elite", 7, True, 2, 0, False, False)


@given(st.integers(1, 200), st.integers(1, 20))
def test_a_failed_check_has_no_effect_7_1_4(prestige: int, d20: int) -> None:
    """7.1.4: the effects are "Effect on Success"; a failed check changes nothing."""
    effect = morale_effect(prestige, d20)
    if not effect.success:
        assert (effect.all_cer, effect.one_squadron_cer, effect.auto_critical) == (0, 0, False)
    assert effect.rolled == d20
    assert not effect.crisis
