"""The stalemate check passes over War Funding Ω and War Funding (issue 24, docs/rulings.md
24AA-2 and 24AA-3, beside 24Y-3; rulesets/ti4/procedures/stalemate.py ``_neither``,
``DECLARED``; abilities/war_funding_omega.py and war_funding.py ``never_stalls``;
docs/rulings.md R20).

A side "can win" if the combat ends on the path where it hits with every die and the other side
never hits, each roll with nothing spent and no unit lost (core/stalemate.py
``favoured_path``). War Funding Ω's rerolls are rolls on that path like the others: the
favoured side's dice rolled again all hit, their hits replaced by as many; the other side's
never do; nothing is spent. War Funding (the Prophecy of Kings printing) makes its holder's
misses rolled again, as the Crown of Thalnos does. Neither gives or takes away a unit, a hit or
a die, so where they are the only handlers acting in the rounds (or beside others that declare
the same: the Crown of Thalnos; Duranium Armor on its owner's path), a side with a die that can
hit wins on its path as without handlers. Checked here, over faction-mix battles holding either
card (``NUMBERS``) and battles made for it: every check so answered is the answer of the paths
followed afresh; every check's answer, in order, and the reports (exact fractions) are the same
with the declaration off.
"""

from __future__ import annotations

from typing import Any

import pytest
from benchmarks.faction_exact import battles

from spacecombat import odds
from spacecombat.rulesets import parse_ti_scenario
from spacecombat.rulesets.ti4.abilities.base import acts_in_rounds
from spacecombat.rulesets.ti4.effects import combat_pool
from spacecombat.rulesets.ti4.procedures import stalemate
from spacecombat.rulesets.ti4.setup import BattleSetup, build
from spacecombat.rulesets.ti4.sides import SIDES, Side
from spacecombat.rulesets.ti4.state import BattleState
from tests.ti4.switched import stalemate_answers

#: faction-mix battles (benchmarks/faction_exact.py, seed 2026) holding War Funding Ω or War
#: Funding, whose handlers acting in the rounds all declare it (on the players' paths named):
#: each card alone, beside the Crown of Thalnos, both beside Duranium Armor
NUMBERS: dict[int, tuple[Side, ...]] = {
    3: SIDES,
    29: SIDES,
    115: SIDES,
    188: SIDES,
    120: SIDES,
    101: SIDES,
    265: SIDES,
    289: SIDES,
    52: (Side.DEFENDER,),
    149: (Side.DEFENDER,),
}

#: the card's holder rerolls the Crown of Thalnos holder's dice (the Crown rerolls their misses
#: first) and its own, a destroyer that can hardly hit against a war sun
BESIDE_THE_CROWN: dict[str, Any] = {
    "ruleset": "ti4",
    "battle": "space",
    "attacker": {
        "units": {"destroyer": 1, "fighter": 2},
        "faction": "sol",
        "promissory_notes": ["war_funding_omega"],
    },
    "defender": {
        "units": {"war_sun": 1},
        "faction": "hacan",
        "relics": ["the_crown_of_thalnos"],
    },
}

#: Duranium Armor beside it: passed over on its owner's path only (24Y-3)
BESIDE_DURANIUM: dict[str, Any] = {
    "ruleset": "ti4",
    "battle": "space",
    "attacker": {
        "units": {"dreadnought": 2},
        "faction": "sol",
        "technologies": ["duranium_armor"],
    },
    "defender": {
        "units": {"cruiser": 1, "destroyer": 1},
        "faction": "hacan",
        "promissory_notes": ["war_funding_omega"],
    },
}


@pytest.fixture(scope="module")
def scenarios() -> dict[str, dict[str, Any]]:
    drawn = battles(max(NUMBERS) + 1, 2026)
    found = {f"no. {n}": drawn[n] for n in NUMBERS}
    found["beside the crown"] = BESIDE_THE_CROWN
    found["beside duranium armor"] = BESIDE_DURANIUM
    return found


def _declared(scenario: dict[str, Any]) -> tuple[Side, ...]:
    setup = build(parse_ti_scenario(scenario)).for_stock_policies()
    return tuple(side for side in SIDES if stalemate._never_stalling(setup, side))


def test_the_cards_are_passed_over_on_the_paths_named(scenarios: dict[str, Any]) -> None:
    expected = {f"no. {n}": sides for n, sides in NUMBERS.items()}
    expected["beside the crown"] = SIDES
    expected["beside duranium armor"] = (Side.ATTACKER,)  # Duranium Armor's owner's path
    for name, scenario in scenarios.items():
        setup = build(parse_ti_scenario(scenario)).for_stock_policies()
        acting = {h.id for h in setup.handlers if acts_in_rounds(h)}
        assert acting & {"war_funding_omega", "war_funding"}, name
        assert _declared(scenario) == expected[name], name


def test_every_answer_declared_is_the_one_the_paths_give(
    scenarios: dict[str, Any], monkeypatch: pytest.MonkeyPatch
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
    for scenario in scenarios.values():
        odds(scenario, fallback=False)
    assert answered > 300


def test_the_same_answers_and_odds(
    scenarios: dict[str, Any], monkeypatch: pytest.MonkeyPatch
) -> None:

    def answers(scenario: dict[str, Any], on: bool) -> tuple[list[bool], Any]:
        return stalemate_answers(scenario, "DECLARED", on, monkeypatch)

    for name, scenario in scenarios.items():
        declared, followed = answers(scenario, True), answers(scenario, False)
        assert declared[0], name  # the check was asked
        assert declared == followed, name
