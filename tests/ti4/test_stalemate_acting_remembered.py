"""Whether a setup's handlers act in the rounds, found once for the stalemate check (issue 24,
24Z-4; rulesets/ti4/procedures/stalemate.py ``_acting``; ti4-space-combat-wiki.md FAQ, "if
neither side can possibly win ... the attacker must retreat"; docs/rulings.md R20).

The check answers at once where no handler in play may change what happens during the combat
rounds (hits only ever take units away); whether one may was asked of every handler at each
check, though it is a value of the setup alone (a technology gained in the battle is another
setup, ``BattleSetup.having``). Checked here: at every check while battles of the faction mix
are solved (an invasion with the Titans' Tellurian and the Crown of Thalnos, Reflective
Shielding, Technological Singularity), the answer remembered equals the one found afresh, and
the reports are equal as fractions with ``REMEMBER`` on and off; a setup with no such handler
is answered ``False``.
"""

from __future__ import annotations

from typing import Any

import pytest
from benchmarks.faction_exact import battles

from spacecombat.rulesets import parse_ti_scenario
from spacecombat.rulesets.ti4.abilities.base import acts_in_rounds
from spacecombat.rulesets.ti4.procedures import stalemate
from spacecombat.rulesets.ti4.setup import BattleSetup, build
from tests.ti4.switched import fractions_on_and_off

#: battles of the faction mix (``benchmarks.faction_exact --seed 2026``) with handlers acting
#: in the rounds
NUMBERS = (40, 51, 55)


@pytest.fixture(scope="module")
def drawn() -> list[dict[str, Any]]:
    found = battles(max(NUMBERS) + 1, 2026)
    return [found[n] for n in NUMBERS]


def test_every_answer_equal_to_the_one_found_afresh(
    drawn: list[dict[str, Any]], monkeypatch: pytest.MonkeyPatch
) -> None:
    acting = stalemate._acting
    seen = 0

    def checked(setup: BattleSetup) -> bool:
        nonlocal seen
        found = acting(setup)
        assert found == any(acts_in_rounds(h) for h in setup.handlers)
        seen += 1
        return found

    monkeypatch.setattr(stalemate, "_acting", checked)
    for scenario in drawn:
        on, off = fractions_on_and_off(scenario, stalemate, "REMEMBER", monkeypatch)
        assert on.to_json() == off.to_json()
    assert seen


def test_a_setup_without_such_handlers() -> None:
    """Two fleets with no effect: nothing acts in the rounds, remembered or not."""
    scenario = {
        "ruleset": "ti4",
        "battle": "space",
        "attacker": {"units": {"cruiser": 2}},
        "defender": {"units": {"destroyer": 2}},
    }
    setup = build(parse_ti_scenario(scenario))
    assert stalemate._acting(setup) is False
    assert stalemate._acting(setup) is False  # (remembered)
    assert ("stalemate", "acting in rounds") in setup.memo
