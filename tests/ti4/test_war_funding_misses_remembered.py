"""The War Funding Ω holder's misses, remembered by what they read (issue 24, 24W-4;
rulesets/ti4/abilities/war_funding_omega.py ``_my_misses``; data/cards.toml War Funding Ω:
"After you roll dice during a round of space combat: You may reroll all of your dice that did
not produce hits"; docs/rulings.md 14W-1, 14RR-8, 14RR-13, 27U-3).

The card's window asks, at each state of the "after roll dice" window, which of the holder's
dice it would roll again: a pool made from the holder's roll kept group by group and the
trade goods it may spend on the rerolls (the Hacan flagship). It is remembered per setup by
these. Checked here: at every call over battles of the faction mix holding the card, the
remembered pool is the one made afresh, some are remembered, and the reports are the same with
and without remembering (exact fractions).
"""

from __future__ import annotations

from typing import Any

import pytest
from benchmarks.faction_exact import battles

from spacecombat import odds
from spacecombat.core.pool import DicePool
from spacecombat.rulesets.ti4.abilities import war_funding_omega as omega
from spacecombat.rulesets.ti4.setup import BattleSetup
from spacecombat.rulesets.ti4.sides import Side
from spacecombat.rulesets.ti4.state import BattleState
from tests.ti4.switched import fractions_on_and_off
from tests.ti4.test_replaced_hits import HOLDER

#: battles of the faction mix (``benchmarks.faction_exact --seed 2026``) where a player holds
#: War Funding Ω, each solved in well under a second
NUMBERS = (16, 22, 25, 29, 37, 49, 59, 84, 88)


@pytest.fixture(scope="module")
def holding() -> list[dict[str, Any]]:
    drawn = battles(max(NUMBERS) + 1, 2026)
    chosen = [HOLDER, *(drawn[n] for n in NUMBERS)]
    assert all("war_funding_omega" in str(b) for b in chosen)
    return chosen


def test_every_pool_is_the_one_made_afresh(
    holding: list[dict[str, Any]], monkeypatch: pytest.MonkeyPatch
) -> None:
    remembered = omega._my_misses
    calls = [0, 0]  # calls, and those answered from memory
    made = omega._miss_pool

    def counted(*args: Any) -> DicePool:
        calls[1] -= 1
        return made(*args)

    def checked(setup: BattleSetup, state: BattleState, side: Side) -> DicePool:
        calls[0] += 1
        calls[1] += 1
        pool = remembered(setup, state, side)
        with monkeypatch.context() as afresh:
            afresh.setattr(omega, "REMEMBER", False)
            afresh.setattr(omega, "_miss_pool", made)
            assert pool == remembered(setup, state, side)
        return pool

    monkeypatch.setattr(omega, "_my_misses", checked)
    monkeypatch.setattr(omega, "_miss_pool", counted)
    for scenario in holding:
        odds(scenario, fallback=False)
    assert calls[0] > 100
    assert calls[1] > calls[0] // 2  # most pools come from memory


def test_the_same_odds_as_fractions(
    holding: list[dict[str, Any]], monkeypatch: pytest.MonkeyPatch
) -> None:
    for scenario in holding[:5]:
        remembered, afresh = fractions_on_and_off(scenario, omega, "REMEMBER", monkeypatch)
        assert remembered.fractions_json() == afresh.fractions_json()
        assert remembered.to_json() == afresh.to_json()
