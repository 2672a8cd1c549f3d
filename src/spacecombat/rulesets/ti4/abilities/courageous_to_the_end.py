"""Courageous to the End (action card): after one of your ships is destroyed during a space
combat, roll 2 dice; for each result equal to or greater than that ship's combat value, your
opponent destroys one of their ships in the system, of their choice (data/cards.toml;
ti4-combat-effects.md, action cards). Offered to its holder after one of their ships is
destroyed during a space combat, while the opponent has ships there: while the hits of the
anti-fighter barrage or of a combat round are assigned (ti4-space-combat.md steps 1 and 4),
or by an effect acting then (Direct Hit, the Yin flagship), and in the Roll Dice step (step
3) when the Crown of Thalnos destroys a ship whose reroll produced no hit (docs/rulings.md
14RR-7, 27V-6). Played, the 2 dice are rolled at once (purpose "courageous_to_the_end", the
printed combat value, no modifiers: it is not a combat roll) and the opponent then destroys
one ship per hit ("assign_hit" with "destroy" options only: SUSTAIN DAMAGE cannot cancel
it) (docs/rulings.md 14A-11): while hits are assigned, through the assignment's own queue
(``FollowUp.must_destroy``); in the Roll Dice step, where no assignment is under way, through
this card's own follow-up (``DESTROY``), before the step goes on. The stock policy plays it
on the first ship destroyed (``policy.play`` may restrict)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from spacecombat.core.decisions import DecisionRequest, Option
from spacecombat.core.engine import Chance, Decision, Node, Step
from spacecombat.core.forces import STATUSES, describe
from spacecombat.core.pool import DiceGroup, DicePool
from spacecombat.rulesets.ti4.abilities.base import Card, register
from spacecombat.rulesets.ti4.abilities.sustain_damage import ActsOnHits, queued
from spacecombat.rulesets.ti4.effects import destroy_own
from spacecombat.rulesets.ti4.hooks import FollowUp
from spacecombat.rulesets.ti4.state import Phase

if TYPE_CHECKING:
    from spacecombat.rulesets.ti4.setup import BattleSetup
    from spacecombat.rulesets.ti4.sides import Side
    from spacecombat.rulesets.ti4.state import BattleState

#: whether the card declares itself blind to the opponent while its holder assigns where the
#: opponent has a ship in the space area (``blind_while_assigning``; off: it declares nothing,
#: as before, tests/ti4/test_blind_leap_to_roll.py; 24Y-1)
BLIND = True

#: whether the card's dice pool, a value of the setup, the holder and the unit type destroyed
#: alone (its printed combat value), is made once for them (``setup.memo``): the exact engine
#: meets the roll at every state that rolls (no. 24 of the faction mix: 711; 24AB-4); off: made
#: at each roll, as before (tests/ti4/test_courageous_pool_remembered.py)
POOL_REMEMBERED = True
_POOL = "courageous_to_the_end.pool"

#: the cause named when the opponent destroys its ships
CAUSE = "courageous to the end"
#: the steps of a space combat in which a ship of the holder may be destroyed: hits assigned
#: (anti-fighter barrage, combat rounds) and the Roll Dice step (the Crown of Thalnos, 27V-6)
_DURING_SPACE_COMBAT = (Phase.ASSIGN_HITS, Phase.ANTI_FIGHTER_BARRAGE_HITS, Phase.ROLL_DICE)
#: the follow-up's detail for one ship the opponent destroys in the Roll Dice step
DESTROY = "destroy"


@register
class CourageousToTheEnd(ActsOnHits, Card):
    id = "courageous_to_the_end"
    card = "courageous_to_the_end"
    #: offered after its holder's ship is destroyed, "pass" changes nothing, and the roll
    #: (``follow_up``) is queued by a "play" only: it acts only once played (24B-1, 24U-4)
    played_as = card
    #: its 2 dice are its owner's: on its owner's path they take the other side's ships, on
    #: the other's they hit nothing (24AF-1)
    never_stalls_on = frozenset({"owner", "other"})

    def idle_while_assigning(self, setup: BattleSetup, state: BattleState, side: Side) -> bool:
        """Its hooks of hit assignment act on its holder's assignment only, and only while the
        card is held (not yet played, nor cancelled): else they answer ``None``
        (``Handler.idle_while_assigning``)."""
        return side is not self.owner or not self.held(state)

    def blind_while_assigning(self, setup: BattleSetup, state: BattleState, side: Side) -> bool:
        """While its holder assigns, it reads the ship destroyed, whether the card is held and
        of the opponent only whether it has a ship in the space area; played, it queues its
        roll, which the walk of the assignment stops at (``Ti4Battle._blind_leap``). Blind
        (``Handler.blind_while_assigning``) only where the opponent has such a ship: every
        state alike but for the opponent's part where it is blind then reads alike (24Y-1)."""
        return BLIND and _opponent_has_ships(setup, state, side.other)

    def after_destroyed(
        self,
        setup: BattleSetup,
        state: BattleState,
        side: Side,
        where: int | None,
        unit: str,
        cause: str,
    ) -> Node[BattleState] | None:
        owner = self.owner
        if side is not owner or where is not None or not self.held(state):
            return None
        if state.phase not in _DURING_SPACE_COMBAT:
            return None
        cards = setup.side(side)
        if unit not in cards.ship_types or cards.card(unit).combat is None:
            return None
        if not _opponent_has_ships(setup, state, side.other):
            return None  # nothing the opponent could destroy

        def play(s: BattleState) -> Step[BattleState]:
            return Step(queued(s, FollowUp.own(self.id, side, unit)))

        return self.offer(
            state,
            f"Courageous to the End: your {unit} was destroyed; roll 2 dice at its combat value?",
            play,
            facts={"unit": unit},
        )

    def follow_up(
        self, setup: BattleSetup, state: BattleState, side: Side, detail: str, where: int | None
    ) -> Node[BattleState] | None:
        if detail == DESTROY:
            return _opponent_destroys(setup, state, side)
        combat = setup.side(side).card(detail).combat
        if combat is None:
            return None
        hit = combat.hit
        pool = (
            setup.remembered((_POOL, side, detail), lambda: _pool(detail, hit))
            if POOL_REMEMBERED
            else _pool(detail, hit)
        )
        opponent = side.other
        owner = side

        def then(hits: int) -> Step[BattleState]:
            if state.phase is Phase.ROLL_DICE:
                # no hit assignment is under way: this card's own follow-up, once a hit
                ships = [FollowUp.own(self.id, owner, DESTROY, player=opponent)] * hits
                return Step(queued(state, *ships))
            return Step(queued(state, *[FollowUp.must_destroy(opponent, CAUSE)] * hits))

        return Chance(side.value, self.id, pool, then)


def _pool(unit: str, hit: int) -> DicePool:
    """The card's 2 dice at the printed combat value of the ship destroyed."""
    return DicePool.of([DiceGroup(unit, 2, hit)])


def _opponent_has_ships(setup: BattleSetup, state: BattleState, opponent: Side) -> bool:
    """Whether ``opponent`` has a ship in the space area (one it could destroy)."""
    ships = setup.side(opponent).ship_types
    return any(u in ships for u in state.side(opponent).space.types())


def _opponent_destroys(setup: BattleSetup, state: BattleState, who: Side) -> Node[BattleState]:
    """``who`` (the holder's opponent) destroys one of their ships in the space area, of their
    choice: an "assign_hit" decision with "destroy" options only, as while hits are assigned
    (procedures/assign_hits.py ``_must_destroy``); the ship is then heard by the handlers
    acting after a unit is destroyed (effects.py ``destroy_own``). None left: nothing."""
    ships = setup.side(who).ship_types
    area = state.side(who).space
    present = [(u, s) for u, s, _ in area if u in ships]
    if not present:
        return Step(state)
    request = DecisionRequest(
        decision="assign_hit",
        player=who.value,
        prompt=f"{CAUSE}: destroy one of your ships",
        options=tuple(Option(f"destroy {describe(u, s)}", "destroy", u, s) for u, s in present),
        facts={"hits": 1, "cause": CAUSE, "sustain_first": frozenset(), "area": area},
    )

    def then(option: Option) -> Step[BattleState]:
        unit, status = option.unit or "", STATUSES[option.status or 0]
        return destroy_own(state, who, unit, status, CAUSE)

    return Decision(request, then)
