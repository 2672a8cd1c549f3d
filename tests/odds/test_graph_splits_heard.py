"""A combat round's rolls taken player by player where a roll's own losses are heard (issue 24,
24U-2; rulesets/ti4/split_rolls.py ``_losses_heard``; docs/architecture.md, "The odds engine",
1.).

The Crown of Thalnos destroys its holder's units whose rerolled dice missed (docs/rulings.md
14C2-1), and each unit destroyed is heard by the handlers acting after a unit is destroyed
before the Roll Dice step goes on (14B3-5). Where every such handler is idle for the roller
(``Handler.idle_while_assigning``: Technological Singularity for its owner's units, or with
nothing to gain; Brother Milor once played), the hearing changes nothing but the queue, whatever
the other player's part, so the round's rolls are still taken player by player. These tests
check that the graph is the same, chance state for chance state and edge for edge with exact
weights, and the answers to the last bit, with ``split_rolls.HEARD`` on and off, and that more
rounds are split with it.
"""

from __future__ import annotations

import copy
from typing import Any

import pytest

from spacecombat.analysis.exact import exact_odds
from spacecombat.rulesets.ti4 import split_rolls

from .same_graph import switched_graphs
from .test_graph_joins import CROWN_AND_BROTHER_MILOR
from .test_graph_leaps import IDLE
from .test_graph_splits import _explore

#: Technological Singularity (the Nekro attacker's: it hears of the defender's units destroyed
#: only, and here could gain nothing from them) beside the Crown of Thalnos
_SINGULARITY = IDLE["technological_singularity_nothing_to_gain"]


def _with_crown(scenario: dict[str, Any], side: str) -> dict[str, Any]:
    crowned = copy.deepcopy(scenario)
    crowned[side]["relics"] = ["the_crown_of_thalnos"]
    return crowned


CASES: dict[str, dict[str, Any]] = {
    # the attacker's own losses, heard by its own Technological Singularity (idle: it hears of
    # the opponent's units only)
    "crown of the singularity's owner": _with_crown(_SINGULARITY, "attacker"),
    # the defender's own losses, heard by the attacker's Technological Singularity (idle: it
    # could gain nothing, checked for each of the attacker's parts after its roll)
    "crown of the singularity's opponent": _with_crown(_SINGULARITY, "defender"),
}

#: the faction mix's battle no. 256: the Yin defender's Crown of Thalnos, its losses heard by
#: Brother Milor, played before the rounds
NO_256 = CROWN_AND_BROTHER_MILOR


def _same_graph(scenario: dict[str, Any], monkeypatch: pytest.MonkeyPatch) -> None:
    """The same graph with the losses heard and without; more rounds split with them."""
    (_, stepped, before), (_, split, taken) = switched_graphs(
        lambda: _explore(scenario, True, monkeypatch), split_rolls, "HEARD", monkeypatch
    )
    assert taken > before
    assert split.steps < stepped.steps


@pytest.mark.parametrize("name", sorted(CASES))
def test_a_rolls_own_losses_heard_build_the_same_graph(
    name: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    _same_graph(CASES[name], monkeypatch)


def test_the_odds_are_the_same(monkeypatch: pytest.MonkeyPatch) -> None:
    """The whole exact engine, fractions and floats to the last bit, with and without."""
    for scenario in CASES.values():
        heard = exact_odds(scenario, fractions=True).to_json()
        floats = exact_odds(scenario).to_json()
        with monkeypatch.context() as patched:
            patched.setattr(split_rolls, "HEARD", False)
            assert exact_odds(scenario, fractions=True).to_json() == heard
            assert exact_odds(scenario).to_json() == floats


@pytest.mark.slow
def test_the_faction_mix_battle_gives_the_same_graph(monkeypatch: pytest.MonkeyPatch) -> None:
    """No. 256 of the faction mix: the same graph, every round after the first split."""
    _same_graph(NO_256, monkeypatch)
