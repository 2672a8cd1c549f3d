"""Reinforcements: the units a player may place (rules reference 96.2, 96.3; components
limitations, 23.4; data/components.toml; docs/rulings.md 27T-5).

Each player's colour of plastic comes with so many units of each type (``PLASTIC``); a unit
is on the board or in its player's reinforcements. An effect that places a unit "from your
reinforcements" (the Letnev mech's DEPLOY, Ipswitch Loose Cannon, Assimilate, Infiltrate)
places one only while one is there. Fighters and infantry have tokens standing for more of
them (36, 46), so they are never short. The scenario knows the player's units in this battle
only: those are on the board, the rest are taken to be in reinforcements."""

from __future__ import annotations

from functools import cache
from typing import TYPE_CHECKING

from pydantic import BaseModel, ConfigDict

from spacecombat.core.errors import RulesDataError
from spacecombat.core.rulesdata import load_toml
from spacecombat.rulesets.ti4.rules import PACKAGE, UNIT_TYPES

if TYPE_CHECKING:
    from spacecombat.rulesets.ti4.setup import BattleSetup
    from spacecombat.rulesets.ti4.sides import Side
    from spacecombat.rulesets.ti4.state import BattleState


class _Tokens(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)
    units: tuple[str, ...]


class _ComponentsFile(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)
    plastic: dict[str, int]
    tokens: _Tokens


@cache
def components() -> _ComponentsFile:
    """data/components.toml, read once; every unit type has its count."""
    read = load_toml(PACKAGE, "components.toml", _ComponentsFile)
    missing = [t for t in UNIT_TYPES if t not in read.plastic]
    if missing or any(t not in UNIT_TYPES for t in read.plastic):
        raise RulesDataError(f"data/components.toml: plastic must name each of {UNIT_TYPES}")
    return read


def plastic(unit_type: str) -> int | None:
    """How many units of ``unit_type`` a player has in all (``None``: not limited, tokens)."""
    read = components()
    return None if unit_type in read.tokens.units else read.plastic[unit_type]


def on_board(setup: BattleSetup, state: BattleState, side: Side, unit_type: str) -> int:
    """``side``'s units of ``unit_type`` in this battle (space area and planets, any
    condition; a unit that is of that type by its card counts: ``SideSetup.count_of``)."""
    cards = setup.side(side)
    forces = state.side(side)
    return cards.count_of(forces.space, unit_type) + sum(
        cards.count_of(planet, unit_type) for planet in forces.planets
    )


def in_reinforcements(
    setup: BattleSetup, state: BattleState, side: Side, unit_type: str
) -> int | None:
    """How many units of ``unit_type`` ``side`` can place now: its plastic less those in this
    battle (``None``: not limited)."""
    total = plastic(unit_type)
    if total is None:
        return None
    return max(0, total - on_board(setup, state, side, unit_type))
