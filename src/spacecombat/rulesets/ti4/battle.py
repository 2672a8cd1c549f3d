"""The TI4 battle as a process: each phase handled by the procedure that the rules name."""

from __future__ import annotations

from collections.abc import Callable, Hashable, Mapping

from spacecombat.analysis.graph import SplitRolls
from spacecombat.core.battle import RulesetBattle, no_destination
from spacecombat.core.decisions import Policy, decide
from spacecombat.core.engine import Chance, Decision, Node, Step
from spacecombat.core.forces import Forces
from spacecombat.core.outcome import resources_lost, unit_counts, unit_records
from spacecombat.core.sides import PLAYER_SIDES
from spacecombat.rulesets.notices import (
    Notices,
    opening_events,
    removed_by,
)
from spacecombat.rulesets.ti4 import kept_roll_blind
from spacecombat.rulesets.ti4.abilities.base import Card
from spacecombat.rulesets.ti4.effects import arena, free_hits, why_not_eligible
from spacecombat.rulesets.ti4.hooks import Follow
from spacecombat.rulesets.ti4.procedures import (
    assign_hits,
    capacity,
    combat_round,
    dead_rolls,
    invasion,
    kept_roll_alike,
    lost_barrage_hits,
    queued_alike,
    replaced_hits,
    retreat,
    space_cannon_offense,
    space_combat,
    stalemate,
    windows,
)
from spacecombat.rulesets.ti4.rounds import ProductRounds
from spacecombat.rulesets.ti4.setup import NOTHING_GAINED, BattleSetup
from spacecombat.rulesets.ti4.sides import SIDES, Side
from spacecombat.rulesets.ti4.split_rolls import split_rolls as _split_rolls
from spacecombat.rulesets.ti4.state import BattleState, Phase, RolledHits

#: no combat roll kept (``BattleState.rolls``)
_NO_ROLLS: tuple[RolledHits, RolledHits] = ((), ())

#: whether a blind walk of a player's assignment (``Ti4Battle._blind_leap``) that meets a roll
#: (Courageous to the End's, rolled by its holder while it assigns) is taken up to the state
#: that rolls, where the explorer makes the chance state as the walk step by step did (off:
#: such a walk is not taken, as before; tests/ti4/test_blind_leap_to_roll.py; 24Y-1)
TO_ROLL = True

#: whether the ships a player must destroy in the middle of the other's assignment
#: (Courageous to the End's hits), and the handlers hearing them, are taken at once where
#: every such handler is idle (``Ti4Battle._destroyed_at_once``; off: step by step, as before,
#: tests/odds/test_graph_destroyed_at_once.py; 24Y-6)
AT_ONCE = True

#: whether those walks (``Ti4Battle._destroyed_at_once``) are remembered without the hits
#: against the player destroying its ships, besides the assigning player's part: no step of
#: the stretch reads them, the walk is refused if it changes them, and the state it lands on
#: takes them back (off: remembered with them, as before,
#: tests/odds/test_graph_destroyed_at_once.py; 24AB-1)
AT_ONCE_HITS_LEFT_OUT = True

#: whether a player's whole assignment walked for the leaps (``Ti4Battle._assigned``) goes on,
#: once a hit is assigned and hits are left, by the leap from the state reached (remembered,
#: or walked and remembered in its turn): a longer assignment meets the shorter ones it ends
#: with (off: every hit walked, as before; tests/odds/test_graph_assigned_suffixes.py; 24AE-3)
ASSIGNED_SUFFIXES = True

#: the most steps of the rules the ships to destroy are walked at once
_AT_ONCE_STEPS = 40

Procedure = Callable[[BattleSetup, BattleState], Node[BattleState]]

PROCEDURES: dict[Phase, Procedure] = {
    Phase.CAPACITY_BEFORE_BATTLE: capacity.capacity_before_battle,
    Phase.SPACE_CANNON_OFFENSE: space_cannon_offense.space_cannon_offense,
    Phase.SPACE_CANNON_OFFENSE_HITS: space_cannon_offense.space_cannon_offense_hits,
    Phase.START_OF_COMBAT: space_combat.start_of_combat,
    Phase.ANTI_FIGHTER_BARRAGE: space_combat.anti_fighter_barrage,
    Phase.ANTI_FIGHTER_BARRAGE_HITS: space_combat.anti_fighter_barrage_hits,
    Phase.ANNOUNCE_RETREATS: space_combat.announce_retreats,
    Phase.ROLL_DICE: combat_round.roll_dice,
    Phase.ASSIGN_HITS: combat_round.assign_combat_hits,
    Phase.AFTER_ASSIGN_HITS: combat_round.after_assign_hits,
    Phase.RETREAT: retreat.retreat,
    Phase.END_OF_ROUND: combat_round.end_of_round,
    Phase.BEGIN_ROUND: combat_round.begin_round,
    Phase.END_OF_COMBAT: space_combat.end_of_combat,
    Phase.BOMBARDMENT: invasion.bombardment,
    Phase.BOMBARDMENT_HITS: invasion.bombardment_hits,
    Phase.COMMIT_GROUND_FORCES: invasion.commit_ground_forces,
    Phase.SPACE_CANNON_DEFENSE: invasion.space_cannon_defense,
    Phase.SPACE_CANNON_DEFENSE_HITS: invasion.space_cannon_defense_hits,
    Phase.TIMING_WINDOW: windows.timing_window,
    Phase.ORDER_PLANETS: invasion.order_planets,
    Phase.GROUND_COMBAT: invasion.start_ground_combat,
    Phase.GROUND_COMBAT_ENDS: invasion.ground_combat_ends,
    Phase.ESTABLISH_CONTROL: invasion.establish_control,
    Phase.OVER: invasion.over,
}


class Ti4Battle(Notices, RulesetBattle[BattleSetup, BattleState]):
    """One TI4 battle (space, or invasion) as a process for the resolver and the odds engine."""

    procedures = PROCEDURES

    def __init__(self, setup: BattleSetup) -> None:
        # anti-fighter barrage looks at round 1, the stock policies at the rounds they name
        super().__init__(setup)
        self._initial: dict[str, dict[str, int]] = {}
        #: the units a player's assignment of hits leaves, by the policies deciding it and by
        #: (player, arena, gains, units there, hits) (``leap``)
        self._leaps: dict[int, tuple[Mapping[str, Policy], dict[Hashable, tuple[Forces, int]]]] = {}
        #: the walks of ``_blind_leap``, by the policies deciding them and (side, the state
        #: without the other player's part)
        self._blind: dict[int, tuple[Mapping[str, Policy], dict[Hashable, BattleState | None]]] = {}
        #: the walks of ``_destroyed_at_once``, by the policies deciding them and (side, the
        #: state without the assigning player's part)
        self._at_once: dict[
            int, tuple[Mapping[str, Policy], dict[Hashable, BattleState | None]]
        ] = {}
        #: the walks of ``_placing_leap``, by the policies deciding them and (side, the state
        #: without the hits against the other player)
        self._placed: dict[
            int, tuple[Mapping[str, Policy], dict[Hashable, BattleState | None]]
        ] = {}
        #: a player's part after a whole assignment of hits alone, by the policies deciding it
        #: and by (player, arena, gains, part, hits) (``split_rolls``)
        self.assigned_parts: dict[int, tuple[Mapping[str, Policy], dict[Hashable, object]]] = {}

    def advance(self, state: BattleState) -> Node[BattleState]:
        """The node that follows ``state``: an action card played that the opponent may
        cancel is decided first (``BattleState.pending``: the opponent's effect that the card
        was told of at set-up, ``Card.watcher``), then the procedure of the phase; both with
        the battle's facts as they stand once the technologies gained so far act
        (``BattleSetup.having``)."""
        setup = self.setup
        if state.gained != NOTHING_GAINED:
            setup = setup.having(state.gained)
        if state.pending is not None:
            return _pending_decision(setup, state)
        return self.procedures[state.phase](setup, state)

    def leap(
        self, state: BattleState, policies: Mapping[str, Policy], blind: bool = True
    ) -> BattleState | None:
        """For the exact engine (analysis/graph.py ``Leaping``): a player's whole assignment of
        a combat round's hits (Assign Hits, ti4-space-combat.md step 4, ti4-ground-combat.md
        step 2) taken at once, where it reads only that player's units in the arena and the
        number of hits (procedures/assign_hits.py ``alone``: no handler in play acts while
        a combat round's hits are assigned, no card is pending and nothing is left to hear),
        how many of them are free when some must go to non-fighter ships (``free_hits``: the
        mark stays until the step's ``done`` clears it, ``_aimed_eligible`` reads it with the
        hits) and what the handlers asked declare they read (``assign_hits.leap_key``). The
        real procedure is walked, decided by ``policies``, once for each (player, arena, gains,
        units there, hits, free hits, the handlers' key), and the units it leaves are
        remembered: the state returned is the one the walk reaches once the last
        hit is assigned, before the step moves on (``None`` elsewhere). Where a handler asked
        acts on the state but reads nothing of the other player's part (``blind``, and
        ``assign_hits.blind``: Direct Hit, Reflective Shielding, the Tellurian), the walk is
        remembered whole (``_blind_leap``)."""
        if state.phase is not Phase.ASSIGN_HITS or state.pending is not None:
            return None
        if state.following:
            return self._destroyed_at_once(state, policies) if blind and AT_ONCE else None
        side = state.turn
        hits = state.hits_on(side)
        if hits <= 0:
            return None
        # (``state.aim`` is not read in a combat round's Assign Hits: it is the aim of a
        # timing window's hits, read while they are assigned in the window, procedures/
        # windows.py, and cleared once the last is assigned, docs/rulings.md 27W-1; the leap
        # keeps it as the walk does)
        setup = self.setup if state.gained == NOTHING_GAINED else self.setup.having(state.gained)
        where = arena(setup, state)
        cause = combat_round.combat_cause(where)
        handlers = assign_hits.leap_key(setup, state, side, where, cause)
        if handlers is None:
            if blind and assign_hits.blind(setup, state, side, cause):
                return self._blind_leap(state, side, policies)
            if blind and PLACED and assign_hits.placing(setup, state, side, cause):
                return self._placing_leap(state, side, policies)
            return None
        area = state.side(side).area(where)
        known = self._leaps.get(id(policies))
        if known is None or known[0] is not policies:
            known = self._leaps[id(policies)] = (policies, {})
        key = (side, where, state.gained, area, hits, free_hits(state, side), handlers)
        left = known[1].get(key)
        if left is None:
            walked = self._assigned(state, side, policies)
            if walked is None:
                return None
            left = known[1][key] = (walked.side(side).area(where), walked.hits_on(side))
        if state.rolls != _NO_ROLLS:
            state = state.changed(rolls=_NO_ROLLS)  # as the step's first walk clears them
        return state.with_units_and_hits(side, where, left[0], left[1])

    def _blind_leap(
        self, state: BattleState, side: Side, policies: Mapping[str, Policy]
    ) -> BattleState | None:
        """``side``'s whole assignment of a combat round's hits from ``state`` where every
        handler asked is idle or reads nothing of the other player's part nor the hits against
        it (``assign_hits.blind``): the real procedure walked, decided by ``policies``, once
        for each state alike but for those (``_blinded``), to the state it reaches once the
        last hit is assigned or before the step moves on (``_assigned_here``; what the
        handlers queued is still to be heard there), and that state is given the other
        player's part back, with the hits the walk added against it (Reflective Shielding's).
        ``None`` where the walk moves on at once or changes the other player's part. A walk
        that meets a roll (Courageous to the End's, its holder's ship destroyed) lands on the
        state that rolls, with the roll queued still to be made there (``TO_ROLL``; 24Y-1)."""
        known = self._blind.get(id(policies))
        if known is None or known[0] is not policies:
            known = self._blind[id(policies)] = (policies, {})
        other = side.other
        key = (side, _blinded(state, other))
        if key in known[1]:
            walked = known[1][key]
        else:
            walked = self._assigned_here(state, side, policies)
            if (
                walked is None
                or walked.rolls != _NO_ROLLS
                or walked.side(other) != state.side(other)
                or walked.wealth(other) != state.wealth(other)
                or walked.hits_on(other) < state.hits_on(other)
            ):
                walked = None
            else:
                # kept as the walk from the blinded state: the hits it added against the other
                walked = _blinded(walked, other).with_hits_on(
                    other, walked.hits_on(other) - state.hits_on(other)
                )
            known[1][key] = walked
        if walked is None:
            return None
        purse = (walked.wealth(side), state.wealth(other))
        return (
            walked.changed(
                purse=purse if side is Side.ATTACKER else purse[::-1],
            )
            .with_side(other, state.side(other))
            .with_hits_on(other, state.hits_on(other) + walked.hits_on(other))
        )

    def _destroyed_at_once(
        self, state: BattleState, policies: Mapping[str, Policy]
    ) -> BattleState | None:
        """The ships the other player must destroy, queued while ``state.turn`` assigns
        (``Follow.MUST_DESTROY``: Courageous to the End's hits, ti4-space-combat.md step 4,
        docs/rulings.md 14A-11), destroyed at once (24Y-6): each an ``assign_hit`` decision of
        theirs with "destroy" options only, read of their units, and each ship destroyed heard
        by the handlers acting after a unit is destroyed, every one of them idle while that
        player assigns (``Handler.idle_while_assigning``: its hook answers ``None`` whatever
        the units), so the hearing only empties the queue. Nothing of the assigning player's
        part is read: the real procedure is walked, decided by ``policies``, once for every
        state alike but for that part (``_blinded``), to the state where nothing is left
        queued, and lands there with that part put back; ``None`` where anything else is
        queued, a handler hearing is not idle, or the walk meets anything but steps and
        decisions, changes that part or leaves the step."""
        side = state.turn
        other = side.other
        if any(f.kind is not Follow.MUST_DESTROY or f.player is not other for f in state.following):
            return None
        setup = self.setup if state.gained == NOTHING_GAINED else self.setup.having(state.gained)
        if not all(
            h.idle_while_assigning(setup, state, other) for h in setup.answering("after_destroyed")
        ):
            return None
        known = self._at_once.get(id(policies))
        if known is None or known[0] is not policies:
            known = self._at_once[id(policies)] = (policies, {})
        blinded = _blinded(state, side)
        if AT_ONCE_HITS_LEFT_OUT:
            # the hits against ``other`` are read by no step of the stretch either (24AB-1)
            blinded = blinded.with_hits_on(other, 0)
        key = (side, blinded)
        if key in known[1]:
            walked = known[1][key]
        else:
            walked = self._heard_here(state, policies)
            if (
                walked is None
                or walked.side(side) != state.side(side)
                or walked.wealth(side) != state.wealth(side)
                or walked.hits != state.hits
            ):
                walked = None
            else:
                walked = _blinded(walked, side)
            known[1][key] = walked
        if walked is None:
            return None
        purse = (state.wealth(side), walked.wealth(other))
        return walked.changed(
            purse=purse if side is Side.ATTACKER else purse[::-1],
            hits=state.hits,
            rolls=state.rolls,
        ).with_side(side, state.side(side))

    def _heard_here(self, state: BattleState, policies: Mapping[str, Policy]) -> BattleState | None:
        """``state`` walked step by step, decided by ``policies``, until nothing is left queued
        (``_destroyed_at_once``), ``None`` if it meets anything but steps and decisions or
        leaves the step."""
        at = state
        for _ in range(_AT_ONCE_STEPS):
            if not at.following:
                return at
            node = self.advance(at)
            if isinstance(node, Step):
                after = node.state
            elif isinstance(node, Decision):
                after = node.then(decide(node.request, policies)).state
            else:
                return None
            if after.phase is not Phase.ASSIGN_HITS or after.turn is not state.turn:
                return None
            at = after
        return None

    def _placing_leap(
        self, state: BattleState, side: Side, policies: Mapping[str, Policy]
    ) -> BattleState | None:
        """``side``'s whole assignment of a combat round's hits from ``state`` where a handler
        asked places units of the other player's and every other one asked is idle, blind or
        declares what it reads (``assign_hits.placing``: Ipswitch, Loose Cannon): none reads
        the hits against the other player, so the real procedure is walked, decided by
        ``policies``, once for each state alike but for those hits (24X-3), to the state it
        reaches once the last hit is assigned or before the step moves on
        (``_assigned_here``), and lands there with the hits against the other player put back
        (and any the walk added, added to them). ``None`` where the walk meets a roll or moves
        on at once."""
        known = self._placed.get(id(policies))
        if known is None or known[0] is not policies:
            known = self._placed[id(policies)] = (policies, {})
        other = side.other
        key = (side, state.with_hits_on(other, 0))
        if key in known[1]:
            walked = known[1][key]
        else:
            walked = self._assigned_here(key[1], side, policies)
            if walked is not None and walked.rolls != _NO_ROLLS:
                walked = None
            known[1][key] = walked
        if walked is None:
            return None
        return walked.with_hits_on(other, state.hits_on(other) + walked.hits_on(other))

    def _assigned_here(
        self, state: BattleState, side: Side, policies: Mapping[str, Policy]
    ) -> BattleState | None:
        """The Assign Hits step of ``side`` walked from ``state`` while hits are left against
        it, up to the last state before the step moves on (the next player's turn, the next
        step: hits lost for want of units are lost there), or up to the state whose step is
        a roll (``TO_ROLL``); ``None`` if it meets the battle's end or moves on at once."""
        at = state
        while at.hits_on(side) > 0:
            node = self.advance(at)
            if isinstance(node, Step):
                after = node.state
            elif isinstance(node, Decision):
                after = node.then(decide(node.request, policies)).state
            elif TO_ROLL and isinstance(node, Chance):
                break  # the roll is made from ``at``, by the explorer (24Y-1)
            else:
                return None
            if after.phase is not Phase.ASSIGN_HITS or after.turn is not side:
                break
            at = after
        return None if at is state else at

    def split_rolls(
        self, state: BattleState, policies: Mapping[str, Policy], exact: bool
    ) -> SplitRolls[BattleState] | None:
        """For the exact engine (analysis/graph.py ``Splitting``): the round's two combat
        rolls (Roll Dice) and assignments of hits (Assign Hits), player by player, where
        nothing else acts between them (``split_rolls.py``); ``None`` elsewhere."""
        return _split_rolls(self, state, policies, exact)

    def roll_blind(
        self, state: BattleState
    ) -> tuple[BattleState, tuple[Side, int, bool], tuple[object, ...]] | None:
        """For the exact engine (analysis/graph.py ``RollingBlind``): a combat roll kept group
        by group (War Funding Ω held) followed blind to the hits against its roller, and a
        handler's own roll while a player assigns (Courageous to the End's) blind to the hits
        against the other player (``kept_roll_blind.py``, 24AD-1, 24AD-3)."""
        setup = self.setup if state.gained == NOTHING_GAINED else self.setup.having(state.gained)
        return kept_roll_blind.roll_blind(setup, state)

    def roll_stretch(
        self, state: BattleState, roll: tuple[object, ...], policies: Mapping[str, Policy]
    ) -> BattleState:
        """The stretches taken at once after such a roll, blind too
        (``kept_roll_blind.roll_stretch``)."""
        return kept_roll_blind.roll_stretch(self, self.canonical, state, roll, policies)

    def roll_put_back(
        self, state: BattleState, left_out: tuple[Side, int, bool]
    ) -> BattleState | None:
        """The hits left out put back on a state a roll followed blind leads to
        (``kept_roll_blind.roll_put_back``)."""
        return kept_roll_blind.roll_put_back(state, left_out)

    def joins_roll_before(self, state: BattleState) -> bool:
        """For the exact engine (analysis/graph.py ``Joining``): the defender's combat roll
        (Roll Dice, ti4-space-combat.md step 3, ti4-ground-combat.md step 1) is folded into
        the attacker's, whose outcome it follows: one chance state a round's rolls where there
        was one for each number of hits the attacker rolled (the chance-state budget then
        counts pairs of units, not pairs of units and hits)."""
        return state.phase is Phase.ROLL_DICE and state.turn is Side.DEFENDER

    def _assigned(
        self, state: BattleState, side: Side, policies: Mapping[str, Policy]
    ) -> BattleState | None:
        """The Assign Hits step of ``side`` walked from ``state`` until its last hit is assigned
        (or lost), ``None`` if it meets anything but steps and decisions. Once a hit is
        assigned and hits are left (``ASSIGNED_SUFFIXES``), the rest is the leap from the
        state reached where one is taken (``leap``: the same walk, remembered by its key), so
        the units and hits left are the walk's."""
        hits = state.hits_on(side)
        while state.phase is Phase.ASSIGN_HITS and state.turn is side and hits > 0:
            node = self.advance(state)
            if isinstance(node, Step):
                state = node.state
            elif isinstance(node, Decision):
                state = node.then(decide(node.request, policies)).state
            else:
                return None
            left = state.hits_on(side)
            if (
                ASSIGNED_SUFFIXES
                and 0 < left < hits
                and state.phase is Phase.ASSIGN_HITS
                and state.turn is side
            ):
                landed = self.leap(state, policies, blind=False)
                if landed is not None:
                    return landed
            hits = left
        return state

    def canonical(self, state: BattleState) -> BattleState:
        """As ``RulesetBattle.canonical``, and so is the state a pending card was offered in;
        barrage hits that can only be lost are dropped (``lost_barrage_hits``), and so are
        the hits a reroll of War Funding Ω is about to replace (``replaced_hits``), and its
        holder's roll kept group by group once nothing reads it (``dead_rolls``), or keyed by its
        misses while the card reads it (``kept_roll_alike``, 24AD-2); a handler's
        own follow-ups queued in a timing window are keyed as it declares they play out
        (``queued_alike``: War Funding Ω's rerolls)."""
        if state.round > self.round_cap or state.ground_rounds:
            # (what ``RulesetBattle.canonical`` changes: asked only where it may, 24AI-4)
            state = super().canonical(state)
        if state.phase in lost_barrage_hits.PHASES:
            setup = (
                self.setup if state.gained == NOTHING_GAINED else self.setup.having(state.gained)
            )
            state = lost_barrage_hits.without_lost_hits(setup, state)
        elif state.phase is Phase.TIMING_WINDOW and (state.following or state.rolls != _NO_ROLLS):
            setup = (
                self.setup if state.gained == NOTHING_GAINED else self.setup.having(state.gained)
            )
            # each asked only where it may change something: a queue (``alike``,
            # ``without_replaced_hits``), rolls kept (``without_dead_rolls``,
            # ``with_misses_alike``); each returns ``state`` itself elsewhere (24AI-4)
            if state.following:
                state = queued_alike.alike(setup, state)
                if state.following:
                    state = replaced_hits.without_replaced_hits(setup, state)
            if state.rolls != _NO_ROLLS:
                state = dead_rolls.without_dead_rolls(setup, state)
                if state.rolls != _NO_ROLLS:
                    state = kept_roll_alike.with_misses_alike(setup, state)
        pending = state.pending
        if pending is not None:
            before = self.canonical(pending.before)
            if before is not pending.before:
                state = state._replace(pending=pending._replace(before=before))
        return state

    def _opening_notices(self) -> list[str]:
        """Fleets over capacity at the start: what the stock policies remove before the battle
        (R31), or that ``check_capacity_before_battle: false`` keeps them till later."""
        setup = self.setup
        if setup.kind != "space":
            return []
        opening = opening_events(
            self, self.stock_policies(), lambda s: s.phase is Phase.CAPACITY_BEFORE_BATTLE
        )
        said = []
        for side in SIDES:
            need, room = capacity.needing_room(setup, setup.initial, side)
            if need <= room:
                continue
            exempt = capacity.capacity_facts(setup, setup.initial, side)[1]
            docks = f" (besides the {exempt} fighters its space docks hold)" if exempt else ""
            start = (
                f"The {side.value}'s fighters and ground forces in the space area need capacity "
                f"{need}{docks} but its ships have {room}"
            )
            if setup.options.check_capacity_before_battle:
                gone = removed_by(opening, side.value, capacity.BEFORE_BATTLE)
                said.append(
                    f"{start}, so {need - room} are removed before the battle (LRR 16.3 note 1): "
                    f"{gone}, as the stock policy chooses."
                )
            else:
                said.append(
                    f"{start}; with check_capacity_before_battle: false they all fight, and the "
                    f"excess is removed once space cannon offense hits or the combat ends."
                )
        return said

    def for_stock_policies(self) -> Ti4Battle:
        """This battle as the odds engine fights it, deciding with the stock policies alone:
        without the effects they never play (``BattleSetup.for_stock_policies``;
        docs/rulings.md 24B-1). The resolver, which may ask a person instead (``--ask``), plays
        the battle itself."""
        setup = self.setup.for_stock_policies()
        return self if setup is self.setup else Ti4Battle(setup)

    def _never_retreats(self, player: str) -> str | None:
        return _never_retreats(self.setup, Side(player))

    def product_rounds(self) -> ProductRounds | None:
        """The combat rounds in product form, if the rules allow it (``rounds.py``)."""
        return ProductRounds(self.setup, self) if ProductRounds.applies(self.setup) else None

    def product_refusal(self) -> str | None:
        """Why the combat rounds are not in product form (``None``: they are)."""
        return ProductRounds.refusal(self.setup)

    def survivors(self, outcome: Mapping[str, object], player: str) -> dict[str, int]:
        """A player's units left in the fight: ships in the space area (or that retreated) in
        a space battle; ground forces on the planets in an invasion."""
        side = self.setup.side(PLAYER_SIDES[player])
        counts: dict[str, int] = {}
        if self.setup.kind == "space":
            retreat = outcome.get("retreat")
            if isinstance(retreat, Mapping) and retreat.get("player") == player:
                lists = [retreat.get("units")]
            else:
                block = outcome.get(player)
                lists = [block.get("space") if isinstance(block, Mapping) else None]
            kept = side.ship_types
        else:
            block = outcome.get(player)
            lists = list(block.get("planets", [])) if isinstance(block, Mapping) else []
            kept = side.ground_force_types
        for unit, count in unit_records(lists):
            if unit in kept:
                counts[unit] = counts.get(unit, 0) + count
        return counts

    def _initial_counts(self, player: str) -> dict[str, int]:
        known = self._initial.get(player)
        if known is None:
            initial = self.setup.initial.side(PLAYER_SIDES[player])
            known = self._initial[player] = unit_counts(initial)
        return known

    def losses(self, outcome: Mapping[str, object], player: str) -> float:
        """Resources of the player's units destroyed or removed, net of the units effects
        placed during the battle (a DEPLOY, Dacxive Animators, Ipswitch, Indoctrination: their
        worth counts against the losses, so a battle that places more than it takes costs less
        than nothing); cost per unit: the card's cost divided by how many units one payment
        produces."""
        side = self.setup.side(PLAYER_SIDES[player])
        before = self._initial_counts(player)
        after: dict[str, int] = {}
        block = outcome.get(player)
        retreat = outcome.get("retreat")
        lists: list[object] = []
        if isinstance(block, Mapping):
            lists = [block.get("space"), *list(block.get("planets", []))]
        if isinstance(retreat, Mapping) and retreat.get("player") == player:
            lists.append(retreat.get("units"))
        for unit, count in unit_records(lists):
            after[unit] = after.get(unit, 0) + count
        return resources_lost(before, before, after, side.card)


#: whether a player's whole assignment where a handler asked places the other player's units
#: (``assign_hits.placing``: Ipswitch, Loose Cannon) is taken at once by ``Ti4Battle.leap``
#: (``_placing_leap``; off: walked step by step, as before, tests/odds/test_graph_splits_placed.py)
PLACED = True


def _pending_decision(setup: BattleSetup, state: BattleState) -> Node[BattleState]:
    """The decision about the card pending (``state.pending``) of the effect that may cancel
    it: the card's ``Card.watcher``, set when the battle was built."""
    pending = state.pending
    assert pending is not None
    for handler in setup.handlers:
        if (
            isinstance(handler, Card)
            and handler.owner is pending.player
            and handler.card == pending.card
            and handler.watcher is not None
        ):
            return handler.watcher.cancel_or_let(setup, state)
    raise AssertionError(f"{pending.card} pending without an effect that may cancel it")


def _never_retreats(setup: BattleSetup, side: Side) -> str | None:
    """Why ``side`` can never retreat in this battle, or ``None`` if it may. Eligibility depends
    only on the fixed setup (effects.py ``why_not_eligible``), never on the state."""
    if setup.kind != "space":
        return "an invasion has no space combat to retreat from"
    if not setup.system.adjacent:
        return "system.adjacent lists no system to retreat to"
    reasons = [(s.name, why_not_eligible(setup, side, s)) for s in setup.system.adjacent]
    return no_destination(reasons, "an eligible destination")


# the stalemate check follows this battle's steps (procedures/stalemate.py)
stalemate.played_by(Ti4Battle)


def _blinded(state: BattleState, other: Side) -> BattleState:
    """``state`` without ``other``'s part (its units, its purse) nor the hits against it, nor
    the rolls kept group by group (War Funding Ω's): the Assign Hits step clears them before
    anything else (procedures/combat_round.py ``assign_combat_hits``), so a walk of it never
    reads them and leaves none."""
    return state.without_part(other).with_hits_on(other, 0).changed(rolls=_NO_ROLLS)
