"""A player's part after its assignment, settled at the round's end once for the battle (issue
24, 24AC-5; docs/architecture.md, "The odds engine", 1.).

Where nothing reads the damage sustained this round before the round's end makes it plain
damage (space rule 9.1; rulesets/ti4/split_rolls.py ``_settles_early``, 24Y-4), the split rolls
settle each player's part after its assignment (``_settled_part``) in every chance state's
tables, making a new part each time, though the parts after are the same objects from one
chance state to the next (``Ti4Battle.assigned_parts``). The explorer remembers where each pair
of parts after leads across the chance states (``Explorer._led``, 24AA-1), and a pair made anew
is found there only by comparing the parts unit by unit; and parts after walked from different
parts and hits are often equal, made apart. Settled once for each part, and one object for each
value settled to (``Settled``), the pairs are found by identity. The part settled is the same
value either way.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Generic, TypeVar

#: whether each part after is settled once for the battle (``settled``); off: once in every
#: chance state's tables, the old way (24AC-5; tests/odds/test_graph_settled_once.py)
ONCE = True

P = TypeVar("P")


class Settled(Generic[P]):
    """The parts settled in a battle: by the identity of the part settled (kept beside its
    settled form, so that its identity is not reused), and each settled part by its value."""

    __slots__ = ("by_id", "by_value")

    def __init__(self) -> None:
        self.by_id: dict[int, tuple[P, P]] = {}
        self.by_value: dict[P, P] = {}


def settled(memo: Settled[P], part: P, settle: Callable[[P], P]) -> P:
    """``settle(part)``, made once for ``part`` and the same object from then on, and the same
    object for every part settled to an equal value (parts after walked from different parts
    and hits are often equal)."""
    if not ONCE:
        return settle(part)
    found = memo.by_id.get(id(part))
    if found is not None and found[0] is part:
        return found[1]
    made = settle(part)
    made = memo.by_value.setdefault(made, made)
    memo.by_id[id(part)] = (part, made)
    return made
