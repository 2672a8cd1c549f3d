"""The stalemate check answered without its paths where the handlers acting in the rounds never
keep a combat from ending (issue 24, docs/rulings.md 24Y-3; rulesets/ti4/procedures/stalemate.py
``_neither``, ``DECLARED``; abilities/base.py ``Handler.never_stalls``; ti4-space-combat-wiki.md
FAQ, "if neither side can possibly win ... the attacker must retreat"; docs/rulings.md R20).

A side "can win" if the combat ends on the path where it hits with every die and the other side
never hits (each roll with nothing spent and no unit lost). Without handlers acting in the
rounds, a side with a die that can hit wins so: each round takes a unit or a SUSTAIN DAMAGE
from the other side, and nothing gives it back. The Crown of Thalnos and the Hacan flagship
(Wrath of Kenara) change nothing on such a path but the favoured side's dice, upward (the
types whose misses are rerolled, the trade goods allowed): where they are the only handlers
acting in the rounds, the check is answered as without handlers when a side has a die that can
hit. Duranium Armor repairs its owner's units only, which on its owner's path are never hit:
it is passed over on that path (``Handler.never_stalls_for_owner``), not on the other's, where
its repairs can keep a combat going. Checked here: every check so answered over faction-mix
battles holding the Crown (one beside Duranium Armor) is the answer of the paths followed
afresh; every check's answer, in order, and the reports (exact fractions) are the same with
the declaration off.
"""

from __future__ import annotations

from typing import Any

import pytest
from benchmarks.faction_exact import battles

from spacecombat import odds
from spacecombat.rulesets import parse_ti_scenario
from spacecombat.rulesets.ti4.effects import combat_pool
from spacecombat.rulesets.ti4.procedures import stalemate
from spacecombat.rulesets.ti4.setup import BattleSetup, build
from spacecombat.rulesets.ti4.sides import SIDES, Side
from spacecombat.rulesets.ti4.state import BattleState
from tests.ti4.switched import stalemate_answers
from tests.ti4.test_stalemate_ended_paths import NUMBERS

#: no. 163 of the faction mix (the Hacan flagship and the Crown of Thalnos, both players'), no.
#: 159 (the Crown of Thalnos beside Duranium Armor, the attacker's: declared on its path only),
#: and those of ``NUMBERS`` whose handlers acting in the rounds all declare it (nos. 141 and
#: 176 since their effects of an invasion are out of play in their space combats,
#: docs/rulings.md 24AJ-1; no. 230 since Raid Formation is passed over, 24AF-1)
DECLARING = {
    **{163: SIDES, 159: (Side.ATTACKER,), 46: SIDES, 73: SIDES, 105: SIDES},
    **{141: SIDES, 176: SIDES, 230: SIDES},
}


@pytest.fixture(scope="module")
def drawn() -> list[dict[str, Any]]:
    return battles(max((*NUMBERS, *DECLARING)) + 1, 2026)


def test_the_declaring_battles_are_those_named(drawn: list[dict[str, Any]]) -> None:
    """For which players' paths of the battles of ``NUMBERS`` and ``DECLARING`` the
    declaration holds."""
    for n in sorted({*NUMBERS, *DECLARING}):
        setup = build(parse_ti_scenario(drawn[n])).for_stock_policies()
        declared = tuple(side for side in SIDES if stalemate._never_stalling(setup, side))
        assert declared == DECLARING.get(n, ()), n


def test_duranium_armor_of_the_other_side_is_not_passed_over() -> None:
    """Duranium Armor repairs its owner's units: on the other side's path it may keep the
    combat going (docs/rulings.md R20), so that path is followed."""
    scenario = {
        "ruleset": "ti4",
        "battle": "space",
        "attacker": {"units": {"dreadnought": 2}, "technologies": ["duranium_armor"]},
        "defender": {"units": {"cruiser": 1}},
    }
    setup = build(parse_ti_scenario(scenario)).for_stock_policies()
    assert stalemate._never_stalling(setup, Side.ATTACKER)
    assert not stalemate._never_stalling(setup, Side.DEFENDER)


def test_every_answer_declared_is_the_one_the_paths_give(
    drawn: list[dict[str, Any]], monkeypatch: pytest.MonkeyPatch
) -> None:
    neither = stalemate._neither
    answered = 0

    def checked(setup: BattleSetup, state: BattleState) -> bool:
        nonlocal answered
        found = neither(setup, state)
        if any(
            stalemate._never_stalling(setup, side) and combat_pool(setup, state, side).max_hits > 0
            for side in SIDES
        ):
            answered += 1
            assert found is False
            assert any(stalemate._can_end(setup, state, side) for side in SIDES)
        return found

    monkeypatch.setattr(stalemate, "_neither", checked)
    for n in DECLARING:
        odds(drawn[n], fallback=False)
    assert answered > 100


def test_the_same_answers_and_odds(
    drawn: list[dict[str, Any]], monkeypatch: pytest.MonkeyPatch
) -> None:

    def answers(scenario: dict[str, Any], on: bool) -> tuple[list[bool], Any]:
        return stalemate_answers(scenario, "DECLARED", on, monkeypatch)

    for n in DECLARING:
        declared, followed = answers(drawn[n], True), answers(drawn[n], False)
        assert declared == followed
