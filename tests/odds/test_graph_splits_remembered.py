"""The walk hearing a roll's own losses remembered across the chance states (issue 24, 24AG-1;
rulesets/ti4/split_rolls.py ``_heard_remembered``; docs/architecture.md, "The odds engine",
24AG).

The Crown of Thalnos destroys its holder's units whose rerolled dice missed (docs/rulings.md
14C2-1), and each unit destroyed is heard by the handlers acting after a unit is destroyed
before the Roll Dice step goes on (14B3-5). Where every such handler is idle for the roller the
hearing goes on alike whatever the other player's part and the hits against either (24U-2), so
the split rolls walk it once for each state without those, remembered and put back, rather than
at every chance state. These tests check that the graph is the same, chance state for chance
state and edge for edge with exact weights, with ``split_rolls.HEARD_REMEMBERED`` on and off,
that fewer hearings are walked with it, and that the odds are the same as fractions.
"""

from __future__ import annotations

from typing import Any

import pytest

from spacecombat.analysis.exact import exact_odds
from spacecombat.rulesets.ti4 import split_rolls

from .same_graph import switched_graphs
from .test_graph_splits import _explore
from .test_graph_splits_heard import CASES, NO_256


def _walks(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """A count of the hearings walked by the real procedure (``split_rolls._heard``)."""
    count = [0]
    real = split_rolls._heard

    def counted(*args: Any) -> Any:
        count[0] += 1
        return real(*args)

    monkeypatch.setattr(split_rolls, "_heard", counted)
    return count


def _same_graph(scenario: dict[str, Any], monkeypatch: pytest.MonkeyPatch) -> None:
    """The same graph with the hearings remembered and walked afresh, the same chance states
    split, fewer hearings walked."""
    walks = _walks(monkeypatch)
    counts: list[int] = []

    def explore() -> Any:
        before = walks[0]
        found = _explore(scenario, True, monkeypatch)
        counts.append(walks[0] - before)
        return found

    (_, _, split_off), (_, _, split_on) = switched_graphs(
        explore, split_rolls, "HEARD_REMEMBERED", monkeypatch
    )
    assert split_on == split_off
    walked_off, walked_on = counts
    assert 0 < walked_on < walked_off


@pytest.mark.parametrize("name", sorted(CASES))
def test_the_hearings_remembered_build_the_same_graph(
    name: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    _same_graph(CASES[name], monkeypatch)


def test_the_odds_are_the_same(monkeypatch: pytest.MonkeyPatch) -> None:
    """The whole exact engine, as fractions, with and without."""
    for scenario in CASES.values():
        remembered = exact_odds(scenario, fractions=True).to_json()
        with monkeypatch.context() as patched:
            patched.setattr(split_rolls, "HEARD_REMEMBERED", False)
            assert exact_odds(scenario, fractions=True).to_json() == remembered


@pytest.mark.slow
def test_the_faction_mix_battle_gives_the_same_graph(monkeypatch: pytest.MonkeyPatch) -> None:
    """No. 256 of the faction mix (the Yin defender's Crown of Thalnos, its losses heard by
    Brother Milor): the same graph, fewer hearings walked."""
    _same_graph(NO_256, monkeypatch)
