"""SplitMix64: a small generator whose every step is written out here, so that another
implementation can reproduce a battle draw for draw (EC4X fixes its seeding, 7.3.2.5, and
``docs/ec4x.md`` names this generator and each draw's algorithm).

Python's ``random`` module is not used for this: its seeding and its ``randrange`` and
``choices`` algorithms are not promised to stay the same between Python versions.

The algorithm (Steele, Lea and Flood, "Fast splittable pseudorandom number generators", 2014;
the constants are those of Java's ``SplittableRandom`` and of Vigna's reference C code):

- state: one unsigned 64-bit integer, initially the seed;
- next: ``state += 0x9E3779B97F4A7C15``; ``z = state``;
  ``z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9``; ``z = (z ^ (z >> 27)) * 0x94D049BB133111EB``;
  return ``z ^ (z >> 31)``; all arithmetic modulo 2^64.

Draws built on it:

- ``below(n)``: a uniform whole number from 0 to n − 1 by rejection: take ``x = next()``; if
  ``x >= 2^64 − (2^64 mod n)`` take another; return ``x mod n``.
- ``pick(weights)``: ``r = below(sum(weights))``; the first index ``i`` whose cumulative weight
  ``weights[0] + … + weights[i]`` exceeds ``r``. A die of ``k`` sides is ``pick`` of ``k`` equal
  weights, which is ``below(k)``.
"""

from __future__ import annotations

from collections.abc import Sequence

MASK = (1 << 64) - 1
GOLDEN = 0x9E3779B97F4A7C15
MIX1 = 0xBF58476D1CE4E5B9
MIX2 = 0x94D049BB133111EB


class SplitMix64:
    """The generator; ``seed`` is any whole number from 0 to 2^64 − 1."""

    __slots__ = ("seed", "state")

    def __init__(self, seed: int) -> None:
        if not 0 <= seed <= MASK:
            raise ValueError(f"a SplitMix64 seed is a whole number from 0 to {MASK}")
        self.seed = seed
        self.state = seed

    def next(self) -> int:
        """The next 64-bit output."""
        self.state = (self.state + GOLDEN) & MASK
        z = self.state
        z = ((z ^ (z >> 30)) * MIX1) & MASK
        z = ((z ^ (z >> 27)) * MIX2) & MASK
        return z ^ (z >> 31)

    def below(self, n: int) -> int:
        """A uniform whole number from 0 to ``n`` − 1 (rejection sampling, no modulo bias)."""
        if not 1 <= n <= MASK:
            raise ValueError(f"below(n) needs 1 <= n < 2^64 (got {n})")
        limit = (MASK + 1) - ((MASK + 1) % n)
        while True:
            x = self.next()
            if x < limit:
                return x % n

    def pick(self, weights: Sequence[int]) -> int:
        """An index drawn with chance proportional to its whole-number weight: ``below`` of
        their sum, its steps written out here (one call rather than three a draw: Monte
        Carlo's EC4X battles draw some 500 times each; the same outputs, checked by tests)."""
        n = sum(weights)
        if not 1 <= n <= MASK:
            raise ValueError(f"below(n) needs 1 <= n < 2^64 (got {n})")
        limit = (MASK + 1) - ((MASK + 1) % n)
        state = self.state
        while True:
            state = (state + GOLDEN) & MASK
            z = ((state ^ (state >> 30)) * MIX1) & MASK
            z = ((z ^ (z >> 27)) * MIX2) & MASK
            x = z ^ (z >> 31)
            if x < limit:
                break
        self.state = state
        r = x % n
        total = 0
        for index, weight in enumerate(weights):
            total += weight
            if r < total:
                return index
        raise AssertionError("unreachable: r < sum(weights)")  # pragma: no cover
