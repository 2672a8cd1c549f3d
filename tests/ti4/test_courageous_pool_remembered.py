"""Courageous to the End's dice pool made once per setup, holder and ship destroyed (issue 24,
24AB-4; rulesets/ti4/abilities/courageous_to_the_end.py ``POOL_REMEMBERED``).

The card (data/cards.toml; ti4-combat-effects.md, action cards): "after one of your ships is
destroyed during a space combat, roll 2 dice; for each result equal to or greater than that
ship's combat value, your opponent destroys one of their ships": the 2 dice at the printed combat
value of the ship's card (no modifiers: not a combat roll, docs/rulings.md 14A-11), a value of
the setup, the holder and the ship's type alone. The exact engine meets the roll at every state
that rolls (no. 24 of the faction mix, benchmarks/faction_exact.py: 711), and the pool was made
afresh at each. Checked here: the rolls met, in order, have the very pools made afresh, and the
reports are the same as exact fractions, with the card held by the attacker (no. 24) or by the
defender.
"""

from __future__ import annotations

from typing import Any

import pytest
from benchmarks.faction_exact import battles

from spacecombat import odds
from spacecombat.core.engine import Chance
from spacecombat.core.pool import DicePool
from spacecombat.rulesets.ti4.abilities import courageous_to_the_end as courageous
from tests.ti4.switched import fractions_on_and_off

from .test_blind_leap_to_roll import HELD

CASES: dict[str, dict[str, Any]] = {
    "the attacker holds it (no. 24)": battles(25, 2026)[24],
    "the defender holds it": HELD,
}


def _pools(scenario: dict[str, Any], on: bool, mp: pytest.MonkeyPatch) -> list[DicePool]:
    """The pools of the card's rolls the exact engine met, in order."""
    met: list[DicePool] = []
    real = Chance

    def recorded(player: str, purpose: str, pool: DicePool, then: Any) -> Any:
        met.append(pool)
        return real(player, purpose, pool, then)

    with mp.context() as patched:
        patched.setattr(courageous, "POOL_REMEMBERED", on)
        patched.setattr(courageous, "Chance", recorded)
        odds(scenario, fallback=False)
    return met


@pytest.mark.parametrize("name", sorted(CASES))
def test_the_same_pools_and_fractions(name: str, monkeypatch: pytest.MonkeyPatch) -> None:
    remembered = _pools(CASES[name], True, monkeypatch)
    assert remembered
    assert remembered == _pools(CASES[name], False, monkeypatch)
    on, off = fractions_on_and_off(CASES[name], courageous, "POOL_REMEMBERED", monkeypatch)
    assert on.to_json() == off.to_json()
