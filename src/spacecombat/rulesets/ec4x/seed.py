"""EC4X's seed (7.3.2.5): "Use PRNG seeded with SHA-256 hash of string "{gameId}-{turnNumber}"
modulo 2^32. Alternatively, custom seed can be specified for testing or alternate outcomes."

The digest's 32 bytes are read as one unsigned big-endian integer and reduced modulo 2^32 (so
the seed is the digest's last four bytes, big-endian). The generator it starts is SplitMix64
(``core/prng.py``); docs/ec4x.md gives the order of the draws.
"""

from __future__ import annotations

import hashlib
from typing import Protocol

#: 7.3.2.5: "modulo 2^32"
MODULUS = 2**32


class Seeded(Protocol):
    """What the seed is read from: an EC4X scenario's ``game_id``, ``turn`` and ``seed``."""

    @property
    def game_id(self) -> str: ...

    @property
    def turn(self) -> int: ...

    @property
    def seed(self) -> int | None: ...


def ec4x_seed(game_id: str, turn: int) -> int:
    """SHA-256 of the UTF-8 string ``"{game_id}-{turn}"``, read big-endian, modulo 2^32."""
    digest = hashlib.sha256(f"{game_id}-{turn}".encode()).digest()
    return int.from_bytes(digest, "big") % MODULUS


def scenario_seed(scenario: Seeded) -> int:
    """The scenario's own ``seed`` if it has one, else the seed of its game and turn."""
    if scenario.seed is not None:
        return scenario.seed
    return ec4x_seed(scenario.game_id, scenario.turn)


#: the log's ``seed_source`` when the seed was given to the resolver (``--seed``)
GIVEN = "given seed"
#: ... when it is the scenario's own ``seed``
SCENARIO = "scenario seed"


def game_source(scenario: Seeded) -> str:
    """The ``seed_source`` of a seed made from the game and turn."""
    return f'SHA-256 of "{scenario.game_id}-{scenario.turn}" modulo 2^32'


def own_source(scenario: Seeded) -> str:
    """Where the seed a scenario fixes for itself comes from (``scenario_seed``)."""
    return SCENARIO if scenario.seed is not None else game_source(scenario)


def sources(scenario: Seeded, seed: int | None) -> tuple[str, ...]:
    """Every ``seed_source`` a log of this scenario may truly have with ``seed`` (``None``: a
    log whose seed was removed, replayed from its logged draws: any source it could have
    had)."""
    if seed is None:
        return (GIVEN, own_source(scenario))
    if seed == scenario_seed(scenario):
        return (GIVEN, own_source(scenario))
    return (GIVEN,)
