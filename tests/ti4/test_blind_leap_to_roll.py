"""A player's assignment taken at once up to Courageous to the End's roll (issue 24, 24Y-1;
rulesets/ti4/battle.py ``Ti4Battle._blind_leap``, ``TO_ROLL``; abilities/courageous_to_the_end.py
``blind_while_assigning``, ``BLIND``), and beside the Empyrean flagship's repair (24Y-2;
abilities/empyrean_flagship_repair.py ``blind_while_assigning``, ``BLIND``).

Courageous to the End (action card; data/cards.toml; ti4-combat-effects.md, action cards): "after
one of your ships is destroyed during a space combat, roll 2 dice; for each result equal to or
greater than that ship's combat value, your opponent destroys one of their ships". While its
holder assigns a combat round's hits (ti4-space-combat.md step 4), the card reads the ship
destroyed, whether it is held and, of the opponent, only whether it has a ship in the space
area; so where the opponent has one, the holder's assignment is walked once for every state
alike but for the opponent's part and the hits against it, up to the state that rolls the 2 dice
(the explorer makes the chance state there, as the walk step by step did). Checked here: the
leap lands on the very state the walk step by step reaches before the roll, and the odds of a
faction-mix battle holding the card (no. 24 of benchmarks/faction_exact.py) are the same, as
exact fractions, with the shortcut off (the card declaring nothing, or the walk refused at the
roll). The Empyrean flagship (data/units.toml: "after any player's unit ... uses SUSTAIN
DAMAGE, you may spend 2 influence to repair that unit"; its owner's units only, docs/rulings.md
14A-13) reads and changes, while its owner assigns, only its owner's units and influence: the
odds of no. 24, where it stands beside the card, are the same with it declaring nothing.
tests/odds/test_graph_leaps.py ``BLIND`` checks the graph is the same edge for edge for both.
The round where the attacker's assignment rolls is taken player by player (24Y-5,
``split_rolls.ROLLING``; tests/odds/test_graph_splits_rolling.py), and the ships the card's
hits destroy are taken at once (24Y-6, ``battle.AT_ONCE``;
tests/odds/test_graph_destroyed_at_once.py): no. 24 the same too.
"""

from __future__ import annotations

from typing import Any

import pytest
from benchmarks.faction_exact import battles

from spacecombat.core.decisions import decide
from spacecombat.core.engine import Chance, Decision, Step
from spacecombat.core.stalemate import favoured_path
from spacecombat.rulesets import battle, parse_scenario
from spacecombat.rulesets.ti4 import battle as ti4_battle
from spacecombat.rulesets.ti4 import split_rolls
from spacecombat.rulesets.ti4.abilities import courageous_to_the_end as courageous
from spacecombat.rulesets.ti4.battle import Ti4Battle
from spacecombat.rulesets.ti4.sides import Side
from spacecombat.rulesets.ti4.state import BattleState, Phase
from tests.ti4.switched import fractions_on_and_off

#: the defender holds the card; the attacker's 3 hits a round destroy one of its 2 ships
#: (its dreadnought sustains first)
HELD: dict[str, Any] = {
    "ruleset": "ti4",
    "battle": "space",
    "attacker": {"units": {"cruiser": 2, "destroyer": 1}},
    "defender": {
        "units": {"dreadnought": 1, "destroyer": 1},
        "action_cards": ["courageous_to_the_end"],
        "policy": {"sustain": "first"},
    },
}


@pytest.fixture(scope="module")
def faction_battle() -> dict[str, Any]:
    """No. 24 of the faction mix (seed 2026): the Nekro hold the card, the Empyrean defend
    with their flagship."""
    scenario = battles(25, 2026)[24]
    assert "courageous_to_the_end" in str(scenario["attacker"])
    assert scenario["defender"]["faction"] == "empyrean"
    assert "flagship" in scenario["defender"]["units"]
    return scenario


def _holder_assigning(fought: Ti4Battle) -> BattleState:
    """The first state where the card's holder (the defender) assigns 3 hits of a combat
    round, on the path where the attacker hits with every die."""
    policies = fought.stock_policies()
    for state in favoured_path(fought.advance, fought.start().state, "attacker", policies):
        if (
            state.phase is Phase.ASSIGN_HITS
            and state.turn is Side.DEFENDER
            and state.hits_on(Side.DEFENDER) == 3
            and not state.following
        ):
            return state
    raise AssertionError("no combat round's hits against the holder")


def _stepped_to_roll(fought: Ti4Battle, state: BattleState) -> BattleState:
    """``state`` walked step by step, decided by the stock policies, to the state that rolls."""
    policies = fought.stock_policies()
    while True:
        node = fought.advance(state)
        if isinstance(node, Chance):
            return state
        if isinstance(node, Decision):
            state = node.then(decide(node.request, policies)).state
        else:
            assert isinstance(node, Step)
            state = node.state


def test_the_leap_lands_on_the_state_that_rolls() -> None:
    fought = battle(parse_scenario(HELD))
    assert isinstance(fought, Ti4Battle)
    fought = fought.for_stock_policies()
    start = _holder_assigning(fought)
    landed = fought.leap(start, fought.stock_policies())
    assert landed is not None
    assert fought.canonical(landed) == fought.canonical(_stepped_to_roll(fought, start))
    roll = fought.advance(landed)
    assert isinstance(roll, Chance)
    assert roll.purpose == courageous.CourageousToTheEnd.id
    assert roll.pool.dice == 2  # the card's 2 dice


def test_the_walk_to_a_roll_is_refused_without_the_shortcut(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(ti4_battle, "TO_ROLL", False)
    fought = battle(parse_scenario(HELD))
    assert isinstance(fought, Ti4Battle)
    fought = fought.for_stock_policies()
    start = _holder_assigning(fought)
    assert fought.leap(start, fought.stock_policies()) is None


@pytest.mark.parametrize(
    ("module", "switch"),
    [
        (courageous, "BLIND"),
        (ti4_battle, "TO_ROLL"),
        (split_rolls, "ROLLING"),
        (ti4_battle, "AT_ONCE"),
    ],
    ids=["blind", "to_roll", "rolling", "at_once"],
)
def test_the_same_odds_as_fractions(
    faction_battle: dict[str, Any], module: Any, switch: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    taken, walked = fractions_on_and_off(faction_battle, module, switch, monkeypatch)
    assert taken.fractions_json() == walked.fractions_json()
    assert taken.to_json() == walked.to_json()
