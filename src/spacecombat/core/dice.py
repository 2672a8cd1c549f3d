"""The one door for randomness: a ``Dice`` object that rolls d10s.

Procedures never roll; the resolver asks a ``Dice`` for faces when it meets a chance step.
``SeededDice`` is for play, ``ScriptedDice`` for tests and for replaying a log.
"""

from __future__ import annotations

import random
from collections.abc import Iterable
from typing import Protocol

from spacecombat.core.errors import ReplayError

SIDES = 10  # ti4-space-combat.md note 14: the "0" side of the d10 is a 10.


class Dice(Protocol):
    """Something that rolls ``count`` ten-sided dice."""

    def roll(self, count: int) -> tuple[int, ...]:
        """Return ``count`` faces, each from 1 to 10."""
        ...


class SeededDice:
    """Fair d10s from a private generator seeded with ``seed``; never the global one."""

    def __init__(self, seed: int) -> None:
        self.seed = seed
        self._random = random.Random(seed)

    def roll(self, count: int) -> tuple[int, ...]:
        return tuple(self._random.randint(1, SIDES) for _ in range(count))

    def __repr__(self) -> str:
        return f"SeededDice({self.seed})"


class ScriptedDice:
    """Dice that return the faces given, in order; running out is an error, not a guess."""

    def __init__(self, faces: Iterable[int]) -> None:
        self._faces = list(faces)
        for face in self._faces:
            if not 1 <= face <= SIDES:
                # a ReplayError, not a ValueError: a log with such a face is malformed input
                raise ReplayError(f"a d10 face is 1 to 10, not {face}")
        self._next = 0

    def roll(self, count: int) -> tuple[int, ...]:
        end = self._next + count
        if end > len(self._faces):
            raise ReplayError(
                f"scripted dice ran out: {count} more asked after {self._next} of "
                f"{len(self._faces)} faces"
            )
        faces = tuple(self._faces[self._next : end])
        self._next = end
        return faces

    @property
    def remaining(self) -> int:
        """How many scripted faces are still unused."""
        return len(self._faces) - self._next

    def __repr__(self) -> str:
        return f"ScriptedDice({self._faces!r})"
