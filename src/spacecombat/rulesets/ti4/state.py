"""TI4 battle states: small frozen values, the keys of the exact odds engine."""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from typing import NamedTuple

from spacecombat.core import state as copies
from spacecombat.core.forces import Forces, Status
from spacecombat.core.pool import DiceGroup, HashedOnce
from spacecombat.core.sides import Side, SideState
from spacecombat.rulesets.ti4.hooks import FollowUp, Window

#: a player with no units, in space and on no planet (``BattleState.without_part``)
NOBODY = SideState(Forces(), ())

#: no units (Forces is immutable, so one shared empty value is safe as a default)
NO_UNITS = Forces()


class Phase(StrEnum):
    """Where the battle stands: each value names a step of a rules procedure."""

    # LRR 16.3 note 1: capacity is met before space cannon offense (docs/rulings.md R31)
    CAPACITY_BEFORE_BATTLE = "capacity_before_battle"
    # ti4-space-combat.md: space cannon offense precedes space combat (tactical action)
    SPACE_CANNON_OFFENSE = "space_cannon_offense"
    SPACE_CANNON_OFFENSE_HITS = "space_cannon_offense_hits"
    # space combat, step by step
    START_OF_COMBAT = "start_of_combat"
    ANTI_FIGHTER_BARRAGE = "anti_fighter_barrage"
    ANTI_FIGHTER_BARRAGE_HITS = "anti_fighter_barrage_hits"
    ANNOUNCE_RETREATS = "announce_retreats"
    ROLL_DICE = "roll_dice"
    ASSIGN_HITS = "assign_hits"
    AFTER_ASSIGN_HITS = "after_assign_hits"
    RETREAT = "retreat"
    END_OF_ROUND = "end_of_round"
    BEGIN_ROUND = "begin_round"
    END_OF_COMBAT = "end_of_combat"
    # invasion
    BOMBARDMENT = "bombardment"
    BOMBARDMENT_HITS = "bombardment_hits"
    COMMIT_GROUND_FORCES = "commit_ground_forces"
    SPACE_CANNON_DEFENSE = "space_cannon_defense"
    SPACE_CANNON_DEFENSE_HITS = "space_cannon_defense_hits"
    TIMING_WINDOW = "timing_window"
    ORDER_PLANETS = "order_planets"
    GROUND_COMBAT = "ground_combat"
    GROUND_COMBAT_ENDS = "ground_combat_ends"
    ESTABLISH_CONTROL = "establish_control"
    OVER = "over"


@dataclass(frozen=True, slots=True)
class Retreat:
    """A retreat being carried out (step 5), or done."""

    side: Side
    destination: str | None = None
    #: still choosing what to carry
    loading: bool = False
    #: fighters and ground forces from the space area being carried
    carried: Forces = NO_UNITS
    #: ground forces taken along from planets in the active system
    from_planet: Forces = NO_UNITS
    #: ships that got away (gravity rift: those that survived their roll); when done, all units
    arrived: Forces = NO_UNITS
    #: gravity rift: each retreating ship with what it carries, (type, status, cargo);
    #: ``None`` until the cargo is stowed
    holds: tuple[tuple[str, Status, Forces], ...] | None = None
    #: gravity rift: how many groups of identical holds have rolled to leave
    rolled: int = 0
    done: bool = False


class Mark(StrEnum):
    """Where a procedure stands for a player, kept on that player (``BattleState.marks``), some
    with a count: not effects acting for the round (those are ``boosts``), but cleared with
    them when the round ends."""

    #: the defender's "announce_retreats" window has opened (procedures/space_combat.py)
    ANNOUNCE_WINDOW_OPENED = "announce_retreats_window"
    #: the player's retreat was intercepted: it cannot retreat this round (Intercept)
    INTERCEPTED = "intercepted"
    #: the defender played Rout: the attacker must announce a retreat
    ROUTED = "rout"
    #: the retreat under way is made by Skilled Retreat (effects.py ``skilled_retreat``)
    SKILLED_RETREAT = "skilled_retreat"
    #: the hits of the player's extra space cannon roll, made before the active player's, are
    #: being assigned (effects.py ``extra_cannon_roll``)
    EXTRA_SPACE_CANNON = "extra_space_cannon"
    #: the player's SPACE CANNON or BOMBARDMENT roll is made, its hits set on the opponent,
    #: while the handlers acting after it are asked (procedures/space_cannon_offense.py)
    ABILITY_ROLLED = "ability_rolled"
    #: likewise, its ANTI-FIGHTER BARRAGE roll, and how many marks the roll produced
    #: (procedures/space_combat.py)
    BARRAGE_ROLLED = "anti_fighter_barrage_rolled"
    BARRAGE_MARKS = "anti_fighter_barrage_marks"
    #: a handler had the player roll the same unit-ability dice again (Scramble Frequency)
    REROLL = "reroll"
    #: how many of the hits against the player are free: the others must go to non-fighter
    #: ships if able (effects.py ``aiming``)
    FREE_HITS = "free_hits"
    #: the defender's infantry on the planet before a bombardment's hits are assigned, on the
    #: attacker (kept only while a handler acts after bombardment; procedures/invasion.py)
    INFANTRY_BEFORE_BOMBARDMENT = "infantry_before_bombardment"
    #: hits produced against the player during the anti-fighter barrage step by an effect
    #: (Reflective Shielding), with their count: assigned once the barrage hits are, and the
    #: player assigning them (procedures/space_combat.py; docs/rulings.md 27T-7)
    PRODUCED_IN_BARRAGE = "hits_produced_in_barrage"
    ASSIGNING_PRODUCED = "assigning_hits_produced_in_barrage"
    #: a bombardment of several planets made as one roll (``BattleState.bombarded``): its
    #: stage, on the attacker: rolled once (0), rolled again (1), its hits being assigned (2)
    JOINT_BOMBARDMENT = "joint_bombardment"


#: one player's marks: (mark, count; 0 for a mark without one)
Marks = frozenset[tuple[Mark, int]]
NO_MARKS: Marks = frozenset()


@dataclass(frozen=True, slots=True)
class Aim(HashedOnce):
    """Hits produced in a timing window (Ambush, Dimensional Splicer), still to assign: what
    produced them (``cause``; empty: none are), and which units they may reach: any ship, a
    non-fighter ship if able (``non_fighter``), or the one unit, (type, status), their producer
    chose (``unit``; docs/rulings.md 14H-1). effects.py ``aimed_hits``."""

    cause: str = ""
    non_fighter: bool = False
    unit: tuple[str, Status] | None = None

    # the generated hash's value, kept once computed: every state holds an aim (most
    # ``NO_AIM``), hashed at each lookup of the state (24AK-1)
    __hash__ = HashedOnce.__hash__

    @property
    def restricted(self) -> bool:
        """Whether the hits reach only some ships."""
        return self.non_fighter or self.unit is not None


#: no hits of a timing window to assign
NO_AIM = Aim()


@dataclass(frozen=True, slots=True)
class Discarded:
    """The ``used`` mark of a card that was played and cancelled (the Empyrean mech): its holder
    no longer has it, but its effect never happened (``has_used(side, card)`` stays false, so
    effects that read it as "played" do not act)."""

    card: str


#: one player's combat roll, group by group: (the group, the hits it produced)
RolledHits = tuple[tuple[DiceGroup, int], ...]


class Pending(NamedTuple):
    """An action card a player chose to play that may still be cancelled (the Empyrean mech,
    abilities/empyrean_mech_cancel_action_card.py): who plays it, which card, the option chosen
    (``play CARD`` or ``play CARD: WAY``), and the state in which it was offered, to which the
    battle returns once the opponent has decided."""

    player: Side
    card: str
    play: str
    before: BattleState


class BattleState(NamedTuple):
    """A TI4 battle between two players at one point of a procedure.

    A named tuple rather than a dataclass: states are copied at every step and are the exact
    engine's keys, and tuples copy and hash several times faster."""

    phase: Phase
    attacker: SideState
    defender: SideState
    #: combat round (0 before the first round)
    round: int = 0
    #: which player acts next within the phase (rolls, assigns, announces)
    turn: Side = Side.ATTACKER
    #: hits produced against (attacker's units, defender's units), not yet assigned
    hits: tuple[int, int] = (0, 0)
    #: retreats announced this round (attacker, defender)
    announced: tuple[bool, bool] = (False, False)
    #: position in the current window's list of handlers or units
    cursor: int = 0
    #: invasion: the planet being acted on, and the planets still to fight over, in order
    planet: int = 0
    order: tuple[int, ...] = ()
    retreat: Retreat | None = None
    #: invasion: rounds of ground combat fought on each planet
    ground_rounds: tuple[int, ...] = ()
    #: the space combat's result, decided when it ends, before capacity is checked (note 13)
    result: str = ""
    #: timing windows still to open (each a group of windows sharing one moment; see
    #: procedures/windows.py), and the phase that follows them
    windows: tuple[tuple[Window, ...], ...] = ()
    then: Phase | None = None
    #: cards and leaders each player (attacker, defender) has played, exhausted or purged, and
    #: exhaustible technologies exhausted (ids; data/cards.toml, technologies.toml), and the
    #: action cards played and cancelled (``Discarded``)
    used: tuple[frozenset[str | Discarded], frozenset[str | Discarded]] = (frozenset(), frozenset())
    #: effects acting for the rest of this combat round (a card played at its start, say),
    #: each player's; cleared when the round ends
    boosts: tuple[frozenset[str], frozenset[str]] = (frozenset(), frozenset())
    #: where the procedures stand for each player (``Mark``); cleared when the round ends
    marks: tuple[Marks, Marks] = (NO_MARKS, NO_MARKS)
    #: what each player still may spend: (trade goods, influence)
    purse: tuple[tuple[int, int], tuple[int, int]] = ((0, 0), (0, 0))
    #: the assignment of hits under way (procedures/assign_hits.py): the unit types of the
    #: assigning player that used SUSTAIN DAMAGE in it, in order, kept only when a handler acts
    #: after SUSTAIN DAMAGE; and what just happened that handlers are still to be asked about,
    #: in order (hooks.py ``FollowUp``: a unit destroyed or that used SUSTAIN DAMAGE, a
    #: player about to assign a window's hits, a ship its player must destroy, a handler's own
    #: follow-up), each keeping how far the handlers have been asked; drained by effects.py
    #: ``follow_ups``
    sustained: tuple[str, ...] = ()
    following: tuple[FollowUp, ...] = ()
    #: hits produced in a timing window still to assign, and which units they may reach
    #: (``Aim``; procedures/windows.py)
    aim: Aim = NO_AIM
    #: technologies each player (attacker, defender) gained during this battle (Technological
    #: Singularity, Reveal Prototype): technology ids, and ``upgrade:UNIT`` for a unit upgrade.
    #: Each procedure reads the battle's facts as they stand with these (``BattleSetup.having``).
    gained: tuple[frozenset[str], frozenset[str]] = (frozenset(), frozenset())
    #: each player's (attacker, defender) combat roll of this Roll Dice step, group by group:
    #: (the group, its hits), in rolling order; kept only while a handler needs it
    #: (``Handler.keeps_rolls``: War Funding Ω reads its holder's after both players rolled;
    #: empty for a player whose roll is not kept), cleared when hits are assigned
    rolls: tuple[RolledHits, RolledHits] = ((), ())
    #: an action card played that the opponent may still cancel (``Pending``): the battle's
    #: next node is the opponent's decision (battle.py ``Ti4Battle.advance``); and a card
    #: play allowed to resolve, (player, card, option chosen): its handler, asked again in
    #: the state it was offered in, resolves that option without asking (abilities/base.py)
    pending: Pending | None = None
    granted: tuple[Side, str, str] | None = None
    #: invasion step 1, when units bombard several planets and a handler acts after the roll
    #: (Scramble Frequency): the hits rolled at each planet so far, in planet order, the whole
    #: bombardment roll being made before any hit is assigned (procedures/invasion.py
    #: ``joint_bombardment``; docs/rulings.md 27T-10); empty otherwise
    bombarded: tuple[int, ...] = ()

    def side(self, side: Side) -> SideState:
        return self.attacker if side is _ATTACKER else self.defender

    # Copies: core/state.py builds them directly (a named tuple cannot inherit them).

    def with_side(self, side: Side, value: SideState) -> BattleState:
        return copies.with_side(self, side, value)

    def with_units_and_hits(
        self, side: Side, where: int | None, forces: Forces, hits: int
    ) -> BattleState:
        """``side``'s units in an area replaced and the hits against it set, in one copy."""
        return copies.with_units_and_hits(self, _HITS, side, where, forces, hits)

    def with_hits_on(self, side: Side, hits: int) -> BattleState:
        return copies.with_hits_on(self, _HITS, side, hits)

    def at(self, phase: Phase, **changes: object) -> BattleState:
        """This state moved to ``phase`` (with other fields changed)."""
        return copies.at(self, phase, _FIELD, changes)

    def changed(self, **changes: object) -> BattleState:
        """This state with some fields changed (``_replace``, faster)."""
        return copies.changed(self, _FIELD, changes)

    def hits_on(self, side: Side) -> int:
        """Hits produced against ``side``'s units and not yet assigned."""
        return self.hits[0] if side is _ATTACKER else self.hits[1]

    def has_announced(self, side: Side) -> bool:
        return self.announced[0] if side is _ATTACKER else self.announced[1]

    def has_used(self, side: Side, ident: str | Discarded) -> bool:
        """Whether ``side`` has played, exhausted or purged ``ident`` in this battle."""
        return ident in self.used[0 if side is _ATTACKER else 1]

    def using(self, side: Side, ident: str | Discarded) -> BattleState:
        """This state with ``ident`` played, exhausted or purged by ``side``."""
        a, d = self.used
        if side is _ATTACKER:
            return self.changed(used=(a | {ident}, d))
        return self.changed(used=(a, d | {ident}))

    def has_gained(self, side: Side, technology: str) -> bool:
        """Whether ``side`` gained ``technology`` during this battle."""
        return technology in self.gained[0 if side is _ATTACKER else 1]

    def gaining(self, side: Side, technology: str) -> BattleState:
        """This state with ``side`` having gained ``technology`` (an id, or ``upgrade:UNIT``):
        from now on it acts as if the scenario had listed it."""
        a, d = self.gained
        if side is _ATTACKER:
            return self.changed(gained=(a | {technology}, d))
        return self.changed(gained=(a, d | {technology}))

    def boosted(self, side: Side, effect: str) -> bool:
        """Whether ``effect`` acts for ``side`` in this combat round."""
        return effect in self.boosts[0 if side is _ATTACKER else 1]

    def boosting(self, side: Side, effect: str) -> BattleState:
        """This state with ``effect`` acting for ``side`` until the round ends."""
        a, d = self.boosts
        if side is _ATTACKER:
            return self.changed(boosts=(a | {effect}, d))
        return self.changed(boosts=(a, d | {effect}))

    def marked(self, side: Side, mark: Mark) -> bool:
        """Whether ``side`` has ``mark``."""
        return any(m is mark for m, _ in self.marks[0 if side is _ATTACKER else 1])

    def mark_count(self, side: Side, mark: Mark) -> int | None:
        """The count of ``side``'s ``mark``, or ``None`` when it has none."""
        for m, count in self.marks[0 if side is _ATTACKER else 1]:
            if m is mark:
                return count
        return None

    def marking(self, side: Side, mark: Mark, count: int = 0) -> BattleState:
        """This state with ``side`` marked ``mark`` (with ``count``), replacing its last one."""
        index = 0 if side is _ATTACKER else 1
        mine = frozenset(e for e in self.marks[index] if e[0] is not mark) | {(mark, count)}
        a, d = self.marks
        return self.changed(marks=(mine, d) if index == 0 else (a, mine))

    def unmarking(self, side: Side, *marks: Mark) -> BattleState:
        """This state without ``side``'s ``marks`` (the same state if it has none of them)."""
        index = 0 if side is _ATTACKER else 1
        have = self.marks[index]
        mine = frozenset(e for e in have if e[0] not in marks)
        if len(mine) == len(have):
            return self
        a, d = self.marks
        return self.changed(marks=(mine, d) if index == 0 else (a, mine))

    def rolled(self, side: Side) -> RolledHits:
        """``side``'s combat roll of this Roll Dice step, group by group (``rolls``)."""
        return self.rolls[0 if side is _ATTACKER else 1]

    def recording(self, side: Side, rolled: RolledHits) -> BattleState:
        """This state with ``side``'s combat roll, group by group, set to ``rolled``."""
        a, d = self.rolls
        return self.changed(rolls=(rolled, d) if side is _ATTACKER else (a, rolled))

    def wealth(self, side: Side) -> tuple[int, int]:
        """(trade goods, influence) ``side`` may still spend."""
        return self.purse[0 if side is _ATTACKER else 1]

    def with_part(self, side: Side, units: SideState, purse: tuple[int, int]) -> BattleState:
        """This state with ``side``'s part set: its units and what it may still spend."""
        a, d = self.purse
        if side is _ATTACKER:
            return self.changed(attacker=units, purse=(purse, d))
        return self.changed(defender=units, purse=(a, purse))

    def without_part(self, side: Side) -> BattleState:
        """This state with ``side``'s part emptied (no units, nothing to spend; the hits
        against it kept): a key for what reads only the other player's part."""
        return self.with_part(side, NOBODY, (0, 0))

    def spending(self, side: Side, trade_goods: int = 0, influence: int = 0) -> BattleState:
        """This state with ``side`` having spent some trade goods and influence."""
        tg, inf = self.wealth(side)
        if trade_goods > tg or influence > inf:
            raise ValueError(f"{side.value} cannot spend what it does not have")
        left = (tg - trade_goods, inf - influence)
        a, d = self.purse
        return self.changed(purse=(left, d) if side is _ATTACKER else (a, left))


#: the attacker, read at every copy (a module name is read faster than an enum's member)
_ATTACKER = Side.ATTACKER
#: each field's position in the tuple
_FIELD = {name: index for index, name in enumerate(BattleState._fields)}
_HITS = _FIELD["hits"]
