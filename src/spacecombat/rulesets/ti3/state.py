"""TI3 battle states: small frozen values, the keys of the exact odds engine."""

from __future__ import annotations

from enum import StrEnum
from typing import NamedTuple

from spacecombat.core import state as copies
from spacecombat.core.forces import Forces, Status
from spacecombat.core.sides import Side, SideState


class Phase(StrEnum):
    """Where the battle stands; each value names a step of ti3-combat.md."""

    # tactical action step "PDS fire", before the space battle (ti3-facts.md section 3, 5)
    PDS_FIRE = "pds_fire"
    PDS_FIRE_HITS = "pds_fire_hits"
    # space battle: pre-combat steps, the defender choosing their order
    PRE_COMBAT = "pre_combat"
    PRE_COMBAT_STEP = "pre_combat_step"
    PRE_COMBAT_HITS = "pre_combat_hits"
    # a pre-combat step: Sabotage Runs (Shattered Empire option; procedures/sabotage_run.py)
    SABOTAGE_RUN_DECLARE = "sabotage_run_declare"
    SABOTAGE_RUN_WAR_SUN_FIRE = "sabotage_run_war_sun_fire"
    SABOTAGE_RUN_FIGHTERS = "sabotage_run_fighters"
    # space battle rounds
    # the start of a combat round (space or invasion), where action cards are played there
    # (Morale Boost): only when such a card is held (procedures/round_start.py)
    START_OF_ROUND = "start_of_round"
    ANNOUNCE_WITHDRAWALS = "announce_withdrawals"
    ROLL_COMBAT_DICE = "roll_combat_dice"
    REMOVE_CASUALTIES = "remove_casualties"
    EXECUTE_WITHDRAWALS = "execute_withdrawals"
    END_OF_ROUND = "end_of_round"
    END_OF_SPACE_BATTLE = "end_of_space_battle"
    FLEET_CHECK = "fleet_check"
    # invasion combat, planet by planet
    BOMBARDMENT = "bombardment"
    BOMBARDMENT_HITS = "bombardment_hits"
    PDS_FIRE_AT_LANDING = "pds_fire_at_landing"
    PDS_FIRE_AT_LANDING_HITS = "pds_fire_at_landing_hits"
    # Chemical Warfare (an action card) just before the first round: its casualties
    CHEMICAL_WARFARE_HITS = "chemical_warfare_hits"
    INVASION_ROUND = "invasion_round"
    INVASION_CASUALTIES = "invasion_casualties"
    INVASION_END_OF_ROUND = "invasion_end_of_round"
    # Valkyrie Armor (Sardakk N'orr) at the end of an invasion combat round: its casualties
    VALKYRIE_ARMOR_HITS = "valkyrie_armor_hits"
    INVASION_SUCCESS = "invasion_success"
    OVER = "over"


class Ti3State(NamedTuple):
    """A TI3 battle at one point of a procedure."""

    phase: Phase
    attacker: SideState
    defender: SideState
    #: combat round of the space battle, or of the current planet's invasion combat
    round: int = 0
    #: who acts next within the phase (rolls, assigns)
    turn: Side = Side.ATTACKER
    #: hits produced against (attacker's units, defender's units), not yet assigned
    hits: tuple[int, int] = (0, 0)
    #: natural 10s rolled by (attacker's, defender's) ground forces this round (Shock Troops)
    tens: tuple[int, int] = (0, 0)
    #: missed dice waiting to be re-rolled (Graviton Laser System)
    pending: int = 0
    #: pre-combat steps still to take, and the one being taken
    steps: tuple[str, ...] = ()
    step: str = ""
    #: who announced a withdrawal (attacker) or retreat (defender) this round
    announced: Side | None = None
    #: a withdrawal or retreat carried out: who, and where to; and the fleet that moved
    withdrew: tuple[Side, str] | None = None
    away: Forces = Forces()
    #: invasion: the planet being fought over (index into the setup's planets)
    planet: int = 0
    #: invasion: rounds of invasion combat fought on each planet
    ground_rounds: tuple[int, ...] = ()
    #: invasion: ground forces destroyed in the current invasion combat (Dacxive Animators)
    fallen: int = 0
    #: the space battle's result, decided when it ends, before fleets are checked
    result: str = ""
    #: fighters of (attacker, defender) on a sabotage run (procedures/sabotage_run.py)
    running: tuple[int, int] = (0, 0)
    #: Sabotage Runs: Van Hauge's ground forces and shock troops fighting as fighters on the
    #: run (attacker's, defender's; each (ground forces, shock troops)), besides ``running``'s
    #: fighters (procedures/sabotage_run.py; docs/rulings.md 27T-16)
    running_as: tuple[tuple[int, int], tuple[int, int]] = ((0, 0), (0, 0))
    #: action cards (attacker's, defender's) still in hand, each sorted (rulesets/ti3/cards)
    hands: tuple[tuple[str, ...], tuple[str, ...]] = ((), ())
    #: a ship just damaged in the space battle, (unit, status, cards already asked), that a
    #: Direct Hit may destroy (rulesets/ti3/cards/direct_hit.py)
    sustained: tuple[str, int, int] | None = None
    #: Into the Breach of (attacker, defender): -1 not played, else the hits its dreadnought
    #: still owes (rulesets/ti3/cards/into_the_breach.py)
    breach: tuple[int, int] = (-1, -1)
    #: Morale Boost played by (attacker, defender) at the start of this round
    #: (rulesets/ti3/cards/morale_boost.py)
    boosted: tuple[bool, bool] = (False, False)
    #: the defender's Alastor was just destroyed: every unit in the space area goes next
    #: (rulesets/ti3/abilities/alastor.py)
    alastor: bool = False
    #: [0.0.1]: the hits against (attacker, defender) that go on non-fighter ships first, and
    #: whether the roller's heavy dice were rolled and its other dice are next
    #: (rulesets/ti3/abilities/l1z1x_flagship.py)
    heavy: tuple[int, int] = (0, 0)
    split: bool = False
    #: hits (attacker's, defender's) ground units took in this invasion combat round
    #: (Valkyrie Armor: rulesets/ti3/abilities/valkyrie_armor.py)
    taken: tuple[int, int] = (0, 0)
    #: Dug In: the planet (index + 1) whose ground forces are immune to bombardment, 0 none
    #: (rulesets/ti3/cards/dug_in.py)
    dug_in: int = 0
    #: Flanking Tactic: (attacker, defender) may not retreat (rulesets/ti3/cards/
    #: flanking_tactic.py)
    flanked: tuple[bool, bool] = (False, False)
    #: Experimental Weaponry played by (attacker, defender) at the start of this round
    #: (rulesets/ti3/cards/experimental_weaponry.py)
    weaponry: tuple[bool, bool] = (False, False)
    #: Target Their Flagship!: the type of (attacker's, defender's) ship that fired the card's
    #: die and does not roll in round 1, "" none (rulesets/ti3/cards/target_their_flagship.py)
    aimed: tuple[str, str] = ("", "")
    #: Communications Breakdown: no action card may be played until the battle ends
    #: (rulesets/ti3/cards/communications_breakdown.py)
    silenced: bool = False
    #: Courageous to the End: (holder, stage, its ship destroyed, the opponent's hits kept apart)
    #: while the card is asked, rolled or its hits taken (rulesets/ti3/cards/
    #: courageous_to_the_end.py)
    courage: tuple[str, str, str, int] | None = None
    #: Star of Death: the planets (indexes) it turned neutral (rulesets/ti3/cards/
    #: star_of_death.py; the outcome's ``controller``)
    neutral: tuple[int, ...] = ()
    #: Spec Ops Training: (groups of the roll done, the 1s of the last of them still to
    #: re-roll) while its owner's invasion combat roll is made group by group
    #: (procedures/exchange.py)
    spec_ops: tuple[int, int] = (0, 0)
    #: Van Hauge (attacker's, defender's): 0 not chosen, 1 its ground forces in space fight as
    #: fighters, 2 its flagship fell in the casualties being removed (they fight until those
    #: are taken), 3 over or declined (abilities/van_hauge.py)
    van_hauge: tuple[int, int] = (0, 0)
    #: Van Hauge: the ground forces and shock troops (attacker's, defender's; each
    #: (ground forces, shock troops)) taken up from the system's planets to fight as fighters,
    #: landed on them again when they stop (abilities/van_hauge.py; docs/rulings.md 27T-15)
    lifted: tuple[tuple[int, int], tuple[int, int]] = ((0, 0), (0, 0))
    #: Touch of Genius: the cards of the discard pile (attacker's, defender's) it may copy while
    #: its holder still holds it (rulesets/ti3/cards/touch_of_genius.py; docs/rulings.md
    #: 27S-36)
    genius: tuple[tuple[str, ...], tuple[str, ...]] = ((), ())
    #: the action cards (attacker's, defender's) played so far, a copy by Touch of Genius under
    #: the copied card's name
    spent: tuple[tuple[str, ...], tuple[str, ...]] = ((), ())
    #: Recheck: the hits of each group of the roll being made group by group, and how many
    #: players (attacker, then defender) were asked about it (rulesets/ti3/cards/recheck.py)
    checked: tuple[int, ...] = ()
    recheck_asked: int = 0
    #: the group one of whose dice Recheck re-rolls next (-1 none)
    rerolling: int = -1
    #: the groups (type and status) of the fleet that left a gravity rift (``away``) whose
    #: dice are rolled (gravity_rift.py; docs/rulings.md 27M-3)
    rift_rolled: int = 0
    #: the ships that left a gravity rift, one entry per ship with what it carries (type,
    #: status, cargo), once their owner stows the fleet's fighters and ground forces on them
    #: (option ``gravity_rift_cargo: aboard``; procedures/leaving_rift.py; 27Q-3); ``None``
    #: before, and when nothing is carried
    holds: tuple[tuple[str, Status, Forces], ...] | None = None

    def side(self, side: Side) -> SideState:
        return self.attacker if side is _ATTACKER else self.defender

    # Copies: core/state.py builds them directly (a named tuple cannot inherit them).

    def with_side(self, side: Side, value: SideState) -> Ti3State:
        return copies.with_side(self, side, value)

    def with_units_and_hits(
        self, side: Side, where: int | None, forces: Forces, hits: int
    ) -> Ti3State:
        """``side``'s units in an area replaced and the hits against it set, in one copy."""
        return copies.with_units_and_hits(self, _HITS, side, where, forces, hits)

    def with_hits_on(self, side: Side, hits: int) -> Ti3State:
        return copies.with_hits_on(self, _HITS, side, hits)

    def at(self, phase: Phase, **changes: object) -> Ti3State:
        """This state moved to ``phase`` (with other fields changed)."""
        return copies.at(self, phase, _FIELD, changes)

    def changed(self, **changes: object) -> Ti3State:
        """This state with some fields changed (``_replace``, faster)."""
        return copies.changed(self, _FIELD, changes)

    def hits_on(self, side: Side) -> int:
        return self.hits[0] if side is _ATTACKER else self.hits[1]

    def tens_of(self, side: Side) -> int:
        return self.tens[0] if side is _ATTACKER else self.tens[1]

    def hand(self, side: Side) -> tuple[str, ...]:
        """The action cards ``side`` still holds, and while it holds Touch of Genius the cards
        of the discard pile it may copy (docs/rulings.md 27S-36)."""
        held = self.hands[0] if side is _ATTACKER else self.hands[1]
        copies = self.genius[0] if side is _ATTACKER else self.genius[1]
        if copies and GENIUS in held:
            return held + copies
        return held

    def spent_by(self, side: Side) -> tuple[str, ...]:
        """The action cards ``side`` played so far (a copy by Touch of Genius under the copied
        card's name)."""
        return self.spent[0] if side is _ATTACKER else self.spent[1]

    def playable(self, side: Side) -> tuple[str, ...]:
        """The action cards ``side`` may play now: its hand, none after Communications
        Breakdown (docs/rulings.md 27S-29)."""
        return () if self.silenced else self.hand(side)

    def played(self, side: Side, card: str) -> Ti3State:
        """This state with one copy of ``card`` gone from ``side``'s hand (a copy it does not
        hold is played by Touch of Genius, which goes instead: 27S-36), and ``card`` among the
        cards it played."""
        hand = list(self.hands[0] if side is _ATTACKER else self.hands[1])
        hand.remove(card if card in hand else GENIUS)
        kept = tuple(hand)
        hands = (kept, self.hands[1]) if side is _ATTACKER else (self.hands[0], kept)
        mine = (*self.spent_by(side), card)
        spent = (mine, self.spent[1]) if side is _ATTACKER else (self.spent[0], mine)
        return self.changed(hands=hands, spent=spent)


#: the card that copies a card of the discard pile (rulesets/ti3/cards/touch_of_genius.py)
GENIUS = "touch_of_genius"

#: each field's position in the tuple
_FIELD = {name: index for index, name in enumerate(Ti3State._fields)}
_HITS = _FIELD["hits"]
#: the attacker, read at every copy (a module name is read faster than an enum's member)
_ATTACKER = Side.ATTACKER
