"""The space battle (ti3-combat.md, SPACE BATTLES), with the PDS fire that precedes it
(ti3-facts.md section 3, tactical action step 3; section 5).

PDS fire -> pre-combat steps in the order the defender chooses -> combat rounds: announce
withdrawals/retreats, roll combat dice, remove casualties, execute withdrawals/retreats, end of
round -> end of the space battle, when fleets are checked.
"""

from __future__ import annotations

from spacecombat.core.decisions import DecisionRequest, Option
from spacecombat.core.engine import Decision, Node, Step
from spacecombat.core.events import event
from spacecombat.core.forces import Status
from spacecombat.core.pool import DicePool
from spacecombat.core.rulesdata import Roll
from spacecombat.core.sides import SIDES, Side
from spacecombat.core.state import ships
from spacecombat.rulesets.ti3 import ion_storm
from spacecombat.rulesets.ti3.abilities import (
    dimensional_splicers,
    duranium_armor,
    naalu_retreat,
    van_hauge,
)
from spacecombat.rulesets.ti3.abilities.base import RollKind
from spacecombat.rulesets.ti3.cards import (
    beacon_of_hope,
    communications_breakdown,
    experimental_battlestation,
    faulty_targeting_systems,
    fighter_prototype,
    flanking_tactic,
    friendly_fire,
    into_the_breach,
    minelayers,
    rule_of_terror,
    target_their_flagship,
)
from spacecombat.rulesets.ti3.cards.common import WindowCard, held_by_anyone, in_window, window
from spacecombat.rulesets.ti3.procedures import (
    exchange,
    leaving_rift,
    minister_of_war,
    round_start,
    sabotage_run,
    stalemate,
)
from spacecombat.rulesets.ti3.procedures.common import (
    Targets,
    combat_pool,
    pds_pool,
    pool,
    retreat_destination,
)
from spacecombat.rulesets.ti3.procedures.common import remove_casualties as take_hits
from spacecombat.rulesets.ti3.procedures.exchange import Exchange
from spacecombat.rulesets.ti3.setup import Ti3Setup, barrage_units, why_not_destination
from spacecombat.rulesets.ti3.state import Phase, Ti3State

A, D = Side.ATTACKER, Side.DEFENDER

# --- PDS fire (before the space battle) -----------------------------------------------------


def _pds_pool(setup: Ti3Setup, state: Ti3State, side: Side) -> DicePool | None:
    """Each PDS of ``side`` on a planet of the system fires one die at enemy ships (and the
    Loncara Ssodu its 2 dice at 6 with them: 27R-20)."""
    # Experimental Battlestation: a space dock fires three times as a PDS (27S-20)
    count = state.side(side).planet(0).count("pds") + experimental_battlestation.shots(
        setup, state, side
    )
    cannon = _flagship_cannon(setup, state, side)
    if not (count or cannon) or not ships(setup, state, side.other):
        return None
    if not cannon:
        return pds_pool(setup, state, side, count, RollKind.PDS_FIRE)
    cards = setup.side(side)

    def roll(unit: str) -> Roll:
        found = cards.card(unit).space_cannon
        assert found is not None
        return found

    units = [(u, n) for u, n in (("pds", count), ("flagship", cannon)) if n]
    return pool(
        setup,
        state,
        side,
        RollKind.PDS_FIRE,
        units,
        value=lambda u: roll(u).hit,
        dice_each=lambda u: roll(u).dice,
    )


def _flagship_cannon(setup: Ti3Setup, state: Ti3State, side: Side) -> int:
    """1 if ``side``'s Loncara Ssodu (Xxcha flagship) is in the space area, else 0 (and 0 in
    an ion storm with option ``ion_storm_flagship_pds: none``, docs/rulings.md 27J-4)."""
    if not setup.side(side).has("xxcha_flagship") or not ion_storm.flagship_cannon_fires(setup):
        return 0
    return min(1, state.side(side).space.count("flagship"))


def _pds_fire(setup: Ti3Setup) -> Exchange:
    return Exchange(
        "pds_fire",
        Phase.PDS_FIRE,
        Phase.PDS_FIRE_HITS,
        _pds_pool,
        Targets.SHIPS,
        simultaneous=setup.options.simultaneous_pds_fire,
        rerolls=lambda setup, side: setup.side(side).has("graviton_laser_system"),
        done=lambda setup, state: state.at(Phase.PRE_COMBAT, steps=setup.pre_combat, step=START),
        cause="PDS fire",
    )


def pds_fire(setup: Ti3Setup, state: Ti3State) -> Node[Ti3State]:
    """PDS fire: each player's PDS in the system roll (both at once by default, T5). Before
    it, the defender may play Experimental Battlestation (27S-20), then Minelayers, whose hits
    the attacker takes at once (27S-25) unless it prevents them with Faulty Targeting Systems
    (27S-39)."""
    if state.turn is A and not state.pending:
        if experimental_battlestation.applies(setup, state):
            return experimental_battlestation.ask(setup, state)
        if minelayers.applies(setup, state):
            return minelayers.ask(setup, state)
        if faulty_targeting_systems.prevents(state):
            return faulty_targeting_systems.ask_prevent(state)
        if state.step in (minelayers.LAID, faulty_targeting_systems.KEPT):
            return take_hits(
                setup,
                state,
                A,
                None,
                Targets.SHIPS,
                "Minelayers",
                lambda s: s.changed(step=minelayers.ASKED),
            )
    return exchange.roll(setup, state, _pds_fire(setup))


def pds_fire_hits(setup: Ti3Setup, state: Ti3State) -> Node[Ti3State]:
    """PDS hits are taken by the ships' owner like casualties; SUSTAIN DAMAGE may take them."""
    return exchange.hits(setup, state, _pds_fire(setup))


#: ``step`` of the state between PDS fire and the space battle proper
START = "start"


# --- pre-combat steps -----------------------------------------------------------------------


def _afb_pool(setup: Ti3Setup, state: Ti3State, side: Side) -> DicePool | None:
    """Anti-fighter barrage: 2 dice per destroyer at its combat value, against fighters (and
    the Son of Ragh's 4 dice at 6: 27R-9)."""
    enemy = side.other
    if not state.side(enemy).space.count("fighter") and not (
        van_hauge.fighting(setup, state, enemy) and van_hauge.aboard(state, enemy)
    ):
        return None
    cards = setup.side(side)
    space = state.side(side).space
    units = [(u, space.count(u)) for u in barrage_units(cards) if space.count(u)]
    if not units:
        return None

    def barrage(unit: str) -> Roll:
        found = cards.card(unit).anti_fighter_barrage
        assert found is not None
        return found

    return pool(
        setup,
        state,
        side,
        RollKind.ANTI_FIGHTER_BARRAGE,
        units,
        value=lambda u: barrage(u).hit,
        dice_each=lambda u: barrage(u).dice,
    )


def _assault_cannon_pool(setup: Ti3Setup, state: Ti3State, side: Side) -> DicePool | None:
    """Assault Cannon: each dreadnought one shot at its combat value."""
    count = state.side(side).space.count("dreadnought")
    if not setup.side(side).has("assault_cannon") or not count:
        return None
    if not ships(setup, state, side.other):
        return None
    return pool(setup, state, side, RollKind.PRE_COMBAT_SHOT, [("dreadnought", count)])


def _mentak_pool(setup: Ti3Setup, state: Ti3State, side: Side) -> DicePool | None:
    """Mentak: up to 2 cruisers and/or destroyers one shot each, cruisers first (they hit
    more often; R-T7)."""
    if not setup.side(side).has("mentak") or not ships(setup, state, side.other):
        return None
    space = state.side(side).space
    cruisers = min(2, space.count("cruiser"))
    destroyers = min(2 - cruisers, space.count("destroyer"))
    chosen = [(u, n) for u, n in (("cruiser", cruisers), ("destroyer", destroyers)) if n]
    if not chosen:
        return None
    return pool(setup, state, side, RollKind.PRE_COMBAT_SHOT, chosen)


def _back_to_pre_combat(setup: Ti3Setup, state: Ti3State) -> Ti3State:
    return state.at(Phase.PRE_COMBAT, step="")


def pre_combat_exchange(setup: Ti3Setup, step: str) -> Exchange:
    """The exchange of fire of one pre-combat step."""
    if step == "anti_fighter_barrage":
        return Exchange(
            "anti_fighter_barrage",
            Phase.PRE_COMBAT_STEP,
            Phase.PRE_COMBAT_HITS,
            _afb_pool,
            Targets.FIGHTERS,
            done=_back_to_pre_combat,
            cause="anti-fighter barrage",
        )
    if step == "assault_cannon":
        return Exchange(
            "assault_cannon",
            Phase.PRE_COMBAT_STEP,
            Phase.PRE_COMBAT_HITS,
            _assault_cannon_pool,
            Targets.SHIPS,
            simultaneous=setup.options.simultaneous_assault_cannon,
            done=_back_to_pre_combat,
            cause="Assault Cannon",
        )
    return Exchange(
        "mentak",
        Phase.PRE_COMBAT_STEP,
        Phase.PRE_COMBAT_HITS,
        _mentak_pool,
        Targets.SHIPS,
        simultaneous=True,
        done=_back_to_pre_combat,
        cause="Mentak's pre-combat shots",
    )


def pre_combat(setup: Ti3Setup, state: Ti3State) -> Node[Ti3State]:
    """The pre-combat steps, once, before round 1: first the action cards played immediately
    before a space battle (Into the Breach: the attacker, then the defender); then the
    defender chooses the order of those
    that apply, but anti-fighter barrage always happens before a sabotage run (ti3-combat.md
    NOTE): while the barrage is still to come, the run is not among the defender's choices.
    Their hits are removed at once, with no return fire."""
    if state.step.startswith(target_their_flagship.AIMING):
        return target_their_flagship.fire(setup, state)
    if state.step.startswith(rule_of_terror.ANSWER):
        return rule_of_terror.answer(setup, state)
    if state.step.startswith(rule_of_terror.LEAVING):
        return rule_of_terror.destination(setup, state)
    if state.step.startswith(rule_of_terror.HITS):
        # Rule of Terror's 2 casualties, then the opening window goes on (27S-27)
        holder, window_step = rule_of_terror.parse(state.step, rule_of_terror.HITS)
        return take_hits(
            setup,
            state,
            holder.other,
            None,
            Targets.SHIPS,
            "Rule of Terror",
            lambda s: s.changed(step=window_step),
        )
    if not all(ships(setup, state, side) for side in SIDES):
        # before the battle began (PDS fire): no combat; after a pre-combat step: it is over
        return Step(state.at(Phase.END_OF_SPACE_BATTLE))
    if state.step == START and naalu_retreat.applies(setup, state):
        # the Naalu defender may retreat before the space battle begins (27S-16)
        dice = {side: combat_pool(setup, state, side) for side in SIDES}
        return naalu_retreat.ask(setup, state, dice, state.changed(step=_NAALU_STAYS))
    if state.step == naalu_retreat.RETREATING:
        return naalu_retreat.destination(setup, state)
    if state.step in (START, _NAALU_STAYS):
        # action cards played immediately before a space battle (Into the Breach, Fighter
        # Prototype) come first; then, at the start of the battle, Dimensional Splicers (27S-33)
        begun = state.at(Phase.PRE_COMBAT, step="")
        if held_by_anyone(setup, _OPENING):
            begun = begun.changed(step=_CARDS)
        else:
            begun = dimensional_splicers.begin(setup, begun)
        return Step(begun, (event("combat_started", kind="space"),))
    if in_window(state, _CARDS):
        return window(
            setup,
            state,
            _OPENING,
            _CARDS,
            lambda s: Step(dimensional_splicers.begin(setup, s)),
        )
    if state.step.startswith(dimensional_splicers.STEP):
        return dimensional_splicers.next_player(setup, state)
    if state.step == "":
        # Van Hauge: its owner's ground forces in space fight as fighters? (27S-43)
        asked = van_hauge.ask(setup, state)
        if asked is not None:
            return asked
    if not state.steps:
        # damage taken before round 1 (PDS fire, pre-combat shots) is not "this round's"
        first = into_the_breach.settled(
            state.at(
                round_start.first_phase(setup, Phase.ANNOUNCE_WITHDRAWALS),
                round=1,
                turn=A,
                attacker=state.attacker.with_space(state.attacker.space.settle_round()),
                defender=state.defender.with_space(state.defender.space.settle_round()),
            )
        )
        return Step(first, (event("round_started", round=1),))
    legal = [s for s in state.steps if s != sabotage_run.STEP or _AFB not in state.steps]
    options = tuple(Option(step, "take", target=step) for step in legal)
    request = DecisionRequest(
        decision="pre_combat_order",
        player=D.value,
        prompt="choose the next pre-combat step",
        options=options,
        facts={"steps": list(legal)},
    )

    def then(option: Option) -> Step[Ti3State]:
        step = option.target or ""
        rest = tuple(s for s in state.steps if s != step)
        taken = state.at(Phase.PRE_COMBAT_STEP, step=step, steps=rest, turn=A)
        return Step(taken, (event("pre_combat_step", step=step),))

    return Decision(request, then)


#: ``step`` of the state while each player may play an action card "immediately before a
#: space battle" (the spec's first pre-combat item), the attacker first (cards/common.py window)
_CARDS = "cards:"

#: the cards played then, in the order each player is asked
_OPENING: tuple[WindowCard, ...] = (
    communications_breakdown,
    into_the_breach,
    fighter_prototype,
    beacon_of_hope,
    friendly_fire,
    flanking_tactic,
    rule_of_terror,
    target_their_flagship,
)

#: ``step`` once a Naalu defender chose to stay (abilities/naalu_retreat.py)
_NAALU_STAYS = "naalu_stays"

#: the pre-combat step every sabotage run must follow (ti3-combat.md NOTE)
_AFB = "anti_fighter_barrage"


def pre_combat_step(setup: Ti3Setup, state: Ti3State) -> Node[Ti3State]:
    if state.step == sabotage_run.STEP:
        return Step(sabotage_run.start(state))
    if state.step == minister_of_war.STEP:
        return minister_of_war.spend(setup, state)
    if state.step == minister_of_war.HIT:
        return minister_of_war.hit(setup, state)
    return exchange.roll(setup, state, pre_combat_exchange(setup, state.step))


def pre_combat_hits(setup: Ti3Setup, state: Ti3State) -> Node[Ti3State]:
    return exchange.hits(setup, state, pre_combat_exchange(setup, state.step))


# --- combat rounds --------------------------------------------------------------------------


def destinations(setup: Ti3Setup, state: Ti3State, side: Side) -> list[str]:
    """Where ``side`` may withdraw or retreat (``why_not_destination``); the same whatever the
    state."""
    return [s.name for s in setup.adjacent if why_not_destination(side, s) is None]


def _combat_dice(setup: Ti3Setup, state: Ti3State, side: Side) -> int:
    dice = combat_pool(setup, state, side)
    return dice.dice if dice is not None else 0


def announce_withdrawals(
    setup: Ti3Setup, state: Ti3State, advance: stalemate.Advance
) -> Node[Ti3State]:
    """Announce withdrawals/tactical retreats: the attacker first may withdraw; if he does
    not, the defender may retreat. A player with nowhere to go may not announce. ``advance``:
    the battle's step function, with which the stalemate check plays rounds ahead (T15)."""
    side = state.turn
    if side is A and stalemate.possible(setup) and stalemate.neither_can_win(setup, state, advance):
        why = "neither player can ever destroy the other's ships (T15)"
        ended = state.at(Phase.END_OF_SPACE_BATTLE, result="stalemate")
        return Step(ended, (event("stalemate", reason=why),))
    if not destinations(setup, state, side) or flanking_tactic.flanked(state, side):
        # nowhere to go, or Flanking Tactic forbids it (27S-22)
        return Step(_after_announcement(state, side, False))
    verb = "withdraw" if side is A else "retreat"
    request = DecisionRequest(
        decision="announce_withdrawal" if side is A else "announce_retreat",
        player=side.value,
        prompt=f"round {state.round}: announce a {'withdrawal' if side is A else 'retreat'}?",
        options=(Option(verb, verb), Option("stay", "stay")),
        facts={
            "round": state.round,
            "own_dice": _combat_dice(setup, state, side),
            "enemy_dice": _combat_dice(setup, state, side.other),
        },
    )

    def then(option: Option) -> Step[Ti3State]:
        wanted = option.action != "stay"
        name = "withdrawal_announced" if side is A else "retreat_announced"
        said = (event(name, player=side.value),)
        return Step(_after_announcement(state, side, wanted), said if wanted else ())

    return Decision(request, then)


def _after_announcement(state: Ti3State, side: Side, wanted: bool) -> Ti3State:
    if wanted:
        return state.at(Phase.ROLL_COMBAT_DICE, announced=side, turn=A)
    if side is A:
        return state.at(Phase.ANNOUNCE_WITHDRAWALS, turn=D)
    return state.at(Phase.ROLL_COMBAT_DICE, turn=A)


SPACE_COMBAT = Exchange(
    "space_combat",
    Phase.ROLL_COMBAT_DICE,
    Phase.REMOVE_CASUALTIES,
    combat_pool,
    Targets.SHIPS,
    done=lambda setup, state: state.at(Phase.EXECUTE_WITHDRAWALS),
    cause="space combat",
)


def roll_combat_dice(setup: Ti3Setup, state: Ti3State) -> Node[Ti3State]:
    """Both players roll at once, a die per ship (three per war sun)."""
    return exchange.roll(setup, state, SPACE_COMBAT)


def remove_casualties(setup: Ti3Setup, state: Ti3State) -> Node[Ti3State]:
    """The attacker, then the defender, take the hits scored against them."""
    return exchange.hits(setup, state, SPACE_COMBAT)


def execute_withdrawals(setup: Ti3Setup, state: Ti3State) -> Node[Ti3State]:
    """An announced withdrawal/retreat moves the whole fleet to an adjacent activated system
    without enemy ships, unless the opposing ships are all destroyed (then it is cancelled
    and the winner stays)."""
    side = state.announced
    if side is None:
        return Step(state.at(Phase.END_OF_ROUND))
    if not ships(setup, state, side.other) or not ships(setup, state, side):
        why = "the opposing ships are all destroyed" if ships(setup, state, side) else "no ships"
        cancelled = event("withdrawal_cancelled", player=side.value, reason=why)
        return Step(state.at(Phase.END_OF_ROUND, announced=None), (cancelled,))
    return retreat_destination(
        state, side, destinations(setup, state, side), Phase.END_OF_ROUND, announced=None
    )


def end_of_round(setup: Ti3Setup, state: Ti3State) -> Node[Ti3State]:
    """End of the round: Arc Secundus repairs itself (27R-18), then Duranium Armor repairs; if
    both players still have ships in the system, a new round begins."""
    repaired = _arc_secundus_repairs(setup, state)
    if repaired is not None:
        return repaired
    return duranium_armor.repair(setup, state, lambda s: _next_round(setup, s))


def _arc_secundus_repairs(setup: Ti3Setup, state: Ti3State) -> Step[Ti3State] | None:
    """Arc Secundus, the Letnev flagship, repairs itself at the end of each combat round
    (PC_Twi CombatInterface.cpp AutoRepairs after each round's dice; docs/rulings.md 27R-18):
    the repair of each player's damaged Arc Secundus, attacker first, or ``None``."""
    after, said = state, []
    for side in SIDES:
        if not setup.side(side).has("letnev_flagship"):
            continue
        space = after.side(side).space
        for status in (Status.DAMAGED, Status.SUSTAINED_THIS_ROUND):
            if space.count("flagship", status):
                space = space.move("flagship", status, Status.UNDAMAGED)
                after = after.with_side(side, after.side(side).with_space(space))
                said.append(
                    event("unit_repaired", player=side.value, unit="flagship", by="Arc Secundus")
                )
    return Step(after, tuple(said)) if said else None


def _next_round(setup: Ti3Setup, state: Ti3State) -> Step[Ti3State]:
    settled = into_the_breach.settled(  # a chosen dreadnought damaged this round (27Q-1)
        state.changed(
            attacker=state.attacker.with_space(state.attacker.space.settle_round()),
            defender=state.defender.with_space(state.defender.space.settle_round()),
            step="",  # what a round's steps marked (Shields Holding asked) is over
        )
    )
    ended = (event("round_ended", round=state.round),)
    if state.withdrew is None and all(ships(setup, settled, side) for side in SIDES):
        nxt = settled.at(
            round_start.first_phase(setup, Phase.ANNOUNCE_WITHDRAWALS),
            round=state.round + 1,
            turn=A,
        )
        return Step(nxt, (*ended, event("round_started", round=state.round + 1)))
    return Step(settled.at(Phase.END_OF_SPACE_BATTLE), ended)


def end_of_space_battle(setup: Ti3Setup, state: Ti3State) -> Node[Ti3State]:
    """The battle is over: ships that left a gravity rift roll (procedures/leaving_rift.py),
    its result is settled, then fleets are checked (capacity and fleet supply; ti3-facts.md
    section 4.3). Van Hauge's units taken up from the planets land on
    them first (27T-15)."""
    rift = leaving_rift.roll(setup, state)
    if rift is not None:
        # the ships that left a gravity rift roll first (27M-3)
        return rift
    for side in SIDES:
        state = van_hauge.land(state, side)
    if state.step == START:
        result = "no_combat"
        events = (event("no_combat", reason="a player has no ships when the battle would begin"),)
    elif state.result:  # a stalemate
        result = state.result
        events = (event("combat_ended", kind="space", rounds=state.round),)
    else:
        left = {side: ships(setup, state, side) for side in SIDES}
        if left[A] and not left[D]:
            result = "attacker_win"
        elif left[D] and not left[A]:
            result = "defender_win"
        else:
            result = "draw"
        events = (event("combat_ended", kind="space", rounds=state.round),)
    return Step(state.at(Phase.FLEET_CHECK, result=result, turn=A), events)
