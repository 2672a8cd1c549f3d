"""Space Combat (7.3): rounds of four initiative phases (7.3.1), the end of each round (7.3.4)
and the end of combat.

Each round: ``round_started``; with option ``cer_timing: round_start`` every unit that uses CER
draws its ``cer`` d10 first, in unit order. Then the attack steps, in order:

- phase 1, undetected raiders (Ambush +4 or Surprise +3 in round 1; which squadrons of an
  undetected cloaked fleet attack here: option ``ambush_squadrons``);
- phase 2, fighter squadrons (no CER);
- phase 3, detected raiders;
- phase 4, capital squadrons, one step per flagship CR tier from the highest (option
  ``phase4_order``); starbases as CR 0 (option ``starbase_tier``).

In a step each attacker, in unit order, with a valid target draws ``cer`` (d10; not fighters),
then ``target`` (a choice among the candidates, even a single one), then, when its natural 9
would hit a starbase, ``cer_reroll`` (d10, 7.4). An attacker without a valid target draws
nothing. Then all damage is applied at once, and each critical that could not reduce its
target reduces the lowest-DS squadron of that Task Force, drawing ``force_reduction`` only
among several with the same DS.

After the last step (7.3.4): casualty assessment, spacelift and scouts left without escort are
destroyed (7.2), the colony's fighter capacity checked (``capacity.py``), AS recalculated;
combat ends when no two remaining Task Forces are hostile; otherwise each Task Force that may
retreat decides (ROE check, ``retreat.py``).
"""

from __future__ import annotations

from functools import cache
from typing import NamedTuple

from spacecombat.core.engine import Draw, Node, Step
from spacecombat.core.events import Event, event
from spacecombat.rulesets.ec4x.setup import MEMO_LIMIT, Fleet, Setup, Unit
from spacecombat.rulesets.ec4x.space_combat import capacity, cer
from spacecombat.rulesets.ec4x.space_combat.pre_combat import house_morale, undetected
from spacecombat.rulesets.ec4x.space_combat.targeting import candidates, regards_hostile
from spacecombat.rulesets.ec4x.state import (
    ABSENT,
    CRIPPLED,
    DESTROYED,
    IN_BATTLE,
    UNDAMAGED,
    Attack,
    Stage,
    State,
)

#: phase-4 tiers given to starbases (they have no CR; ruling E38)
STARBASE_FIRST = 1000
STARBASE_LAST = -1
NO_ROLL = -99
#: the "step" of a unit that never attacks (a fleet's targetable scouts, ruling E58)
NO_STEP = (0, 0)
#: the attack cursor's last field: a critical against a starbase awaits its re-roll; re-rolled
REROLL_DUE = 2
REROLLED = 1


def phase_of(setup: Setup, state: State, unit: int) -> tuple[int, int]:
    """The attack step (phase, CR tier) a unit fires in this round (7.3.1)."""
    u = setup.units[unit]
    if u.kind == "fighter":
        return (2, 0)
    if not u.fires:
        return NO_STEP
    tier = u.cr
    if u.kind == "starbase":
        tier = STARBASE_FIRST if setup.options.starbase_tier == "first" else STARBASE_LAST
    if setup.options.phase4_order == "simultaneous":
        tier = 0
    if u.fleet >= 0 and ambusher(setup, u) and undetected(setup, state, u.fleet):
        lost_initiative = state.initiative >= 0 and u.house != state.initiative
        later = setup.options.undetected_later_rounds == "phase3_after_round1" and state.round > 1
        if not (lost_initiative or later):
            return (1, 0)
    if u.raider:
        return (3, 0)
    return (4, tier)


def ambusher(setup: Setup, u: Unit) -> bool:
    """Whether a squadron of an undetected cloaked fleet attacks in phase 1 (7.3.1.1; option
    ``ambush_squadrons``, ruling E56): one with a Raider flagship (the default), one with a
    Raider aboard, or every squadron of the fleet. When it does not attack in phase 1 (it
    lost the initiative, or a later round with ``phase3_after_round1``) a Raider flagship
    squadron attacks in phase 3 and any other in phase 4."""
    if u.kind != "squadron":
        return False
    which = setup.options.ambush_squadrons
    if which == "raider_flagship":
        return u.raider
    if which == "any_raider":
        return "RR" in u.ships
    return True


def phases(setup: Setup, state: State) -> tuple[tuple[int, int], ...]:
    """Each unit's attack step (``phase_of``) this round. It depends on the setup and on four
    things of the state only (detection, refused orders, initiative, round 1 or later), so it
    is memoised by them."""
    key = (state.detected, state.refused, state.initiative, state.round > 1)
    memo = setup.phase_memo
    found = memo.get(key)
    if found is None:
        found = tuple(phase_of(setup, state, u.index) for u in setup.units)
        if len(memo) >= MEMO_LIMIT:
            memo.clear()
        memo[key] = found
    return found


def _alive(state: State, unit: int) -> bool:
    return state.cond[unit] in IN_BATTLE


def round_start(setup: Setup, state: State) -> Node[State]:
    """7.3.4: a new round (or, before round 1, whether there is a combat at all)."""
    if state.round == 0 and not state.cursor:
        events = screened_check(setup, state)
        state = events[0]
        if not combat_continues(setup, state):
            return Step(state.at(Stage.OVER), events[1])
        state = state.at(Stage.ROUND_START, cursor=(1,))
        return Step(state, events[1])
    if not state.cursor or state.cursor[0] != 2:
        number = state.round + 1
        unit_phases = phases(setup, state.at(state.stage, round=number))
        steps = sorted(
            {phase for u, phase in enumerate(unit_phases) if _alive(state, u) and phase != NO_STEP},
            key=lambda s: (s[0], -s[1]),
        )
        early = setup.options.cer_timing == "round_start"
        started = state.at(
            # without CER rolls at the round's start, the attack steps begin at once
            Stage.ROUND_START if early else Stage.ATTACK,
            round=number,
            steps=tuple(steps),
            step=0,
            as_cond=state.cond if setup.options.crippled_as_timing == "end_of_round" else (),
            cursor=(2, 0) if early else (),
            cer_rolls=(NO_ROLL,) * len(setup.units) if early else (),
        )
        if setup.quiet:
            return Step(started)
        return Step(started, (event("round_started", round=number),))
    # option cer_timing: round_start: every unit that uses CER rolls now, in unit order
    _, index = state.cursor
    while index < len(setup.units) and not (
        state.cer_rolls and setup.units[index].uses_cer and _alive(state, index)
    ):
        index += 1
    if index >= len(setup.units):
        return Step(state.at(Stage.ATTACK, cursor=()))
    unit = index

    def then(natural: int) -> Step[State]:
        rolls = (*state.cer_rolls[:unit], natural, *state.cer_rolls[unit + 1 :])
        return Step(state.at(Stage.ROUND_START, cer_rolls=rolls, cursor=(2, unit + 1)))

    house = setup.houses[setup.units[unit].house]
    return cer.die(setup, house, "cer", then)


def attackers(setup: Setup, state: State) -> tuple[int, ...]:
    """The units that fire in the current attack step, in unit order (memoised by the step,
    the conditions and what ``phases`` depends on)."""
    step = state.steps[state.step]
    key = (step, state.cond, state.detected, state.refused, state.initiative, state.round > 1)
    memo = setup.attacker_memo
    found = memo.get(key)
    if found is None:
        cond = state.cond
        found = tuple(
            u
            for u, phase in enumerate(phases(setup, state))
            if phase == step and cond[u] in IN_BATTLE
        )
        if len(memo) >= MEMO_LIMIT:
            memo.clear()
        memo[key] = found
    return found


#: the attack cursor of an attacker that has not rolled or chosen yet
FRESH = (0, NO_ROLL, -1, 0)


@cache
def _indices(count: int) -> tuple[int, ...]:
    """A choice's values: the indices of its ``count`` labels."""
    return tuple(range(count))


def attack(setup: Setup, state: State) -> Node[State]:
    """Target selection for the current step, attacker by attacker (cursor: attacker index,
    natural die, target, re-rolled)."""
    if state.step >= len(state.steps):
        return Step(state.at(Stage.ROUND_END, cursor=()))
    # a fresh step starts at its first attacker (every state made below sets its own cursor)
    i, natural, target, rerolled = state.cursor or FRESH
    members = attackers(setup, state)
    if i >= len(members):
        if not state.attacks:
            return Step(state.at(Stage.ATTACK, step=state.step + 1, cursor=()))
        return Step(state.at(Stage.DAMAGE, cursor=()))
    unit = members[i]
    u = setup.units[unit]
    house = setup.houses[u.house]
    if target >= 0 and rerolled == REROLL_DUE:
        return cer.die(
            setup,
            house,
            "cer_reroll",
            lambda d: Step(state.at(Stage.ATTACK, cursor=(i, d, target, REROLLED))),
        )
    if target >= 0 and not u.uses_cer:
        return _auto_critical_rerolled(setup, state, i, unit, target, natural)
    if target >= 0:
        return _resolve_roll(setup, state, i, unit, target, natural, rerolled=bool(rerolled))
    pool = candidates(setup, state, unit)
    if pool is None:
        skipped = state.at(Stage.ATTACK, cursor=(i + 1, NO_ROLL, -1, 0))
        if setup.quiet:
            return Step(skipped)
        return Step(
            skipped,
            (event("attack_skipped", unit=u.uid, house=house, reason="no valid hostile target"),),
        )
    if u.uses_cer and natural == NO_ROLL:
        if state.cer_rolls and state.cer_rolls[unit] != NO_ROLL:
            return Step(state.at(Stage.ATTACK, cursor=(i, state.cer_rolls[unit], -1, 0)))
        return cer.die(
            setup,
            house,
            "cer",
            lambda d: Step(state.at(Stage.ATTACK, cursor=(i, d, -1, 0))),
        )

    def chosen(index: int) -> Step[State]:
        target = pool.units[index]
        if setup.quiet:
            if not u.uses_cer:
                return _no_roll_attack(setup, state, i, unit, target)
            return _resolve_roll(setup, state, i, unit, target, natural, rerolled=False)
        selected = event(
            "target_selected",
            unit=u.uid,
            house=house,
            target=setup.units[target].uid,
            target_house=setup.houses[setup.units[target].house],
            bucket=pool.bucket,
            candidates=list(pool.labels),
            weights=list(pool.weights),
        )
        if not u.uses_cer:
            rolled = _no_roll_attack(setup, state, i, unit, target)
            return Step(rolled.state, (selected, *rolled.events))
        # the roll is resolved at once against the chosen target (nothing is drawn between)
        rolled = _resolve_roll(setup, state, i, unit, target, natural, rerolled=False)
        return Step(rolled.state, (selected, *rolled.events))

    labels = pool.labels
    return Draw(house, "target", "choice", labels, pool.weights, _indices(len(labels)), chosen)


def _recorded(setup: Setup, state: State, i: int, record: Attack, *, auto: int = 0) -> State:
    """The selection recorded (and the attacker's house's morale auto-critical spent: bit
    ``auto``); on to the next attacker."""
    attacker_house = setup.units[record.attacker].house
    target_house = setup.units[record.target].house
    bit = 1 << (attacker_house * len(setup.houses) + target_house)
    return state.at(
        Stage.ATTACK,
        attacks=(*state.attacks, record),
        engaging=state.engaging | bit,
        cursor=(i + 1, NO_ROLL, -1, 0),
        auto_used=state.auto_used | auto,
    )


def auto_critical_due(setup: Setup, state: State, unit: int) -> bool:
    """Whether this attack is the house's first valid attack of the turn that the morale
    auto-critical falls on (7.1.4 "The first squadron to execute a valid attack"; option
    ``auto_critical_attack``, ruling E52): the first attack of a unit rolling CER (squadrons
    and starbases, the default), of a capital squadron only, or of any unit (fighters too).
    It is spent by that attack, even when its own die is a natural 9."""
    u = setup.units[unit]
    if state.auto_used >> u.house & 1 or not house_morale(setup, state, u.house).auto_critical:
        return False
    which = setup.options.auto_critical_attack
    if which == "cer_attack":
        return u.uses_cer
    if which == "squadron":
        return u.kind == "squadron"
    return u.fires


def _reroll_allowed(setup: Setup, state: State, target: int) -> bool:
    """7.4 Critical Hit Protection for this starbase (option starbase_critical_reroll, E39)."""
    return (
        setup.options.starbase_critical_reroll == "every_critical"
        or not state.rerolled >> target & 1
    )


def _auto_rerolled(setup: Setup, state: State, target: int) -> bool:
    """Whether an auto-critical against ``target`` is re-rolled like a rolled critical (7.4;
    option ``auto_critical_vs_starbase: reroll``, ruling E60)."""
    return (
        setup.units[target].kind == "starbase"
        and setup.options.auto_critical_vs_starbase == "reroll"
        and _reroll_allowed(setup, state, target)
    )


def _no_roll_attack(setup: Setup, state: State, i: int, unit: int, target: int) -> Step[State]:
    """A fighter's attack (no CER, 7.3.3): its full AS; the morale auto-critical may fall on it
    with ``auto_critical_attack: any_attack`` (E52), re-rolled against a starbase (E60)."""
    u = setup.units[unit]
    hits = cer.attack_strength(setup, state, unit)
    auto = auto_critical_due(setup, state, unit)
    spent = 1 << u.house if auto else 0
    t = setup.units[target]
    if auto and _auto_rerolled(setup, state, target):
        marked = state.at(
            Stage.ATTACK,
            rerolled=state.rerolled | 1 << target,
            auto_used=state.auto_used | spent,
            cursor=(i, NO_ROLL, target, REROLL_DUE),
        )
        if setup.quiet:
            return Step(marked)
        return Step(marked, (event("critical_rerolled", unit=u.uid, target=t.uid),))
    record = Attack(unit, target, hits, auto)
    events: tuple[Event, ...] = ()
    if auto and not setup.quiet:
        applied = event(
            "auto_critical_applied", unit=u.uid, house=setup.houses[u.house], target=t.uid
        )
        events = (applied,)
    return Step(_recorded(setup, state, i, record, auto=spent), events)


def _auto_critical_rerolled(
    setup: Setup, state: State, i: int, unit: int, target: int, natural: int
) -> Step[State]:
    """A fighter's auto-critical re-rolled against a starbase: the second roll stands, a
    critical only on a natural 9 (7.4; E60). Its hits stay its full AS."""
    u = setup.units[unit]
    critical = natural == cer.NATURAL_CRITICAL
    record = Attack(unit, target, cer.attack_strength(setup, state, unit), critical)
    if critical and not setup.quiet:
        applied = event(
            "auto_critical_applied",
            unit=u.uid,
            house=setup.houses[u.house],
            target=setup.units[target].uid,
        )
        return Step(_recorded(setup, state, i, record), (applied,))
    return Step(_recorded(setup, state, i, record))


def _resolve_roll(
    setup: Setup, state: State, i: int, unit: int, target: int, natural: int, *, rerolled: bool
) -> Step[State]:
    """CER, critical and hits of a roll against the chosen target; a natural 9 against a
    starbase is re-rolled once (7.4 Critical Hit Protection; ruling E39), and so is the morale
    auto-critical with ``auto_critical_vs_starbase: reroll`` (E60; it is spent at once)."""
    u = setup.units[unit]
    house = u.house
    step = state.steps[state.step]
    mods = cer.modifiers(setup, state, unit, step[0])
    total = sum(m for _, m in mods)
    natural_critical = natural == cer.NATURAL_CRITICAL
    auto = auto_critical_due(setup, state, unit)
    strength = cer.attack_strength(setup, state, unit)
    rating, hits = cer.result(natural + total, strength)
    t = setup.units[target]
    auto_rerolled = auto and _auto_rerolled(setup, state, target)
    reroll = (
        (natural_critical or auto_rerolled)
        and not rerolled
        and t.kind == "starbase"
        and _reroll_allowed(setup, state, target)
    )
    if setup.quiet:
        if reroll:
            return Step(_marked_for_reroll(state, i, natural, target, house, auto_rerolled))
        record = Attack(unit, target, hits, natural_critical or auto)
        return Step(_recorded(setup, state, i, record, auto=1 << house if auto else 0))
    rolled = event(
        "cer_rolled",
        unit=u.uid,
        house=setup.houses[house],
        die=natural,
        modifiers=dict(mods),
        modified=natural + total,
        cer=rating,
        critical=natural_critical or auto,
        auto_critical=auto,
        strength=strength,
        hits=hits,
        target=t.uid,
        rerolled=rerolled,
    )
    if reroll:
        marked = _marked_for_reroll(state, i, natural, target, house, auto_rerolled)
        return Step(marked, (rolled, event("critical_rerolled", unit=u.uid, target=t.uid)))
    record = Attack(unit, target, hits, natural_critical or auto)
    return Step(_recorded(setup, state, i, record, auto=1 << house if auto else 0), (rolled,))


def _marked_for_reroll(
    state: State, i: int, natural: int, target: int, house: int, auto_rerolled: bool
) -> State:
    """A critical against a starbase awaits its re-roll (7.4 Critical Hit Protection, E39)."""
    return state.at(
        Stage.ATTACK,
        rerolled=state.rerolled | 1 << target,
        # E60: an auto-critical re-rolled is spent by this attack; the second roll stands
        auto_used=state.auto_used | (1 << house if auto_rerolled else 0),
        cursor=(i, natural, target, REROLL_DUE),
    )


# ---- 7.3.4 end of round ----------------------------------------------------------------------


class Standing(NamedTuple):
    """What the units' conditions alone say at the end of a round (7.3.4)."""

    #: houses with combat units still fighting
    remaining: tuple[int, ...]
    #: per house: its Task Force's total AS now
    strength: tuple[int, ...]


def standing(setup: Setup, cond: tuple[int, ...]) -> Standing:
    """The ``Standing`` of conditions ``cond`` (memoised by them)."""
    memo = setup.standing_memo
    found = memo.get(cond)
    if found is None:
        found = Standing(
            tuple(
                h
                for h, units in enumerate(setup.house_units)
                if any(cond[u.index] in IN_BATTLE for u in units)
            ),
            tuple(
                sum(
                    (u.attack_crippled if cond[u.index] == CRIPPLED else u.attack)
                    for u in units
                    if cond[u.index] in IN_BATTLE and u.fires
                )
                for units in setup.house_units
            ),
        )
        if len(memo) >= MEMO_LIMIT:
            memo.clear()
        memo[cond] = found
    return found


def strength(setup: Setup, state: State, house: int) -> int:
    """A Task Force's total AS now (7.3.4 step 3), crippled units at half."""
    return standing(setup, state.cond).strength[house]


def remaining(setup: Setup, state: State) -> list[int]:
    """Houses with combat units still fighting."""
    return list(standing(setup, state.cond).remaining)


def combat_continues(setup: Setup, state: State) -> bool:
    """7.3.4 Combat Termination: combat goes on while two remaining Task Forces are hostile
    (either way) to each other."""
    left = remaining(setup, state)
    return any(regards_hostile(setup, state, a, b) for a in left for b in left if a != b)


def screened_check(setup: Setup, state: State) -> tuple[State, tuple[Event, ...]]:
    """7.2 Spacelift Command Protection (and scouts, ruling E47): a house's screened ships are
    destroyed when none of its escort fleets' units fight on here while a house hostile to it
    (either way) still has combat units here. With option ``colony_units_screen`` (default,
    ruling E55) its colony's starbases and fighters still fighting screen them too (7.4
    "combined Task Force"; 7.3.5 "If colony-owned fighters remain, they screen their
    retreating Task Force")."""
    events: list[Event] = []
    lost = state.screened_lost
    left = remaining(setup, state)
    for house in range(len(setup.houses)):
        if lost >> house & 1:
            continue
        fleets = [f for f in setup.fleets if f.house == house and state.joined >> f.index & 1]
        spacelift_gone = state.spacelift_left >> house & 1
        screened = [
            f
            for f in fleets
            if (f.spacelift and not spacelift_gone)
            or (f.scouts and f.scout_unit < 0 and not scouts_gone(state, f))
        ]
        if not screened:
            continue
        escorted = any(state.cond[u] in IN_BATTLE for f in fleets for u in f.units) or (
            setup.options.colony_units_screen
            and house == setup.controller
            and any(state.cond[u] in IN_BATTLE for u in setup.colony_units)
        )
        threatened = any(
            g != house
            and (regards_hostile(setup, state, g, house) or regards_hostile(setup, state, house, g))
            for g in left
        )
        if escorted or not threatened:
            continue
        lost |= 1 << house
        for f in screened:
            ships = [] if spacelift_gone else [code for code, n in f.spacelift for _ in range(n)]
            if f.scout_unit < 0 and not scouts_gone(state, f):
                ships += ["SC"] * len(f.scouts)
            events.append(
                event(
                    "screened_ships_destroyed",
                    house=setup.houses[house],
                    fleet=f.fid,
                    ships=ships,
                    reason="no escort left while hostile forces remain (7.2)",
                )
            )
    if lost == state.screened_lost:
        return state, ()
    return state.at(state.stage, screened_lost=lost), tuple(events)


def scouts_gone(state: State, f: Fleet) -> bool:
    """Whether fleet f's scouts left with its house's retreat (7.3.5): they go with their
    fleet, unless it stayed whole at a restricted lane (E41)."""
    return bool(state.retreated >> f.house & 1) and not state.stranded >> f.index & 1


def round_end(setup: Setup, state: State) -> Node[State]:
    """7.3.4 steps 1–3 and the termination check; then the ROE check."""
    events: list[Event] = []
    quiet = setup.quiet
    if not quiet:
        crippled = [u.uid for u in setup.units if state.cond[u.index] == CRIPPLED]
        destroyed = [u.uid for u in setup.units if state.cond[u.index] == DESTROYED]
        events.append(
            event("casualties_assessed", round=state.round, crippled=crippled, destroyed=destroyed)
        )
    detected = state.detected
    for f in setup.fleets:
        # 2.4.3: "A crippled Raider loses its cloak until repaired" (from the next round);
        # only fleets in the combat: one that stayed out or moved on keeps its Raider as it was
        if not state.joined >> f.index & 1:
            continue
        if undetected(setup, state, f.index) and not any(
            "RR" in setup.units[u].ships and state.cond[u] == UNDAMAGED for u in f.units
        ):
            detected |= 1 << f.index
            if not quiet:
                events.append(event("cloak_lost", house=setup.houses[f.house], fleet=f.fid))
    damage = state.damage
    if setup.options.damage_memory == "round" and damage:
        damage = (0,) * len(damage)
    state = state.at(
        Stage.ROUND_END,
        engaged=state.engaged | state.engaging,
        engaging=0,
        detected=detected,
        damage=damage,
    )
    state, lost = screened_check(setup, state)
    events.extend(lost)
    if not quiet:
        # 7.3.4 step 2: fighter capacity (it changes nothing within the battle; ruling E61)
        events.extend(capacity.checked(setup, state))
        events.append(
            event(
                "strength_assessed",
                round=state.round,
                strength={
                    setup.houses[h]: strength(setup, state, h) for h in remaining(setup, state)
                },
            )
        )
    if not combat_continues(setup, state):
        return Step(state.at(Stage.OVER), tuple(events))
    limit = setup.options.max_rounds
    if limit is not None and state.round >= limit:
        if not quiet:
            events.append(event("combat_cut_off", round=state.round, max_rounds=limit))
        return Step(state.at(Stage.OVER, result="cut_off"), tuple(events))
    return Step(state.at(Stage.ROE_CHECK, cursor=(0,), retreating=0), tuple(events))


def absent(state: State, unit: int) -> bool:
    return state.cond[unit] == ABSENT
