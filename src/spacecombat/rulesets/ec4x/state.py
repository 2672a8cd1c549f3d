"""The state of an EC4X space battle: small, frozen and hashable (the exact engine's key).

Per combat unit (squadron, fighter squadron, starbase; ``setup.Unit``) its condition; per house
a few flags as bit masks; and where the process is (stage, round, attack step, cursor).

A named tuple, so that a changed copy (``at``), its hash and its comparison are cheap:
a battle makes one at every step of the rules.
"""

from __future__ import annotations

from enum import IntEnum
from typing import TYPE_CHECKING, Any, NamedTuple

if TYPE_CHECKING:
    from spacecombat.rulesets.ec4x.planetary.siege import Siege

#: 7.1.2 "either undamaged, crippled, or destroyed"; and units that left the fight
UNDAMAGED = 0
CRIPPLED = 1
DESTROYED = 2
#: retreated (7.3.5), keeping the condition it left in
GONE_UNDAMAGED = 3
GONE_CRIPPLED = 4
#: its fleet did not join the combat (7.3 engagement rules, 7.1.3 cloaked movement)
ABSENT = 5

IN_BATTLE = (UNDAMAGED, CRIPPLED)
CONDITION_NAMES = ("undamaged", "crippled", "destroyed", "undamaged", "crippled", "undamaged")


class Stage(IntEnum):
    """Where the battle is, in the order the rules take them."""

    MORALE = 0  # 7.1.4
    DETECTION = 1  # 7.1.3, 7.3.1.1 pre-combat detection
    ENGAGEMENT = 2  # 7.3 engagement rules, 7.2 task forces
    ROUND_START = 3  # 7.3.4
    ATTACK = 4  # 7.3.1 phases: selections
    DAMAGE = 5  # 7.3.1 simultaneous damage application, 7.3.3 restrictions
    FORCE_REDUCTION = 6  # 7.3.3 critical hits
    ROUND_END = 7  # 7.3.4 steps 1–3, termination
    ROE_CHECK = 8  # 7.3.4 step 4, 7.3.5
    OVER = 9  # 7.3.6
    PLANETARY = 10  # 7.5, 7.6: after space combat (planetary/chain.py)


class Morale(NamedTuple):
    """A house's morale this turn (7.1.4): what the rest of the battle reads of it. The d20
    itself is not kept (the ``morale_checked`` event reports it): no later step reads it, and
    keeping it would make each of the 20 rolls a state of its own for the exact engine, where
    only success or failure plays differently."""

    band: str
    all_cer: int
    boosted: int  # the unit with +one_squadron_cer, -1 none
    one_cer: int
    auto_critical: bool


class Attack(NamedTuple):
    """One attacker's selection in a damage step (7.3.1 "Target Selection")."""

    attacker: int
    target: int
    hits: int
    critical: bool
    #: the critical could not reduce its target (7.3.3 force reduction is due)
    force: bool = False


class State(NamedTuple):
    """One moment of the battle."""

    stage: Stage
    cond: tuple[int, ...]
    round: int = 0
    #: hits kept below DS (option damage_memory); () when hits are not kept
    damage: tuple[int, ...] = ()
    #: conditions at the round's start (option crippled_as_timing: end_of_round), else ()
    as_cond: tuple[int, ...] = ()
    morale: tuple[Morale, ...] = ()
    #: bit f: fleet f refuses orders and holds (7.1.4 crisis)
    refused: int = 0
    #: bit f: cloaked fleet f was detected (7.1.3)
    detected: int = 0
    #: bit g: group g (a fleet, or the colony as the last group) joined the combat
    joined: int = 0
    #: bit a*H+b: house a attacked house b in an earlier round (7.3.2.1 condition 4)
    engaged: int = 0
    #: the same for the round under way
    engaging: int = 0
    #: bit h: house h's Task Force retreated (7.3.5)
    retreated: int = 0
    #: bit h: house h's spacelift ships and scouts were destroyed (7.2)
    screened_lost: int = 0
    #: bit h: house h's spacelift ships left with its retreat (option spacelift_on_retreat)
    spacelift_left: int = 0
    #: bit f: fleet f stayed whole when its house retreated by a restricted lane (6.1, E41)
    stranded: int = 0
    #: bit h: house h's morale auto-critical is spent (7.1.4)
    auto_used: int = 0
    #: bit u: starbase u had a critical re-rolled (7.4, option starbase_critical_reroll)
    rerolled: int = 0
    #: the house that won initiative with every fleet undetected (7.1.3), -1 none
    initiative: int = -1
    #: the round's attack steps: (phase, CR tier) (7.3.1)
    steps: tuple[tuple[int, int], ...] = ()
    step: int = 0
    #: progress inside a stage (stage-specific)
    cursor: tuple[int, ...] = ()
    #: the current step's selections
    attacks: tuple[Attack, ...] = ()
    #: option cer_timing: round_start: each unit's natural CER die this round (-1 none)
    cer_rolls: tuple[int, ...] = ()
    #: houses that chose to retreat at this ROE check (bit h)
    retreating: int = 0
    #: "", "cancelled" (7.1.3), "cut_off" (option max_rounds)
    result: str = ""
    #: the planetary steps (7.5, 7.6): None until space combat is over or without them
    siege: Siege | None = None
    #: the siege under way: its index in the battle's siege plans (ruling G24), -1 none
    siege_plan: int = -1
    #: the sieges over, in the order they ended: (plan index, last state)
    sieges: tuple[tuple[int, Siege], ...] = ()

    def at(self, stage: Stage, **changes: Any) -> State:
        """The state moved to ``stage`` with ``changes`` (as ``_replace``, in fewer steps)."""
        values = list(self)
        values[0] = stage
        for name, value in changes.items():
            values[_FIELD[name]] = value
        return tuple.__new__(State, values)

    def with_cond(self, unit: int, condition: int) -> State:
        cond = self.cond
        return self.at(self.stage, cond=(*cond[:unit], condition, *cond[unit + 1 :]))


#: each field's position in ``State``
_FIELD = {name: index for index, name in enumerate(State._fields)}
