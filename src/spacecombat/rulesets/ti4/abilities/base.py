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
- ``after_assign_hits``: after a player assigns hits in a combat round (may ask a decision);
- ``combat_roll``: change ``roller``'s combat roll (its dice groups) from what the state shows
  (a card played this round, a flagship in the fight, the opponent's ships); ``roll_key`` says
  what of the state it reads, so that pools are remembered correctly.

Cards and leaders a player holds (data/cards.toml) are handlers too: ``Card`` below. Playing
one is a decision of its holder (``offer``), answered by the same policies as any other.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable
from enum import StrEnum
from typing import TYPE_CHECKING, ClassVar

from spacecombat.core.decisions import DecisionRequest, Option
from spacecombat.core.engine import Decision, Step
from spacecombat.core.events import Event, event
from spacecombat.rulesets.ti4.sides import Side

if TYPE_CHECKING:
    from spacecombat.core.engine import Node
    from spacecombat.core.pool import DiceGroup
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

    def roll_key(self, setup: BattleSetup, state: BattleState, roller: Side) -> Hashable:
        """What of ``state`` ``combat_roll`` reads for ``roller`` (with the roller's units, it
        keys the remembered pool); a handler that overrides ``combat_roll`` overrides this."""
        return None

    def combat_roll(
        self,
        setup: BattleSetup,
        state: BattleState,
        roller: Side,
        groups: tuple[DiceGroup, ...],
    ) -> tuple[DiceGroup, ...]:
        """``roller``'s combat roll (dice groups by unit type), changed by this handler."""
        return groups


    # Hooks added for issue 14 go below, each group after its own marker (the procedures that
    # call them say where): keep one hook per question, with its default "no effect".

    # --- hooks: hit assignment and SUSTAIN DAMAGE ---

    # --- hooks: combat rounds and timing windows ---

    # --- hooks: dice, rerolls and roll modifiers ---

    # --- hooks: space cannon and anti-fighter barrage ---

    # --- hooks: invasion, bombardment and ground combat ---


class Card(Handler):
    """A card or leader held by ``owner`` (data/cards.toml ``id``): played (or exhausted, or
    purged) at most once a battle unless a subclass says otherwise, by its holder's decision.

    ``offer`` asks the holder whether to play it now; the stock policy plays it (its
    ``policy.play`` may say ``never`` or name the round), and ``--ask`` asks a person."""

    #: the card's id in data/cards.toml (also the key of ``policy.play``)
    card: ClassVar[str]

    def held(self, state: BattleState) -> bool:
        """Whether the owner still holds the card (it has not been played yet)."""
        assert self.owner is not None
        return not state.has_used(self.owner, self.card)

    def offer(
        self,
        state: BattleState,
        prompt: str,
        play: Callable[[BattleState], Step[BattleState]],
        *,
        facts: dict[str, object] | None = None,
    ) -> Decision[BattleState]:
        """Ask the owner whether to play the card now: ``play the card`` (the card is then
        used, and ``play`` gives what it does) or ``pass``."""
        assert self.owner is not None
        owner = self.owner
        options = (Option(f"play {self.card}", "play", target=self.card), Option("pass", "pass"))
        request = DecisionRequest(
            "play_card",
            owner.value,
            prompt,
            options,
            facts={"card": self.card, "round": state.round, **(facts or {})},
        )

        def then(option: Option) -> Step[BattleState]:
            if option.action != "play":
                return Step(state)
            done = play(state.using(owner, self.card))
            played = card_played(owner, self.card, state.round)
            return Step(done.state, (played, *done.events))

        return Decision(request, then)


def card_played(owner: Side, card: str, round_number: int) -> Event:
    """The ``card_played`` event."""
    return event("card_played", player=owner.value, card=card, round=round_number)


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
        or cls.combat_roll is not Handler.combat_roll
    )


def changes_combat_rolls(handler: Handler) -> bool:
    """Whether a handler changes combat rolls from what the state shows (``combat_roll``)."""
    return type(handler).combat_roll is not Handler.combat_roll


def acts_in_windows(handler: Handler) -> bool:
    """Whether a handler may act in the timing windows of a combat (``in_window``)."""
    return type(handler).in_window is not Handler.in_window
