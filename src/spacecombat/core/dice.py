"""The one door for randomness: a ``Dice`` object that rolls d10s and draws weighted picks.

Procedures never roll; the resolver asks a ``Dice`` for faces when it meets a chance step, and
for a pick (an index drawn with chance proportional to whole-number weights) when it meets a
draw (a die read through a table, a weighted choice of target). ``SeededDice`` is for TI4 and
TI3 play, ``SplitMixDice`` for EC4X (a generator whose algorithm is written out in
``core/prng.py``), ``ScriptedDice`` for tests and for replaying a log.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Sequence
from functools import cache
from typing import Protocol

from spacecombat.core.errors import ReplayError
from spacecombat.core.prng import SplitMix64

SIDES = 10  # ti4-space-combat.md note 14: the "0" side of the d10 is a 10.


class Dice(Protocol):
    """Something that rolls ``count`` ten-sided dice."""

    def roll(self, count: int) -> tuple[int, ...]:
        """Return ``count`` faces, each from 1 to 10."""
        ...

    def pick(self, weights: Sequence[int]) -> int:
        """Return an index of ``weights`` drawn with chance proportional to its weight."""
        ...


def _faces_as_randint(generator: random.Random, count: int) -> tuple[int, ...]:
    """``count`` calls of ``generator.randint(1, SIDES)``, taking its steps without the calls
    between them: CPython's ``randint(1, 10)`` is ``1 + _randbelow(10)``, which draws 4 bits
    (``getrandbits(4)``) until they are below 10. Checked against ``randint`` before its first
    use (``randint_steps``); the faces, and so every seeded log, are the same."""
    getrandbits = generator.getrandbits
    faces = []
    for _ in range(count):
        drawn = getrandbits(4)
        while drawn >= SIDES:
            drawn = getrandbits(4)
        faces.append(drawn + 1)
    return tuple(faces)


@cache
def randint_steps() -> bool:
    """Whether this Python's ``randint`` takes the steps ``_faces_as_randint`` takes (if not,
    ``SeededDice`` calls ``randint``)."""
    if getattr(random.Random, "_randbelow", None) is not getattr(
        random.Random, "_randbelow_with_getrandbits", None
    ):
        return False
    for seed in (0, 1, 2**40 + 7):
        ours, theirs = random.Random(seed), random.Random(seed)
        if _faces_as_randint(ours, 64) != tuple(theirs.randint(1, SIDES) for _ in range(64)):
            return False
        if ours.getrandbits(32) != theirs.getrandbits(32):
            return False
    return True


class SeededDice:
    """Fair d10s from a private generator seeded with ``seed``; never the global one. Each
    face is ``randint(1, 10)`` of Python's generator, as the golden logs were made."""

    def __init__(self, seed: int) -> None:
        self.seed = seed
        self._random = random.Random(seed)

    def roll(self, count: int) -> tuple[int, ...]:
        if randint_steps():
            return _faces_as_randint(self._random, count)
        return tuple(self._random.randint(1, SIDES) for _ in range(count))

    def pick(self, weights: Sequence[int]) -> int:
        return _cumulative(weights, self._random.randrange(sum(weights)))

    def __repr__(self) -> str:
        return f"SeededDice({self.seed})"


class SplitMixDice:
    """Faces and picks from SplitMix64 seeded with ``seed`` (``core/prng.py``): a die face is
    ``below(10) + 1``, a pick is ``SplitMix64.pick``. Every draw's algorithm is written out,
    so another implementation can reproduce it (EC4X 7.3.2.5, docs/ec4x.md)."""

    def __init__(self, seed: int) -> None:
        self.seed = seed
        self._generator = SplitMix64(seed)

    def roll(self, count: int) -> tuple[int, ...]:
        return tuple(self._generator.below(SIDES) + 1 for _ in range(count))

    def pick(self, weights: Sequence[int]) -> int:
        return self._generator.pick(weights)

    def __repr__(self) -> str:
        return f"SplitMixDice({self.seed})"


def _cumulative(weights: Sequence[int], r: int) -> int:
    """The first index whose cumulative weight exceeds ``r``."""
    total = 0
    for index, weight in enumerate(weights):
        total += weight
        if r < total:
            return index
    raise ValueError(f"{r} is not below the total weight {total}")


class ScriptedDice:
    """Dice that return the faces given, in order, and the picks given (indices), in order;
    running out is an error, not a guess."""

    def __init__(self, faces: Iterable[int] = (), picks: Iterable[int] = ()) -> None:
        self._faces = list(faces)
        self._picks = list(picks)
        self._next_pick = 0
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

    def pick(self, weights: Sequence[int]) -> int:
        if self._next_pick >= len(self._picks):
            raise ReplayError(
                f"scripted picks ran out: one more asked after {len(self._picks)} picks"
            )
        index = self._picks[self._next_pick]
        if not 0 <= index < len(weights):
            raise ReplayError(
                f"a scripted pick is {index}, but the draw has {len(weights)} outcomes"
            )
        self._next_pick += 1
        return index

    @property
    def remaining(self) -> int:
        """How many scripted faces are still unused."""
        return len(self._faces) - self._next

    def __repr__(self) -> str:
        return f"ScriptedDice({self._faces!r})"
