"""A combat round's rolls taken player by player where a handler asked while a player assigns
reads the other player's part but not the hits against it (issue 24, 24Z-2;
rulesets/ti4/split_rolls.py ``PAIRED``, procedures/assign_hits.py ``paired``;
docs/architecture.md, "The odds engine", 1.).

Technological Singularity (the Nekro's: "Once per combat, after 1 of your opponent's units is
destroyed, you may gain 1 technology that is owned by that player", ti4-combat-effects.md §3)
acts while the opponent assigns and reads its owner's units (what it could gain,
``offers``), so it is not blind to the other player; but it reads nothing of the hits against
its owner and changes neither them nor its owner's units, only what was used and the
technologies gained. The paired tables walk each assignment from the other player's part as it
stands when it begins, so they may walk such an assignment whole, the technology gained
travelling with the part. The Empyrean flagship's repair (its owner's units and influence
only) now says it is blind (``Handler.blind_while_assigning``). These tests check that the
graph is the same, chance state for chance state and edge for edge with exact weights, that
more chance states are split, and that the odds are the same as fractions, with each switch on
and off.
"""

from __future__ import annotations

from typing import Any

import pytest

from spacecombat import odds
from spacecombat.rulesets.ti4 import split_rolls
from spacecombat.rulesets.ti4.abilities.empyrean_flagship_repair import EmpyreanFlagshipRepair
from spacecombat.rulesets.ti4.procedures import assign_hits
from spacecombat.rulesets.ti4.sides import Side
from tests.ti4.switched import fractions_on_and_off

from .same_graph import assert_same_graph, switched_graphs
from .test_graph_leaps import IDLE, SPACE_COMBAT, _fought
from .test_graph_leaps import _explore as _stepped
from .test_graph_splits import _explore

#: the faction mix's battle no. 55 (benchmarks/faction_exact.py, seed 2026): the Empyrean
#: attacker (flagship, Duranium Armor) against the Nekro, whose Technological Singularity may
#: gain Duranium Armor once an Empyrean unit is destroyed
NO_55: dict[str, Any] = {
    "ruleset": "ti4",
    "battle": "space",
    "attacker": {
        "units": {"war_sun": 1, "flagship": 1},
        "faction": "empyrean",
        "upgrades": ["carrier"],
        "technologies": ["duranium_armor"],
        "action_cards": ["intercept"],
        "trade_goods": 0,
        "influence": 4,
        "policy": {"sustain": "first"},
    },
    "defender": {
        "units": {"destroyer": 3, "carrier": 1, "war_sun": 1},
        "faction": "nekro",
        "upgrades": ["fighter"],
        "trade_goods": 0,
        "influence": 0,
        "policy": {"sustain": "last"},
    },
}

#: the Nekro defends against a cruiser II and destroyer II fleet: while the attacker assigns,
#: Technological Singularity may gain a unit upgrade that adds to the Nekro's rolls
SINGULARITY_DEFENDS: dict[str, Any] = {
    "ruleset": "ti4",
    "battle": "space",
    "attacker": {
        "units": {"cruiser": 2, "destroyer": 1, "dreadnought": 1},
        "upgrades": ["cruiser", "destroyer"],
        "policy": {"sustain": "first"},
    },
    "defender": {
        "faction": "nekro",
        "units": {"cruiser": 2, "destroyer": 2, "dreadnought": 1},
        "policy": {"sustain": "first"},
    },
}

CASES: dict[str, dict[str, Any]] = {
    "singularity, the nekro attacks": IDLE["technological_singularity"],
    "singularity, the nekro defends": SINGULARITY_DEFENDS,
}


def _same_graph(scenario: dict[str, Any], monkeypatch: pytest.MonkeyPatch) -> tuple[int, int]:
    """The same graph with such assignments walked whole and without; the chance states split
    each way."""
    (_, _, before), (_, _, taken) = switched_graphs(
        lambda: _explore(scenario, True, monkeypatch), split_rolls, "PAIRED", monkeypatch
    )
    return before, taken


def test_technological_singularity_is_paired_not_blind() -> None:
    """While the opponent assigns, Technological Singularity with something to gain is neither
    idle nor blind, but paired; while its owner assigns it is idle."""
    fought = _fought(SINGULARITY_DEFENDS)
    setup, start = fought.setup, fought.start().state
    assert not assign_hits.blind(setup, start, Side.ATTACKER, SPACE_COMBAT)
    assert assign_hits.paired(setup, start, Side.ATTACKER, SPACE_COMBAT)
    assert assign_hits.leap_key(setup, start, Side.DEFENDER, None, SPACE_COMBAT) == ()


@pytest.mark.parametrize("name", sorted(CASES))
def test_singularity_rounds_split_build_the_same_graph(
    name: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    before, taken = _same_graph(CASES[name], monkeypatch)
    assert taken > before


@pytest.mark.parametrize("name", sorted(CASES))
def test_the_odds_are_the_same_as_fractions(name: str, monkeypatch: pytest.MonkeyPatch) -> None:
    on, off = fractions_on_and_off(CASES[name], split_rolls, "PAIRED", monkeypatch)
    assert on.to_json() == off.to_json()


def test_the_empyrean_flagship_blind_gives_the_same_graph(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The Empyrean flagship's repair declared blind (24Z-2): its owner's assignment is walked
    once for every state alike but for the other player's part (``Ti4Battle._blind_leap``);
    the graph is the one built with it not blind, in fewer steps, and the odds the same."""
    scenario = IDLE["empyrean_flagship_repair"]
    with monkeypatch.context() as patched:
        patched.setattr(EmpyreanFlagshipRepair, "blind_while_assigning", lambda *_: False)
        walked, stepped = _stepped(scenario, True, monkeypatch)
        off = odds(scenario, fractions=True, fallback=False)
    built, leapt = _stepped(scenario, True, monkeypatch)
    assert_same_graph(built, walked)
    assert leapt.steps < stepped.steps
    assert odds(scenario, fractions=True, fallback=False).to_json() == off.to_json()


@pytest.mark.slow
def test_the_faction_mix_battle_gives_the_same_graph(monkeypatch: pytest.MonkeyPatch) -> None:
    """No. 55 of the faction mix: the same graph, every round split (37 chance states were
    not)."""
    before, taken = _same_graph(NO_55, monkeypatch)
    assert taken > before
