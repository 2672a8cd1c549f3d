"""The hooks of TI4 effects, declared once: the timing windows, and for every question the
procedures ask the handlers in play (abilities/base.py ``Handler``), who asks it and whether
it is asked during the combat rounds.

This module is a leaf (it imports nothing of the ruleset), so that the procedures, the ability
handlers and the odds engine's fast-path gate all read the same table:

- ``Handler`` (abilities/base.py) defines one no-effect default per entry of ``HOOKS``, and no
  other hook: the import of that module fails if the two differ (``check_declared``);
- the exact engine's fast path (rounds in product form, rulesets/ti4/rounds.py) is refused to
  a battle with a handler that overrides a hook declared ``in_rounds``
  (abilities/base.py ``acts_in_rounds``); no list of hooks is kept anywhere else;
- docs/effects.md's hook section is written from this table (tools/effects_doc.py).

It also holds the queue's record (``FollowUp``): what the handlers are still to hear of, in
order (state.py ``BattleState.following``), each entry naming the hook it is heard through.

``in_rounds`` is true for a hook through which a handler may change what happens during the
combat rounds beyond taking units away by hits: the product form solves a round as two
independent per-player steps from the units alone, which such a handler breaks. A hook read
from the battle's set-up alone (a modifier, a permission) or asked only before the rounds
(space cannon offense, anti-fighter barrage, bombardment) or after them (the end of combat,
a retreat) is not. tests/ti4/test_fast_path_guard.py checks the table both ways: every effect
the fast path accepts gives the state graph's answer on generated battles, and dropping any
``in_rounds`` flag makes that check fail.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from spacecombat.core.pool import HashedOnce
from spacecombat.rulesets.ti4.sides import Side


class Window(StrEnum):
    """The timing windows of a combat (ti4-space-combat.md rules 2.1 and 9.1;
    ti4-ground-combat.md rules 4.1, 4.2 and notes 1, 2): a handler declares those it acts in
    (``Handler.windows``), and ``in_window`` is asked there only (procedures/windows.py)."""

    START_OF_COMBAT = "start_of_combat"
    START_OF_COMBAT_ROUND = "start_of_combat_round"
    END_OF_COMBAT_ROUND = "end_of_combat_round"
    END_OF_COMBAT = "end_of_combat"
    #: after both players' combat rolls of a round (the Roll Dice step), before hits are
    #: assigned: opened only if a handler in play acts there
    AFTER_ROLL_DICE = "after_roll_dice"
    #: the start of the Announce Retreats step, before the defender announces (Rout), and
    #: right after a player announced a retreat (Intercept): opened only if a handler in play
    #: acts there
    ANNOUNCE_RETREATS = "announce_retreats"
    RETREAT_ANNOUNCED = "retreat_announced"


#: the windows of the combat rounds' own steps, opened only when a handler in play acts there
OPENED_ON_DEMAND = frozenset(
    {Window.AFTER_ROLL_DICE, Window.ANNOUNCE_RETREATS, Window.RETREAT_ANNOUNCED}
)


@dataclass(frozen=True)
class Hook:
    """One question the procedures ask each handler in play."""

    name: str
    #: the modules (under rulesets/ti4/) that ask it
    asked_by: tuple[str, ...]
    #: whether a handler answering it may change the combat rounds (see the module docstring)
    in_rounds: bool
    #: the group of hooks it belongs to (the sections of ``Handler`` and of docs/effects.md)
    group: str
    #: a hook this one is only ever answered together with (it says more about that one's
    #: answer): a handler class answering it without that hook is an error at its definition
    #: (abilities/base.py ``Handler.__init_subclass__``), so its own ``in_rounds`` flag need
    #: not repeat that hook's
    companion_of: str | None = None


_SETUP = "set-up and the battle's facts"
_ASSIGN = "hit assignment and SUSTAIN DAMAGE"
_ROUNDS = "combat rounds and timing windows"
_DICE = "dice, rerolls and roll modifiers"
_ABILITY = "space cannon, anti-fighter barrage and other unit-ability rolls"
_INVASION = "invasion, bombardment and ground combat"
_CHANGED = "units that change for a combat"
_BUILD = "set-up: before the battle"

#: every hook, in the order of ``Handler``'s sections
HOOKS: tuple[Hook, ...] = (
    # set-up and the battle's facts: read from the set-up alone
    Hook("refusal", ("setup/building.py", "battle.py", "rounds.py"), False, _SETUP),
    Hook("roll_modifier", ("setup/building.py",), False, _SETUP),
    Hook("sustain_cancels", ("setup/building.py", "abilities/sustain_damage.py"), False, _SETUP),
    Hook("permits_anomaly", ("setup/validate.py", "effects.py"), False, _SETUP),
    Hook("permits_system_without_presence", ("effects.py",), False, _SETUP),
    Hook("exempt_from_capacity", ("procedures/capacity.py",), False, _SETUP),
    Hook("gives_bombardment", ("setup/building.py",), False, _SETUP),
    # hit assignment and SUSTAIN DAMAGE: asked at every assignment of hits, the rounds' too
    Hook(
        "forbids_sustain",
        ("procedures/assign_hits.py", "procedures/windows.py", "procedures/invasion.py"),
        True,
        _ASSIGN,
    ),
    Hook("lends_sustain", ("procedures/assign_hits.py",), True, _ASSIGN),
    Hook(
        "reads_while_assigning",
        ("procedures/assign_hits.py",),
        False,
        _ASSIGN,
        companion_of="before_assign_hits",
    ),
    Hook("before_assign_hits", ("procedures/assign_hits.py", "effects.py"), True, _ASSIGN),
    Hook("idle_while_assigning", ("procedures/assign_hits.py",), False, _ASSIGN),
    Hook("blind_while_assigning", ("procedures/assign_hits.py",), False, _ASSIGN),
    Hook("paired_while_assigning", ("procedures/assign_hits.py",), False, _ASSIGN),
    Hook("places_while_assigning", ("procedures/assign_hits.py",), False, _ASSIGN),
    Hook(
        "after_sustain",
        ("procedures/assign_hits.py", "procedures/windows.py", "effects.py"),
        True,
        _ASSIGN,
    ),
    Hook(
        "after_destroyed",
        ("procedures/assign_hits.py", "effects.py"),
        True,
        _ASSIGN,
    ),
    Hook(
        "follow_up",
        ("effects.py",),
        True,
        _ASSIGN,
    ),
    Hook(
        "replaces_hits",
        ("procedures/replaced_hits.py",),
        False,
        _ASSIGN,
        companion_of="follow_up",
    ),
    Hook(
        "queued_alike",
        ("procedures/queued_alike.py",),
        False,
        _ASSIGN,
        companion_of="follow_up",
    ),
    Hook("aims_combat_hits", ("effects.py",), True, _ASSIGN),
    Hook("aims_ability_hits", ("effects.py",), False, _ASSIGN),
    # combat rounds and timing windows
    Hook("in_window", ("procedures/windows.py",), True, _ROUNDS),
    Hook("after_assign_hits", ("procedures/combat_round.py",), True, _ROUNDS),
    Hook("acts_first_in_window", ("procedures/windows.py",), False, _ROUNDS),
    # dice, rerolls and roll modifiers
    Hook("combat_roll", ("effects.py",), True, _DICE),
    Hook("roll_key", ("effects.py",), False, _DICE, companion_of="combat_roll"),
    Hook("sets_combat_dice", ("effects.py",), False, _DICE, companion_of="combat_roll"),
    Hook("keeps_rolls", ("procedures/combat_round.py",), False, _DICE, companion_of="in_window"),
    # unit-ability rolls: made before the rounds (space cannon offense, anti-fighter barrage)
    # or in an invasion's own steps
    Hook("forbids_unit_ability", ("abilities/space_cannon.py",), False, _ABILITY),
    Hook("cannon_groups", ("abilities/space_cannon.py",), False, _ABILITY),
    Hook("ability_dice", ("abilities/space_cannon.py",), False, _ABILITY),
    Hook(
        "before_ability_roll",
        (
            "procedures/space_cannon_offense.py",
            "procedures/space_combat.py",
            "procedures/invasion.py",
        ),
        False,
        _ABILITY,
    ),
    Hook(
        "ability_roll",
        (
            "effects.py",
            "procedures/invasion.py",
            "abilities/anti_fighter_barrage.py",
        ),
        False,
        _ABILITY,
    ),
    Hook("extra_ability_roll", ("procedures/space_cannon_offense.py",), False, _ABILITY),
    Hook("widens_barrage", ("procedures/space_combat.py",), False, _ABILITY),
    Hook(
        "after_ability_roll",
        ("procedures/space_cannon_offense.py", "procedures/space_combat.py"),
        False,
        _ABILITY,
    ),
    # invasion, bombardment and ground combat
    Hook("at_invasion_start", ("procedures/invasion.py",), False, _INVASION),
    Hook("bombardment_roll", ("abilities/bombardment.py",), False, _INVASION),
    Hook("forbids_bombardment", ("abilities/bombardment.py",), False, _INVASION),
    Hook("ignores_planetary_shield", ("abilities/planetary_shield.py",), False, _INVASION),
    Hook(
        "loses_ability",
        ("abilities/planetary_shield.py", "effects.py"),
        False,
        _INVASION,
    ),
    Hook("after_bombardment", ("procedures/invasion.py",), False, _INVASION),
    Hook("bombards_in_combat", ("procedures/invasion.py",), False, _INVASION),
    Hook("after_commit", ("procedures/invasion.py",), False, _INVASION),
    # between the ground combats of several planets, which the product form solves as one
    Hook("after_ground_combat", ("procedures/invasion.py",), True, _INVASION),
    Hook("before_establishing_control", ("procedures/invasion.py",), False, _INVASION),
    Hook("takes_structures", ("procedures/invasion.py",), False, _INVASION),
    # units that change for a combat: turned back once its result is decided
    Hook("at_end_of_combat", ("procedures/space_combat.py",), False, _CHANGED),
    Hook("before_retreat", ("procedures/retreat.py",), False, _CHANGED),
    # set-up: asked while the battle is built from the scenario, never of a state
    Hook("scenario_refusal", ("setup/building.py",), False, _BUILD),
    Hook("set_up_side", ("setup/building.py",), False, _BUILD),
    Hook("set_up_in_play", ("setup/building.py",), False, _BUILD),
    Hook("may_commit", ("setup/building.py",), False, _BUILD),
)

#: the hooks by name
BY_NAME: dict[str, Hook] = {hook.name: hook for hook in HOOKS}

#: the names of the hooks through which a handler acts during the combat rounds
IN_ROUNDS: frozenset[str] = frozenset(hook.name for hook in HOOKS if hook.in_rounds)


def missing_companions(answered: frozenset[str]) -> list[str]:
    """The hooks in ``answered`` (those a handler class answers) whose ``companion_of`` is not
    answered too, each as "HOOK without COMPANION"."""
    return [
        f"{hook.name} without {hook.companion_of}"
        for hook in HOOKS
        if hook.name in answered
        and hook.companion_of is not None
        and hook.companion_of not in answered
    ]


def check_declared(defined: frozenset[str]) -> None:
    """Raise ``TypeError`` unless ``defined`` (the hooks ``Handler`` defines) is exactly the set
    declared here: a hook added to one and not the other is an error at import."""
    declared = frozenset(BY_NAME)
    if defined != declared:
        extra = sorted(defined - declared)
        missing = sorted(declared - defined)
        raise TypeError(
            f"Handler's hooks differ from rulesets/ti4/hooks.py HOOKS: not declared {extra}, "
            f"declared but not defined {missing}"
        )


# --- the follow-up queue: what the handlers are still to hear of, in order (the state's
# ``following``), drained one entry at a time by effects.py ``follow_ups``


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

    @property
    def hook(self) -> str | None:
        """The hook the handlers in play are asked about such an entry with (``HOOKS``);
        ``None``: its player answers it (``MUST_DESTROY``)."""
        return _FOLLOW_HOOKS.get(self)


@dataclass(frozen=True, slots=True)
class FollowUp(HashedOnce):
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

    # the generated hash's value (of every field, in their order), kept once computed: an
    # entry of a state's queue is hashed at every lookup of the state (24AK-1)
    __hash__ = HashedOnce.__hash__

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


#: the hook each kind of entry is heard through
_FOLLOW_HOOKS: dict[Follow, str] = {
    Follow.DESTROYED: "after_destroyed",
    Follow.SUSTAINED: "after_sustain",
    Follow.BEFORE_ASSIGN: "before_assign_hits",
    Follow.OWN: "follow_up",
}
