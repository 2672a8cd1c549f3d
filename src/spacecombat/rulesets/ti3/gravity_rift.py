"""A TI3 battle in a gravity rift (Shards of the Throne special system; docs/rulings.md 27Z-7,
27M-3, 27Q-2 to 27Q-6).

No source gives the gravity rift an effect on combat rolls: what it does, it does to ships
moving out of it (PC_Twi ``e_GravityRift``: a die for each unit with a move value leaving,
lost on 1-5; option ``gravity_rift_destroyed_at_most``). In a battle that is a withdrawal or a
retreat (ti3-facts.md section 6; Skilled Retreat, the Naalu's retreat, Rule of Terror), always
to an adjacent system (``system.adjacent``), rolled by procedures/leaving_rift.py. A battle
where no ship can leave (an invasion, a space battle with no adjacent system, Code of Honor in
force: 27Z-9) is fought as in an empty system. The units a fleet carries out of the rift
(fighters, ground forces in the space area) are carried by its ships: with the option
``gravity_rift_cargo: aboard`` (the default) each rides one ship its owner names and is lost
with it; with ``capacity`` what the ships that got away cannot carry is lost (27Q-3)."""

from __future__ import annotations

from typing import Protocol

ANOMALY = "gravity_rift"

#: Advanced Fighters: fighters move on their own (data/technologies.toml; PC_Twi
#: ``e_AdvancedFighters`` gives each fighter a move value of 2, so each rolls: 27Q-4)
ADVANCED_FIGHTERS = "advanced_fighters"


class _Move(Protocol):
    @property
    def move(self) -> int | None: ...


class _Cards(Protocol):
    def card(self, unit: str) -> _Move: ...

    def has(self, handler: str) -> bool: ...


def flies(cards: _Cards, unit: str) -> bool:
    """Whether ``unit`` moves out of the rift on its own, and so rolls (27M-3, 27Q-4): a unit
    with a move value, or a fighter when its owner has Advanced Fighters. The others (fighters
    without it, ground forces) are carried."""
    return cards.card(unit).move is not None or (unit == "fighter" and cards.has(ADVANCED_FIGHTERS))
