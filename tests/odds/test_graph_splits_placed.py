"""A combat round's rolls taken player by player where a handler places units of one player's
while the other assigns hits (issue 24, 24X-3; rulesets/ti4/split_rolls.py ``_walked_placing``;
docs/architecture.md, "The odds engine", 1.).

Ipswitch, Loose Cannon (the Mentak hero, data/cards.toml: "for each of the opponent's ships
destroyed during this combat, place a ship of that type from your reinforcements in the active
system"; docs/rulings.md 14B3-4), once purged, places a ship of its owner's for each of the
opponent's ships destroyed while the opponent assigns: the opponent's assignment changes the
owner's part, so the parts are not independent. It reads of the owner's part its ships alone
and neither its purse nor the hits against it (``Handler.places_while_assigning``), so in the
paired tables, whose walks start from both players' parts as they stand, the opponent's whole
assignment is walked by the real Assign Hits procedure and the owner's part it leaves travels
with the parts (``Placed``), the owner's own assignment then walked from it. These tests check
that the graph is the same, chance state for chance state and edge for edge with exact weights,
and the answers to the last bit, with ``split_rolls.PLACING`` on and off, Ipswitch held by
either player, and with the Mentak flagship (whose owner's opponent may not use SUSTAIN DAMAGE,
a handler that declares what it reads) beside it.
"""

from __future__ import annotations

from typing import Any

import pytest

from spacecombat.analysis.exact import exact_odds
from spacecombat.rulesets.ti4 import battle, split_rolls

from .same_graph import assert_same_graph, switched_graphs
from .test_graph_splits import _explore

#: Ipswitch held by the defender: each attacker's ship destroyed gives the Mentak one
DEFENDER_PLACES: dict[str, Any] = {
    "ruleset": "ti4",
    "battle": "space",
    "attacker": {"units": {"destroyer": 2, "cruiser": 1}, "faction": "sol"},
    "defender": {
        "units": {"cruiser": 1, "destroyer": 1},
        "faction": "mentak",
        "leaders": ["ipswitch_loose_cannon"],
    },
}

#: Ipswitch held by the attacker, the Mentak flagship beside it
ATTACKER_PLACES: dict[str, Any] = {
    "ruleset": "ti4",
    "battle": "space",
    "attacker": {
        "units": {"flagship": 1, "destroyer": 1},
        "faction": "mentak",
        "leaders": ["ipswitch_loose_cannon"],
        "policy": {"sustain": "first"},
    },
    "defender": {
        "units": {"cruiser": 2, "dreadnought": 1},
        "faction": "arborec",
        "policy": {"sustain": "last"},
    },
}

#: the faction mix's battle no. 30 (benchmarks/faction_exact.py, seed 2026): the Mentak
#: defender's Ipswitch and flagship, War Funding Ω and the Crown of Thalnos against the Hacan
NO_30: dict[str, Any] = {
    "ruleset": "ti4",
    "battle": "space",
    "attacker": {
        "units": {"fighter": 1, "war_sun": 1, "destroyer": 1, "carrier": 1, "flagship": 1},
        "faction": "hacan",
        "technologies": ["duranium_armor"],
        "policy": {"sustain": "last"},
    },
    "defender": {
        "units": {"carrier": 1, "flagship": 1},
        "faction": "mentak",
        "action_cards": ["parley", "rout"],
        "promissory_notes": ["war_funding_omega", "greyfire_mutagen"],
        "leaders": ["ipswitch_loose_cannon"],
        "relics": ["the_crown_of_thalnos"],
        "trade_goods": 1,
        "influence": 3,
        "policy": {"sustain": "first"},
        "planet_units": {"infantry": 1},
    },
    "system": {"wormholes": ["delta"], "features": ["legendary_planet"]},
}

CASES: dict[str, dict[str, Any]] = {
    "defender places": DEFENDER_PLACES,
    "attacker places": ATTACKER_PLACES,
}


def _same_graph(scenario: dict[str, Any], monkeypatch: pytest.MonkeyPatch) -> tuple[int, int]:
    """The same graph with the assignments that place units walked whole and without; the
    chance states split each way."""
    (_, _, before), (_, _, taken) = switched_graphs(
        lambda: _explore(scenario, True, monkeypatch), split_rolls, "PLACING", monkeypatch
    )
    return before, taken


@pytest.mark.parametrize("name", sorted(CASES))
def test_rounds_where_ships_are_placed_split_build_the_same_graph(
    name: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    before, taken = _same_graph(CASES[name], monkeypatch)
    assert taken > before


def test_the_odds_are_the_same(monkeypatch: pytest.MonkeyPatch) -> None:
    """The whole exact engine, fractions and floats to the last bit, with and without."""
    for scenario in CASES.values():
        placing = exact_odds(scenario, fractions=True).to_json()
        floats = exact_odds(scenario).to_json()
        with monkeypatch.context() as patched:
            patched.setattr(split_rolls, "PLACING", False)
            assert exact_odds(scenario, fractions=True).to_json() == placing
            assert exact_odds(scenario).to_json() == floats


@pytest.mark.parametrize("name", sorted(CASES))
def test_assignments_that_place_ships_taken_at_once_build_the_same_graph(
    name: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The explorer's walks take such an assignment at once (``Ti4Battle.leap``, walked once
    for every state alike but for the hits against the other player): the same graph, in
    fewer steps of the rules (the rounds not split, so that the explorer walks them)."""
    with monkeypatch.context() as patched:
        patched.setattr(battle, "PLACED", False)
        walked, stepped, _ = _explore(CASES[name], False, monkeypatch)
    built, explorer, _ = _explore(CASES[name], False, monkeypatch)
    assert_same_graph(built, walked)
    assert explorer.steps < stepped.steps
    for scenario in CASES.values():
        placed = exact_odds(scenario, fractions=True).to_json()
        with monkeypatch.context() as patched:
            patched.setattr(battle, "PLACED", False)
            assert exact_odds(scenario, fractions=True).to_json() == placed


@pytest.mark.slow
def test_the_faction_mix_battle_gives_the_same_graph(monkeypatch: pytest.MonkeyPatch) -> None:
    """No. 30 of the faction mix: the same graph, its rounds after War Funding Ω is played
    split, and with the assignments taken at once or step by step."""
    before, taken = _same_graph(NO_30, monkeypatch)
    assert taken > before
    with monkeypatch.context() as patched:
        patched.setattr(battle, "PLACED", False)
        walked, _, _ = _explore(NO_30, True, monkeypatch)
    built, _, _ = _explore(NO_30, True, monkeypatch)
    assert built.states == walked.states
    assert built.edges == walked.edges
