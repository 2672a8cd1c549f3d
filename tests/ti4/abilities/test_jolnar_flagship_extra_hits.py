"""Jol-Nar flagship (abilities/jolnar_flagship_extra_hits.py): each of its space combat dice
(ti4-space-combat.md step 3) showing a natural 9 or 10 produces 2 additional hits
(docs/rulings.md 14C-6)."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import pytest

from spacecombat import odds
from spacecombat.core.pool import DiceGroup, DicePool
from tests.helpers import events, rolls, run, space


def jolnar(units: str = "1 flagship", **extra: Any) -> dict[str, Any]:
    return {"faction": "jolnar", "units": units, "damaged": {"flagship": 1}, **extra}


def attacker_roll(played: Any) -> dict[str, Any]:
    roll = next(r for r in rolls(played, "space_combat") if r["player"] == "attacker")
    assert isinstance(roll, dict)
    return roll


def test_a_natural_nine_or_ten_makes_three_hits() -> None:
    # flagship on 7 (6, Fragile -1): faces 9 and 8: 3 + 1 hits; 4 cruisers lose 4
    played = run(space(jolnar(), {"units": "4 cruiser"}), [9, 8, 1, 1, 1, 1])
    roll = attacker_roll(played)
    [group] = roll["groups"]
    assert (group["hit_on"], group["extra_on"], group["extra_hits"]) == (7, 9, 2)
    assert (group["hits"], roll["hits"]) == (4, 4)
    assert len(events(played, "unit_destroyed", player="defender")) == 4


def test_a_natural_nine_that_misses_still_makes_two() -> None:
    # modifiers that make the flagship miss on every face (on 11): natural 9 and 10 still
    # produce 2 hits each
    group = DiceGroup("flagship", 1, 6, -5, extra_on=9, extra_hits=2)
    assert group.hit_on == 11
    assert DicePool.of([group]).distribution() == {0: Fraction(8, 10), 2: Fraction(2, 10)}


def test_plain_hits_below_nine() -> None:
    played = run(space(jolnar(), {"units": "2 cruiser"}), [7, 8, 1, 1])
    assert attacker_roll(played)["hits"] == 2


def test_other_ships_and_the_opponent_are_plain() -> None:
    played = run(space(jolnar("1 flagship, 1 cruiser"), {"units": "1 cruiser"}), [1, 1, 10, 1])
    roll = attacker_roll(played)
    by_unit = {g["unit"]: g for g in roll["groups"]}
    assert "extra_on" not in by_unit["cruiser"]
    assert roll["hits"] == 1


def test_the_pool_distribution_by_hand() -> None:
    """2 dice on 7: per die no hit 6/10, 1 hit 2/10 (7, 8), 3 hits 2/10 (9, 10). Two dice:
    0: 36/100, 1: 24/100, 2: 4/100, 3: 24/100, 4: 8/100, 6: 4/100."""
    pool = DicePool.of([DiceGroup("flagship", 2, 6, -1, extra_on=9, extra_hits=2)])
    expected = {0: 36, 1: 24, 2: 4, 3: 24, 4: 8, 6: 4}
    assert pool.distribution() == {k: Fraction(v, 100) for k, v in expected.items()}
    assert pool.max_hits == 6


def test_exact_odds_hand_derived() -> None:
    """A damaged Jol-Nar flagship (the pool above: at least 2 hits 40/100, exactly 1 24/100)
    against a dreadnought (on 5: 3/5, SUSTAIN DAMAGE). Undamaged dreadnought U: won
    40/100 · 2/5, drawn 40/100 · 3/5, to damaged D 24/100 · 2/5, again 36/100 · 2/5.
    D: won 64/100 · 2/5, drawn 64/100 · 3/5, again 36/100 · 2/5."""
    f = Fraction
    again = 1 - f(36, 100) * f(2, 5)
    d_win, d_draw = f(64, 100) * f(2, 5) / again, f(64, 100) * f(3, 5) / again
    to_d = f(24, 100) * f(2, 5)
    win = (f(40, 100) * f(2, 5) + to_d * d_win) / again
    draw = (f(40, 100) * f(3, 5) + to_d * d_draw) / again
    found = odds(space(jolnar(), {"units": "1 dreadnought"}))
    assert found.attacker_win == pytest.approx(float(win), abs=1e-12)
    assert found.draw == pytest.approx(float(draw), abs=1e-12)
