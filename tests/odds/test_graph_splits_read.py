"""The paired tables' defender walks only for the keys the explorer reads (issue 24, 24Z-5;
rulesets/ti4/split_rolls.py ``READ``, ``_read``; docs/architecture.md, "The odds engine", 1.).

Where a handler asked while a player assigns is not idle, a round's rolls taken player by
player walk the defender's assignment from each of the attacker's parts after its own (the
paired tables). The explorer reads the defender's table only with the defender's part that the
attacker's part after was walked against (``Explorer._split_edges``); where the defender's roll
leaves it several parts (The Crown of Thalnos destroys its holder's units that miss a reroll),
the table was made for every attacker's part after with every one of them, most never read.
These tests check that the graph is the same, chance state for chance state and edge for edge
with exact weights, and the odds the same as fractions, with ``READ`` on and off, in battles
where the defender's roll leaves it several parts.
"""

from __future__ import annotations

from typing import Any

import pytest

from spacecombat.rulesets.ti4 import split_rolls
from tests.ti4.switched import fractions_on_and_off

from .same_graph import switched_graphs
from .test_graph_splits import _explore

#: the attacker's Direct Hit (not idle while the defender assigns) against the defender's
#: Crown of Thalnos, played in every round: its reroll's misses destroy the defender's units
DIRECT_HIT_AGAINST_THE_CROWN: dict[str, Any] = {
    "ruleset": "ti4",
    "battle": "space",
    "attacker": {
        "units": {"dreadnought": 2, "cruiser": 1},
        "action_cards": ["direct_hit"],
        "policy": {"sustain": "first"},
    },
    "defender": {
        "units": {"cruiser": 2, "destroyer": 2},
        "relics": ["the_crown_of_thalnos"],
        "policy": {"sustain": "first"},
    },
}

#: the faction mix's battle no. 47 (benchmarks/faction_exact.py, seed 2026): the attacker's
#: Direct Hit and Morale Boost against the Arborec defender's Crown of Thalnos
NO_47: dict[str, Any] = {
    "ruleset": "ti4",
    "battle": "space",
    "attacker": {
        "units": {"destroyer": 1, "war_sun": 1, "cruiser": 1, "carrier": 1},
        "technologies": ["assault_cannon", "plasma_scoring"],
        "action_cards": ["morale_boost", "direct_hit"],
        "promissory_notes": ["raghs_call"],
        "policy": {"sustain": "last", "play": {"morale_boost": {"round": 2}}},
        "planet_units": {"infantry": 1, "mech": 1},
    },
    "defender": {
        "units": {"war_sun": 1, "destroyer": 1, "carrier": 2, "dreadnought": 1},
        "faction": "arborec",
        "upgrades": ["carrier", "infantry"],
        "technologies": ["dark_energy_tap", "magen_defense_grid"],
        "relics": ["the_crown_of_thalnos"],
        "trade_goods": 0,
        "influence": 3,
        "conditions": ["command_token_in_active_system"],
        "policy": {"sustain": "last"},
    },
    "system": {"wormholes": ["delta"]},
}

CASES: dict[str, dict[str, Any]] = {
    "direct hit against the crown": DIRECT_HIT_AGAINST_THE_CROWN,
    "no. 47": NO_47,
}


def _same_graph(scenario: dict[str, Any], monkeypatch: pytest.MonkeyPatch) -> int:
    """The same graph with the defender's table made for the keys read and for all; how many
    tables were made where the defender's roll left it several parts."""
    several = 0
    real = split_rolls._read

    def counted(*args: Any) -> Any:
        nonlocal several
        several += len(args[2]) > 1
        return real(*args)

    monkeypatch.setattr(split_rolls, "_read", counted)
    (_, _, before), (_, _, taken) = switched_graphs(
        lambda: _explore(scenario, True, monkeypatch), split_rolls, "READ", monkeypatch
    )
    assert taken == before
    return several


@pytest.mark.parametrize("name", sorted(CASES))
def test_the_tables_read_build_the_same_graph(name: str, monkeypatch: pytest.MonkeyPatch) -> None:
    assert _same_graph(CASES[name], monkeypatch) > 0


def test_the_odds_are_the_same_as_fractions(monkeypatch: pytest.MonkeyPatch) -> None:
    scenario = DIRECT_HIT_AGAINST_THE_CROWN
    on, off = fractions_on_and_off(scenario, split_rolls, "READ", monkeypatch)
    assert on.to_json() == off.to_json()
