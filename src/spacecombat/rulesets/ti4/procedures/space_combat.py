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
from spacecombat.rulesets.ti4.abilities.anti_fighter_barrage import barrage_pool
from spacecombat.rulesets.ti4.outcome import space_outcome
from spacecombat.rulesets.ti4.procedures.assign_hits import Targets, assign_hits
from spacecombat.rulesets.ti4.procedures.capacity import excess, remove_excess
from spacecombat.rulesets.ti4.procedures.common import combat_dice
from spacecombat.rulesets.ti4.procedures.retreat import eligible_systems
from spacecombat.rulesets.ti4.procedures.stalemate import neither_can_win
from spacecombat.rulesets.ti4.procedures.windows import FIRST_ROUND, open_windows
from spacecombat.rulesets.ti4.setup import BattleSetup
from spacecombat.rulesets.ti4.sides import SIDES, Side
from spacecombat.rulesets.ti4.state import BattleState, Phase

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
    before either assigns hits (docs/rulings.md R15). The step happens even with no fighters."""
    roller = state.turn

    def after(s: BattleState) -> BattleState:
        if roller is A:
            return s.at(Phase.ANTI_FIGHTER_BARRAGE, turn=D)
        return s.at(Phase.ANTI_FIGHTER_BARRAGE_HITS, turn=A)

    pool = barrage_pool(setup, roller, state.side(roller).space)
    if not pool.groups:
        return Step(after(state))
    return Chance(
        roller.value,
        "anti_fighter_barrage",
        pool,
        lambda hits: Step(after(state.with_hits_on(roller.other, hits))),
    )


def anti_fighter_barrage_hits(setup: BattleSetup, state: BattleState) -> Node[BattleState]:
    """Each player destroys their own fighters for the barrage hits against them; then, if a
    player has no ships left, the combat ends at once (step 1.1)."""
    side = state.turn

    def done(s: BattleState) -> BattleState:
        if side is A:
            return s.at(Phase.ANTI_FIGHTER_BARRAGE_HITS, turn=D)
        if all(ships(setup, s, x) for x in SIDES):
            return s.at(Phase.ANNOUNCE_RETREATS, turn=D)
        return s.at(Phase.END_OF_ROUND)  # step 1.1: the combat ends; its end windows follow

    return assign_hits(
        setup,
        state,
        side,
        None,
        Targets.FIGHTERS,
        "anti-fighter barrage",
        in_combat_round=True,
        done=done,
    )


def announce_retreats(setup: BattleSetup, state: BattleState) -> Node[BattleState]:
    """Step 2: each player may announce a retreat, the defender first; once the defender has,
    the attacker cannot (2.2); only with an eligible system (2.3). FAQ: if neither side can win,
    the attacker must retreat, or its ships are destroyed (stalemate.py)."""
    side = state.turn

    def after(s: BattleState) -> BattleState:
        if side is D:
            return s.at(Phase.ANNOUNCE_RETREATS, turn=A)
        return s.at(Phase.ROLL_DICE, turn=A)

    if side is A and state.has_announced(D):
        return Step(after(state))
    can_retreat = bool(eligible_systems(setup, side))
    if side is A and neither_can_win(setup, state):
        if can_retreat:
            return Step(
                after(_announced(state, side)),
                (
                    event(
                        "retreat_announced",
                        player=side.value,
                        forced=True,
                        reason="neither side can win (FAQ)",
                    ),
                ),
            )
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
            return Step(
                after(_announced(state, side)),
                (event("retreat_announced", player=side.value, forced=False),),
            )
        return Step(after(state))

    return Decision(request, then)


def _announced(state: BattleState, side: Side) -> BattleState:
    pair = (True, state.announced[1]) if side is A else (state.announced[0], True)
    return state.at(state.phase, announced=pair)


def end_of_combat(setup: BattleSetup, state: BattleState) -> Node[BattleState]:
    """After combat: the player with ships left wins; a draw if neither has (rule 10). The
    winner then removes fighters and ground forces in the space area beyond its capacity
    (10.1, note 13); a player with no ships keeps none there (docs/rulings.md R6).

    Note 13: the winner is decided before capacity is checked, so it can win with only Fighter I
    left and then lose them all; the state keeps the result so the removals cannot change it."""
    if not state.result and state.round:
        left = [ships(setup, state, side) for side in SIDES]
        return Step(state.at(Phase.END_OF_COMBAT, result=combat_result(*left)))
    for side in SIDES:
        if ships(setup, state, side) == 0:
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
