"""The stalemate check answered from a path that ended (issue 24, 24W-5;
rulesets/ti4/procedures/stalemate.py ``_neither``; ti4-space-combat-wiki.md FAQ, "if neither
side can possibly win ... the attacker must retreat"; docs/rulings.md R20).

The check follows, from a state at Announce Retreats, the path where one side hits with every
die and the other never does, each deciding as its stock policy would. The path is decided by
the state alone (the battle's steps, the stock policies), so from a state met on a path that
ended, the path is that path's rest and ends too: the check from it is answered so, without
following it again. Checked here: at every check so answered over battles of the faction mix
(the Crown of Thalnos acting in the rounds), following the paths afresh gives the same answer;
and every check's answer, in order, and the reports are the same with and without.
"""

from __future__ import annotations

from typing import Any

import pytest
from benchmarks.faction_exact import battles

from spacecombat import odds
from spacecombat.rulesets.ti4.procedures import stalemate
from spacecombat.rulesets.ti4.setup import BattleSetup
from spacecombat.rulesets.ti4.sides import SIDES
from spacecombat.rulesets.ti4.state import BattleState
from tests.ti4.switched import stalemate_answers

#: battles of the faction mix (``benchmarks.faction_exact --seed 2026``) with the Crown of
#: Thalnos, where checks meet states of earlier paths, each solved in well under a second
NUMBERS = (46, 73, 90, 105, 141, 176, 230, 234)


@pytest.fixture(scope="module")
def crowned() -> list[dict[str, Any]]:
    drawn = battles(max(NUMBERS) + 1, 2026)
    return [drawn[n] for n in NUMBERS]


def test_every_answer_from_a_path_is_the_one_followed_afresh(
    crowned: list[dict[str, Any]], monkeypatch: pytest.MonkeyPatch
) -> None:
    neither = stalemate._neither
    answered = 0

    def checked(setup: BattleSetup, state: BattleState) -> bool:
        nonlocal answered
        found = neither(setup, state)
        if state in stalemate._ended(setup):
            answered += 1
            assert found is False
            assert any(stalemate._can_end(setup, state, side) for side in SIDES)
        return found

    monkeypatch.setattr(stalemate, "_neither", checked)
    for scenario in crowned:
        odds(scenario, fallback=False)
    # (31 before 24AJ-1 took the effects of an invasion out of nos. 141 and 176's space combats
    # and 24AF-1 passed Raid Formation over: their checks are now answered by the
    # declarations, tests/ti4/test_stalemate_never_stalls.py; 18 after)
    assert answered > 12


def test_the_same_answers_and_odds(
    crowned: list[dict[str, Any]], monkeypatch: pytest.MonkeyPatch
) -> None:

    def answers(scenario: dict[str, Any], on: bool) -> tuple[list[bool], Any]:
        return stalemate_answers(scenario, "ON_ENDED_PATHS", on, monkeypatch)

    for scenario in crowned:
        assert answers(scenario, True) == answers(scenario, False)
