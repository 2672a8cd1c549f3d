"""The ``Draw`` node (core/engine.py): one finite random draw that the resolver samples and
logs, and that the exact engine follows with its weights."""

from __future__ import annotations

from collections.abc import Mapping
from fractions import Fraction

import pytest

from spacecombat.analysis.graph import Explorer, Terminal
from spacecombat.core.dice import ScriptedDice, SplitMixDice
from spacecombat.core.engine import Draw, End, Node, Step, play
from spacecombat.core.events import event

#: a toy battle: draw a weighted colour, then roll a d3 read 0-2; the state is what was drawn
Toy = tuple[str, ...]


class ToyProcess:
    def start(self) -> Step[Toy]:
        return Step((), (event("toy_started"),))

    def advance(self, state: Toy) -> Node[Toy]:
        if not state:
            labels = ("red", "blue")
            return Draw.choice("alice", "colour", labels, (1, 3), lambda i: Step((labels[i],)))
        if len(state) == 1:
            return Draw.die("", "d3", 3, lambda face: Step((*state, str(face))), first=0)
        return End({"result": "-".join(state), "rounds": 0})

    def canonical(self, state: Toy) -> Toy:
        return state

    def end_key(self, state: Toy) -> Toy:
        return state


def test_a_choice_takes_the_picked_index_and_a_die_its_face() -> None:
    played = play(ToyProcess(), ScriptedDice(picks=[1, 2]), {})
    assert played.outcome["result"] == "blue-2"


def test_draws_are_logged_as_drawn_events() -> None:
    played = play(ToyProcess(), ScriptedDice(picks=[0, 0]), {})
    drawn = [e for e in played.events if e["event"] == "drawn"]
    assert drawn == [
        {
            "event": "drawn",
            "player": "alice",
            "purpose": "colour",
            "kind": "choice",
            "value": "red",
            "options": ["red", "blue"],
            "weights": [1, 3],
        },
        {"event": "drawn", "player": "", "purpose": "d3", "kind": "d3", "value": "0"},
    ]


def test_the_same_seed_draws_the_same_battle() -> None:
    first = play(ToyProcess(), SplitMixDice(7), {})
    assert play(ToyProcess(), SplitMixDice(7), {}).events == first.events


def test_the_exact_engine_weights_each_outcome() -> None:
    """red 1/4, blue 3/4; each d3 face 1/3."""
    graph = Explorer(ToyProcess(), {}, exact=True).build()
    ends: dict[str, Fraction] = {}
    for edges in graph.edges:
        for edge in edges:
            if isinstance(edge.target, Terminal):
                colour_state = graph.states[graph.edges.index(edges)]
                weight = _colour_chance(colour_state) * Fraction(edge.weight)
                ends[str(edge.target.outcome["result"])] = weight
    assert ends["red-0"] == Fraction(1, 12)
    assert ends["blue-2"] == Fraction(3, 12)
    assert sum(ends.values()) == 1


def _colour_chance(state: Toy) -> Fraction:
    return {(): Fraction(1), ("red",): Fraction(1, 4), ("blue",): Fraction(3, 4)}[state]


def test_the_float_engine_gives_float_chances() -> None:
    draw: Draw[Toy] = Draw.choice("a", "x", ("p", "q"), (1, 4), lambda i: Step(("p",)))
    chances: Mapping[int, object] = draw.outcomes(exact=False)
    assert chances == {0: 0.2, 1: 0.8}


@pytest.mark.parametrize(
    ("labels", "weights"),
    [((), ()), (("a",), (0,)), (("a", "b"), (1,)), (("a",), (-2,))],
)
def test_a_draw_needs_positive_whole_weights_one_per_label(
    labels: tuple[str, ...], weights: tuple[int, ...]
) -> None:
    with pytest.raises(ValueError, match="draw"):
        Draw.choice("a", "x", labels, weights, lambda i: Step(()))
