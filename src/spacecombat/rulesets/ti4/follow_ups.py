"""What handlers are still to hear of, in order: the ``following`` queue of a TI4 battle state
(state.py ``BattleState.following``), drained one entry at a time by effects.py ``follow_ups``.

A leaf module (it imports no procedure and no ability): the state, the procedures and the
handlers all name its records."""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from spacecombat.rulesets.ti4.sides import Side


class Follow(StrEnum):
    """What a queued entry is about, and so which handlers hear it."""

    #: a unit was destroyed (``Handler.after_destroyed``; docs/rulings.md 14B3-5)
    DESTROYED = "destroy"
    #: a unit used SUSTAIN DAMAGE (``Handler.after_sustain``: Direct Hit, Reflective Shielding)
    SUSTAINED = "sustain"
    #: a player is about to assign hits produced against it in a timing window
    #: (``Handler.before_assign_hits``: Shields Holding, Tellurian; docs/rulings.md 14H-6)
    BEFORE_ASSIGN = "before_assign"
    #: the player must destroy one of their ships, of their choice (Courageous to the End)
    MUST_DESTROY = "must_destroy"
    #: a handler goes on with its own effect (``Handler.follow_up``)
    OWN = "own"


@dataclass(frozen=True, slots=True)
class FollowUp:
    """One entry of the queue: what happened (``kind``), to whom (``player``), and the unit
    type or the handler's own detail; for ``OWN``, which handler (its id and owner) goes on;
    ``asked``: the handlers before this position in the setup's order have been asked about
    it."""

    kind: Follow
    player: Side
    detail: str = ""
    handler: str = ""
    owner: Side | None = None
    asked: int = 0

    @classmethod
    def destroyed(cls, player: Side, unit: str) -> FollowUp:
        """``player``'s unit of type ``unit`` was destroyed."""
        return cls(Follow.DESTROYED, player, unit)

    @classmethod
    def sustained(cls, player: Side, unit: str) -> FollowUp:
        """``player``'s unit of type ``unit`` used SUSTAIN DAMAGE."""
        return cls(Follow.SUSTAINED, player, unit)

    @classmethod
    def before_assign(cls, player: Side) -> FollowUp:
        """``player`` is about to assign hits produced against it in a timing window."""
        return cls(Follow.BEFORE_ASSIGN, player)

    @classmethod
    def must_destroy(cls, player: Side, cause: str) -> FollowUp:
        """``player`` must destroy one of their ships (``cause`` says why)."""
        return cls(Follow.MUST_DESTROY, player, cause)

    @classmethod
    def own(
        cls, handler: str, owner: Side, detail: str = "", player: Side | None = None
    ) -> FollowUp:
        """The handler ``handler`` held by ``owner`` goes on with its effect, told ``player`` (its
        owner unless said) and ``detail`` (``Handler.follow_up``)."""
        return cls(Follow.OWN, owner if player is None else player, detail, handler, owner)
