"""Ability handlers: one small class per ability, acting in named timing windows.

The procedures ask the handlers in play at fixed points ("windows"). A handler overrides only
the windows it acts in; the others answer "no effect". Handlers are consulted in one documented
total order (docs/architecture.md): the system's and the laws' handlers first, then the
attacker's, then the defender's; within a player, faction abilities, then technologies, then
unit abilities, each in the order of the data files.

Handlers are pure: they say what happens only through what they return (a modifier, a
node), never by changing anything, because the exact engine and the stalemate check run them
on states the battle may never reach.

Windows and questions:

- ``roll_modifier``: added to each die of a roll (combat, anti-fighter barrage, space cannon,
  bombardment) of ``roller``'s ``unit``;
- ``sustain_cancels``: how many hits one use of SUSTAIN DAMAGE cancels for ``side``;
- ``permits_anomaly`` / ``permits_system_without_presence``: retreat eligibility (and, for
  ``permits_anomaly``, whether the attacker could enter the active system);
- ``in_window``: in the timing windows "start of combat", "start of combat round", "end of
  combat round", "end of combat" (may ask a decision);
- ``after_assign_hits``: after a player assigns hits in a combat round (may ask a decision).
"""

from __future__ import annotations

from enum import StrEnum
from typing import TYPE_CHECKING, ClassVar

from spacecombat.rulesets.ti4.sides import Side

if TYPE_CHECKING:
    from spacecombat.core.engine import Node
    from spacecombat.rulesets.ti4.setup import BattleSetup
    from spacecombat.rulesets.ti4.state import BattleState


class Roll(StrEnum):
    """The kinds of roll a modifier may apply to."""

    SPACE_COMBAT = "space_combat"
    GROUND_COMBAT = "ground_combat"
    ANTI_FIGHTER_BARRAGE = "anti_fighter_barrage"
    SPACE_CANNON_OFFENSE = "space_cannon_offense"
    SPACE_CANNON_DEFENSE = "space_cannon_defense"
    BOMBARDMENT = "bombardment"

    @property
    def is_combat_roll(self) -> bool:
        """Combat rolls are the rolls of combat rounds, not unit-ability rolls."""
        return self in (Roll.SPACE_COMBAT, Roll.GROUND_COMBAT)

    @property
    def is_space_cannon(self) -> bool:
        return self in (Roll.SPACE_CANNON_OFFENSE, Roll.SPACE_CANNON_DEFENSE)


class Handler:
    """An ability in play. ``owner`` is the player who has it (``None``: the system or a law)."""

    id: ClassVar[str]

    def __init__(self, owner: Side | None) -> None:
        self.owner = owner

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self.owner!r})"

    def roll_modifier(self, setup: BattleSetup, roller: Side, roll: Roll, unit: str) -> int:
        """Added to each die ``roller`` rolls for ``unit`` in ``roll``."""
        return 0

    def sustain_cancels(self, side: Side) -> int | None:
        """How many hits one SUSTAIN DAMAGE of ``side`` cancels, or ``None`` for no say."""
        return None

    def permits_anomaly(self, retreater: Side, anomaly: str) -> bool:
        """Whether ``retreater``'s ships may move, and so retreat, into a system with
        ``anomaly`` (also asked of the attacker for the active system: docs/rulings.md R32)."""
        return False

    def permits_system_without_presence(self, retreater: Side) -> bool:
        """Whether ``retreater`` may retreat where it has no units and controls no planet."""
        return False

    def in_window(
        self, setup: BattleSetup, state: BattleState, windows: frozenset[str]
    ) -> Node[BattleState] | None:
        """Act in a timing window (``windows`` holds the names of the windows that share this
        moment, e.g. start of combat and start of combat round); ``None``: nothing to do."""
        return None

    def after_assign_hits(
        self, setup: BattleSetup, state: BattleState, side: Side
    ) -> Node[BattleState] | None:
        """Act after ``side`` assigned hits in a combat round; ``None``: nothing to do."""
        return None


HANDLERS: dict[str, type[Handler]] = {}


def register(cls: type[Handler]) -> type[Handler]:
    """Class decorator: make a handler available under its ``id``."""
    if cls.id in HANDLERS:
        raise ValueError(f"two handlers named {cls.id!r}")
    HANDLERS[cls.id] = cls
    return cls


def acts_in_rounds(handler: Handler) -> bool:
    """Whether a handler may change units during combat rounds (a timing window, or after hits
    are assigned, as Duranium Armor repairs); without such handlers hits only ever take units
    away."""
    cls = type(handler)
    return (
        cls.after_assign_hits is not Handler.after_assign_hits
        or cls.in_window is not Handler.in_window
    )


def acts_in_windows(handler: Handler) -> bool:
    """Whether a handler may act in the timing windows of a combat (``in_window``)."""
    return type(handler).in_window is not Handler.in_window
