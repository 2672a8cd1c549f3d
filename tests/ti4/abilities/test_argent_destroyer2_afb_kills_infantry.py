"""Strike Wing Alpha II (units.toml ability; abilities/argent_destroyer2_afb_kills_infantry.py):
each ANTI-FIGHTER BARRAGE die showing a natural 9 or 10 also destroys 1 of the opponent's
infantry in the space area (ti4-space-combat.md step 1), at the roll, hit or not."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import pytest

from spacecombat import odds
from tests.helpers import events, rolls, run, space

ARGENT = {"faction": "argent", "upgrades": ["destroyer"]}
CAUSE = "anti-fighter barrage (Strike Wing Alpha II)"


def battle(defender: str, **attacker: Any) -> dict[str, Any]:
    return space({"units": "1 destroyer", **ARGENT, **attacker}, {"units": defender})


def killed(played: Any) -> list[tuple[object, object]]:
    return [(e["player"], e["unit"]) for e in events(played, "unit_destroyed", cause=CAUSE)]


def first_group(roll: object) -> dict[str, Any]:
    """The first group of a ``dice_rolled`` event."""
    assert isinstance(roll, dict)
    group: dict[str, Any] = roll["groups"][0]
    return group


def test_each_nine_or_ten_destroys_an_infantry_in_space() -> None:
    # barrage 9, 10, 1 (AFB 6 x3): two marks, two infantry; the two hits go to the fighter
    played = run(battle("1 carrier, 1 fighter, 3 infantry"), [9, 10, 1, 10, 1])
    assert killed(played) == [("defender", "infantry")] * 2
    [roll] = rolls(played, "anti_fighter_barrage")
    assert first_group(roll)["marks"] == 2
    barrage = events(played, "unit_destroyed", cause="anti-fighter barrage")
    assert [e["unit"] for e in barrage] == ["fighter"]
    kinds = [e["event"] for e in played.events]
    assert kinds.index("unit_destroyed") == kinds.index("dice_rolled") + 1  # at the roll


def test_a_hit_below_nine_destroys_no_infantry() -> None:
    played = run(battle("1 carrier, 2 infantry"), [6, 8, 1, 10, 1])
    assert not killed(played)


def test_marks_beyond_the_infantry_are_lost() -> None:
    played = run(battle("1 carrier, 1 infantry"), [9, 9, 9, 10, 1])
    assert killed(played) == [("defender", "infantry")]


def test_infantry_on_a_planet_are_not_in_the_space_area() -> None:
    scenario = space(
        {"units": "1 destroyer", **ARGENT},
        {"units": "1 carrier", "planet_units": {"infantry": 2}},
    )
    played = run(scenario, [9, 9, 9, 10, 1])
    assert not killed(played)


def test_the_plain_destroyer_ii_does_not() -> None:
    scenario = space(
        {"units": "1 destroyer", "upgrades": ["destroyer"]}, {"units": "1 carrier, 2 infantry"}
    )
    played = run(scenario, [9, 10, 1, 10, 1])
    assert not killed(played)
    assert "marks" not in first_group(rolls(played, "anti_fighter_barrage")[0])


def test_rerolled_barrage_dice_count_the_marks_of_their_reroll() -> None:
    # Ta Zern (Alliance) rerolls the misses of unit-ability rolls: 9 hits and is kept, 1 and 2
    # are rerolled; the reroll's 9 counts too (docs/rulings.md 14RR-4; once refused)
    scenario = battle("1 carrier, 2 infantry", leaders=["ta_zern"])
    played = run(scenario, [9, 1, 2, 9, 3, 10, 1])
    [barrage] = rolls(played, "anti_fighter_barrage")
    found = barrage["groups"]
    assert isinstance(found, list)
    assert [(g["faces"], g["marks"]) for g in found] == [([9, 1, 2], 1), ([9, 3], 1)]
    assert killed(played) == [("defender", "infantry")] * 2


def test_a_rerolled_roll_whose_nine_may_miss_is_refused_by_name() -> None:
    from dataclasses import replace

    from spacecombat.core.pool import DiceGroup

    with pytest.raises(ValueError, match="marks hits only"):
        replace(DiceGroup("destroyer", 3, 10, reroll=0), mark_on=9)


def test_exact_expected_losses_with_ta_zern() -> None:
    """As below, but each barrage die also gets a mark from its reroll: 2/10 + 5/10 * 2/10 =
    3/10, so the infantry dies in the barrage with 1 - (7/10)^3 = 657/1000; expected losses
    30/13 + 1/2 * (657/1000 + 343/1000 * 10/13) = 30/13 + 11971/26000."""
    found = odds(battle("1 carrier, 1 infantry", leaders=["ta_zern"]))
    expected = Fraction(30, 13) + Fraction(11971, 26000)
    assert found.expected_losses["defender"] == pytest.approx(float(expected), abs=1e-12)


def test_exact_expected_losses_hand_derived() -> None:
    """1 Strike Wing Alpha II (AFB 6 x3; combat 7: 2/5) against 1 carrier (combat 9: 1/5)
    carrying 1 infantry. The infantry dies in the barrage unless no die shows 9 or 10:
    1 - (4/5)^3 = 61/125. The duel: attacker 2/5 * 4/5 / (1 - 3/5 * 4/5) = 8/13, draw
    2/5 * 1/5 / (13/25) = 2/13; the carrier is lost 10/13, and with it the infantry. Expected
    losses (resources): 3 * 10/13 + 1/2 * (61/125 + 64/125 * 10/13) = 30/13 + 1433/3250.
    The plain Destroyer II (combat 8: 3/10) loses the carrier and infantry together:
    3/10 * 4/5 / (1 - 7/10 * 4/5) + 3/10 * 1/5 / (11/25) = 15/22, so 7/2 * 15/22 = 105/44."""
    found = odds(battle("1 carrier, 1 infantry"))
    assert found.attacker_win == pytest.approx(float(Fraction(8, 13)), abs=1e-12)
    expected = Fraction(30, 13) + Fraction(1433, 3250)
    assert found.expected_losses["defender"] == pytest.approx(float(expected), abs=1e-12)
    plain_ii = {"units": "1 destroyer", "upgrades": ["destroyer"]}
    plain = odds(space(plain_ii, {"units": "1 carrier, 1 infantry"}))
    assert plain.expected_losses["defender"] == pytest.approx(float(Fraction(105, 44)), abs=1e-12)
