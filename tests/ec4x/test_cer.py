"""7.3.3 Combat Effectiveness Rating: the d10, the table, modifiers and rounding."""

from __future__ import annotations

from typing import Any

import pytest

from tests.ec4x.helpers import fleet, make, partial, scenario, squadron


def first_roll(data: dict[str, Any], die: int) -> dict[str, Any]:
    """Alpha's first CER roll (its single squadron against beta's single DN)."""
    played = partial(make(data), [("cer", die), ("target", 0)])
    return played.of("cer_rolled", house="alpha")[0]


def duel(alpha: dict[str, Any], **fields: Any) -> dict[str, Any]:
    # beta's DD has CR 4: alpha's squadron (CR >= 4 or tied) rolls first or alongside
    return scenario(fleet("A1", "alpha", alpha), fleet("B1", "beta", squadron("CT")), **fields)


@pytest.mark.parametrize(
    ("flagship", "die", "cer", "hits"),
    [
        ("DN", 5, "3/4", 21),  # 0.75 x 28 = 21
        ("CA", 0, "1/4", 3),  # 0.25 x 12 = 3
        ("DD", 1, "1/4", 2),  # 0.25 x 5 = 1.25, rounded up: 2
        ("RR", 0, "1/2", 6),  # undetected: ambush +4, 0.5 x 12 = 6
        ("CL", 6, "3/4", 6),  # 0.75 x 8 = 6
        ("CV", 8, "1", 5),
    ],
)
def test_hits_are_cer_times_as_rounded_up(flagship: str, die: int, cer: str, hits: int) -> None:
    """7.3.3: "Total Hits = CER × Squadron_AS", "(round up)"."""
    rolled = first_roll(duel(squadron(flagship)), die)
    assert (rolled["cer"], rolled["hits"]) == (cer, hits)


def test_squadron_as_is_the_sum_of_its_ships() -> None:
    """7.3.1.4: "The squadron's total AS and DS values are the sum of all ships"."""
    rolled = first_roll(duel(squadron("DN", escorts={"CA": 2})), 7)
    assert rolled["strength"] == 28 + 2 * 12
    assert rolled["hits"] == 52


def test_crippled_as_halved_rounding_up_then_cer_rounding_up() -> None:
    """7.1.2 "AS is reduced by half (rounded up)"; 7.3.3: crippled DN 28 -> 14; CER 1/4 x 14 =
    3.5 -> 4."""
    rolled = first_roll(duel(squadron("DN", state="crippled")), 0)
    assert (rolled["strength"], rolled["hits"]) == (14, 4)
    rolled = first_roll(duel(squadron("DD", escorts={"FG": 1}, state="crippled")), 8)
    assert rolled["strength"] == 4  # (5 + 3) / 2


def test_natural_nine_is_critical_and_modifiers_do_not_make_one() -> None:
    """7.3.3: "If the die roll is a natural nine before any required modification"."""
    assert first_roll(duel(squadron("DD")), 9)["critical"] is True
    scouted = duel(squadron("DD"))
    scouted["fleets"][0]["scouts"] = [{"eli": 1}]
    rolled = first_roll(scouted, 8)
    assert rolled["modified"] == 9
    assert rolled["critical"] is False


def test_scouts_give_plus_one_once_per_task_force() -> None:
    """7.3.3 Scouts +1: "Maximum benefit for all Scouts in Task Force"."""
    data = scenario(
        fleet("A1", "alpha", squadron("DD"), scouts=[{"eli": 1, "count": 3}]),
        fleet("A2", "alpha", squadron("CT"), scouts=[{"eli": 2}]),
        fleet("B1", "beta", squadron("CT")),
    )
    rolled = first_roll(data, 4)
    assert rolled["modifiers"] == {"scouts": 1}
    assert rolled["cer"] == "3/4"


def test_morale_bonus_applies_to_every_roll() -> None:
    """7.1.4: prestige 41-60, roll > 12: "+1 to all CER rolls this turn"."""
    data = duel(squadron("DD"))
    data["houses"]["alpha"] = {"prestige": 50, "morale_roll": 13}
    assert first_roll(data, 2)["modifiers"] == {"morale": 1}


def test_morale_crisis_minus_one() -> None:
    """7.1.4: "Prestige ≤ 0 ... All CER rolls receive -1 penalty"."""
    data = duel(squadron("DD"), options={"crisis_refusal": "ignore"})
    data["houses"]["alpha"] = {"prestige": 0}
    rolled = first_roll(data, 3)
    assert rolled["modifiers"] == {"morale": -1}
    assert rolled["cer"] == "1/4"


def test_die_reads_zero_to_nine_by_default() -> None:
    """Ruling E32: the CER table's "Less than zero, 0, 1, 2" reads a d10 as 0-9."""
    played = partial(make(duel(squadron("DD"))), [])
    assert played.draws[0].values == tuple(range(10))
    other = partial(make(duel(squadron("DD"), options={"cer_die": "1-10"})), [])
    assert other.draws[0].values == tuple(range(1, 11))
