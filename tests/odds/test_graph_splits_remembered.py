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
from spacecombat.rulesets.ti4.procedures import assign_hits

from .same_graph import switched_graphs
from .test_graph_splits import MENTAK_DEFENDS, _explore
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


def _asked(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """A count of the handlers' keys asked (``assign_hits.leap_key``, which ``_idle`` asks)."""
    count = [0]
    real = assign_hits.leap_key

    def counted(*args: Any) -> Any:
        count[0] += 1
        return real(*args)

    monkeypatch.setattr(assign_hits, "leap_key", counted)
    return count


def _same_graph_idle(scenario: dict[str, Any], monkeypatch: pytest.MonkeyPatch) -> None:
    """The same graph with whether the handlers are idle remembered by pair and asked afresh,
    the same chance states split, fewer keys asked (24AG-2)."""
    asked = _asked(monkeypatch)
    counts: list[int] = []

    def explore() -> Any:
        before = asked[0]
        found = _explore(scenario, True, monkeypatch)
        counts.append(asked[0] - before)
        return found

    (_, _, split_off), (_, _, split_on) = switched_graphs(
        explore, split_rolls, "IDLE_REMEMBERED", monkeypatch
    )
    assert split_on == split_off
    asked_off, asked_on = counts
    assert 0 < asked_on < asked_off


@pytest.mark.parametrize("name", sorted(CASES))
def test_the_idle_handlers_remembered_build_the_same_graph(
    name: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    _same_graph_idle(CASES[name], monkeypatch)


def test_the_odds_are_the_same_with_idle_handlers_remembered(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The whole exact engine, as fractions, with and without (24AG-2)."""
    for scenario in (*CASES.values(), MENTAK_DEFENDS):
        remembered = exact_odds(scenario, fractions=True).to_json()
        with monkeypatch.context() as patched:
            patched.setattr(split_rolls, "IDLE_REMEMBERED", False)
            assert exact_odds(scenario, fractions=True).to_json() == remembered


@pytest.mark.slow
def test_the_faction_mix_battle_gives_the_same_graph_idle(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """No. 256 of the faction mix: the same graph, fewer keys asked (24AG-2)."""
    _same_graph_idle(NO_256, monkeypatch)


def test_an_idle_answer_remembered_is_the_answer_asked(monkeypatch: pytest.MonkeyPatch) -> None:
    """Each time the split rolls ask whether the handlers are idle (``_idle``), asked again at
    once (from the memory where ``IDLE_REMEMBERED``) it answers the same as it did, and as
    asked afresh with the switch off: a handler not idle (the Mentak flagship's, Brother
    Milor's before it is played) is found not idle from the memory too (24AG-2)."""
    real = split_rolls._idle
    answers: list[bool] = []

    def twice(*args: Any) -> bool:
        first = real(*args)
        assert real(*args) is first
        with monkeypatch.context() as patched:
            patched.setattr(split_rolls, "IDLE_REMEMBERED", False)
            assert real(*args) is first
        answers.append(first)
        return first

    monkeypatch.setattr(split_rolls, "_idle", twice)
    for scenario in (*CASES.values(), MENTAK_DEFENDS):
        _explore(scenario, True, monkeypatch)
    assert True in answers
    assert False in answers
