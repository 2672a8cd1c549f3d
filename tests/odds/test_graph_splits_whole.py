"""A combat round's rolls taken player by player where a handler acts while hits are assigned
but reads nothing of the other player's part (issue 24, 24U-3; rulesets/ti4/split_rolls.py
``_walked_whole``; docs/architecture.md, "The odds engine", 1.).

Direct Hit (an action card: after the opponent's ship uses SUSTAIN DAMAGE, destroy it) acts on
the state while the opponent assigns, so a player's assignment is not a function of its units
and the hits alone; but it reads nothing of its owner's part nor the hits against its owner
(``Handler.blind_while_assigning``). Each assignment is then walked whole by the real Assign
Hits procedure from both players' parts (the paired tables), and the card played travels with
the parts (``BattleState.used``). These tests check that the graph is the same, chance state for
chance state and edge for edge with exact weights, and the answers to the last bit, with
``split_rolls.WHOLE`` on and off; that Reflective Shielding, whose hits against the other player
the attacker assigns after the defender (docs/rulings.md 27U-1), keeps such rounds whole; and
that the hits lost for want of units end a walk where the step moves on.
"""

from __future__ import annotations

from typing import Any

import pytest

from spacecombat.analysis.exact import exact_odds
from spacecombat.rulesets.ti4 import split_rolls

from .same_graph import switched_graphs
from .test_graph_leaps import DIRECT_HIT, IDLE
from .test_graph_splits import _explore

#: the faction mix's battle no. 116 (benchmarks/faction_exact.py, seed 2026): the L1Z1X
#: attacker's Direct Hit against the Sardakk defender's war suns, the L1Z1X flagship's hits
#: marked for non-fighter ships
NO_116: dict[str, Any] = {
    "ruleset": "ti4",
    "battle": "space",
    "attacker": {
        "units": {"cruiser": 1, "dreadnought": 1, "war_sun": 1, "fighter": 2, "flagship": 1},
        "faction": "l1z1x",
        "technologies": ["graviton_laser_system", "antimass_deflectors"],
        "action_cards": ["skilled_retreat", "direct_hit"],
        "promissory_notes": ["the_cavalry"],
        "policy": {"sustain": "last"},
    },
    "defender": {
        "units": {"war_sun": 2, "cruiser": 2, "destroyer": 1},
        "faction": "sardakk",
        "upgrades": ["carrier"],
        "technologies": ["dacxive_animators"],
        "policy": {"sustain": "in_order"},
        "planet_units": {"infantry": 1},
    },
}

#: Direct Hit held by the defender, whose war sun's and dreadnought's hits (up to 4) outnumber
#: the attacker's two destroyers: the attacker's last hits are lost for want of units, and its
#: step moves on at once
DIRECT_HIT_HITS_LOST: dict[str, Any] = {
    "ruleset": "ti4",
    "battle": "space",
    "attacker": {"units": {"destroyer": 2}, "policy": {"sustain": "first"}},
    "defender": {
        "units": {"war_sun": 1, "dreadnought": 1},
        "action_cards": ["direct_hit"],
        "policy": {"sustain": "first"},
    },
}

CASES: dict[str, dict[str, Any]] = {
    "direct hit": DIRECT_HIT,
    "direct hit, hits lost": DIRECT_HIT_HITS_LOST,
}


def _same_graph(scenario: dict[str, Any], monkeypatch: pytest.MonkeyPatch) -> tuple[int, int]:
    """The same graph with the assignments walked whole and without; the chance states split
    each way."""
    (_, _, before), (_, _, taken) = switched_graphs(
        lambda: _explore(scenario, True, monkeypatch), split_rolls, "WHOLE", monkeypatch
    )
    return before, taken


@pytest.mark.parametrize("name", sorted(CASES))
def test_direct_hit_rounds_split_build_the_same_graph(
    name: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    before, taken = _same_graph(CASES[name], monkeypatch)
    assert taken > before


def test_reflective_shielding_keeps_its_rounds_whole(monkeypatch: pytest.MonkeyPatch) -> None:
    """Reflective Shielding produces hits against the attacker while the defender assigns,
    which the attacker assigns after it (27U-1): without those hits carried with the parts
    (``split_rolls.PRODUCED`` off, 24Z-1: tests/odds/test_graph_splits_produced.py) a walk that
    produces them is refused, so only the rounds where no such hit can be produced are split;
    the graph is the same."""
    monkeypatch.setattr(split_rolls, "PRODUCED", False)
    _same_graph(IDLE["reflective_shielding_tellurian"], monkeypatch)
    _same_graph(IDLE["reflective_shielding_hits_lost"], monkeypatch)


def test_the_odds_are_the_same(monkeypatch: pytest.MonkeyPatch) -> None:
    """The whole exact engine, fractions and floats to the last bit, with and without."""
    for scenario in CASES.values():
        whole = exact_odds(scenario, fractions=True).to_json()
        floats = exact_odds(scenario).to_json()
        with monkeypatch.context() as patched:
            patched.setattr(split_rolls, "WHOLE", False)
            assert exact_odds(scenario, fractions=True).to_json() == whole
            assert exact_odds(scenario).to_json() == floats


@pytest.mark.slow
def test_the_faction_mix_battle_gives_the_same_graph(monkeypatch: pytest.MonkeyPatch) -> None:
    """No. 116 of the faction mix: the same graph, its rounds split."""
    before, taken = _same_graph(NO_116, monkeypatch)
    assert taken > before
