"""Space Combat (ti4-space-combat.md): the start of combat, Step 1 Anti-Fighter Barrage,
Step 2 Announce Retreats, and the end of combat with the capacity check. Steps 3 and 4 are in
combat_round.py, Step 5 in retreat.py."""

from __future__ import annotations

from spacecombat.core.decisions import DecisionRequest, Option
from spacecombat.core.engine import Chance, Decision, End, Node, Step
from spacecombat.core.events import Event, event
from spacecombat.core.forces import Forces
from spacecombat.core.hits import destroyed
from spacecombat.core.sides import combat_result
from spacecombat.core.state import ships
from spacecombat.rulesets.ti4.abilities.anti_fighter_barrage import (
    AFB,
    barrage_roll,
    infantry_destroyed,
)
from spacecombat.rulesets.ti4.abilities.base import opens
from spacecombat.rulesets.ti4.effects import (
    combat_dice,
    eligible_systems,
    overriding,
    with_cursor,
)
from spacecombat.rulesets.ti4.hooks import Window
from spacecombat.rulesets.ti4.outcome import space_outcome
from spacecombat.rulesets.ti4.procedures.assign_hits import Targets, assign_hits
from spacecombat.rulesets.ti4.procedures.capacity import excess, floating_units, remove_excess
from spacecombat.rulesets.ti4.procedures.stalemate import neither_can_win
from spacecombat.rulesets.ti4.procedures.windows import FIRST_ROUND, open_windows
from spacecombat.rulesets.ti4.setup import BattleSetup
from spacecombat.rulesets.ti4.sides import SIDES, Side
from spacecombat.rulesets.ti4.state import BattleState, Mark, Phase

A, D = Side.ATTACKER, Side.DEFENDER


def start_of_combat(setup: BattleSetup, state: BattleState) -> Node[BattleState]:
    """A space combat happens only if both players have ships in the active system after space
    cannon offense (rules intro; docs/rulings.md R14). On round 1, "start of combat" and "start
    of combat round" share one window (rule 2.1), just before anti-fighter barrage."""
    if all(ships(setup, state, side) for side in SIDES):
        first = state.at(state.phase, round=1, turn=A)
        opened = open_windows(setup, first, (FIRST_ROUND,), Phase.ANTI_FIGHTER_BARRAGE)
        return Step(
            opened.state,
            (
                event("combat_started", kind="space"),
                event("round_started", round=1),
                *opened.events,
            ),
        )
    return Step(
        state.at(Phase.END_OF_COMBAT), (event("no_combat", reason="a player has no ships"),)
    )


def anti_fighter_barrage(setup: BattleSetup, state: BattleState) -> Node[BattleState]:
    """Step 1 (first round only): both players may use ANTI-FIGHTER BARRAGE at once; so both roll
    before either assigns hits (docs/rulings.md R15). The step happens even with no fighters.

    Before each player's roll, every handler in play may act (``before_ability_roll``: play
    Waylay or Strike Wing Ambuscade), ``cursor`` stepping through them as in space cannon
    offense; the roll is then ``barrage_roll`` (changed from the state: ``ability_roll``). Marks
    of the roll (Strike Wing Alpha II: natural 9 or 10) each destroy one of the opponent's
    infantry in the space area (``infantry_destroyed``). When a handler in play acts after the
    roll (``after_ability_roll``: Scramble Frequency), the roll's results wait (the roller's
    marks ``BARRAGE_ROLLED`` and ``BARRAGE_MARKS``) while each is asked, ``cursor`` from 0;
    one may have the roller roll the same dice again (``Mark.REROLL``): the first results are
    discarded."""
    roller = state.turn
    handlers = setup.handlers
    if state.marked(roller, Mark.BARRAGE_ROLLED):
        return _after_roll(setup, state, roller)
    if state.cursor < len(handlers) and overriding(setup, "before_ability_roll"):
        for index in range(state.cursor, len(handlers)):
            node = handlers[index].before_ability_roll(setup, state, roller, AFB)
            if node is not None:
                return with_cursor(node, index + 1)
        return Step(state.changed(cursor=len(handlers)))

    pool = barrage_roll(setup, state, roller)
    if not pool.groups:
        return Step(_barrage_done(state, roller))
    target = roller.other
    reviewed = bool(overriding(setup, "after_ability_roll"))

    def marked(hits: int, marks: int) -> Step[BattleState]:
        hit = state.with_hits_on(target, hits)
        if reviewed:
            waiting = hit.marking(roller, Mark.BARRAGE_ROLLED).changed(cursor=0)
            if marks:
                waiting = waiting.marking(roller, Mark.BARRAGE_MARKS, marks)
            return Step(waiting)
        killed, events = infantry_destroyed(setup, hit, target, marks)
        return Step(_barrage_done(killed, roller), events)

    def hit(hits: int) -> Step[BattleState]:
        return marked(hits, 0)

    if not pool.marks:
        return Chance(roller.value, "anti_fighter_barrage", pool, hit)
    return Chance(roller.value, "anti_fighter_barrage", pool, hit, marked)


def _barrage_done(state: BattleState, roller: Side) -> BattleState:
    """After ``roller``'s barrage roll: the defender rolls, or the hits are assigned."""
    if roller is A:
        return state.at(Phase.ANTI_FIGHTER_BARRAGE, turn=D, cursor=0)
    return state.at(Phase.ANTI_FIGHTER_BARRAGE_HITS, turn=A, cursor=0)


def _after_roll(setup: BattleSetup, state: BattleState, roller: Side) -> Node[BattleState]:
    """The handlers acting after ``roller``'s barrage roll are asked in order; then its results
    are used (the marks destroy infantry), or, if one had it rolled again, they are discarded
    and the same dice are rolled (the handlers before the roll are not asked again)."""
    target = roller.other
    marks = state.mark_count(roller, Mark.BARRAGE_MARKS) or 0
    reroll = state.marked(roller, Mark.REROLL)
    cleared = state.unmarking(roller, Mark.BARRAGE_ROLLED, Mark.REROLL, Mark.BARRAGE_MARKS)
    if reroll:
        again = cleared.with_hits_on(target, 0).changed(cursor=len(setup.handlers))
        return Step(again)
    handlers = setup.handlers
    for index in range(state.cursor, len(handlers)):
        node = handlers[index].after_ability_roll(setup, state, roller, AFB, marks)
        if node is not None:
            return with_cursor(node, index + 1)
    killed, events = infantry_destroyed(setup, cleared, target, marks)
    return Step(_barrage_done(killed, roller), events)


def anti_fighter_barrage_hits(setup: BattleSetup, state: BattleState) -> Node[BattleState]:
    """Each player destroys their own fighters for the barrage hits against them; then, if a
    player has no ships left, the combat ends at once (step 1.1). Hits a handler widens
    (``widens_barrage``: Waylay) may be assigned to any of the player's ships, and SUSTAIN
    DAMAGE may cancel them (docs/rulings.md 14D3-1)."""
    side = state.turn
    if state.marked(side, Mark.ASSIGNING_PRODUCED):
        # hits an effect produced during the step (Reflective Shielding): not barrage hits,
        # they reach any ship (docs/rulings.md 27T-7)
        return assign_hits(
            setup,
            state,
            side,
            None,
            Targets.SHIPS,
            PRODUCED_CAUSE,
            in_combat_round=True,
            done=lambda s: _barrage_assigned(setup, s.unmarking(side, Mark.ASSIGNING_PRODUCED)),
        )

    def done(s: BattleState) -> BattleState:
        if side is A:
            return s.at(Phase.ANTI_FIGHTER_BARRAGE_HITS, turn=D)
        return _barrage_assigned(setup, s)

    widened = any(h.widens_barrage(setup, state, side) for h in overriding(setup, "widens_barrage"))
    return assign_hits(
        setup,
        state,
        side,
        None,
        Targets.SHIPS if widened else Targets.FIGHTERS,
        "anti-fighter barrage",
        in_combat_round=True,
        done=done,
    )


#: the cause of the hits an effect produced during the anti-fighter barrage step
PRODUCED_CAUSE = "Reflective Shielding"


def _barrage_assigned(setup: BattleSetup, state: BattleState) -> BattleState:
    """Once the barrage hits are assigned: the hits an effect produced against a player during
    the step (``Mark.PRODUCED_IN_BARRAGE``: Reflective Shielding), the attacker's first, are
    assigned by that player to any of its ships (docs/rulings.md 27T-7); then, if a player has
    no ships left, the combat ends at once (step 1.1)."""
    for x in SIDES:
        produced = state.mark_count(x, Mark.PRODUCED_IN_BARRAGE)
        if produced:
            assigning = state.unmarking(x, Mark.PRODUCED_IN_BARRAGE).marking(
                x, Mark.ASSIGNING_PRODUCED
            )
            return assigning.with_hits_on(x, produced).at(Phase.ANTI_FIGHTER_BARRAGE_HITS, turn=x)
    if all(ships(setup, state, x) for x in SIDES):
        return state.at(Phase.ANNOUNCE_RETREATS, turn=D)
    return state.at(Phase.END_OF_ROUND)  # step 1.1: the combat ends; its end windows follow


def announce_retreats(setup: BattleSetup, state: BattleState) -> Node[BattleState]:
    """Step 2: each player may announce a retreat, the defender first; once the defender has,
    the attacker cannot (2.2); only with an eligible system (2.3). FAQ: if neither side can win,
    the attacker must retreat, or its ships are destroyed (stalemate.py)."""
    side = state.turn
    answered = _acts_on_retreats(setup)
    if answered and side is D and not state.marked(D, Mark.ANNOUNCE_WINDOW_OPENED):
        # the start of the step (Rout), before the defender announces
        marked = state.marking(D, Mark.ANNOUNCE_WINDOW_OPENED)
        return open_windows(setup, marked, ((Window.ANNOUNCE_RETREATS,),), Phase.ANNOUNCE_RETREATS)

    def after(s: BattleState) -> BattleState:
        if side is D:
            return s.at(Phase.ANNOUNCE_RETREATS, turn=A)
        return s.at(Phase.ROLL_DICE, turn=A)

    def announcing(forced: str | None) -> Step[BattleState]:
        done = after(_announced(state, side))
        said = event(
            "retreat_announced",
            player=side.value,
            forced=forced is not None,
            **({"reason": forced} if forced else {}),
        )
        if answered:
            # right after the announcement (Intercept)
            opened = open_windows(setup, done, ((Window.RETREAT_ANNOUNCED,),), done.phase)
            return Step(opened.state, (said, *opened.events))
        return Step(done, (said,))

    if side is A and (state.has_announced(D) or state.marked(D, Mark.INTERCEPTED)):
        return Step(after(state))
    can_retreat = bool(eligible_systems(setup, side))
    if side is A and neither_can_win(setup, state):
        if can_retreat:
            return announcing("neither side can win (FAQ)")
        # FAQ: "their units in the combat are destroyed": the ships. Ground forces in the space
        # area are removed at the end of combat, with no ships left to carry them.
        cards = setup.side(side)
        space = state.side(side).space
        events = list(
            destroyed(
                side,
                space.keep(cards.is_ship),
                "neither side can win and no retreat is possible (FAQ)",
            )
        )
        gone = state.with_side(side, state.side(side).with_space(space.without(cards.is_ship)))
        return Step(gone.at(Phase.END_OF_ROUND), tuple(events))
    if not can_retreat:
        return Step(after(state))
    if side is A and state.marked(D, Mark.ROUTED):
        return announcing("Rout")
    request = DecisionRequest(
        decision="announce_retreat",
        player=side.value,
        prompt=f"round {state.round}: announce a retreat?",
        options=(Option("stay", "stay"), Option("retreat", "retreat")),
        facts={
            "round": state.round,
            "rounds_fought": state.round - 1,
            "own_dice": combat_dice(setup, state, side),
            "enemy_dice": combat_dice(setup, state, side.other),
            "own_ships": ships(setup, state, side),
            "enemy_ships": ships(setup, state, side.other),
        },
    )

    def then(option: Option) -> Step[BattleState]:
        if option.action == "retreat":
            return announcing(None)
        return Step(after(state))

    return Decision(request, then)


def _acts_on_retreats(setup: BattleSetup) -> bool:
    """Whether a handler in play acts in the windows of the Announce Retreats step."""
    return setup.remembered(
        ("acts_on_retreats",),
        lambda: any(
            opens(h, Window.ANNOUNCE_RETREATS) or opens(h, Window.RETREAT_ANNOUNCED)
            for h in setup.handlers
        ),
    )


def _announced(state: BattleState, side: Side) -> BattleState:
    pair = (True, state.announced[1]) if side is A else (state.announced[0], True)
    return state.at(state.phase, announced=pair)


def end_of_combat(setup: BattleSetup, state: BattleState) -> Node[BattleState]:
    """After combat: the player with ships left wins; a draw if neither has (rule 10). The
    winner then removes fighters and ground forces in the space area beyond its capacity
    (10.1, note 13); a player with no ships keeps none there (docs/rulings.md R6).

    Note 13: the winner is decided before capacity is checked, so it can win with only Fighter I
    left and then lose them all; the state keeps the result so the removals cannot change it.
    Units that changed for the combat (``Handler.at_end_of_combat``) turn back after the result
    is decided and before the removals."""
    if not state.result and state.round:
        left = [ships(setup, state, side) for side in SIDES]
        return Step(state.at(Phase.END_OF_COMBAT, result=combat_result(*left)))
    for handler in overriding(setup, "at_end_of_combat"):
        # units changed for the combat turn back, once the result is decided (14S-2, 14S-3)
        node = handler.at_end_of_combat(setup, state)
        if node is not None:
            return node
    for side in SIDES:
        # no ships to carry them: but a floating unit (a Saar Floating Factory), not blockaded,
        # holds them (its capacity is checked next) (docs/rulings.md 14F-2)
        if ships(setup, state, side) == 0 and not floating_units(setup, state, side):
            cargo = state.side(side).space
            if cargo:
                events = tuple(
                    event("unit_removed", player=side.value, unit=u, reason="no ships to carry it")
                    for u, _, n in cargo
                    for _ in range(n)
                )
                return Step(state.with_side(side, state.side(side).with_space(Forces())), events)
    for side in SIDES:
        over = excess(setup, state, side)
        if over:
            return remove_excess(setup, state, side, over, "beyond capacity after combat")
    outcome = space_outcome(setup, state)
    ended: tuple[Event, ...] = ()
    if state.round:
        ended = (event("combat_ended", kind="space", rounds=state.round),)
    return End(outcome, (*ended, event("battle_ended", **outcome)))
