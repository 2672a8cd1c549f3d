"""Damage Application (7.3.1 "Simultaneous Attack Resolution", 7.3.3 restrictions, critical
hits and overkill; 7.4 starbases).

All selections of a damage step are made first; then the hits on each target are summed
("Combined damage from all attackers is applied to the target") and applied at once:

1. Reduction Threshold: hits (plus kept damage, option ``damage_memory``) >= DS reduce the
   target one step, and an undamaged one taking 2 x DS is destroyed (option
   ``undamaged_destroyed_at``, E24); fighters go straight to destroyed (7.1.2 Fighter
   Exception).
2. Destruction Protection: a squadron is not destroyed while another squadron of its Task
   Force is not yet crippled; starbases are not protected; a critical hit on the target
   nullifies it (rulings E26–E30).
3. Excess hits are lost (E25).

Then force reduction, critical by critical in attacker order: a critical whose target the
step's hits did not reduce (option ``force_reduction_judged``) reduces the lowest-DS squadron of
the target's Task Force one step instead (E29).
Where a critical comes from: ``cer.py`` (its docstring lists every part of critical hits).
"""

from __future__ import annotations

from spacecombat.core.engine import Draw, Node, Step
from spacecombat.core.events import Event, event
from spacecombat.rulesets.ec4x.setup import Setup
from spacecombat.rulesets.ec4x.state import (
    CRIPPLED,
    DESTROYED,
    IN_BATTLE,
    UNDAMAGED,
    Attack,
    Stage,
    State,
)


def _counts_for_protection(setup: Setup, unit: int) -> bool:
    u = setup.units[unit]
    return u.squadron_like or (u.kind == "fighter" and setup.options.protection_counts_fighters)


def protected(setup: Setup, cond: tuple[int, ...], unit: int) -> bool:
    """Restriction 2: "Squadrons are not destroyed until all other squadrons in the Task Force
    are crippled (does not apply to Starbases)". Fighters are never protected (they have no
    crippled state, 7.1.2); whether undamaged fighters block others is option
    ``protection_counts_fighters`` (E28)."""
    u = setup.units[unit]
    if not u.squadron_like:
        return False
    if setup.options.overkill_all_means == "all" and cond[unit] == UNDAMAGED:
        return True
    return any(
        other.index != unit
        and cond[other.index] == UNDAMAGED
        and _counts_for_protection(setup, other.index)
        for other in setup.house_units[u.house]
    )


def apply_damage(setup: Setup, state: State) -> Step[State]:
    """Apply the step's selections at once (rules 1–3 above)."""
    options = setup.options
    before = state.cond
    memory = state.damage
    by_target: dict[int, list[Attack]] = {}
    for attack in state.attacks:
        by_target.setdefault(attack.target, []).append(attack)
    cond = list(before)
    kept = list(memory) if memory else []
    events: list[Event] = []
    quiet = setup.quiet
    # first pass: what each target's combined hits do on their own (restriction 1)
    reaches: dict[int, int] = {}
    for target, attacks in by_target.items():
        u = setup.units[target]
        total = sum(a.hits for a in attacks) + (memory[target] if memory else 0)
        if not quiet:
            events.append(
                event(
                    "damage_applied",
                    unit=u.uid,
                    house=setup.houses[u.house],
                    hits=sum(a.hits for a in attacks),
                    kept=memory[target] if memory else 0,
                    defense=u.defense,
                    attackers=[setup.units[a.attacker].uid for a in attacks],
                    critical=any(a.critical for a in attacks),
                )
            )
        reaches[target] = total
        if total >= u.defense and before[target] == UNDAMAGED and u.kind != "fighter":
            cond[target] = CRIPPLED
    basis = tuple(cond) if options.protection_judged == "after_step" else before
    reduced: set[int] = set()
    for target, attacks in by_target.items():
        u = setup.units[target]
        total = reaches[target]
        if total < u.defense:
            if kept:
                kept[target] = total
            continue
        reduced.add(target)
        if kept:
            kept[target] = 0
        if u.kind == "fighter":
            cond[target] = DESTROYED
            continue
        if before[target] == UNDAMAGED:
            if options.undamaged_destroyed_at != "twice_ds" or total < 2 * u.defense:
                continue
            threshold = 2 * u.defense
        else:
            threshold = u.defense
        if _may_destroy(setup, basis, target, attacks, threshold):
            cond[target] = DESTROYED
        elif not quiet:
            events.append(
                event(
                    "destruction_prevented",
                    unit=u.uid,
                    house=setup.houses[u.house],
                    reason="destruction protection (7.3.3 restriction 2)",
                )
            )
    if not quiet:
        for target in by_target:
            events.extend(_change(setup, target, before[target], cond[target], "hits"))
    marked = tuple(
        a._replace(force=_force_due(setup, a, reaches, reduced)) if a.critical else a
        for a in state.attacks
    )
    damage = tuple(kept) if kept else state.damage
    if not any(a.force for a in marked):
        # no force reduction is due: on to the next attack step at once
        reduced_state = state.at(Stage.FORCE_REDUCTION, cond=tuple(cond), damage=damage)
        return Step(_next_step(reduced_state), tuple(events))
    return Step(
        state.at(
            Stage.FORCE_REDUCTION, cond=tuple(cond), damage=damage, attacks=marked, cursor=(0,)
        ),
        tuple(events),
    )


def _next_step(state: State) -> State:
    """The damage step done: on to the next attack step (7.3.1)."""
    return state.at(Stage.ATTACK, step=state.step + 1, attacks=(), cursor=())


def _may_destroy(
    setup: Setup, basis: tuple[int, ...], target: int, attacks: list[Attack], threshold: int
) -> bool:
    if not protected(setup, basis, target):
        return True
    criticals = [a for a in attacks if a.critical]
    if not criticals:
        return False
    # 7.3.3 Critical Hits 1: "Restriction #2 above is nullified" (E30)
    if setup.options.critical_bypass == "target":
        return True
    return sum(a.hits for a in criticals) >= threshold


def _force_due(setup: Setup, attack: Attack, reaches: dict[int, int], reduced: set[int]) -> bool:
    """7.3.3 Critical Hits 2: "If the critical hit cannot reduce the selected target according
    to restriction #1 (insufficient damage)" (E29)."""
    if setup.options.force_reduction_judged == "combined_hits":
        return attack.target not in reduced
    return attack.hits < setup.units[attack.target].defense


def _change(setup: Setup, unit: int, old: int, new: int, reason: str) -> list[Event]:
    if old == new:
        return []
    u = setup.units[unit]
    kind = "unit_destroyed" if new == DESTROYED else "unit_crippled"
    return [
        event(kind, unit=u.uid, house=setup.houses[u.house], ships=list(u.ships), reason=reason)
    ]


def force_reduction(setup: Setup, state: State) -> Node[State]:
    """The step's force reductions, one critical at a time (cursor: index into attacks)."""
    (k,) = state.cursor
    while k < len(state.attacks) and not state.attacks[k].force:
        k += 1
    if k >= len(state.attacks):
        return Step(_next_step(state))
    attack = state.attacks[k]
    house = setup.units[attack.target].house
    pool = [
        u.index
        for u in setup.units
        if u.house == house
        and state.cond[u.index] in IN_BATTLE
        and (u.squadron_like or (u.kind == "fighter" and setup.options.force_reduction_fighters))
    ]
    nxt = state.at(Stage.FORCE_REDUCTION, cursor=(k + 1,))
    if not pool:
        return Step(nxt)
    lowest = min(setup.units[u].defense for u in pool)
    tied = [u for u in pool if setup.units[u].defense == lowest]

    def reduce(index: int) -> Step[State]:
        unit = tied[index]
        old = state.cond[unit]
        new = DESTROYED if old == CRIPPLED or setup.units[unit].kind == "fighter" else CRIPPLED
        events = (
            ()
            if setup.quiet
            else (
                event(
                    "force_reduction",
                    attacker=setup.units[attack.attacker].uid,
                    target=setup.units[attack.target].uid,
                    unit=setup.units[unit].uid,
                ),
                *_change(setup, unit, old, new, "force reduction"),
            )
        )
        damage = state.damage
        if damage:
            damage = (*damage[:unit], 0, *damage[unit + 1 :])
        return Step(nxt.with_cond(unit, new).at(Stage.FORCE_REDUCTION, damage=damage), events)

    if setup.options.force_reduction_tie == "first_listed" or len(tied) == 1:
        return reduce(0)
    name = setup.houses[setup.units[attack.attacker].house]
    labels = [setup.units[u].uid for u in tied]
    return Draw.choice(name, "force_reduction", labels, [1] * len(tied), reduce)
