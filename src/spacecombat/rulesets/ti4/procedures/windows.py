"""Timing windows of a combat: "start of combat", "start of combat round", "end of combat
round", "end of combat". In the first round the two start windows are one window, and in the
last round the two end windows are one window (ti4-space-combat.md rule 2.1 and 9.1;
ti4-ground-combat.md rule 4.1, 4.2 and notes 1, 2). Each handler in play may act once in each
window, in the handlers' documented order."""

from __future__ import annotations

from collections.abc import Callable, Sequence

from spacecombat.core.decisions import Option
from spacecombat.core.engine import Chance, Decision, Node, Step
from spacecombat.core.errors import RuleNotImplemented
from spacecombat.core.events import event
from spacecombat.core.forces import Forces, Status
from spacecombat.core.hits import next_hit, unit_destroyed
from spacecombat.rulesets.ti4.abilities import sustain_damage
from spacecombat.rulesets.ti4.abilities.base import Card, Handler, offer_plays
from spacecombat.rulesets.ti4.hooks import Window
from spacecombat.rulesets.ti4.procedures.common import combatants, with_cursor
from spacecombat.rulesets.ti4.setup import BattleSetup
from spacecombat.rulesets.ti4.sides import Side
from spacecombat.rulesets.ti4.state import BattleState, Phase

#: ``boosts`` marks of the Announce Retreats step (for the rest of the round): the defender's
#: "announce_retreats" window has opened; the player's retreat was intercepted (it cannot
#: retreat this round); the defender played Rout (the attacker must announce a retreat)
ANNOUNCE_WINDOW_OPENED = "announce_retreats_window"
INTERCEPTED = "intercepted"
ROUTED = "rout"


FIRST_ROUND = (Window.START_OF_COMBAT, Window.START_OF_COMBAT_ROUND)
NEXT_ROUND = (Window.START_OF_COMBAT_ROUND,)
LAST_ROUND_END = (Window.END_OF_COMBAT_ROUND, Window.END_OF_COMBAT)
ROUND_END = (Window.END_OF_COMBAT_ROUND,)


def open_windows(
    setup: BattleSetup, state: BattleState, windows: tuple[tuple[Window, ...], ...], then: Phase
) -> Step[BattleState]:
    """Move to the first of ``windows`` (each a set of windows that share one moment); after
    the last, go on to ``then``. When no handler in play acts in timing windows, they open and
    pass in this one step (the same events, one state fewer)."""
    if not setup.acts_in_windows:
        passed = state.at(then, windows=(), then=None, cursor=0)
        return Step(passed, tuple(_opened(state, group) for group in windows))
    first = windows[0]
    nxt = state.at(Phase.TIMING_WINDOW, windows=windows, then=then, cursor=0)
    return Step(nxt, (_opened(state, first),))


def _opened(state: BattleState, windows: tuple[str, ...]) -> dict[str, object]:
    return event("window_opened", windows=[str(w) for w in windows], round=state.round)


def aimed_hits(
    state: BattleState, target: Side, hits: int, cause: str, aim: str = ""
) -> BattleState:
    """``state`` with ``hits`` produced in a timing window against ``target``'s ships, to be
    assigned before the next handler acts (``aim``: which ships they may reach, see
    ``BattleState.aim``). The handlers acting before ``target`` assigns hits
    (``before_assign_hits``: Shields Holding, Tellurian) are asked first (``BEFORE``)."""
    produced = state.with_hits_on(target, state.hits_on(target) + hits)
    return _queue(produced.changed(aim=(cause, aim), sustained=()), (BEFORE, target, ""))


def chosen_by_producer(state: BattleState) -> bool:
    """Whether the hits of this window being assigned were placed on a ship by the player who
    produced them (Dimensional Splicer, Devotion): their owner does not assign them
    (docs/rulings.md 14H-1)."""
    return ":" in state.aim[1]


def window_targets(setup: BattleSetup, state: BattleState, side: Side) -> list[tuple[str, Status]]:
    """The (type, status) of ``side``'s ships in the space area that the hits of this window
    against it may reach (``BattleState.aim``)."""
    return _reach(setup, side, state.aim[1])(state.side(side).space)


def _reach(
    setup: BattleSetup, side: Side, aim: str
) -> Callable[[Forces], list[tuple[str, Status]]]:
    """Which of ``side``'s ships in an area hits of the window with ``aim`` may reach."""
    ships = setup.side(side).ship_types
    fighters = setup.side(side).fighter_types

    def eligible(area: Forces) -> list[tuple[str, Status]]:
        reach = [(u, st) for u, st, _ in area if u in ships]
        if aim == "non_fighter":
            big = [(u, st) for u, st in reach if u not in fighters]
            return big or reach
        if aim:
            unit, _, status = aim.partition(":")
            return [(u, st) for u, st in reach if u == unit and int(st) == int(status)]
        return reach

    return eligible


def aim_at(unit: str, status: Status) -> str:
    """The ``aim`` of a hit its producer assigned to one unit."""
    return f"{unit}:{int(status)}"


def _assign_window_hits(setup: BattleSetup, state: BattleState) -> Node[BattleState] | None:
    """Hits a handler produced in this window are assigned first (by the player whose ships
    they hit, each able to use SUSTAIN DAMAGE; docs/rulings.md 14B-1)."""
    cause, aim = state.aim
    if not cause:
        return None  # the hits of a combat roll wait for the Assign Hits step
    for side in (Side.ATTACKER, Side.DEFENDER):
        if state.hits_on(side):
            break
    else:
        return None
    # a unit sustaining damage in an end-of-round window is past the round (it stays repairable)
    in_round = Window.END_OF_COMBAT_ROUND not in state.windows[0]

    def done(s: BattleState) -> BattleState:
        return s if any(s.hits) else s.changed(aim=("", ""))

    def note(s: BattleState, option: Option) -> BattleState:
        # a unit destroyed, or that used SUSTAIN DAMAGE: queued for the handlers acting after
        # that (``_follow_destroyed``)
        if option.action == "sustain":
            if not _hears(setup, "after_sustain"):
                return s
            unit = option.unit or ""
            # ``sustained``: the units that sustained damage in this assignment, as in
            # procedures/assign_hits.py (cleared when the window's hits are all assigned)
            return _queue(s.changed(sustained=(*s.sustained, unit)), (SUSTAINED, side, unit))
        if not _hears_destroyed(setup):
            return s
        return _queue(s, (DESTROYED, side, option.unit or ""))

    able = sustain_damage.sustainable(setup, side)
    forbid = [h for h in setup.handlers if type(h).forbids_sustain is not Handler.forbids_sustain]
    if forbid:
        plain = able

        def able(unit: str, status: Status) -> bool:
            return plain(unit, status) and not any(
                h.forbids_sustain(setup, state, side, None, unit) for h in forbid
            )

    return next_hit(
        state,
        side,
        None,
        eligible=_reach(setup, side, aim),
        targets="ships",
        cause=cause,
        verb="assign",
        may_sustain=able,
        cancels=lambda hits: sustain_damage.hits_cancelled(setup, side, hits),
        damaged=sustain_damage.damaged_status(in_round),
        done=done,
        sustain_first=sustain_damage.immune_to_direct_hit(setup, side),
        after=note,
    )


#: a ``following`` entry of a unit destroyed in a timing window; "destroyed:N": the handlers
#: before position N have been asked about it
DESTROYED = "destroy"
#: likewise, of a unit that used SUSTAIN DAMAGE against hits of a timing window
#: (``after_sustain``: Direct Hit, Reflective Shielding)
SUSTAINED = "sustain"
#: likewise, of a player about to assign hits produced against it in a timing window
#: (``before_assign_hits``: Shields Holding, Tellurian)
BEFORE = "before_assign"


def _queue(state: BattleState, entry: tuple[str, Side, str]) -> BattleState:
    """``state`` with ``entry`` queued in ``following`` (the window's ``cursor`` kept)."""
    return state.changed(following=(*state.following, entry))


def _hears_destroyed(setup: BattleSetup) -> bool:
    """Whether a handler in play acts after a unit is destroyed (``after_destroyed``)."""
    return setup.remembered(
        ("hears_destroyed",),
        lambda: any(type(h).after_destroyed is not Handler.after_destroyed for h in setup.handlers),
    )


def _hears(setup: BattleSetup, hook: str) -> bool:
    """Whether a handler in play overrides ``hook`` (a method of ``Handler``)."""
    base = getattr(Handler, hook)
    return setup.remembered(
        ("hears", hook),
        lambda: any(getattr(type(h), hook) is not base for h in setup.handlers),
    )


def _follow_destroyed(setup: BattleSetup, state: BattleState) -> Node[BattleState] | None:
    """Units destroyed in a timing window (by its hits, or by ``destroy_own``) are heard by the
    handlers acting after a unit is destroyed (``after_destroyed``), in their order, before
    anything else happens in the window, as while hits are assigned (procedures/assign_hits.py;
    docs/rulings.md 14B3-5); so are units that used SUSTAIN DAMAGE against the window's hits
    (``after_sustain``: Direct Hit, Reflective Shielding), and, before a player assigns hits
    produced against it in the window, the handlers acting then (``before_assign_hits``:
    Shields Holding, Tellurian; docs/rulings.md 14H-6). A handler's own follow-up queued
    meanwhile (an entry named by its id) goes on next (``follow_up``)."""
    if not state.following:
        return None
    head = state.following[0]
    what, who, detail = head
    rest = state.changed(following=state.following[1:])
    handlers = setup.handlers
    kind, _, asked = what.partition(":")
    if kind in (DESTROYED, SUSTAINED, BEFORE):
        start = int(asked or 0)
        cause = state.aim[0] or "timing window"
        hook = {DESTROYED: "after_destroyed", SUSTAINED: "after_sustain"}.get(
            kind, "before_assign_hits"
        )
        base = getattr(Handler, hook)
        for index in range(start, len(handlers)):
            handler = handlers[index]
            if getattr(type(handler), hook) is base:
                continue
            node: Node[BattleState] | None
            if kind == DESTROYED:
                node = handler.after_destroyed(setup, state, who, None, detail, cause)
            elif kind == SUSTAINED:
                node = handler.after_sustain(setup, state, who, None, cause)
            elif state.hits_on(who):
                node = handler.before_assign_hits(setup, state, who, None, cause)
            else:
                break  # the hits are cancelled already
            if node is not None:
                return with_head(node, head, (f"{kind}:{index + 1}", who, detail))
        return Step(rest)
    for handler in handlers:
        if handler.id == what and handler.owner is who:
            node = handler.follow_up(setup, rest, who, detail, None)
            if node is not None:
                return node
            return Step(rest)
    raise RuleNotImplemented(
        f"an effect acting after a unit was destroyed in a timing window ({what})",
        f"{who.value}, round {state.round}",
    )


def with_head(
    node: Node[BattleState],
    head: tuple[str, Side, str],
    marked: tuple[str, Side, str],
    where: str = "in a timing window",
) -> Node[BattleState]:
    """The same node, but in every state it leads to the entry ``head`` still first in
    ``following`` is replaced by ``marked`` (how far the handlers have been asked about it).
    Also used for the units destroyed in the Roll Dice step (procedures/combat_round.py)."""

    def bump(step: Step[BattleState]) -> Step[BattleState]:
        queue = step.state.following
        if queue and queue[0] == head:
            return Step(step.state.changed(following=(marked, *queue[1:])), step.events)
        return step

    if isinstance(node, Step):
        return bump(node)
    if isinstance(node, Decision):
        decision = node
        return Decision(decision.request, lambda option: bump(decision.then(option)))
    if isinstance(node, Chance) and node.then_marked is None and node.then_tally is None:
        chance = node
        return Chance(chance.roller, chance.purpose, chance.pool, lambda h: bump(chance.then(h)))
    raise RuleNotImplemented(
        f"a random draw after a unit was destroyed {where}", f"{head[1].value}"
    )


def _still_fighting(setup: BattleSetup, state: BattleState) -> bool:
    return all(combatants(setup, state, side) for side in (Side.ATTACKER, Side.DEFENDER))


def timing_window(setup: BattleSetup, state: BattleState) -> Node[BattleState]:
    """Let each handler act in the current window, then open the next one or go on.

    Hits a handler produced are assigned before the next handler acts. If an effect left a
    player with no ships (or ground forces) in the fight at the start of a round, the combat
    ends (its end windows follow); after the end of a round, the combat ends with the "end of
    combat" window. Units destroyed in the window are heard first (``_follow_destroyed``)."""
    pending = _follow_destroyed(setup, state)
    if pending is not None:
        return pending
    pending = _assign_window_hits(setup, state)
    if pending is not None:
        return pending
    if state.sustained:
        return Step(state.changed(sustained=()))  # the window's hits are all assigned
    handlers = _window_order(setup)
    if state.cursor < len(handlers):
        current = frozenset(state.windows[0])
        for index in range(state.cursor, len(handlers)):
            handler = handlers[index]
            acts = handler.acts  # where the handler declared it acts (abilities/base.py Acts)
            if acts is None or not acts.admits(handler, setup, state, current):
                continue
            node = handler.in_window(setup, state, current)
            if node is not None:
                return with_cursor(node, index + 1)
    rest = state.windows[1:]
    if rest:
        nxt = state.changed(windows=rest, cursor=0)
        return Step(nxt, (_opened(state, rest[0]),))
    assert state.then is not None
    following = state.then
    if following in _ROUND_STEPS and not _still_fighting(setup, state):
        # the start windows' effects ended the combat: its end windows follow (rule 1.1)
        return Step(state.at(Phase.END_OF_ROUND, windows=(), then=None, cursor=0))
    if following is Phase.BEGIN_ROUND and not _still_fighting(setup, state):
        # an effect after the round ended the combat: the "end of combat" window follows
        after = Phase.END_OF_COMBAT if setup.kind == "space" else Phase.GROUND_COMBAT_ENDS
        opened = open_windows(setup, state, ((Window.END_OF_COMBAT,),), after)
        return opened
    return Step(state.at(following, windows=(), then=None, cursor=0))


def _window_order(setup: BattleSetup) -> tuple[Handler, ...]:
    """The handlers in the order they act in a window: the documented order, except that a
    player's handlers that act first among theirs (``Handler.acts_first_in_window``: Ipswitch,
    Loose Cannon, whose holder resolves it before Ambush) come first in that player's turn
    (the system's and laws' handlers, then the attacker's, then the defender's)."""

    def order() -> tuple[Handler, ...]:
        group = {None: 0, Side.ATTACKER: 1, Side.DEFENDER: 2}
        ranked = sorted(
            enumerate(setup.handlers),
            key=lambda p: (group[p[1].owner], not p[1].acts_first_in_window(), p[0]),
        )
        return tuple(h for _, h in ranked)

    return setup.remembered(("window_order",), order)


#: the steps a start window leads to, where the combat round is fought
_ROUND_STEPS = frozenset({Phase.ANNOUNCE_RETREATS, Phase.ANTI_FIGHTER_BARRAGE})


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
    queued for the handlers acting after a unit is destroyed (``_follow_destroyed``)."""
    units = state.side(side)
    gone = state.with_side(side, units.with_space(units.space.remove(unit, status)))
    return Step(_queue(gone, (DESTROYED, side, unit)), (unit_destroyed(side, unit, status, cause),))


def unit_value(setup: BattleSetup, side: Side, unit: str) -> float:
    """What one unit of ``side`` costs (a flagship or war sun without a cost counts as most):
    choices that sacrifice or target units list the cheapest or dearest first."""
    card = setup.side(side).card(unit)
    if card.cost is None:
        return 100.0
    return card.cost / card.units_per_cost
