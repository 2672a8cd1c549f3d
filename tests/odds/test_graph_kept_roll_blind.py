"""A combat roll kept group by group, followed blind to the hits against its roller (issue 24,
24AD-1), and a handler's own roll while a player assigns, blind to the hits against the other
player (24AD-3); rulesets/ti4/kept_roll_blind.py, analysis/graph.py ``RollingBlind``;
docs/architecture.md, "War Funding Ω's kept roll and Courageous to the End's roll, cheaper to
follow").

War Funding Ω (data/cards.toml: "after you and your opponent roll dice during space combat, you
may reroll all of your opponent's dice and any number of your own") keeps its holder's combat
roll group by group (``Handler.keeps_rolls``), one chance node a group (ti4-space-combat.md
step 3; procedures/combat_round.py ``_roll_by_group``). Held by the defender, whose roll follows
the attacker's, every group after the first was a chance state for each number of hits the
attacker rolled, though the Roll Dice step reads nothing of those hits. The explorer now follows
the roll's groups once from the state with them left out, and puts them back where the step is
past its last group: those chance states are eliminated (their outcomes' chances multiplied into
the first group's), so the graph is smaller and every answer the same, as exact fractions.
Checked with ``kept_roll_blind.KEPT_ROLL_BLIND`` on and off: the same fractions, fewer chance
states, every chance state kept one of the graph's without it, and the ones eliminated the
roll's later groups only.
"""

from __future__ import annotations

from typing import Any

import pytest
from benchmarks.faction_exact import battles

from spacecombat import odds
from spacecombat.analysis import graph
from spacecombat.analysis.graph import Explorer, StateGraph
from spacecombat.rulesets.ti4 import kept_roll_blind
from spacecombat.rulesets.ti4.sides import Side
from spacecombat.rulesets.ti4.state import Phase
from tests.sweep.test_cache import close

from .test_graph_splits import _fought
from .test_graph_splits_placed import NO_30

#: War Funding Ω held by the defender, its fleet of three unit types (three groups)
DEFENDER_HOLDS: dict[str, Any] = {
    "ruleset": "ti4",
    "battle": "space",
    "attacker": {"units": {"cruiser": 2, "destroyer": 1}, "faction": "arborec"},
    "defender": {
        "units": {"dreadnought": 1, "cruiser": 1, "destroyer": 1},
        "faction": "sol",
        "promissory_notes": ["war_funding_omega"],
    },
}

#: held by the attacker (its roll comes first: nothing against it yet), the Crown of Thalnos
#: with the defender
ATTACKER_HOLDS: dict[str, Any] = {
    "ruleset": "ti4",
    "battle": "space",
    "attacker": {
        "units": {"dreadnought": 1, "cruiser": 1, "destroyer": 1},
        "faction": "sol",
        "promissory_notes": ["war_funding_omega"],
    },
    "defender": {
        "units": {"cruiser": 2, "destroyer": 1},
        "faction": "arborec",
        "relics": ["the_crown_of_thalnos"],
    },
}

#: held by the defender, whose own rerolls destroy its units (the Crown of Thalnos: units lost
#: heard before the step goes on, where the blind walk stops)
CROWNED_HOLDER: dict[str, Any] = {
    "ruleset": "ti4",
    "battle": "space",
    "attacker": {"units": {"cruiser": 2, "destroyer": 2}, "faction": "arborec"},
    "defender": {
        "units": {"dreadnought": 1, "carrier": 1, "destroyer": 1},
        "faction": "sol",
        "promissory_notes": ["war_funding_omega"],
        "relics": ["the_crown_of_thalnos"],
    },
}

CASES = {"defender": DEFENDER_HOLDS, "attacker": ATTACKER_HOLDS, "crowned": CROWNED_HOLDER}


def _graph(scenario: dict[str, Any], blind: bool, mp: pytest.MonkeyPatch) -> StateGraph[Any]:
    """The whole graph (exact weights, rolls folded and split) with the shortcut ``blind``."""
    fought = _fought(scenario)
    with mp.context() as patched:
        patched.setattr(kept_roll_blind, "KEPT_ROLL_BLIND", blind)
        explorer: Explorer[Any] = Explorer(
            fought, fought.stock_policies(), exact=True, limit=None, joins=True
        )
        return explorer.build()


def _later_group(state: Any) -> bool:
    """A chance state of a roll kept group by group, some groups already rolled."""
    return state.phase is Phase.ROLL_DICE and any(state.rolled(side) for side in Side)


@pytest.mark.parametrize("name", sorted(CASES))
def test_the_same_fractions_with_fewer_chance_states(
    name: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    scenario = CASES[name]
    monkeypatch.setattr(kept_roll_blind, "KEPT_ROLL_BLIND", False)
    before = odds(scenario, fractions=True, fallback=False).fractions_json()
    floats = odds(scenario, fallback=False).to_json()
    monkeypatch.setattr(kept_roll_blind, "KEPT_ROLL_BLIND", True)
    assert odds(scenario, fractions=True, fallback=False).fractions_json() == before
    # the floats summed in another order (the battle's ends met in another order): to 1e-12
    close(odds(scenario, fallback=False).to_json(), floats)
    off, on = _graph(scenario, False, monkeypatch), _graph(scenario, True, monkeypatch)
    kept = set(on.states)
    assert kept <= set(off.states)
    gone = [s for s in off.states if s not in kept]
    assert gone
    assert all(_later_group(s) for s in gone)
    assert not any(_later_group(s) for s in on.states)


def test_nothing_changes_where_no_roll_is_kept(monkeypatch: pytest.MonkeyPatch) -> None:
    """Without War Funding Ω no roll is kept group by group: the same graph edge for edge."""
    plain = {**DEFENDER_HOLDS, "defender": {**DEFENDER_HOLDS["defender"]}}
    del plain["defender"]["promissory_notes"]
    off, on = _graph(plain, False, monkeypatch), _graph(plain, True, monkeypatch)
    assert on.states == off.states
    assert on.edges == off.edges


def test_only_with_the_rolls_folded(monkeypatch: pytest.MonkeyPatch) -> None:
    """The state after N rounds reads the graph's chance states (no rolls folded): unchanged."""
    fought = _fought(DEFENDER_HOLDS)
    explorer: Explorer[Any] = Explorer(fought, fought.stock_policies(), exact=True, limit=None)
    built = explorer.build()
    assert any(_later_group(s) for s in built.states)
    assert graph.JOINS


@pytest.mark.slow
def test_the_faction_mix_battle_gives_the_same_fractions(monkeypatch: pytest.MonkeyPatch) -> None:
    """No. 30 of the faction mix (the Mentak defender holds War Funding Ω and the Crown of
    Thalnos): the same report as exact fractions, far fewer chance states."""
    monkeypatch.setattr(kept_roll_blind, "KEPT_ROLL_BLIND", False)
    before = odds(NO_30, fractions=True, fallback=False).fractions_json()
    monkeypatch.setattr(kept_roll_blind, "KEPT_ROLL_BLIND", True)
    assert odds(NO_30, fractions=True, fallback=False).fractions_json() == before
    off, on = _graph(NO_30, False, monkeypatch), _graph(NO_30, True, monkeypatch)
    assert len(on.states) < len(off.states) * 0.7


# --- 24AD-3: a handler's own roll while a player assigns, blind to the hits against the other

#: Courageous to the End (data/cards.toml: "after one of your ships is destroyed during a space
#: combat, roll 2 dice; for each result equal to or greater than that ship's combat value, your
#: opponent must choose and destroy 1 of their ships") held by the defender, and by the attacker
#: with Reflective Shielding beside it (2 hits against the opponent when the holder's ship
#: sustains damage, its ships destroyed first: hits the walk adds against the other player)
COURAGEOUS: dict[str, dict[str, Any]] = {
    "defender holds": {
        "ruleset": "ti4",
        "battle": "space",
        "attacker": {"units": {"cruiser": 2, "destroyer": 1}},
        "defender": {
            "units": {"dreadnought": 1, "destroyer": 1},
            "action_cards": ["courageous_to_the_end"],
            "policy": {"sustain": "first"},
        },
    },
    "attacker holds": {
        "ruleset": "ti4",
        "battle": "space",
        "attacker": {
            "units": {"dreadnought": 1, "cruiser": 2},
            "action_cards": ["courageous_to_the_end", "reflective_shielding"],
            "policy": {"sustain": "last"},
        },
        "defender": {
            "units": {"dreadnought": 1, "carrier": 1, "fighter": 2},
            "policy": {"sustain": "first"},
        },
    },
}


def _assigning_graph(
    scenario: dict[str, Any], on: bool, mp: pytest.MonkeyPatch
) -> tuple[StateGraph[Any], Explorer[Any]]:
    fought = _fought(scenario)
    with mp.context() as patched:
        patched.setattr(kept_roll_blind, "ROLL_IN_ASSIGNMENT", on)
        explorer: Explorer[Any] = Explorer(
            fought, fought.stock_policies(), exact=True, limit=None, joins=True
        )
        return explorer.build(), explorer


@pytest.mark.parametrize("name", sorted(COURAGEOUS))
def test_the_cards_roll_followed_blind_builds_the_same_graph(
    name: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The card's roll followed once for every state alike but for the hits against the
    holder's opponent, with the ships that opponent must destroy and the rest of the holder's
    assignment taken at once after it: the same graph, chance state for chance state and edge
    for edge with exact weights, in fewer steps of the rules."""
    scenario = COURAGEOUS[name]
    (off, walked), (on, blind) = (
        _assigning_graph(scenario, False, monkeypatch),
        _assigning_graph(scenario, True, monkeypatch),
    )
    assert on.states == off.states
    assert on.start == off.start
    assert on.edges == off.edges
    assert blind._kept_roll_chains
    assert blind.steps < walked.steps


@pytest.mark.slow
def test_the_faction_mix_battle_no_24(monkeypatch: pytest.MonkeyPatch) -> None:
    """No. 24 of the faction mix (the Nekro hold Courageous to the End against the Empyrean
    flagship): the same graph edge for edge, its 711 rolls of the card followed from fewer
    states alike but for those hits."""
    scenario = battles(25, 2026)[24]
    assert "courageous_to_the_end" in str(scenario["attacker"])
    (off, walked), (on, blind) = (
        _assigning_graph(scenario, False, monkeypatch),
        _assigning_graph(scenario, True, monkeypatch),
    )
    assert on.states == off.states
    assert on.edges == off.edges
    assert len(blind._kept_roll_chains) < 200
    assert blind.steps < walked.steps * 0.7
