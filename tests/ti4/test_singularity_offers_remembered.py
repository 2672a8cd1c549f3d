"""What Technological Singularity could gain, remembered by what it reads (issue 24, 24W-1;
rulesets/ti4/abilities/technological_singularity.py ``offers``; data/factions.toml, "Once per
combat, after 1 of your opponent's units is destroyed, you may gain 1 technology that is owned
by that player"; docs/rulings.md 14T-1 to 14T-6, 27V-4, 27V-7).

The exact engine asks ``offers`` at each unit of the opponent's destroyed (``after_destroyed``)
and each time it checks whether the ability is idle while the opponent assigns hits
(``idle_while_assigning``). What it offers reads the setup, the Nekro's units, whether the
opponent still has units in the combat and the combats still to come; it is remembered per setup
by these. Checked here: at every call over Nekro battles of the faction mix, the remembered
answer is the one computed afresh, some answers are remembered, and the reports are the same
with and without remembering (exact fractions).
"""

from __future__ import annotations

from typing import Any

import pytest
from benchmarks.faction_exact import battles

from spacecombat import odds
from spacecombat.rulesets.ti4.abilities import technological_singularity as singularity
from spacecombat.rulesets.ti4.effects import combatants
from spacecombat.rulesets.ti4.setup import BattleSetup
from spacecombat.rulesets.ti4.sides import Side
from spacecombat.rulesets.ti4.state import BattleState
from tests.ti4.switched import fractions_on_and_off

#: Nekro battles of the faction mix (``benchmarks.faction_exact --seed 2026``), the Nekro
#: attacking and defending, against Valefar-free and technology-rich opponents, each solved in
#: well under a second
NUMBERS = (7, 9, 21, 42, 82, 124, 201, 216, 220, 249)


@pytest.fixture(scope="module")
def nekro_battles() -> list[dict[str, Any]]:
    drawn = battles(max(NUMBERS) + 1, 2026)
    chosen = [drawn[n] for n in NUMBERS]
    assert all(
        "nekro" in (b["attacker"].get("faction"), b["defender"].get("faction")) for b in chosen
    )
    return chosen


def test_every_answer_is_the_one_computed_afresh(
    nekro_battles: list[dict[str, Any]], monkeypatch: pytest.MonkeyPatch
) -> None:
    remembered = singularity.offers
    calls = [0, 0]  # calls, and those answered from memory

    def checked(setup: BattleSetup, state: BattleState, nekro: Side) -> tuple[str, ...]:
        going = combatants(setup, state, nekro.other) > 0
        before = len(setup.memo)
        answer = remembered(setup, state, nekro)
        calls[0] += 1
        calls[1] += len(setup.memo) == before
        assert answer == singularity._offers(setup, state, nekro, going)
        return answer

    monkeypatch.setattr(singularity, "offers", checked)
    for scenario in nekro_battles:
        odds(scenario, fallback=False)
    assert calls[0] > 100
    assert calls[1] > calls[0] // 2  # most answers come from memory


def test_the_same_odds_as_fractions(
    nekro_battles: list[dict[str, Any]], monkeypatch: pytest.MonkeyPatch
) -> None:
    for scenario in nekro_battles[:5]:
        remembered, afresh = fractions_on_and_off(scenario, singularity, "REMEMBER", monkeypatch)
        assert remembered.fractions_json() == afresh.fractions_json()
        assert remembered.to_json() == afresh.to_json()
