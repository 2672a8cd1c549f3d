"""The engine API for TI4 effects: what an ability handler (``abilities/``) may call, and what
the procedures (``procedures/``) share with them. It lies below both: of the abilities it
imports only ``abilities/base.py`` (the ``Handler`` and its hooks) and
``abilities/space_cannon.py`` (the unit ability's dice), of the procedures nothing, so both
import it at the top of the module; the battle state's typed registers are state.py's
(``Aim``, ``Mark``, ``Discarded``) and hooks.py's (``FollowUp``).

A handler may call:

- where and who: ``arena`` (the space area or the invaded planet), ``combatants``,
  ``combat_roll`` (the kind of the current combat roll);
- combat dice and pools: ``combat_pool``, ``combat_dice``, ``aimed_pool`` (hits to go to
  non-fighter ships if able), ``offense_pool``, ``changed_pool``, ``defense_pool``,
  ``overriding`` (the handlers overriding a hook), ``final_die``, ``extra_cannon_roll``
  (space cannon fired before the active player's);
- hits: ``aiming`` and ``restricted_hits`` (hits to go to non-fighter ships if able),
  ``aimed_hits`` (hits produced in a timing window, and which ships they reach),
  ``window_targets``, ``chosen_by_producer``;
- destroying and changing units: ``destroy_own``, ``unit_value``, ``change_units``,
  ``relabel``, ``changed_events``;
- offering choices and playing cards: ``offer_choices`` (and, for a card handler,
  ``abilities/base.py`` ``Card.offer`` and ``offer_plays``);
- retreats: ``eligible_systems``, ``skilled_systems``, ``skilled_retreat``;
- follow-ups: ``queue_follow_up`` (a unit destroyed, a handler's own follow-up:
  hooks.py ``FollowUp``), heard in order by ``follow_ups``, the one drain of the queue;
  ``with_cursor`` (a node whose states step on through the handlers).

The procedures also use ``free_hits``, ``cannon_aimers``, ``restricted_roll``, ``reach``,
``hears``, ``hears_destroyed``, ``with_head`` and the retreat checks (``why_not_eligible``,
``why_not_skilled``, ``is_eligible``). Nothing else of the procedures is a handler's to
call."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import replace
from typing import TYPE_CHECKING, cast

from spacecombat.core.engine import Chance, Decision, Node, Step
from spacecombat.core.errors import RuleNotImplemented
from spacecombat.core.events import Event, event
from spacecombat.core.forces import Forces, Status
from spacecombat.core.hits import unit_destroyed
from spacecombat.core.pool import DiceGroup, DicePool
from spacecombat.core.state import ground_forces, ships
from spacecombat.rulesets.ti4.abilities.base import Card, Handler, Roll, offer_plays
from spacecombat.rulesets.ti4.abilities.space_cannon import ability_dice, cannon_pool
from spacecombat.rulesets.ti4.hooks import Follow, FollowUp
from spacecombat.rulesets.ti4.sides import Side
from spacecombat.rulesets.ti4.state import Aim, BattleState, Mark, Phase, Retreat

if TYPE_CHECKING:
    from spacecombat.rulesets.ti4.setup import AdjacentSystem, BattleSetup

_ATTACKER = Side.ATTACKER
SCO = Roll.SPACE_CANNON_OFFENSE


# Where and who, combat dice and pools


def arena(setup: BattleSetup, state: BattleState) -> int | None:
    """Where the current combat is fought: the space area (``None``) or the invaded planet."""
    return None if setup.kind == "space" else state.planet


def combatants(setup: BattleSetup, state: BattleState, side: Side) -> int:
    """Units of ``side`` that fight in the current combat: ships in space, ground forces on the
    planet in ground combat."""
    where = arena(setup, state)
    if where is None:
        return ships(setup, state, side)
    return ground_forces(setup, state, side, where)


def combat_roll(setup: BattleSetup, state: BattleState, side: Side) -> Roll:
    return Roll.SPACE_COMBAT if arena(setup, state) is None else Roll.GROUND_COMBAT


def combat_pool(setup: BattleSetup, state: BattleState, side: Side) -> DicePool:
    """``side``'s combat roll: one die per unit, or one per burst icon (step 3.1), grouped by
    combat value (step 3.2), rolled in ascending value (step 3.3). Remembered by units."""
    where = arena(setup, state)
    units = state.side(side).area(where)
    key = ("combat_pool", side, where is None, units)
    pool = setup.memo.get(key)
    if pool is None:
        # units that differ only in damage roll the same dice: one pool for them
        counts = tuple(units.by_type().items())
        pool = setup.memo[key] = setup.remembered(
            ("combat_dice", side, where is None, counts),
            lambda: _combat_pool(setup, counts, side, where is None),
        )
    changers = setup.roll_changers
    if changers:
        # handlers that change the roll from the state (a card played this round, a flagship
        # in the fight): keyed by what each reads
        read = tuple([h.roll_key(setup, state, side) for h in changers])
        changed_key = ("changed_pool", side, where is None, units, read)
        printed, pool = pool, setup.memo.get(changed_key)
        if pool is None:
            groups = cast("DicePool", printed).groups
            for handler in changers:
                groups = handler.combat_roll(setup, state, side, groups)
            pool = setup.memo[changed_key] = DicePool.of(list(groups))
    return pool  # type: ignore[return-value]  # (a ``cast`` would be a call at each step)


def _combat_pool(
    setup: BattleSetup, counts: tuple[tuple[str, int], ...], side: Side, in_space: bool
) -> DicePool:
    """The pool of units counted by type."""
    cards = setup.side(side)
    fights = cards.ship_types if in_space else cards.ground_force_types
    roll = Roll.SPACE_COMBAT if in_space else Roll.GROUND_COMBAT
    groups = []
    for unit, count in counts:
        combat = cards.card(unit).combat
        if unit in fights and combat is not None:
            if combat.dice is None:  # set by an ability, which adds the group (combat_roll)
                if any(h.sets_combat_dice(side, unit) for h in setup.handlers):
                    continue
                raise RuleNotImplemented(f"the combat dice of {unit}", f"{side.value}'s roll")
            groups.append(
                DiceGroup(unit, count * combat.dice, combat.hit, setup.modifier(side, roll, unit))
            )
    return DicePool.of(groups)


def combat_dice(setup: BattleSetup, state: BattleState, side: Side) -> int:
    """How many dice ``side`` rolls in a combat round now."""
    return combat_pool(setup, state, side).dice


def each_step(
    node: Node[BattleState],
    change: Callable[[Step[BattleState]], Step[BattleState]],
    refusal: RuleNotImplemented | None = None,
) -> Node[BattleState]:
    """The same node, every step it leads to passed through ``change`` (a decision's after each
    option, a roll's after each outcome, with its marks or tally). With ``refusal``: a roll
    with marks or a tally, or a node that leads to no step, is refused with it (the callers
    that keep a place in a queue have no way through them); without, such a node is itself."""
    if isinstance(node, Step):
        return change(node)
    if isinstance(node, Decision):
        decision = node
        return Decision(decision.request, lambda option: change(decision.then(option)))
    if isinstance(node, Chance) and (
        refusal is None or (node.then_marked is None and node.then_tally is None)
    ):
        chance = node
        marked, tally = chance.then_marked, chance.then_tally
        return Chance(
            chance.roller,
            chance.purpose,
            chance.pool,
            lambda h: change(chance.then(h)),
            None if marked is None else (lambda h, m: change(marked(h, m))),
            None if tally is None else (lambda t: change(tally(t))),
        )
    if refusal is not None:
        raise refusal
    return node


def with_cursor(node: Node[BattleState], cursor: int) -> Node[BattleState]:
    """The same node, but every state it leads to has ``cursor`` set (to step through a window's
    handlers one by one)."""
    return each_step(node, lambda step: Step(step.state.changed(cursor=cursor), step.events))


# Hits to go to non-fighter ships if able (combat rolls)


def aimed_pool(
    setup: BattleSetup, state: BattleState, roller: Side, pool: DicePool
) -> tuple[DicePool, tuple[str, ...]] | None:
    """``roller``'s space combat ``pool`` counting as marks the hits that must go to
    non-fighter ships if able, and the handlers that say so; ``None`` when none does now."""
    aimers = setup.answering("aims_combat_hits")
    return _aimed_pool(setup, state, roller, pool, aimers) if aimers else None


def _aimed_pool(
    setup: BattleSetup,
    state: BattleState,
    roller: Side,
    pool: DicePool,
    aimers: tuple[Handler, ...],
) -> tuple[DicePool, tuple[str, ...]] | None:
    """``pool`` with the groups whose hits must go to non-fighter ships if able counting marks,
    one for each hit (a natural face at or above the group's ``hit_on``; dice rerolled or with
    extra hits count their hits: ``aimed``), and the ids of the handlers that say so; ``None``
    when none does now. A pool that already counts marks or spends trade goods is refused by
    name: its hits could not be told apart."""
    found = [(h.id, h.aims_combat_hits(setup, state, roller)) for h in aimers]
    types = frozenset().union(*(t for _, t in found))
    by = tuple(i for i, t in found if t)
    if not by or not any(g.unit in types for g in pool.groups):
        return None

    def mark() -> DicePool:
        if pool.budget or pool.marks:
            raise RuleNotImplemented(
                "hits that must go to non-fighter ships in a roll with trade goods to spend or"
                " other marks",
                f"{roller.value}'s combat roll ({', '.join(by)})",
            )
        groups = []
        for group in pool.groups:
            if group.unit in types:
                # plain dice: a natural face of ``hit_on`` or more; dice rerolled or with extra
                # hits: every hit they produce (docs/rulings.md 14RR-6, 14RR-10)
                if group.plain:
                    group = replace(group, mark_on=group.hit_on)
                else:
                    group = replace(group, aimed=True)
            groups.append(group)
        return DicePool.of(groups)

    return setup.remembered(("aimed_pool", pool, types), mark), by


# Space cannon and its rolls


def final_die(group: DiceGroup) -> DiceGroup:
    """``group`` rolled once, none of its misses rerolled."""
    return replace(group, reroll=None, before=(), rerollable=False)


def after_reviewed_roll(
    setup: BattleSetup,
    state: BattleState,
    roller: Side,
    roll: Roll,
    purpose: str,
    pool: Callable[[BattleState], DicePool],
    then: Callable[[BattleState, int], Step[BattleState]],
) -> Node[BattleState]:
    """After ``roller``'s reviewed roll (``reviewed_roll``): the handlers not yet asked are asked
    in order (``after_ability_roll``); then its hits are used (``then``), or, if one had it
    rolled again (``Mark.REROLL``), ``pool`` (from the state) is rolled and its hits are used
    instead: that roll is final, the roller's own rerolls (Ta Zern) were made right after its
    first roll (docs/rulings.md 14RR-9, 14SF-2). ``then`` gets the state as before the roll
    (``cursor`` 0), the handlers' changes kept (a card played)."""
    reroll = state.marked(roller, Mark.REROLL)
    cleared = state.unmarking(roller, Mark.ABILITY_ROLLED, Mark.REROLL).changed(cursor=0)
    clean = cleared.with_hits_on(roller.other, 0)
    if reroll:
        final = DicePool.of([final_die(g) for g in pool(clean).groups])
        return Chance(roller.value, purpose, final, lambda again: then(clean, again))
    handlers = setup.handlers
    for index in range(state.cursor, len(handlers)):
        node = handlers[index].after_ability_roll(setup, state, roller, roll, 0)
        if node is not None:
            return with_cursor(node, index + 1)
    return then(clean, state.hits_on(roller.other))


def extra_cannon_pool(
    setup: BattleSetup, state: BattleState, owner: Side, groups: tuple[DiceGroup, ...]
) -> DicePool:
    """The dice of an extra SPACE CANNON roll of ``owner`` (``groups``), changed as every space
    cannon roll of ``owner`` is (Plasma Scoring, Solar Flare, ...)."""
    groups = ability_dice(setup, owner, SCO, groups)
    return changed_pool(setup, state, owner, DicePool.of(list(groups)))


def extra_cannon_roll(
    setup: BattleSetup,
    state: BattleState,
    owner: Side,
    groups: tuple[DiceGroup, ...],
    fired: str,
) -> Node[BattleState] | None:
    """``owner`` (the defender) fires ``groups`` as SPACE CANNON at the active player's ships,
    before the active player's own space cannon offense (from ``extra_ability_roll``); the
    active player assigns the hits, then makes its own roll. The dice are changed as every
    space cannon roll of ``owner`` is (Plasma Scoring, Solar Flare, ...); ``None`` when none
    is left. ``fired``, a boost set on ``owner``, tells the handler it has fired.

    It is a SPACE CANNON roll: when a handler in play acts after such a roll
    (``after_ability_roll``: Scramble Frequency), its hits first wait (``owner``'s mark
    ``ABILITY_ROLLED``, as ``reviewed_roll`` does), and the procedure asks this handler again,
    which goes on with ``after_reviewed_roll`` (the roll made again, if the opponent had it
    rerolled: docs/rulings.md 27T-3); the active player's handlers before its own roll are
    not asked again (``cursor``)."""
    pool = extra_cannon_pool(setup, state, owner, groups)
    if not pool.groups:
        return None
    aimers = cannon_aimers(setup, state, owner)

    def then(before: BattleState, hits: int) -> Step[BattleState]:
        done = before.boosting(owner, fired)
        if hits == 0:
            return Step(done)
        hit = done.marking(owner, Mark.EXTRA_SPACE_CANNON).at(
            Phase.SPACE_CANNON_OFFENSE_HITS, turn=owner, cursor=0
        )
        return restricted_roll(hit.with_hits_on(owner.other, hits), owner.other, hits, aimers)

    if state.marked(owner, Mark.ABILITY_ROLLED):
        asked = len(setup.handlers)  # the handlers before the active player's roll were asked
        return after_reviewed_roll(
            setup,
            state,
            owner,
            SCO,
            "space_cannon_offense",
            lambda s: extra_cannon_pool(setup, s, owner, groups),
            lambda s, hits: then(s.changed(cursor=asked), hits),
        )
    if not overriding(setup, "after_ability_roll"):
        return Chance(owner.value, "space_cannon_offense", pool, lambda hits: then(state, hits))

    def waiting(hits: int) -> Step[BattleState]:
        rolled = state.with_hits_on(owner.other, hits).marking(owner, Mark.ABILITY_ROLLED)
        return Step(rolled.changed(cursor=0))

    return Chance(owner.value, "space_cannon_offense", pool, waiting)


def offense_pool(setup: BattleSetup, state: BattleState, roller: Side) -> DicePool:
    """``roller``'s space cannon offense dice: its units in the space area and on the planet,
    as the handlers change them (from the setup, then from the state)."""
    side = state.side(roller)
    units = side.space.plus(side.planets[0])
    return changed_pool(setup, state, roller, cannon_pool(setup, roller, units, SCO))


def changed_pool(setup: BattleSetup, state: BattleState, roller: Side, pool: DicePool) -> DicePool:
    """``pool`` as the handlers change it from the state (``ability_roll``)."""
    changers = overriding(setup, "ability_roll")
    if not changers or not pool.groups:
        return pool
    groups = pool.groups
    for handler in changers:
        groups = handler.ability_roll(setup, state, roller, SCO, groups)
    return DicePool.of(list(groups))


def overriding(setup: BattleSetup, hook: str) -> tuple[Handler, ...]:
    """The handlers in play that override ``hook`` (none: the step is skipped, no state added)."""
    return setup.answering(hook)


def cannon_aimers(setup: BattleSetup, state: BattleState, roller: Side) -> tuple[str, ...]:
    """The handlers that make the hits of ``roller``'s roll about to be made go to non-fighter
    ships if able (``aims_ability_hits``: Graviton Laser System)."""
    return tuple(
        h.id
        for h in overriding(setup, "aims_ability_hits")
        if h.aims_ability_hits(setup, state, roller, SCO)
    )


def restricted_roll(
    hit: BattleState, target: Side, hits: int, aimers: tuple[str, ...]
) -> Step[BattleState]:
    """``hit`` (the roll's hits set against ``target``), every hit to go to non-fighter ships
    if able when ``aimers`` say so."""
    if not aimers:
        return Step(hit)
    told = event(
        "hits_restricted",
        player=target.value,
        hits=hits,
        targets="non-fighter ships",
        by=list(aimers),
        round=hit.round,
    )
    return Step(aiming(hit, target, hits), (told,))


def defense_pool(setup: BattleSetup, state: BattleState, planet: int) -> DicePool:
    """The defender's SPACE CANNON dice at ``planet`` before a handler changes them from the
    state: its units there that have not lost the ability (Disable)."""
    firing = state.defender.planet(planet).without(
        lambda unit: any(
            h.loses_ability(setup, state, Side.DEFENDER, unit, "space_cannon")
            for h in setup.handlers
        )
    )
    return cannon_pool(setup, Side.DEFENDER, firing, Roll.SPACE_CANNON_DEFENSE)


# Hits: restricted, and produced in a timing window


def aiming(state: BattleState, side: Side, restricted: int) -> BattleState:
    """``state``, whose hits against ``side`` are set, with ``restricted`` of them to be
    assigned to non-fighter ships if able (Graviton Laser System, the L1Z1X flagship; the
    others are free: ``Mark.FREE_HITS``). They are assigned before the others, and hits
    cancelled before or while they are assigned cancel them first: whatever the player could
    do assigning the others first, it can do so too (docs/rulings.md 14G-3)."""
    hits = state.hits_on(side)
    restricted = min(restricted, hits)
    if restricted > 0:
        return state.marking(side, Mark.FREE_HITS, hits - restricted)
    return state.unmarking(side, Mark.FREE_HITS)


def restricted_hits(state: BattleState, side: Side) -> int:
    """How many of the hits against ``side`` must still go to non-fighter ships if able."""
    free = free_hits(state, side)
    return 0 if free is None else max(0, state.hits_on(side) - free)


def free_hits(state: BattleState, side: Side) -> int | None:
    """How many of the hits against ``side`` are free to go to any unit, when some must go to
    non-fighter ships if able (``aiming``); ``None`` when none must."""
    if not state.marks[0 if side is Side.ATTACKER else 1]:
        return None  # (no mark at all, the usual case: read at every step, 24AI-3)
    return state.mark_count(side, Mark.FREE_HITS)


def aimed_hits(
    state: BattleState,
    target: Side,
    hits: int,
    cause: str,
    *,
    non_fighter: bool = False,
    unit: tuple[str, Status] | None = None,
) -> BattleState:
    """``state`` with ``hits`` produced in a timing window against ``target``'s ships, to be
    assigned before the next handler acts: to any ship, to a non-fighter ship if able
    (``non_fighter``), or to the one unit their producer chose (``unit``, its type and status;
    ``BattleState.aim``). The handlers acting before ``target`` assigns hits
    (``before_assign_hits``: Shields Holding, Tellurian) are asked first."""
    produced = state.with_hits_on(target, state.hits_on(target) + hits)
    aim = Aim(cause, non_fighter, unit)
    return queue_follow_up(produced.changed(aim=aim, sustained=()), FollowUp.before_assign(target))


def chosen_by_producer(state: BattleState) -> bool:
    """Whether the hits of this window being assigned were placed on a ship by the player who
    produced them (Dimensional Splicer, Devotion): their owner does not assign them
    (docs/rulings.md 14H-1)."""
    return state.aim.unit is not None


def window_targets(setup: BattleSetup, state: BattleState, side: Side) -> list[tuple[str, Status]]:
    """The (type, status) of ``side``'s ships in the space area that the hits of this window
    against it may reach (``BattleState.aim``)."""
    return reach(setup, side, state.aim)(state.side(side).space)


def reach(setup: BattleSetup, side: Side, aim: Aim) -> Callable[[Forces], list[tuple[str, Status]]]:
    """Which of ``side``'s ships in an area hits of the window with ``aim`` may reach."""
    ships = setup.side(side).ship_types
    fighters = setup.side(side).fighter_types
    chosen = aim.unit

    def eligible(area: Forces) -> list[tuple[str, Status]]:
        reach = [(u, st) for u, st, _ in area if u in ships]
        if aim.non_fighter:
            big = [(u, st) for u, st in reach if u not in fighters]
            return big or reach
        if chosen is not None:
            return [(u, st) for u, st in reach if (u, st) == chosen]
        return reach

    return eligible


# Follow-ups


def queue_follow_up(state: BattleState, entry: FollowUp) -> BattleState:
    """``state`` with ``entry`` queued in ``following`` (the window's ``cursor`` kept)."""
    return state.changed(following=(*state.following, entry))


def hears_destroyed(setup: BattleSetup) -> bool:
    """Whether a handler in play acts after a unit is destroyed (``after_destroyed``)."""
    return bool(setup.answering("after_destroyed"))


def hears(setup: BattleSetup, hook: str) -> bool:
    """Whether a handler in play overrides ``hook`` (a method of ``Handler``)."""
    return bool(setup.answering(hook))


def _dropped(state: BattleState) -> BattleState:
    return state.changed(following=state.following[1:])


def follow_ups(
    setup: BattleSetup,
    state: BattleState,
    where: int | None,
    cause: str,
    *,
    during: str,
    dropped: Callable[[BattleState], BattleState] = _dropped,
    onward: Callable[[BattleState], Step[BattleState]] | None = None,
    must_destroy: Callable[[BattleState, FollowUp], Node[BattleState]] | None = None,
) -> Node[BattleState] | None:
    """The first entry queued in ``following`` (hooks.py), heard: ``None`` when none is.

    A unit destroyed, or that used SUSTAIN DAMAGE, is heard by the handlers acting after that
    (``after_destroyed``, ``after_sustain``), in their order, before anything else happens
    (docs/rulings.md 14B3-5); a player about to assign hits produced against it in a timing
    window, by the handlers acting then (``before_assign_hits``: Shields Holding, Tellurian;
    docs/rulings.md 14H-6), unless the hits are cancelled already. How far the handlers have
    been asked is kept in the entry (``asked``). A handler's own follow-up (``Follow.OWN``)
    goes on with its effect (``Handler.follow_up``); a ship its player must destroy is
    ``must_destroy``'s (hit assignment). Then the entry is dropped (``dropped``: by default
    only that) and, when ``onward`` is given, the procedure goes on with it (the Roll Dice
    step, once nothing is left to hear). ``where``: the space area (``None``) or the planet;
    ``cause``: what the handlers are told; ``during``: where this is, for a refusal.

    The one drain of the queue: timing windows (procedures/windows.py), hit assignment
    (procedures/assign_hits.py), the Roll Dice step (procedures/combat_round.py) and the
    commitment of ground forces (procedures/invasion.py) call it."""
    if not state.following:
        return None
    head = state.following[0]
    rest = dropped(state)
    who = head.player
    kind = head.kind
    if kind is Follow.OWN:
        for handler in setup.handlers:
            if handler.id == head.handler and handler.owner is head.owner:
                going = handler.follow_up(setup, rest, who, head.detail, where)
                if going is None:
                    return Step(rest) if onward is None else onward(rest)
                return going if onward is None else _then(going, onward, during)
        raise RuleNotImplemented(
            f"an effect going on {during} ({head.handler})", f"{who.value}, round {state.round}"
        )
    if kind is Follow.MUST_DESTROY:
        if must_destroy is None:
            raise RuleNotImplemented(f"a ship to destroy {during}", f"{who.value}")
        return must_destroy(state, head)
    hook = kind.hook
    assert hook is not None
    asked = head.asked
    for index, handler in setup.answering_at(hook):
        if index < asked:
            continue
        if kind is Follow.DESTROYED:
            node = handler.after_destroyed(setup, state, who, where, head.detail, cause)
        elif kind is Follow.SUSTAINED:
            node = handler.after_sustain(setup, state, who, where, cause)
        elif state.hits_on(who):
            node = handler.before_assign_hits(setup, state, who, where, cause)
        else:
            break  # the hits are cancelled already
        if node is not None:
            return with_head(node, head, replace(head, asked=index + 1), during)
    return Step(rest) if onward is None else onward(rest)


def with_head(
    node: Node[BattleState], head: FollowUp, marked: FollowUp, where: str
) -> Node[BattleState]:
    """The same node, but in every state it leads to the entry ``head`` still first in
    ``following`` is replaced by ``marked`` (how far the handlers have been asked about it)."""

    def bump(step: Step[BattleState]) -> Step[BattleState]:
        queue = step.state.following
        if queue and queue[0] == head:
            return Step(step.state.changed(following=(marked, *queue[1:])), step.events)
        return step

    refusal = RuleNotImplemented(
        f"a random draw after a unit was destroyed {where}", head.player.value
    )
    return each_step(node, bump, refusal)


def _then(
    node: Node[BattleState], onward: Callable[[BattleState], Step[BattleState]], where: str
) -> Node[BattleState]:
    """The same node, each step it leads to followed by ``onward`` (its events kept first)."""

    def follow(step: Step[BattleState]) -> Step[BattleState]:
        more = onward(step.state)
        return Step(more.state, (*step.events, *more.events))

    refusal = RuleNotImplemented(f"a random draw after a unit was destroyed {where}", "a follow-up")
    return each_step(node, follow, refusal)


# Choices, and destroying units


def offer_choices(
    card: Card,
    state: BattleState,
    prompt: str,
    choices: Sequence[tuple[str, Callable[[BattleState], Step[BattleState]]]],
    *,
    once: bool = True,
    pass_first: bool = False,
) -> Node[BattleState]:
    """Ask ``card``'s owner whether to use it now, and how (``abilities/base.offer_plays``:
    one "play CARD: LABEL" option per choice, then "pass"; the opponent may cancel it where
    ``card.watcher`` says so)."""
    owner = card.owner
    assert owner is not None
    return offer_plays(
        owner,
        card.card,
        state,
        prompt,
        choices,
        once=once,
        pass_first=pass_first,
        watcher=card.watcher,
    )


def destroy_own(
    state: BattleState,
    side: Side,
    unit: str,
    status: Status,
    cause: str,
) -> Step[BattleState]:
    """``side`` destroys one of its own ships in the space area (``cause`` says why); it is
    queued for the handlers acting after a unit is destroyed (``follow_ups``)."""
    units = state.side(side)
    gone = state.with_side(side, units.with_space(units.space.remove(unit, status)))
    return Step(
        queue_follow_up(gone, FollowUp.destroyed(side, unit)),
        (unit_destroyed(side, unit, status, cause),),
    )


def unit_value(setup: BattleSetup, side: Side, unit: str) -> float:
    """What one unit of ``side`` costs (a flagship or war sun without a cost counts as most):
    choices that sacrifice or target units list the cheapest or dearest first."""
    card = setup.side(side).card(unit)
    if card.cost is None:
        return 100.0
    return card.cost / card.units_per_cost


#: anomalies a retreat may enter only with an ability's permission (notes 2–4), and what gives it
# Retreats


GATED_ANOMALIES = {
    "asteroid_field": "is an asteroid field, open only with Antimass Deflectors",
    "supernova": "is a supernova, open only with Magmus Reactor",
    "nebula": "is a nebula, open only to the Empyrean",
}


def why_not_eligible(setup: BattleSetup, side: Side, system: AdjacentSystem) -> str | None:
    """Why ``system`` is not an eligible retreat destination for ``side``, or ``None`` if it is.

    Step 5.3: the system holds the player's units or a planet they control (or Dark Energy
    Tap, note 8), and no other player's ships; notes 2–4: asteroid fields, supernovas and nebulae
    only with permission (Antimass Deflectors, Magmus Reactor, Voidborn; never Shared Research)."""
    me = side.value
    if any(player != me for player in system.ships):
        return "holds another player's ships"
    present = me in system.units or me in system.planets
    if not present:
        # docs/rulings.md R12: Dark Energy Tap opens only a system with no other player's units
        # at all (ships, ground forces or structures).
        if not any(h.permits_system_without_presence(side) for h in setup.handlers):
            return "holds none of the player's units and no planet they control"
        if any(player != me for player in system.units):
            return "holds another player's units, which Dark Energy Tap does not allow"
    return _why_not_enterable(setup, side, system)


def _why_not_enterable(setup: BattleSetup, side: Side, system: AdjacentSystem) -> str | None:
    """Why ``side``'s ships may not move into ``system`` at all (notes 2-4), or ``None``."""
    gated = system.anomaly in GATED_ANOMALIES
    if gated and not any(h.permits_anomaly(side, system.anomaly) for h in setup.handlers):
        return GATED_ANOMALIES[system.anomaly]
    return None


def why_not_skilled(setup: BattleSetup, side: Side, system: AdjacentSystem) -> str | None:
    """Why Skilled Retreat may not move ``side``'s ships to ``system``, or ``None`` if it may:
    the card asks only for an adjacent system with no other player's ships (no units or
    planets of the player there); the ships move, so anomalies close it as they close a
    retreat (notes 2-4; docs/rulings.md 14B3-2)."""
    if any(player != side.value for player in system.ships):
        return "holds another player's ships"
    return _why_not_enterable(setup, side, system)


def skilled_systems(setup: BattleSetup, side: Side) -> tuple[AdjacentSystem, ...]:
    """The adjacent systems Skilled Retreat may move ``side``'s ships to, in the scenario's
    order (found once)."""
    return setup.remembered(
        ("skilled_systems", side),
        lambda: tuple(s for s in setup.system.adjacent if why_not_skilled(setup, side, s) is None),
    )


def skilled_retreat(setup: BattleSetup, state: BattleState, side: Side) -> BattleState:
    """``state`` with ``side``'s Skilled Retreat under way: its ships leave as in a retreat (the
    destination, what they carry, a gravity rift, the command token: the sub-steps below), then
    the combat ends in a draw. Any timing window still open is closed: the combat is over."""
    moving = state.at(Phase.RETREAT, windows=(), then=None, cursor=0, retreat=Retreat(side))
    return moving.marking(side, Mark.SKILLED_RETREAT)


def is_eligible(setup: BattleSetup, side: Side, system: AdjacentSystem) -> bool:
    """Whether ``side`` may retreat to ``system`` (``why_not_eligible``)."""
    return why_not_eligible(setup, side, system) is None


def eligible_systems(setup: BattleSetup, side: Side) -> tuple[AdjacentSystem, ...]:
    """The adjacent systems ``side`` may retreat to, in the scenario's order (they depend on the
    setup alone: found once)."""
    return setup.remembered(
        ("eligible_systems", side),
        lambda: tuple(s for s in setup.system.adjacent if is_eligible(setup, side, s)),
    )


# Changing units


#: a unit type changed in an area: (old type, status, count, new type)
Item = tuple[str, Status, int, str]


def relabel(forces: Forces, rename: Callable[[str], str | None]) -> tuple[Forces, list[Item]]:
    """``forces`` with each unit ``rename`` names another type (``None``: kept) of that type,
    statuses kept; and what changed, (old type, status, count, new type)."""
    changed: list[Item] = []
    out = forces
    for unit, status, count in forces:
        new = rename(unit)
        if new is None or new == unit:
            continue
        out = out.remove(unit, status, count).add(new, status, count)
        changed.append((unit, status, count, new))
    return out, changed


def change_units(
    state: BattleState, owner: Side, to: Callable[[str], str | None], by: str
) -> Step[BattleState] | None:
    """``owner``'s units that become another unit type (``to`` names each one's new type, or
    ``None``: a flip at the start of a combat, a changed unit turned back), in the space area
    and among the ships of a retreat it made, with a ``unit_changed`` event each; ``None`` if
    none changed."""
    space, changed = relabel(state.side(owner).space, to)
    retreat = state.retreat
    if retreat is not None and retreat.side is owner:
        arrived, moved = relabel(retreat.arrived, to)
        if moved:
            retreat = replace(retreat, arrived=arrived)
            changed += moved
    if not changed:
        return None
    done = state.with_side(owner, state.side(owner).with_space(space)).changed(retreat=retreat)
    return Step(done, changed_events(owner, changed, by))


def changed_events(side: Side, changed: Iterable[Item], by: str) -> tuple[Event, ...]:
    """One ``unit_changed`` event per unit that became another type."""
    return tuple(
        event("unit_changed", player=side.value, unit=unit, becomes=new, status=status.label, by=by)
        for unit, status, count, new in changed
        for _ in range(count)
    )
