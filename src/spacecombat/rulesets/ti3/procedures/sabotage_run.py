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

Van Hauge's ground forces and shock troops fighting as fighters (27S-43) may run as fighters
(docs/rulings.md 27T-16): a run takes fighters first, then ground forces, then shock troops
(``RUNNERS``), the War Sun's hits destroy them in that order, and their dice are rolled type by
type (one ``dice_rolled`` each; a plain fighters' run is one roll, as before).
"""

from __future__ import annotations

from spacecombat.core.decisions import DecisionRequest, Option
from spacecombat.core.engine import Chance, Decision, Node, Step
from spacecombat.core.events import Event, event
from spacecombat.core.forces import Status
from spacecombat.core.hits import unit_destroyed
from spacecombat.core.pool import DiceGroup, DicePool
from spacecombat.core.sides import Side
from spacecombat.rulesets.ti3.abilities import van_hauge
from spacecombat.rulesets.ti3.abilities.base import GROUND_FORCES
from spacecombat.rulesets.ti3.setup import Ti3Setup
from spacecombat.rulesets.ti3.state import Phase, Ti3State

A, D = Side.ATTACKER, Side.DEFENDER

#: the pre-combat step's name (``policy.pre_combat_order``) and the card name a player's
#: ``policy.play`` gives for the decision to send fighters
STEP = "sabotage_run"

#: a sabotage run succeeds on a natural 10 only (27A-3)
TEN = 10

#: the units of a run, in the order they are sent and lost: fighters, then Van Hauge's ground
#: forces and shock troops fighting as fighters (a ground force is worth more kept: it is a
#: ground force again after the battle; 27T-16)
RUNNERS = ("fighter", *GROUND_FORCES)

#: ``Ti3State.step`` while a run rolled type by type has destroyed its War Sun (several 10s
#: destroy one War Sun: 27A-3)
WAR_SUN_HIT = "war_sun_hit"

Run = dict[str, int]


def _may_run(setup: Ti3Setup, state: Ti3State, side: Side) -> Run:
    """The units ``side`` may send against an enemy War Sun, by type (none: no War Sun)."""
    if not state.side(side.other).space.count("war_sun"):
        return {}
    space = state.side(side).space
    found = {"fighter": space.count("fighter")}
    if van_hauge.fighting(setup, state, side):
        found.update(van_hauge.aboard(state, side))
    return {u: found[u] for u in RUNNERS if found.get(u, 0)}


def _split(units: Run, count: int) -> Run:
    """``count`` of ``units`` sent, in ``RUNNERS``' order."""
    sent = {}
    for unit in RUNNERS:
        n = min(count, units.get(unit, 0))
        if n:
            sent[unit] = n
            count -= n
    return sent


def _run(state: Ti3State, side: Side) -> Run:
    """``side``'s units on the run, by type (all of ``RUNNERS``)."""
    i = 0 if side is A else 1
    ground, shock = state.running_as[i]
    return {"fighter": state.running[i], GROUND_FORCES[0]: ground, GROUND_FORCES[1]: shock}


def _described(sent: Run) -> str:
    names = {"fighter": "fighter", "ground_force": "ground force", "shock_troop": "shock troop"}
    return ", ".join(f"{n} {names[u]}{'s' if n > 1 else ''}" for u, n in sent.items())


def start(state: Ti3State) -> Ti3State:
    """The pre-combat step begins: the attacker declares first."""
    return state.at(Phase.SABOTAGE_RUN_DECLARE, turn=A, running=(0, 0))


def declare(setup: Ti3Setup, state: Ti3State) -> Node[Ti3State]:
    """Step 1: ``state.turn`` chooses how many of its fighters make the run (none: pass); with
    Van Hauge's units fighting as fighters, how many of them all (fighters first: 27T-16)."""
    side = state.turn
    units = _may_run(setup, state, side)
    count = sum(units.values())
    if not count:
        return Step(_declared(state, side, {}))
    plain = set(units) == {"fighter"}
    sends = [
        Option(
            f"send {n} fighter{'s' if n > 1 else ''}"
            if plain
            else f"send {_described(_split(units, n))}",
            "run",
            unit="fighter",
            count=n,
        )
        for n in range(count, 0, -1)
    ]
    options = (*sends, Option("pass", "pass"))
    facts: dict[str, object] = {
        "card": STEP,
        "fighters": units.get("fighter", 0),
        "war_suns": state.side(side.other).space.count("war_sun"),
    }
    if not plain:
        facts["ground_forces"] = count - units.get("fighter", 0)
    request = DecisionRequest(
        decision="play_card",
        player=side.value,
        prompt="send fighters on a sabotage run against an enemy War Sun?",
        options=options,
        facts=facts,
    )

    def then(option: Option) -> Step[Ti3State]:
        sent = _split(units, option.count) if option.action == "run" else {}
        said: tuple[Event, ...] = ()
        if sent:
            more = {u: n for u, n in sent.items() if u != "fighter"}
            fields: dict[str, object] = {"fighters": sent.get("fighter", 0)}
            if more:
                fields["ground_forces"] = more
            said = (event("sabotage_run", player=side.value, **fields),)
        return Step(_declared(state, side, sent), said)

    return Decision(request, then)


def _with_run(state: Ti3State, side: Side, run: Run) -> Ti3State:
    fighters = run.get("fighter", 0)
    others = (run.get(GROUND_FORCES[0], 0), run.get(GROUND_FORCES[1], 0))
    running = (fighters, state.running[1]) if side is A else (state.running[0], fighters)
    if others == (0, 0) and state.running_as == ((0, 0), (0, 0)):
        return state.changed(running=running)  # a plain fighters' run
    a, d = state.running_as
    return state.changed(running=running, running_as=(others, d) if side is A else (a, others))


def _declared(state: Ti3State, side: Side, sent: Run) -> Ti3State:
    state = _with_run(state, side, sent)
    if side is A:
        return state.at(Phase.SABOTAGE_RUN_DECLARE, turn=D)
    return state.at(Phase.SABOTAGE_RUN_WAR_SUN_FIRE, turn=A)


def war_sun_fire(setup: Ti3Setup, state: Ti3State) -> Node[Ti3State]:
    """Step 2: the War Sun's owner rolls one die per fighter of ``state.turn``'s run, at the
    War Sun's combat value; each hit destroys one of those fighters (27A-2)."""
    runner = state.turn
    running = sum(_run(state, runner).values())
    if not running or not setup.options.sabotage_run_war_sun_fire:
        return Step(_after_war_sun_fire(state, runner))
    owner = runner.other
    combat = setup.side(owner).card("war_sun").combat
    assert combat is not None
    dice = DicePool.of([DiceGroup("war_sun", running, combat.hit)])

    def then(hits: int) -> Step[Ti3State]:
        lost = min(hits, running)
        after, events = _destroy_runners(state, runner, lost, "sabotage run: War Sun fire")
        return Step(_after_war_sun_fire(after, runner), events)

    return Chance(owner.value, "sabotage_run_war_sun_fire", dice, then)


def _destroy_runners(
    state: Ti3State, side: Side, count: int, cause: str, unit: str | None = None
) -> tuple[Ti3State, tuple[Event, ...]]:
    """``count`` units of ``side``'s run destroyed: of type ``unit``, or in ``RUNNERS``' order
    (fighters first: 27T-16)."""
    if not count:
        return state, ()
    run = _run(state, side)
    space = state.side(side).space
    events: list[Event] = []
    for kind in (unit,) if unit is not None else RUNNERS:
        n = min(count, run[kind])
        if n:
            space = space.remove(kind, Status.UNDAMAGED, n)
            run[kind] -= n
            count -= n
            events.extend(unit_destroyed(side, kind, Status.UNDAMAGED, cause) for _ in range(n))
    own = state.side(side)
    return _with_run(state.with_side(side, own.with_space(space)), side, run), tuple(events)


def _after_war_sun_fire(state: Ti3State, runner: Side) -> Ti3State:
    if runner is A:
        return state.at(Phase.SABOTAGE_RUN_WAR_SUN_FIRE, turn=D)
    return state.at(Phase.SABOTAGE_RUN_FIGHTERS, turn=A)


def fighters_roll(setup: Ti3Setup, state: Ti3State) -> Node[Ti3State]:
    """Step 3: each surviving fighter of ``state.turn``'s run rolls one die; a 10 destroys one
    enemy War Sun, ignoring SUSTAIN DAMAGE (27A-3, 27A-4); fighters without a 10 are destroyed
    (27A-3, option ``sabotage_run_fighters_lost``)."""
    runner = state.turn
    run = _run(state, runner)
    rolling = [u for u in RUNNERS if run[u]]
    if not rolling:
        return Step(_after_fighters(state, runner))
    # the run's dice type by type (Van Hauge's units after the fighters: 27T-16)
    unit = rolling[0]
    running = run[unit]
    # a natural 10: no modifier reaches this roll (27A-3)
    dice = DicePool.of([DiceGroup(unit, running, TEN)])
    hit_before = state.step == WAR_SUN_HIT

    def then(tens: int) -> Step[Ti3State]:
        events: list[Event] = []
        after = state
        if tens and not hit_before:
            after, destroyed = _destroy_war_sun(after, runner.other)
            events.extend(destroyed)
        if setup.options.sabotage_run_fighters_lost:
            after, lost = _destroy_runners(after, runner, running - tens, "sabotage run", unit)
            events.extend(lost)
        if len(rolling) > 1:
            # this type rolled (those left return to the battle); the next type rolls
            done = {**_run(after, runner), unit: 0}
            hit = WAR_SUN_HIT if tens or hit_before else after.step
            return Step(_with_run(after, runner, done).changed(step=hit), tuple(events))
        if after.step == WAR_SUN_HIT:
            after = after.changed(step="")
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
    return state.at(Phase.PRE_COMBAT, step="", turn=A, running=(0, 0), running_as=((0, 0), (0, 0)))
