"""The two sides of a TI4 battle and what each brings: unit cards, abilities, policy."""

from __future__ import annotations

from enum import StrEnum


class Side(StrEnum):
    """A player in the battle; the active player is the attacker."""

    ATTACKER = "attacker"
    DEFENDER = "defender"

    @property
    def other(self) -> Side:
        return Side.DEFENDER if self is Side.ATTACKER else Side.ATTACKER


SIDES = (Side.ATTACKER, Side.DEFENDER)
