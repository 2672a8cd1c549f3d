"""What a Valefar Assimilator of the Nekro could copy, found once per setup (issue 24, 24AB-3;
rulesets/ti4/abilities/technological_singularity.py ``copies``, ``COPIES_REMEMBERED``;
data/factions.toml, Technological Singularity and the Valefar Assimilators; docs/rulings.md
27V-4).

Technological Singularity's check that it is idle while the opponent assigns hits
(``idle_while_assigning``) asks, at every state of such an assignment, whether a Valefar
Assimilator's token could copy a faction technology of the opponent (``copies``); that reads the
setup alone (the Nekro's technologies and cards, the opponent's technologies: a technology
gained in the battle is another setup, ``BattleSetup.having``). Checked here: at every call over
Nekro battles of the faction mix and a battle where a token copies Supercharge, the answer
remembered is the one found afresh, and the reports are equal as fractions with
``COPIES_REMEMBERED`` on and off.
"""

from __future__ import annotations

from typing import Any

import pytest
from benchmarks.faction_exact import battles

from spacecombat import odds
from spacecombat.rulesets.ti4.abilities import technological_singularity as singularity
from spacecombat.rulesets.ti4.setup import BattleSetup
from spacecombat.rulesets.ti4.sides import Side
from tests.ti4.switched import fractions_on_and_off

from .abilities.test_valefar_assimilator_copy import NAAZ, NEKRO
from .test_singularity_offers_remembered import NUMBERS

#: a token of the Nekro's could copy the Naaz-Rokha's Supercharge (``copies`` not ``None``)
COPYING: dict[str, Any] = {
    "ruleset": "ti4",
    "battle": "space",
    "attacker": {**NEKRO, "units": {"dreadnought": 1}},
    "defender": {**NAAZ, "units": {"destroyer": 2}},
}


@pytest.fixture(scope="module")
def nekro_battles() -> list[dict[str, Any]]:
    drawn = battles(max(*NUMBERS, 24) + 1, 2026)
    return [COPYING, drawn[24], *(drawn[n] for n in NUMBERS)]


def test_every_answer_is_the_one_found_afresh(
    nekro_battles: list[dict[str, Any]], monkeypatch: pytest.MonkeyPatch
) -> None:
    remembered = singularity.copies
    answers: list[str | None] = []

    def checked(setup: BattleSetup, nekro: Side) -> str | None:
        answer = remembered(setup, nekro)
        assert answer == singularity._copies(setup, nekro)
        answers.append(answer)
        return answer

    monkeypatch.setattr(singularity, "copies", checked)
    for scenario in nekro_battles:
        odds(scenario, fallback=False)
    assert None in answers
    assert "Supercharge" in answers


def test_the_same_fractions(
    nekro_battles: list[dict[str, Any]], monkeypatch: pytest.MonkeyPatch
) -> None:
    for scenario in nekro_battles[:2]:
        on, off = fractions_on_and_off(scenario, singularity, "COPIES_REMEMBERED", monkeypatch)
        assert on.to_json() == off.to_json()
