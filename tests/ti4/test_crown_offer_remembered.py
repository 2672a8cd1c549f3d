"""The Crown of Thalnos's offer, remembered by the unit types' dice (issue 24, 24W-6;
rulesets/ti4/abilities/crown_of_thalnos.py ``_offer``; data/laws.toml, data/relics.toml: "reroll
any number of your dice; each of your units that did not produce a hit with its reroll is
destroyed"; ti4-combat-effects.md §7; docs/rulings.md 14C2-1).

At each "start of combat round" window its holder is asked which unit types' misses to reroll:
every set of the types, the stock policy's first, and each type's chance to hit with its
reroll. These read the types' dice alone and are remembered per setup by them. Checked here:
at every offer over battles of the faction mix holding the Crown (the relic and the law), the
request is the one made afresh, and the reports are the same with and without remembering
(exact fractions).
"""

from __future__ import annotations

from typing import Any

import pytest
from benchmarks.faction_exact import battles

from spacecombat import odds
from spacecombat.core.engine import Decision, Node
from spacecombat.rulesets.ti4.abilities import crown_of_thalnos as crown
from spacecombat.rulesets.ti4.hooks import Window
from spacecombat.rulesets.ti4.setup import BattleSetup
from spacecombat.rulesets.ti4.state import BattleState
from tests.ti4.switched import fractions_on_and_off
from tests.ti4.test_stalemate_ended_paths import NUMBERS


@pytest.fixture(scope="module")
def crowned() -> list[dict[str, Any]]:
    drawn = battles(max(NUMBERS) + 1, 2026)
    chosen = [drawn[n] for n in NUMBERS]
    assert all("crown_of_thalnos" in str(b) for b in chosen)
    return chosen


def test_every_offer_is_the_one_made_afresh(
    crowned: list[dict[str, Any]], monkeypatch: pytest.MonkeyPatch
) -> None:
    real = crown.CrownOfThalnos.in_window
    offers = 0

    def checked(
        self: crown.CrownOfThalnos,
        setup: BattleSetup,
        state: BattleState,
        windows: frozenset[Window],
    ) -> Node[BattleState] | None:
        nonlocal offers
        node = real(self, setup, state, windows)
        with monkeypatch.context() as afresh:
            afresh.setattr(crown, "REMEMBER", False)
            made = real(self, setup, state, windows)
        if node is None:
            assert made is None
            return node
        assert isinstance(node, Decision)
        assert isinstance(made, Decision)
        assert node.request == made.request
        offers += 1
        return node

    monkeypatch.setattr(crown.CrownOfThalnos, "in_window", checked)
    for scenario in crowned:
        odds(scenario, fallback=False)
    assert offers > 100


def test_the_same_odds_as_fractions(
    crowned: list[dict[str, Any]], monkeypatch: pytest.MonkeyPatch
) -> None:
    for scenario in crowned[:4]:
        remembered, afresh = fractions_on_and_off(scenario, crown, "REMEMBER", monkeypatch)
        assert remembered.fractions_json() == afresh.fractions_json()
        assert remembered.to_json() == afresh.to_json()
