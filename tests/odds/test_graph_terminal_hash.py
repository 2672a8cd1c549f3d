"""A battle end's hash computed once (issue 24, 24V-1; analysis/graph.py ``Terminal``).

A terminal is the key of every edge that reaches it, and its key is a whole battle state, some
of whose fields hash in Python: its hash is remembered. These tests check that the hash is the
one the dataclass would give (the hash of its compared fields, so that no set or dict of
terminals iterates in another order), that equality still reads the key alone, that a copy
made in another process computes its own hash, and that an exact answer is the same to the
last bit as when each hash is computed afresh.
"""

from __future__ import annotations

import pickle
from typing import Any

import pytest

from spacecombat.analysis import graph
from spacecombat.analysis.exact import exact_odds
from spacecombat.analysis.graph import Terminal

from .test_graph_splits_whole import NO_116


def test_the_hash_is_the_dataclass_one() -> None:
    key = ("over", (1, 2), frozenset({"a"}))
    end = Terminal(key, {"winner": "attacker"})
    assert hash(end) == hash((key,))
    assert hash(end) == hash(end)  # (remembered)
    assert end == Terminal(key, {})  # the outcome is not compared
    assert end != Terminal(("other",), {"winner": "attacker"})


def test_a_copy_does_not_carry_the_hash() -> None:
    end = Terminal(("over", 3), {"winner": "draw"})
    hash(end)
    copy = pickle.loads(pickle.dumps(end))
    assert "_hash" not in copy.__dict__
    assert copy == end
    assert hash(copy) == hash(end)


def _fresh_hash(self: Terminal) -> int:
    return hash((self.key,))


@pytest.mark.parametrize("scenario", [NO_116])
def test_answers_unchanged(monkeypatch: pytest.MonkeyPatch, scenario: dict[str, Any]) -> None:
    # the faction mix's battle no. 116: exact fractions and floats, with the hash remembered
    # and computed each time
    remembered = exact_odds(scenario, fractions=True).to_json(), exact_odds(scenario).to_json()
    monkeypatch.setattr(graph.Terminal, "__hash__", _fresh_hash)
    fresh = exact_odds(scenario, fractions=True).to_json(), exact_odds(scenario).to_json()
    assert remembered == fresh
