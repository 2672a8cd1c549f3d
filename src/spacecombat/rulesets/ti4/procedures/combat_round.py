"""The steps a space combat round and a ground combat round share: roll dice, assign hits, the
"after assigning hits" window, and the end of the round. The arena is the space area of the
active system (space combat) or the invaded planet (ground combat)."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import replace

from spacecombat.core.engine import Chance, Node, Step
from spacecombat.core.errors import RuleNotImplemented
from spacecombat.core.events import Event, event
from spacecombat.core.forces import Forces, Status
from spacecombat.core.hits import unit_destroyed
from spacecombat.core.pool import DiceGroup, DicePool, Tally
from spacecombat.core.sides import SideState
from spacecombat.rulesets.ti4.abilities.base import opens, overrides
from spacecombat.rulesets.ti4.effects import (
    aimed_pool,
    aiming,
    arena,
    combat_pool,
    combatants,
    follow_ups,
    with_cursor,
)
from spacecombat.rulesets.ti4.hooks import FollowUp, Window
from spacecombat.rulesets.ti4.procedures.assign_hits import Targets, assign_hits
from spacecombat.rulesets.ti4.procedures.stalemate import neither_can_win
from spacecombat.rulesets.ti4.procedures.windows import (
    LAST_ROUND_END,
    NEXT_ROUND,
    ROUND_END,
    open_windows,
)
from spacecombat.rulesets.ti4.setup import BattleSetup
from spacecombat.rulesets.ti4.sides import Side
from spacecombat.rulesets.ti4.state import NO_MARKS, BattleState, Marks, Phase, RolledHits

A, D = Side.ATTACKER, Side.DEFENDER
_NO_BOOSTS: tuple[frozenset[str], frozenset[str]] = (frozenset(), frozenset())
_NO_MARKS: tuple[Marks, Marks] = (NO_MARKS, NO_MARKS)
_NO_ROLLS: tuple[RolledHits, RolledHits] = ((), ())


def roll_dice(setup: BattleSetup, state: BattleState) -> Node[BattleState]:
    """Step 3 (space) / step 1 (ground): each player makes a combat roll, the attacker first
    (ti4-space-combat.md step 3.6). The hits wait for the Assign Hits step. Hits of some units
    that must go to non-fighter ships if able (``aims_combat_hits``: the L1Z1X flagship) are
    counted apart (marks) and assigned first (assign_hits.py ``aiming``)."""
    roller = state.turn

    def after(s: BattleState) -> Step[BattleState]:
        if roller is A:
            return Step(s.at(Phase.ROLL_DICE, turn=D))
        rolled = s.at(Phase.ASSIGN_HITS, turn=A)
        if _after_roll_dice(setup):
            # both players have rolled: the "after roll dice" window (The Thundarian)
            return open_windows(setup, rolled, ((Window.AFTER_ROLL_DICE,),), Phase.ASSIGN_HITS)
        return Step(rolled)

    if state.following:
        # units the Crown of Thalnos destroyed in this roll, heard before the step goes on
        return _hear_destroyed(setup, state, after)
    pool = combat_pool(setup, state, roller)
    purpose = "space_combat" if arena(setup, state) is None else "ground_combat"
    keepers = setup.answering("keeps_rolls")
    if keepers and any(h.keeps_rolls(setup, state, roller) for h in keepers):
        return _roll_by_group(setup, state, roller, pool, purpose, after)
    if not pool.groups:
        return after(state)
    aimed_by: tuple[str, ...] = ()
    if purpose == "space_combat":
        aimed = aimed_pool(setup, state, roller, pool)
        if aimed is not None:
            if not aimed[0].tallied:
                return _aimed_roll(state, roller, aimed, after)
            pool, aimed_by = aimed  # units lost too: the tally counts the marks
    if pool.tallied:
        # units lost (Crown of Thalnos), trade goods spent (Hacan flagship): issue 14, group C2

        def tallied(tally: Tally) -> Step[BattleState]:
            s = state.with_hits_on(roller.other, tally.hits)
            events: list[dict[str, object]] = []
            if aimed_by:
                s = aiming(s, roller.other, tally.marks)
                if tally.marks:
                    events.append(_restricted(roller.other, tally.marks, aimed_by, state.round))
            return _spent_and_lost(setup, s, roller, pool, tally, events, after)

        return _tallied_chance(roller, purpose, pool, tallied)
    return Chance(
        roller.value,
        purpose,
        pool,
        lambda hits: after(state.with_hits_on(roller.other, hits)),
    )


def _units_lost(
    setup: BattleSetup,
    state: BattleState,
    roller: Side,
    losses: Iterable[tuple[DiceGroup, int]],
    events: list[Event],
    after: Callable[[BattleState], Step[BattleState]],
) -> Step[BattleState]:
    """After ``roller``'s roll: the units each group lost to its own rerolls (the Crown of
    Thalnos) destroyed, damaged ones first (docs/rulings.md 14C2-2), and heard by the handlers
    acting after a unit is destroyed (queued in ``following``, 14RR-7); then the step goes on
    (``after``)."""
    heard: list[FollowUp] = []
    where: int | None = None
    units: Forces | None = None  # the roller's units in the arena, once a group lost some
    for group, lost in losses:
        if not lost:
            continue  # (the exact engine meets every tally: most lose nothing)
        if units is None:
            where = arena(setup, state)
            units = state.side(roller).area(where)
        for status in _LOST_FIRST:
            gone = min(lost, units.count(group.unit, status))
            if gone:
                units = units.remove(group.unit, status, gone)
                events += [unit_destroyed(roller, group.unit, status, CROWN_CAUSE)] * gone
                heard += [FollowUp.destroyed(roller, group.unit)] * gone
                lost -= gone
                if not lost:
                    break
    if not heard:
        # nothing lost (the exact engine meets every tally: most lose nothing)
        step = after(state)
        return Step(step.state, (*events, *step.events)) if events else step
    assert units is not None
    state = state.with_side(roller, state.side(roller).with_area(where, units))
    if _hears_destroyed(setup):
        return Step(state.changed(following=tuple(heard)), tuple(events))
    step = after(state)
    return Step(step.state, (*events, *step.events))


#: the order in which a group's units lost to its own rerolls are destroyed: damaged ones
#: first (docs/rulings.md 14C2-2)
_LOST_FIRST = (Status.SUSTAINED_THIS_ROUND, Status.DAMAGED, Status.UNDAMAGED)


#: the ``cause`` the handlers are told
CROWN_CAUSE = "crown of thalnos"


def _hears_destroyed(setup: BattleSetup) -> bool:
    """Whether a handler in play acts after a unit is destroyed (``after_destroyed``)."""
    return setup.remembered(
        ("roll_dice_hears_destroyed",),
        lambda: any(overrides(h, "after_destroyed") for h in setup.handlers),
    )


def _hear_destroyed(
    setup: BattleSetup, state: BattleState, after: Callable[[BattleState], Step[BattleState]]
) -> Node[BattleState]:
    """The first unit queued in ``following`` (destroyed by the roll just made) is heard by the
    handlers acting after a unit is destroyed, in their order (a handler's own follow-up queued
    meanwhile goes on next), then dropped; when none is left the step goes on (``after``)."""

    def onward(s: BattleState) -> Step[BattleState]:
        return after(s) if not s.following else Step(s)

    node = follow_ups(
        setup,
        state,
        arena(setup, state),
        CROWN_CAUSE,
        during="in the Roll Dice step",
        onward=onward,
    )
    assert node is not None
    return node


def _die_by_die(group: DiceGroup) -> bool:
    """Whether a group kept group by group is rolled one die at a time: its dice may produce
    extra hits. A die that produced no hit is rerolled by the Crown of Thalnos (relic) as it
    would be in the group, and a unit of several of them is lost once all its dice are rolled,
    if none produced a hit (``_doomed_die_by_die``; docs/rulings.md 27U-2)."""
    return bool(group.extra_hits) and group.dice > 1


def _by_unit(group: DiceGroup) -> bool:
    """Whether a group kept group by group is rolled one unit at a time: units of several dice
    destroyed when their rerolled dice produced no hit (the Crown of Thalnos, law), which may
    have hit with dice they did not reroll, so the group's hits would not tell the misses of
    the units left (docs/rulings.md 27U-4)."""
    return group.doom > 1 and group.doom_strict and group.dice > group.doom


def _law_die_by_die(group: DiceGroup) -> bool:
    """Whether a group rolled die by die (``_die_by_die``) has units of several dice that the
    Crown of Thalnos (law) destroys when their rerolled dice produced no hit: each die is then
    rolled as two groups, its roll (with the rerolls made before the Crown's) and the Crown's
    reroll of it, so that the record tells which dice the Crown rerolled (docs/rulings.md
    27V-1)."""
    return _die_by_die(group) and group.doom > 1 and group.doom_strict


def _split(group: DiceGroup) -> tuple[DiceGroup, ...]:
    """The groups ``group`` is rolled as when kept group by group, in rolling order: die by
    die (with the law, each die then the Crown's reroll of it), unit by unit, or whole."""
    if _law_die_by_die(group):
        return (_before_the_crown(group), group.rerolling(1)) * group.dice
    if _die_by_die(group):
        return (_one_die(group),) * group.dice
    if _by_unit(group):
        return (replace(group, dice=group.doom),) * (group.dice // group.doom)
    return (group,)


def _before_the_crown(group: DiceGroup) -> DiceGroup:
    """One die of a doomed ``group`` rolled with the rerolls made before the Crown of
    Thalnos's (the free ones first: docs/rulings.md 14RR-2); the Crown's, the last, is a group
    of its own (``DiceGroup.rerolling``)."""
    ahead = group.stages[:-1]
    reroll = ahead[-1] if ahead else None
    return replace(group, dice=1, doom=0, doom_strict=False, reroll=reroll, before=ahead[:-1])


def _one_die(group: DiceGroup) -> DiceGroup:
    """One die of ``group`` rolled alone: its rerolls kept, the units it may lose counted
    once every die of the unit is rolled (``_doomed_die_by_die``)."""
    return replace(group, dice=1, doom=0, doom_strict=False)


def _doomed_die_by_die(
    group: DiceGroup, kept: list[tuple[DiceGroup, int]]
) -> tuple[list[tuple[DiceGroup, int]], int]:
    """The dice of a doomed ``group`` rolled one at a time (``kept``, in the group's order,
    ``group.doom`` to a unit), those of each unit that produced no hit at all (every die was
    rerolled and missed: The Crown of Thalnos relic, 14RR-8; the law's units of several dice:
    ``_doomed_by_law_die_by_die``) kept with no die, as a group keeps the dice of its units
    left; and the units lost."""
    lost = 0
    out = list(kept)
    for start in range(0, len(kept), group.doom):
        unit = kept[start : start + group.doom]
        if any(hits for _, hits in unit):
            continue
        lost += 1
        for at in range(start, start + len(unit)):
            out[at] = (replace(kept[at][0], dice=0), 0)
    return out, lost


def _doomed_by_law_die_by_die(
    group: DiceGroup, kept: list[tuple[DiceGroup, int]]
) -> tuple[list[tuple[DiceGroup, int]], int]:
    """The dice of ``group`` rolled one at a time, each followed by the Crown of Thalnos's
    reroll of it (``kept``: a die, then its reroll, kept with no die where the die produced a
    hit; ``group.doom`` dice to a unit), settled: a unit some of whose dice the Crown rerolled
    and none of whose rerolls produced a hit is lost (the law: "each of their units that did
    not produce a hit with its reroll is destroyed"), its dice kept with none, their hits
    kept (they were produced); a die the Crown rerolled is kept as its reroll, the die it
    replaced with no die (its result is the reroll's: docs/rulings.md 14RR-1). Every entry is
    kept with the group's one die (its modifier, not the Crown's), so that War Funding Ω
    rerolls the dice of the units left that produced no hit (14RR-8, 27V-1); and the units
    lost."""
    die = _one_die(group)
    lost = 0
    out = list(kept)
    per_unit = 2 * group.doom
    for start in range(0, len(kept), per_unit):
        unit = kept[start : start + per_unit]
        crowned = unit[1::2]
        gone = any(g.dice for g, _ in crowned) and not any(hits for _, hits in crowned)
        lost += gone
        for at in range(start, start + per_unit, 2):
            (_, first), (reroll, again) = kept[at], kept[at + 1]
            rolled = bool(reroll.dice)
            out[at] = (replace(die, dice=int(not (rolled or gone))), first)
            out[at + 1] = (replace(die, dice=int(rolled and not gone)), again)
    return out, lost


def _roll_by_group(
    setup: BattleSetup,
    state: BattleState,
    roller: Side,
    pool: DicePool,
    purpose: str,
    after: Callable[[BattleState], Step[BattleState]],
) -> Node[BattleState]:
    """``roller``'s combat roll made one group at a time (a chance node each, in rolling
    order, as ``DicePool.sample`` reads the dice), each group's hits kept in the state
    (``BattleState.rolls``) until hits are assigned, for a handler acting after both players
    rolled (War Funding Ω). Units a group loses to its own rerolls (the Crown of Thalnos) are
    destroyed once every group is rolled (the roll is one roll: 14C2-1); meanwhile the group is
    kept with the dice of its units still there (docs/rulings.md 14RR-8). Hits that must go to
    non-fighter ships (the L1Z1X flagship's) are those of the groups that count them, restricted
    once every group is rolled (14RR-13). A group whose dice may produce extra hits is rolled
    die by die, its units the Crown may destroy lost once every die is rolled (27T-8, 27U-2). A
    roll on which trade goods are spent is made whole, its tally telling each group's hits
    (``_roll_spending``, 27U-3). Units of several dice the Crown of Thalnos (law) may destroy
    are rolled unit by unit (``_by_unit``, 27U-4), and those whose dice may produce extra
    hits die by die, each die's reroll by the law a group of its own (``_law_die_by_die``,
    27V-1). A roll that counts other marks cannot be split so: refused by name."""
    aimed_by: tuple[str, ...] = ()
    if purpose == "space_combat":
        found = aimed_pool(setup, state, roller, pool)
        if found is not None:
            pool, aimed_by = found  # its groups whose hits are restricted count them as marks
    by = ", ".join(h.id for h in setup.answering("keeps_rolls"))
    if pool.marks and not aimed_by:
        raise RuleNotImplemented(
            f"a combat roll kept group by group ({by}) that also counts marks",
            f"{roller.value}'s combat roll in round {state.round}",
        )
    if pool.budget:
        # the trade goods are spent seeing the whole roll: rolled whole (27U-3)
        return _roll_spending(setup, state, roller, pool, purpose, after)
    whole = pool.groups
    #: the group of ``whole`` each group rolled comes from
    origin: tuple[int, ...] = tuple(range(len(whole)))
    if any(_die_by_die(g) or _by_unit(g) for g in whole):
        # a group whose dice may produce extra hits is rolled die by die: its hits then tell
        # which dice produced none (War Funding Ω rerolls those: docs/rulings.md 27T-8, 27U-2),
        # and with the law each die's reroll by the Crown apart, which tells whether it was
        # rerolled (27V-1); units of several dice the law may destroy, unit by unit: each
        # unit's tally tells whether it is lost, its hits which of its dice missed (27U-4)
        origin = tuple(i for i, g in enumerate(whole) for _ in _split(g))
        pool = DicePool(tuple(part for g in whole for part in _split(g)))
    done = state.rolled(roller)
    if len(done) >= len(pool.groups):
        # a roll not begun yet (a whole record is the last Roll Dice step's: The Thundarian)
        done = ()
        state = state.recording(roller, ())
    if not pool.groups:
        return after(state)
    at = len(done)
    group = pool.groups[at]
    rest = len(pool.groups) - at - 1

    def tallied(tally: Tally) -> Step[BattleState]:
        lost = tally.lost[0] * group.doom
        # the group kept with the dice of its units still there (14RR-8)
        kept = (*done, (replace(group, dice=group.dice - lost) if lost else group, tally.hits))
        if rest:
            return Step(state.recording(roller, kept))  # the next group from the same step
        losses: list[tuple[DiceGroup, int]] = []
        if len(origin) != len(whole):
            # the units of several dice rolled one die at a time: lost once all are rolled
            kept, losses = _lost_die_by_die(whole, origin, kept)
        s = state.recording(roller, kept).with_hits_on(roller.other, sum(h for _, h in kept))
        events: list[Event] = []
        if aimed_by:
            marks = sum(h for k, h in kept if k.mark_on is not None or k.aimed)
            s = aiming(s, roller.other, marks)
            if marks:
                events.append(_restricted(roller.other, marks, aimed_by, state.round))
        losses += [
            (whole[i], (g.dice - k.dice) // g.doom)
            for i, g, (k, _) in zip(origin, pool.groups, kept, strict=True)
            if g.doom
        ]
        return _units_lost(setup, s, roller, losses, events, after)

    def then(hits: int) -> Step[BattleState]:
        return tallied(Tally(hits, 0, (0,)))

    if group.rerolled and _law_die_by_die(whole[origin[at]]) and done[at - 1][1]:
        # the Crown of Thalnos (law) rerolls a die that produced no hit only (27V-1)
        group = replace(group, dice=0)
        return then(0)
    one = DicePool((group,))
    return Chance(roller.value, purpose, one, then, then_tally=tallied if one.tallied else None)


def _roll_spending(
    setup: BattleSetup,
    state: BattleState,
    roller: Side,
    pool: DicePool,
    purpose: str,
    after: Callable[[BattleState], Step[BattleState]],
) -> Node[BattleState]:
    """``roller``'s combat roll on which trade goods are spent (the Hacan flagship), kept for a
    handler acting after both players rolled (War Funding Ω): the roller spends them seeing the
    whole roll, so it is made whole, as without that handler (one chance node, the same dice
    in the same order), and its ``Tally`` also tells each group's hits, trade goods' included
    (``DicePool.by_group``); each group is kept with those hits, with the dice of its units
    still there when the Crown of Thalnos destroyed some (14RR-8, 14RR-11; docs/rulings.md
    27U-3)."""
    whole = DicePool(pool.groups, by_group=True)

    def tallied(tally: Tally) -> Step[BattleState]:
        per = tally.by_group or _spread_hits(pool.groups, tally.hits)
        kept = tuple(
            (_left(g, lost), hits)
            for g, hits, lost in zip(pool.groups, per, tally.lost, strict=True)
        )
        s = state.recording(roller, kept).with_hits_on(roller.other, tally.hits)
        return _spent_and_lost(setup, s, roller, pool, tally, [], after)

    return _tallied_chance(roller, purpose, whole, tallied)


def _tallied_chance(
    roller: Side, purpose: str, pool: DicePool, tallied: Callable[[Tally], Step[BattleState]]
) -> Chance[BattleState]:
    """The roll of ``pool`` whose outcomes are whole tallies (units lost, trade goods spent,
    marks), ``tallied`` taking each; a plain count of hits is a tally of nothing else."""
    return Chance(
        roller.value,
        purpose,
        pool,
        lambda hits: tallied(Tally(hits, 0, (0,) * len(pool.groups))),
        then_tally=tallied,
    )


def _spent_and_lost(
    setup: BattleSetup,
    state: BattleState,
    roller: Side,
    pool: DicePool,
    tally: Tally,
    events: list[Event],
    after: Callable[[BattleState], Step[BattleState]],
) -> Step[BattleState]:
    """After a tallied roll: the trade goods ``roller`` spent on its dice (by the effect of the
    group that had them to spend), said in ``events``, then its units the roll destroyed."""
    if tally.spent:
        by = next(g.effect for g in pool.groups if g.budget)
        events.append(
            event(
                "trade_goods_spent",
                player=roller.value,
                trade_goods=tally.spent,
                by=by,
                round=state.round,
            )
        )
        state = state.spending(roller, trade_goods=tally.spent)
    losses = zip(pool.groups, tally.lost, strict=True)
    return _units_lost(setup, state, roller, losses, events, after)


def _left(group: DiceGroup, lost: int) -> DiceGroup:
    """``group`` kept with the dice of its units left after ``lost`` were destroyed; a single
    unit of several dice lost (the Hacan flagship: 14RR-11) keeps no die, and no trade goods
    (a group with trade goods has dice one to a unit, or is that one unit)."""
    if not lost:
        return group
    dice = group.dice - lost * group.doom
    return replace(group, dice=dice) if dice else replace(group, dice=0, budget=0)


def _spread_hits(groups: tuple[DiceGroup, ...], hits: int) -> tuple[int, ...]:
    """``hits`` told group by group in rolling order, each group's dice filled first: for an
    outcome given as hits alone (``Chance.after``: the stalemate check's paths, which read the
    hits, not which dice missed)."""
    per = []
    for group in groups:
        took = min(group.dice, hits)
        per.append(took)
        hits -= took
    return tuple(per)


def _lost_die_by_die(
    whole: tuple[DiceGroup, ...], origin: tuple[int, ...], kept: tuple[tuple[DiceGroup, int], ...]
) -> tuple[tuple[tuple[DiceGroup, int], ...], list[tuple[DiceGroup, int]]]:
    """The roll kept (``kept``, one entry a group rolled, ``origin`` the group of ``whole`` it
    comes from) with the dice of the units lost by the doomed groups rolled die by die taken
    out, and those losses (``_doomed_die_by_die``)."""
    out = list(kept)
    losses: list[tuple[DiceGroup, int]] = []
    for index, group in enumerate(whole):
        if not (group.doom and _die_by_die(group)):
            continue
        at = [i for i, o in enumerate(origin) if o == index]
        settle = _doomed_by_law_die_by_die if _law_die_by_die(group) else _doomed_die_by_die
        dice, lost = settle(group, [kept[i] for i in at])
        for i, entry in zip(at, dice, strict=True):
            out[i] = entry
        losses.append((group, lost))
    return tuple(out), losses


def _aimed_roll(
    state: BattleState,
    roller: Side,
    aimed: tuple[DicePool, tuple[str, ...]],
    after: Callable[[BattleState], Step[BattleState]],
) -> Node[BattleState]:
    """The combat roll of a pool some of whose hits (its marks) must be assigned to non-fighter
    ships if able: the opponent assigns those first (assign_hits.py ``aiming``)."""
    pool, by = aimed
    target = roller.other

    def marked(hits: int, marks: int) -> Step[BattleState]:
        # (always set anew: a Roll Dice step repeated by The Thundarian forgets the last one)
        step = after(aiming(state.with_hits_on(target, hits), target, marks))
        if not marks:
            return step
        told = _restricted(target, marks, by, state.round)
        return Step(step.state, (told, *step.events))

    return Chance(
        roller.value,
        "space_combat",
        pool,
        lambda hits: after(state.with_hits_on(target, hits)),
        then_marked=marked,
    )


def _restricted(target: Side, marks: int, by: tuple[str, ...], round_number: int) -> Event:
    """The ``hits_restricted`` event: ``marks`` hits against ``target`` must go to non-fighter
    ships if able."""
    return event(
        "hits_restricted",
        player=target.value,
        hits=marks,
        targets="non-fighter ships",
        by=list(by),
        round=round_number,
    )


def _after_roll_dice(setup: BattleSetup) -> bool:
    """Whether a handler in play acts after the Roll Dice step (``acts_after_roll_dice``)."""
    return setup.remembered(
        ("acts_after_roll_dice",),
        lambda: any(opens(h, Window.AFTER_ROLL_DICE) for h in setup.handlers),
    )


def assign_combat_hits(setup: BattleSetup, state: BattleState) -> Node[BattleState]:
    """Step 4 (space) / step 2 (ground): each player destroys their own units for the hits the
    opponent produced, sustain damage first if they wish."""
    side = state.turn
    if state.rolls != _NO_ROLLS:
        state = state.changed(rolls=_NO_ROLLS)  # read after the roll, not needed any more
    done = _assigned_by_attacker if side is A else _assigned_by_defender
    if setup.kind == "space":  # (``arena``, ``combat_cause``: read here at every step)
        where, targets, cause = None, Targets.SHIPS, "space combat"
    else:
        where, targets, cause = state.planet, Targets.GROUND_FORCES, "ground combat"
    return assign_hits(setup, state, side, where, targets, cause, in_combat_round=True, done=done)


def _assigned_by_attacker(state: BattleState) -> BattleState:
    """The attacker's hits are assigned: the defender's turn."""
    return state.at(Phase.ASSIGN_HITS, turn=D)


def _assigned_by_defender(state: BattleState) -> BattleState:
    """The defender's hits are assigned: the "after assign hits" window."""
    return state.at(Phase.AFTER_ASSIGN_HITS, turn=A, cursor=0)


def combat_cause(where: int | None) -> str:
    """The cause of a combat round's hits in the space area (``None``) or on a planet."""
    return "space combat" if where is None else "ground combat"


def after_assign_hits(setup: BattleSetup, state: BattleState) -> Node[BattleState]:
    """The window after hits are assigned (Duranium Armor): each handler in order."""
    cursor = state.cursor
    for index, handler in setup.answering_at("after_assign_hits"):
        # (only the handlers that answer it are asked: the others would say ``None``, 24AI-2)
        if index < cursor or handler.owner is None:
            continue
        node = handler.after_assign_hits(setup, state, handler.owner)
        if node is not None:
            return with_cursor(node, index + 1)
    following = Phase.RETREAT if arena(setup, state) is None else Phase.END_OF_ROUND
    return Step(state.at(following, cursor=0))


def end_of_round(setup: BattleSetup, state: BattleState) -> Node[BattleState]:
    """End of a combat round: damage sustained this round becomes plain damage; then the "end of
    combat round" window, shared with "end of combat" if this was the last round (space rule
    9.1; ground rule 4.2). If both players still have units in the fight, another round begins
    with its "start of combat round" window (space: from Announce Retreats, step 2; ground: from
    Roll Dice)."""
    where = arena(setup, state)
    settled = state.changed(
        attacker=_settled(state, A, where),
        defender=_settled(state, D, where),
        announced=(False, False),
        boosts=_NO_BOOSTS,
        marks=_NO_MARKS,
    )
    ended = event("round_ended", round=state.round)
    if not (combatants(setup, settled, A) and combatants(setup, settled, D)):
        after = Phase.END_OF_COMBAT if where is None else Phase.GROUND_COMBAT_ENDS
        opened = open_windows(setup, settled, (LAST_ROUND_END,), after)
        return Step(opened.state, (ended, *opened.events))
    opened = open_windows(setup, settled, (ROUND_END,), Phase.BEGIN_ROUND)
    return Step(opened.state, (ended, *opened.events))


def begin_round(setup: BattleSetup, state: BattleState) -> Node[BattleState]:
    """Another combat round begins, with its "start of combat round" window: a space combat
    round from Announce Retreats (rule 8), a ground combat round from Roll Dice (rule 3)."""
    where = arena(setup, state)
    first = Phase.ANNOUNCE_RETREATS if where is None else Phase.ROLL_DICE
    turn = D if where is None else A
    following = state.at(state.phase, round=state.round + 1, turn=turn)
    if where is not None and neither_can_win(setup, following):
        # A ground combat may become endless as units die (docs/rulings.md R20); no rule
        # covers that, so it is refused by name, at any round.
        raise RuleNotImplemented(
            "a ground combat that neither side can ever win (the rules give no way out)",
            f"ground combat on {setup.planets[where]}, round {following.round}",
        )
    opened = open_windows(setup, following, (NEXT_ROUND,), first)
    return Step(opened.state, (event("round_started", round=following.round), *opened.events))


def _settled(state: BattleState, side: Side, where: int | None) -> SideState:
    current = state.side(side)
    area = current.area(where)
    settled = area.settle_round()
    return current if settled is area else current.with_area(where, settled)
