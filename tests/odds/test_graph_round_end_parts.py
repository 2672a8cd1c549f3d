"""The state both assignments lead to put together at the round's end from the owners' parts,
where a handler acts after hits are assigned on its owner's part alone (issue 24, 24AG-4;
rulesets/ti4/round_end_parts.py; docs/architecture.md, "The odds engine", 24AG).

Duranium Armor repairs one of its owner's damaged units after hits are assigned, its owner's
stock policy choosing which (ti4 Duranium Armor; docs/architecture.md 24Y-4: it reads and
changes its owner's part alone). The steps from the defender's Assign Hits step with no hit
left to the round's end (the step moving on, ti4-space-combat.md step 4; the window after hits
are assigned; Retreat with nothing announced, step 5) are then walked once for each of the
owner's parts met in a chance state's pairs, and every pair is put together at the state they
reach with the other player's part. These tests check that the graph is the same, chance state
for chance state and edge for edge with exact weights, with ``round_end_parts.BY_PARTS`` on and
off, in fewer steps of the rules, and that the odds are the same as fractions.
"""

from __future__ import annotations

import copy
from typing import Any

import pytest
from benchmarks.faction_exact import battles

from spacecombat.analysis.exact import exact_odds
from spacecombat.core.engine import Step
from spacecombat.rulesets.ti4 import round_end_parts

from .same_graph import switched_graphs
from .test_graph_passed_states import BATTLES
from .test_graph_splits import _explore

_DURANIUM = BATTLES["duranium armor"]


def _with_duranium(scenario: dict[str, Any], side: str) -> dict[str, Any]:
    armored = copy.deepcopy(scenario)
    armored[side]["technologies"] = [*armored[side].get("technologies", []), "duranium_armor"]
    return armored


#: the attacker's dreadnoughts repaired by its Duranium Armor against cruisers
_ATTACKER_ARMORED: dict[str, Any] = {
    "ruleset": "ti4",
    "battle": "space",
    "attacker": {
        "units": {"dreadnought": 2, "destroyer": 1},
        "technologies": ["duranium_armor"],
        "policy": {"sustain": "first"},
    },
    "defender": {"units": {"cruiser": 3, "fighter": 1}, "policy": {"sustain": "first"}},
}

CASES: dict[str, dict[str, Any]] = {
    # the defender's Duranium Armor (the Creuss cruiser's carried mech does not fight)
    "defender's duranium armor": _DURANIUM,
    "attacker's duranium armor": _ATTACKER_ARMORED,
    # both players': the walk keyed by both parts, once for each pair
    "both players' duranium armor": _with_duranium(_ATTACKER_ARMORED, "defender"),
}

#: no. 159 of the faction mix: the Winnu attacker's Duranium Armor and Crown of Thalnos
NO_159 = battles(300, 2026)[159]


def _walks(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """A count of the walks to the round's end (``RoundEndByParts._walked``)."""
    count = [0]
    real = round_end_parts.RoundEndByParts._walked

    def counted(self: round_end_parts.RoundEndByParts, some: Any) -> Any:
        count[0] += 1
        return real(self, some)

    monkeypatch.setattr(round_end_parts.RoundEndByParts, "_walked", counted)
    return count


def _steps(scenario: dict[str, Any], monkeypatch: pytest.MonkeyPatch) -> tuple[int, int, int]:
    """The steps of the rules walked with the switch off and on (the same graph, the same
    chance states split), and the walks to the round's end made with it on."""
    walks = _walks(monkeypatch)
    (_, stepped, before), (_, by_parts, split) = switched_graphs(
        lambda: _explore(scenario, True, monkeypatch), round_end_parts, "BY_PARTS", monkeypatch
    )
    assert split == before > 0
    return stepped.steps, by_parts.steps, walks[0]


@pytest.mark.parametrize("name", sorted(CASES))
def test_the_same_graph_in_fewer_steps(name: str, monkeypatch: pytest.MonkeyPatch) -> None:
    before, after, walked = _steps(CASES[name], monkeypatch)
    assert walked > 0
    assert after < before


def test_the_odds_are_the_same(monkeypatch: pytest.MonkeyPatch) -> None:
    """The whole exact engine, as fractions, with and without."""
    for scenario in CASES.values():
        by_parts = exact_odds(scenario, fractions=True).to_json()
        with monkeypatch.context() as patched:
            patched.setattr(round_end_parts, "BY_PARTS", False)
            assert exact_odds(scenario, fractions=True).to_json() == by_parts


@pytest.mark.slow
def test_the_faction_mix_battle_gives_the_same_graph(monkeypatch: pytest.MonkeyPatch) -> None:
    """No. 159 of the faction mix: the same graph in fewer steps."""
    before, after, walked = _steps(NO_159, monkeypatch)
    assert walked > 0
    assert after < before


def test_the_round_notes_cleared_build_the_same_graph(monkeypatch: pytest.MonkeyPatch) -> None:
    """The round's notes and marks cleared at the round's end (24AG-5): the same graph with
    ``NOTES_CLEARED`` on and off, the same odds as fractions, on the Crown of Thalnos beside
    Duranium Armor (the Crown's notes of the units rerolled)."""
    crowned = copy.deepcopy(_ATTACKER_ARMORED)
    crowned["attacker"]["relics"] = ["the_crown_of_thalnos"]
    switched_graphs(
        lambda: _explore(crowned, True, monkeypatch), round_end_parts, "NOTES_CLEARED", monkeypatch
    )
    cleared = exact_odds(crowned, fractions=True).to_json()
    with monkeypatch.context() as patched:
        patched.setattr(round_end_parts, "NOTES_CLEARED", False)
        assert exact_odds(crowned, fractions=True).to_json() == cleared


@pytest.mark.slow
def test_the_round_notes_cleared_in_the_faction_mix_battle(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """No. 159 (the Winnu Crown of Thalnos's notes): the same graph with the notes cleared, in
    fewer steps (24AG-5)."""
    (_, kept, _), (_, cleared, _) = switched_graphs(
        lambda: _explore(NO_159, True, monkeypatch), round_end_parts, "NOTES_CLEARED", monkeypatch
    )
    assert cleared.steps < kept.steps


def test_the_round_end_reads_no_note_cleared(monkeypatch: pytest.MonkeyPatch) -> None:
    """At every state a walk reaches at the round's end, the round's end (procedures/
    combat_round.py ``end_of_round``) leads to the same state, with the same events, from the
    state with the round's notes and marks cleared (24AG-5): it clears them itself before it
    reads anything else."""
    real = round_end_parts.RoundEndByParts._walked
    met = [0]

    def checked(self: round_end_parts.RoundEndByParts, some: Any) -> Any:
        with monkeypatch.context() as patched:
            patched.setattr(round_end_parts, "NOTES_CLEARED", False)
            kept = real(self, some)
        cleared = real(self, some)
        if kept is not None:
            assert cleared is not None
            battle = self._battle
            before, after = battle.advance(kept), battle.advance(cleared)
            assert isinstance(before, Step)
            assert isinstance(after, Step)
            assert after.events == before.events
            assert battle.canonical(after.state) == battle.canonical(before.state)
            met[0] += kept != cleared
        return cleared

    monkeypatch.setattr(round_end_parts.RoundEndByParts, "_walked", checked)
    crowned = copy.deepcopy(_ATTACKER_ARMORED)
    crowned["attacker"]["relics"] = ["the_crown_of_thalnos"]
    _explore(crowned, True, monkeypatch)
    assert met[0] > 0  # (some states carried notes or marks to clear)
