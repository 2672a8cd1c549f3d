"""Sabotage Runs, a pre-combat step of the space battle (Shattered Empire option;
ti3-combat.md, SPACE BATTLES: "Sabotage Run", which the defender orders among the pre-combat
steps, but never before anti-fighter barrage; docs/rulings.md 27A-1 to 27A-5).

1. Declare the runs: each player whose opponent has a War Sun in the battle may send any
   number of their fighters on a sabotage run against it (the attacker first; a decision of
   each, asked as ``play_card`` with the card ``sabotage_run``).
2. The War Sun fires: for each fighter of a run, the War Sun's owner rolls one die at the War
   Sun's combat value; each hit destroys one fighter of the run (27A-2; option
   ``sabotage_run_war_sun_fire``).
3. The fighters roll: each surviving fighter of a run rolls one die; if any rolls a 10, one
   enemy War Sun is destroyed, whatever its SUSTAIN DAMAGE (27A-3); the fighters that did not
   roll a 10 are destroyed (option ``sabotage_run_fighters_lost``), those that did return to
   the battle.

The two players' runs are independent (each side's fighters face the other's War Suns), so
taking them the attacker's first gives the same outcomes as taking them at once.
"""

from __future__ import annotations

from spacecombat.core.decisions import DecisionRequest, Option
from spacecombat.core.engine import Chance, Decision, Node, Step
from spacecombat.core.events import Event, event
from spacecombat.core.forces import Status
from spacecombat.core.hits import unit_destroyed
from spacecombat.core.pool import DiceGroup, DicePool
from spacecombat.core.sides import Side
from spacecombat.rulesets.ti3.setup import Ti3Setup
from spacecombat.rulesets.ti3.state import Phase, Ti3State

A, D = Side.ATTACKER, Side.DEFENDER

#: the pre-combat step's name (``policy.pre_combat_order``) and the card name a player's
#: ``policy.play`` gives for the decision to send fighters
STEP = "sabotage_run"

#: a sabotage run succeeds on a natural 10 only (27A-3)
TEN = 10


def _fighters_that_may_run(state: Ti3State, side: Side) -> int:
    if not state.side(side.other).space.count("war_sun"):
        return 0
    return state.side(side).space.count("fighter")


def start(state: Ti3State) -> Ti3State:
    """The pre-combat step begins: the attacker declares first."""
    return state.at(Phase.SABOTAGE_RUN_DECLARE, turn=A, running=(0, 0))


def declare(setup: Ti3Setup, state: Ti3State) -> Node[Ti3State]:
    """Step 1: ``state.turn`` chooses how many of its fighters make the run (none: pass)."""
    side = state.turn
    count = _fighters_that_may_run(state, side)
    if not count:
        return Step(_declared(state, side, 0))
    sends = [
        Option(f"send {n} fighter{'s' if n > 1 else ''}", "run", unit="fighter", count=n)
        for n in range(count, 0, -1)
    ]
    options = (*sends, Option("pass", "pass"))
    request = DecisionRequest(
        decision="play_card",
        player=side.value,
        prompt="send fighters on a sabotage run against an enemy War Sun?",
        options=options,
        facts={
            "card": STEP,
            "fighters": count,
            "war_suns": state.side(side.other).space.count("war_sun"),
        },
    )

    def then(option: Option) -> Step[Ti3State]:
        sent = option.count if option.action == "run" else 0
        said = (event("sabotage_run", player=side.value, fighters=sent),) if sent else ()
        return Step(_declared(state, side, sent), said)

    return Decision(request, then)


def _with_running(state: Ti3State, side: Side, count: int) -> Ti3State:
    running = (count, state.running[1]) if side is A else (state.running[0], count)
    return state.changed(running=running)


def _declared(state: Ti3State, side: Side, sent: int) -> Ti3State:
    state = _with_running(state, side, sent)
    if side is A:
        return state.at(Phase.SABOTAGE_RUN_DECLARE, turn=D)
    return state.at(Phase.SABOTAGE_RUN_WAR_SUN_FIRE, turn=A)


def war_sun_fire(setup: Ti3Setup, state: Ti3State) -> Node[Ti3State]:
    """Step 2: the War Sun's owner rolls one die per fighter of ``state.turn``'s run, at the
    War Sun's combat value; each hit destroys one of those fighters (27A-2)."""
    runner = state.turn
    running = state.running[0 if runner is A else 1]
    if not running or not setup.options.sabotage_run_war_sun_fire:
        return Step(_after_war_sun_fire(state, runner))
    owner = runner.other
    combat = setup.side(owner).card("war_sun").combat
    assert combat is not None
    dice = DicePool.of([DiceGroup("war_sun", running, combat.hit)])

    def then(hits: int) -> Step[Ti3State]:
        lost = min(hits, running)
        after, events = _destroy_fighters(state, runner, lost, "sabotage run: War Sun fire")
        return Step(_after_war_sun_fire(after, runner), events)

    return Chance(owner.value, "sabotage_run_war_sun_fire", dice, then)


def _destroy_fighters(
    state: Ti3State, side: Side, count: int, cause: str
) -> tuple[Ti3State, tuple[Event, ...]]:
    if not count:
        return state, ()
    own = state.side(side)
    space = own.space.remove("fighter", Status.UNDAMAGED, count)
    left = state.running[0 if side is A else 1] - count
    after = _with_running(state.with_side(side, own.with_space(space)), side, left)
    return after, tuple(
        unit_destroyed(side, "fighter", Status.UNDAMAGED, cause) for _ in range(count)
    )


def _after_war_sun_fire(state: Ti3State, runner: Side) -> Ti3State:
    if runner is A:
        return state.at(Phase.SABOTAGE_RUN_WAR_SUN_FIRE, turn=D)
    return state.at(Phase.SABOTAGE_RUN_FIGHTERS, turn=A)


def fighters_roll(setup: Ti3Setup, state: Ti3State) -> Node[Ti3State]:
    """Step 3: each surviving fighter of ``state.turn``'s run rolls one die; a 10 destroys one
    enemy War Sun, ignoring SUSTAIN DAMAGE (27A-3, 27A-4); fighters without a 10 are destroyed
    (27A-3, option ``sabotage_run_fighters_lost``)."""
    runner = state.turn
    running = state.running[0 if runner is A else 1]
    if not running:
        return Step(_after_fighters(state, runner))
    # a natural 10: no modifier reaches this roll (27A-3)
    dice = DicePool.of([DiceGroup("fighter", running, TEN)])

    def then(tens: int) -> Step[Ti3State]:
        events: list[Event] = []
        after = state
        if tens:
            after, destroyed = _destroy_war_sun(after, runner.other)
            events.extend(destroyed)
        if setup.options.sabotage_run_fighters_lost:
            after, lost = _destroy_fighters(after, runner, running - tens, "sabotage run")
            events.extend(lost)
        return Step(_after_fighters(after, runner), tuple(events))

    return Chance(runner.value, STEP, dice, then)


def _destroy_war_sun(state: Ti3State, owner: Side) -> tuple[Ti3State, tuple[Event, ...]]:
    """One War Sun of ``owner`` destroyed: an undamaged one if there is one (the runner's
    target; destroying it takes the most from the owner, 27A-4)."""
    own = state.side(owner)
    statuses = [s for u, s, _ in own.space if u == "war_sun"]
    if not statuses:
        return state, ()
    status = Status.UNDAMAGED if Status.UNDAMAGED in statuses else statuses[0]
    space = own.space.remove("war_sun", status, 1)
    after = state.with_side(owner, own.with_space(space))
    return after, (unit_destroyed(owner, "war_sun", status, "sabotage run"),)


def _after_fighters(state: Ti3State, runner: Side) -> Ti3State:
    if runner is A:
        return state.at(Phase.SABOTAGE_RUN_FIGHTERS, turn=D)
    # back to the defender's choice of the next pre-combat step
    return state.at(Phase.PRE_COMBAT, step="", turn=A, running=(0, 0))
