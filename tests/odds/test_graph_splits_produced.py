"""A combat round's rolls taken player by player where a player's assignment produces hits
against the other player (issue 24, 24Z-1; rulesets/ti4/split_rolls.py ``PRODUCED``;
docs/architecture.md, "The odds engine", 1.).

Reflective Shielding (an action card: when one of your ships uses SUSTAIN DAMAGE during
combat, produce 2 hits against your opponent's ships) acts while its holder assigns and reads
nothing of the opponent's part (``Handler.blind_while_assigning``), so the paired tables walk
each assignment whole (24U-3); but a walk that produced hits was refused, and the round's pairs
of outcomes were all followed. The hits now travel with the holder's part: the attacker's join
those the defender assigns (ti4-space-combat.md step 4), the defender's are assigned by the
attacker once the defender is done, its last hits assigned or lost alike (docs/rulings.md
27U-1). These tests check that the graph is the same, chance state for chance state and edge
for edge with exact weights, that more chance states are split, and that the odds are the same
as fractions, with ``split_rolls.PRODUCED`` on and off.
"""

from __future__ import annotations

from typing import Any

import pytest

from spacecombat.rulesets.ti4 import split_rolls
from tests.ti4.switched import fractions_on_and_off

from .same_graph import switched_graphs
from .test_graph_leaps import IDLE
from .test_graph_splits import _explore

#: the attacker holds the card: the 2 hits its walk produces join those the defender assigns
ATTACKER_SHIELDS: dict[str, Any] = {
    "ruleset": "ti4",
    "battle": "space",
    "attacker": {
        "units": {"dreadnought": 2, "destroyer": 1},
        "action_cards": ["reflective_shielding"],
        "policy": {"sustain": "first"},
    },
    "defender": {"units": {"cruiser": 3, "destroyer": 1}, "policy": {"sustain": "first"}},
}

#: the faction mix's battle no. 40 (benchmarks/faction_exact.py, seed 2026): the Titans
#: defender's Reflective Shielding, Morale Boost, the Tellurian and Ul the Progenitor, Magen
#: Defense Grid Omega, against the Muaat
NO_40: dict[str, Any] = {
    "ruleset": "ti4",
    "battle": "space",
    "attacker": {
        "units": {"fighter": 1, "dreadnought": 2, "cruiser": 1},
        "faction": "muaat",
        "upgrades": ["dreadnought", "fighter"],
        "promissory_notes": ["the_cavalry"],
        "trade_goods": 3,
        "influence": 2,
        "conditions": ["home_system"],
        "policy": {"sustain": "first"},
    },
    "defender": {
        "units": {"fighter": 3, "war_sun": 1, "cruiser": 1, "flagship": 1},
        "faction": "titans",
        "upgrades": ["carrier"],
        "technologies": ["magen_defense_grid_omega"],
        "action_cards": ["reflective_shielding", "morale_boost"],
        "promissory_notes": ["greyfire_mutagen", "tekklar_legion"],
        "leaders": ["tellurian", "ul_the_progenitor"],
        "policy": {"sustain": "in_order", "play": {"tellurian": {"round": 2}}},
    },
    "system": {"features": ["mecatol_rex"]},
}

CASES: dict[str, dict[str, Any]] = {
    "defender's card, the tellurian": IDLE["reflective_shielding_tellurian"],
    "defender's card, hits lost": IDLE["reflective_shielding_hits_lost"],
    "attacker's card": ATTACKER_SHIELDS,
}


def _same_graph(scenario: dict[str, Any], monkeypatch: pytest.MonkeyPatch) -> tuple[int, int]:
    """The same graph with the produced hits carried and without; the chance states split
    each way."""
    (_, _, before), (_, _, taken) = switched_graphs(
        lambda: _explore(scenario, True, monkeypatch), split_rolls, "PRODUCED", monkeypatch
    )
    return before, taken


@pytest.mark.parametrize("name", sorted(CASES))
def test_rounds_producing_hits_split_build_the_same_graph(
    name: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    before, taken = _same_graph(CASES[name], monkeypatch)
    assert taken > before


@pytest.mark.parametrize("name", sorted(CASES))
def test_the_odds_are_the_same_as_fractions(name: str, monkeypatch: pytest.MonkeyPatch) -> None:
    on, off = fractions_on_and_off(CASES[name], split_rolls, "PRODUCED", monkeypatch)
    assert on.to_json() == off.to_json()


@pytest.mark.slow
def test_the_faction_mix_battle_gives_the_same_graph(monkeypatch: pytest.MonkeyPatch) -> None:
    """No. 40 of the faction mix: the same graph, every round split (66 chance states were
    not)."""
    before, taken = _same_graph(NO_40, monkeypatch)
    assert taken > before
