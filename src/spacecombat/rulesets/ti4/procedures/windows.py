"""Timing windows of a combat: "start of combat", "start of combat round", "end of combat
round", "end of combat". In the first round the two start windows are one window, and in the
last round the two end windows are one window (ti4-space-combat.md rule 2.1 and 9.1;
ti4-ground-combat.md rule 4.1, 4.2 and notes 1, 2). Each handler in play may act once in each
window, in the handlers' documented order."""

from __future__ import annotations

from spacecombat.core.decisions import Option
from spacecombat.core.engine import Node, Step
from spacecombat.core.events import event
from spacecombat.core.forces import Status
from spacecombat.core.hits import next_hit
from spacecombat.rulesets.ti4.abilities import sustain_damage
from spacecombat.rulesets.ti4.abilities.base import Card, Handler, overrides
from spacecombat.rulesets.ti4.effects import (
    combatants,
    follow_ups,
    hears,
    hears_destroyed,
    queue_follow_up,
    reach,
    with_cursor,
)
from spacecombat.rulesets.ti4.hooks import FollowUp, Window
from spacecombat.rulesets.ti4.setup import BattleSetup
from spacecombat.rulesets.ti4.sides import Side
from spacecombat.rulesets.ti4.state import NO_AIM, BattleState, Phase

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


def _assign_window_hits(setup: BattleSetup, state: BattleState) -> Node[BattleState] | None:
    """Hits a handler produced in this window are assigned first (by the player whose ships
    they hit, each able to use SUSTAIN DAMAGE; docs/rulings.md 14B-1)."""
    cause, aim = state.aim.cause, state.aim
    if not cause:
        return None  # the hits of a combat roll wait for the Assign Hits step
    for side in (Side.ATTACKER, Side.DEFENDER):
        if state.hits_on(side):
            break
    else:
        # the window's hits are all assigned (the last by a decision): their aim goes with
        # them, or it would name the hits of the next combat roll (docs/rulings.md 27W-1)
        return Step(state.changed(aim=NO_AIM, sustained=()))
    # a unit sustaining damage in an end-of-round window is past the round (it stays repairable)
    in_round = Window.END_OF_COMBAT_ROUND not in state.windows[0]

    def done(s: BattleState) -> BattleState:
        return s if any(s.hits) else s.changed(aim=NO_AIM)

    def note(s: BattleState, option: Option) -> BattleState:
        # a unit destroyed, or that used SUSTAIN DAMAGE: queued for the handlers acting after
        # that (``follow_ups``)
        if option.action == "sustain":
            if not hears(setup, "after_sustain"):
                return s
            unit = option.unit or ""
            # ``sustained``: the units that sustained damage in this assignment, as in
            # procedures/assign_hits.py (cleared when the window's hits are all assigned)
            return queue_follow_up(
                s.changed(sustained=(*s.sustained, unit)), FollowUp.sustained(side, unit)
            )
        if not hears_destroyed(setup):
            return s
        return queue_follow_up(s, FollowUp.destroyed(side, option.unit or ""))

    able = sustain_damage.sustainable(setup, side)
    forbid = [h for h in setup.handlers if overrides(h, "forbids_sustain")]
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
        eligible=reach(setup, side, aim),
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


def _still_fighting(setup: BattleSetup, state: BattleState) -> bool:
    return bool(combatants(setup, state, Side.ATTACKER) and combatants(setup, state, Side.DEFENDER))


def timing_window(setup: BattleSetup, state: BattleState) -> Node[BattleState]:
    """Let each handler act in the current window, then open the next one or go on.

    Hits a handler produced are assigned before the next handler acts. If an effect left a
    player with no ships (or ground forces) in the fight at the start of a round, the combat
    ends (its end windows follow); after the end of a round, the combat ends with the "end of
    combat" window. Units destroyed in the window are heard first (``follow_ups``)."""
    if state.following:
        cause = state.aim.cause or "timing window"
        pending = follow_ups(setup, state, None, cause, during="in a timing window")
        if pending is not None:
            return pending
    if state.aim.cause:
        pending = _assign_window_hits(setup, state)
        if pending is not None:
            return pending
    if state.sustained:
        return Step(state.changed(sustained=()))  # the window's hits are all assigned
    cursor = state.cursor
    moment, askable = _askable(setup, state.windows[0])
    for index, handler, card in askable:
        if index < cursor or (card is not None and not card.held(state)):
            continue
        node = handler.in_window(setup, state, moment)
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


def _askable(setup: BattleSetup, windows: tuple[Window, ...]) -> _Askable:
    """The moment ``windows`` share, as the handlers are told it, and the handlers asked there
    (``Acts.admits`` but for ``held``), each with its place in the window order (the state's
    ``cursor`` counts in it) and, where it is asked only while its owner holds the card, the
    card; in the window order, found once per setup and moment (abilities/base.py ``Acts``:
    ``players``, ``battles`` and ``windows`` read the setup and the moment alone, ``held``
    the state): ``timing_window`` asks only those that can answer (24AI-1)."""
    key = (_ASKABLE, windows)
    known = setup.memo.get(key)
    if known is None:
        moment = frozenset(windows)
        asked: list[tuple[int, Handler, Card | None]] = []
        for index, handler in enumerate(_window_order(setup)):
            acts = handler.acts
            if acts is None or not acts.admits_at(handler, setup, moment):
                continue
            if not acts.held:
                asked.append((index, handler, None))
            elif isinstance(handler, Card):
                asked.append((index, handler, handler))
            # (a handler asked only while it holds a card that is no card is never asked)
        known = setup.memo[key] = (moment, tuple(asked))
    return known  # type: ignore[return-value]  # (a ``cast`` would be a call at each step)


_Askable = tuple[frozenset[Window], tuple[tuple[int, Handler, Card | None], ...]]


_ASKABLE = "windows_askable"


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
