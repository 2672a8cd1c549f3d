"""Assigning hits: the player whose units were hit chooses, one hit at a time, to use a unit's
SUSTAIN DAMAGE (cancelling one hit, or more with Non-Euclidean Shielding) or to destroy one of
their own units that the hits may reach (ti4-space-combat.md step 4; ti4-ground-combat.md
step 2). Hits that no unit can take are lost."""

from __future__ import annotations

from collections.abc import Callable, Hashable
from dataclasses import dataclass
from enum import StrEnum

from spacecombat.core.decisions import DecisionRequest, Option
from spacecombat.core.engine import Decision, Node, Step
from spacecombat.core.forces import STATUSES, Forces, Status, describe
from spacecombat.core.hits import next_hit, unit_destroyed
from spacecombat.rulesets.ti4.abilities import sustain_damage
from spacecombat.rulesets.ti4.abilities.base import Handler, overrides
from spacecombat.rulesets.ti4.effects import (
    aiming,
    arena,
    follow_ups,
    free_hits,
    with_cursor,
)
from spacecombat.rulesets.ti4.hooks import FollowUp
from spacecombat.rulesets.ti4.setup import BattleSetup
from spacecombat.rulesets.ti4.sides import Side
from spacecombat.rulesets.ti4.state import BattleState, Phase


class Targets(StrEnum):
    """Which of a player's units a kind of hit may reach."""

    SHIPS = "ships"
    FIGHTERS = "fighters"
    GROUND_FORCES = "ground forces"

    def types(self, setup: BattleSetup, side: Side) -> frozenset[str]:
        """The unit types of ``side`` these hits may reach."""
        cards = setup.side(side)
        if self is _SHIPS:
            return cards.ship_types
        if self is _FIGHTERS:
            return cards.fighter_types
        return cards.ground_force_types

    def admits(self, setup: BattleSetup, side: Side, unit: str) -> bool:
        return unit in self.types(setup, side)


_SHIPS, _FIGHTERS = Targets.SHIPS, Targets.FIGHTERS
_A, _D = Side.ATTACKER, Side.DEFENDER


def _never(unit: str, status: Status) -> bool:
    """No unit may sustain damage (anti-fighter barrage hits, docs/rulings.md R4)."""
    return False


def assign_hits(
    setup: BattleSetup,
    state: BattleState,
    side: Side,
    where: int | None,
    targets: Targets,
    cause: str,
    *,
    in_combat_round: bool,
    done: Callable[[BattleState], BattleState],
) -> Node[BattleState]:
    """Ask ``side`` to assign the next hit against it, or move on with ``done`` when none is left.

    ``where`` is the space area (``None``) or a planet. Anti-fighter barrage hits cannot be
    cancelled by SUSTAIN DAMAGE (docs/rulings.md R4): only fighters take them.

    Handlers act around it (abilities/base.py, hooks of hit assignment): ``before_assign_hits``
    once before the first hit is assigned (``cursor`` steps through them; it is past them all
    once hits are being assigned), ``after_sustain`` after each use of SUSTAIN DAMAGE and
    ``after_destroyed`` after each unit destroyed (each queued in ``following``, the handlers
    asked about the first, ``cursor`` from 0 again), ``forbids_sustain`` and ``lends_sustain``
    for each unit. The cursor and the record of SUSTAIN DAMAGE are cleared when the
    assignment ends. Hits produced against the opponent meanwhile join those it has still to
    assign; in a combat round, those produced against the attacker after it assigned are
    assigned by it when the defender is done, its last hits assigned or lost alike (``turn``
    back to the attacker; the procedure's ``done`` then moves on as usual; 27U-1).
    """
    hits = state.hits_on(side)
    free = free_hits(state, side)
    if free is not None:
        # some hits must go to non-fighter ships if able (``aiming``): forgotten once assigned
        done = _unaiming(side, done)
    # (``_hooks``, read here without its call: at every step of every assignment)
    hooks: _Hooks = setup.memo.get((_HOOKS, cause)) or _hooks(setup, cause)  # type: ignore[assignment]
    if hooks.acting:
        if state.following:
            return _follow(setup, state, where, cause, hooks)
        proceed = done

        def finish(s: BattleState) -> BattleState:
            # (``_finishing``, ``_handing_back``: made where the assignment ends, 24AI-3)
            return _finishing(_handing_back(side, proceed))(s)

        done = finish
        if hooks.before and hits and state.cursor < len(setup.handlers):
            return _before(setup, state, side, where, cause, hooks)
    if not hits:
        return Step(done(state))  # as next_hit would, without making its rules first
    rules = _rules(setup, side, targets, in_combat_round)
    may_sustain, able = rules.may_sustain, rules.able
    if hooks.forbid:
        able = _unless_forbidden(setup, state, side, where, able, hooks.forbid)
    eligible = (
        rules.eligible
        if where is not None or free is None or hits <= free
        else _aimed_eligible(setup, side, rules.reached)
    )
    return next_hit(
        state,
        side,
        where,
        eligible=eligible,
        targets=targets,  # a StrEnum: its text
        cause=cause,
        verb="assign",
        may_sustain=able,
        cancels=rules.cancels,
        damaged=rules.damaged,
        done=done,
        sustain_first=rules.sustain_first,
        explain=lambda area, text: (
            _why_aimed(setup, side, area, text, eligible)
            or _why_refused(
                setup,
                side,
                area_types=area.types(),
                text=text,
                targets=targets,
                may_sustain=may_sustain,
                forbidden=lambda unit: not able(unit, Status.UNDAMAGED),
                lent=lambda unit: (
                    bool(hooks.lend)
                    and any(unit in h.lends_sustain(setup, state, side, where) for h in hooks.lend)
                ),
            )
        ),
        after=_noting(side, hooks) if hooks.after or hooks.destroyed else None,
        lenders=_lenders(setup, state, side, where, hooks.lend) if hooks.lend else None,
    )


def _unaiming(
    side: Side, done: Callable[[BattleState], BattleState]
) -> Callable[[BattleState], BattleState]:
    return lambda s: done(aiming(s, side, 0))


def _aimed_eligible(
    setup: BattleSetup, side: Side, reached: frozenset[str]
) -> Callable[[Forces], list[tuple[str, Status]]]:
    """The units the next hit may reach while hits that must go to non-fighter ships are left
    (``free_hits``, ``restricted_hits``): non-fighter ships if any is there, else every unit
    ``reached``."""
    fighters = setup.side(side).fighter_types

    def eligible(area: Forces) -> list[tuple[str, Status]]:
        reach = [(u, s) for u, s, _ in area if u in reached]
        return [(u, s) for u, s in reach if u not in fighters] or reach

    return eligible


@dataclass(frozen=True)
class _Rules:
    """What the rules of hit assignment say for one player, hits of one kind, in or out of a
    combat round, read from the setup alone (made once per setup: ``_rules``, 24AI-3)."""

    #: the unit types the hits may reach (``Targets.types``)
    reached: frozenset[str]
    #: whether SUSTAIN DAMAGE may cancel them (not anti-fighter barrage hits, R4)
    may_sustain: bool
    #: whether a unit (type, status) may sustain damage, by its card (``sustainable``)
    able: Callable[[str, Status], bool]
    #: how many hits one use cancels, given the hits left (``hits_cancelled``)
    cancels: Callable[[int], int]
    #: the status a unit that sustains damage takes (``damaged_status``)
    damaged: Status
    #: the unit types a policy lets sustain first (``immune_to_direct_hit``)
    sustain_first: frozenset[str]
    #: the units the next hit may reach where no hit must go to non-fighter ships
    eligible: Callable[[Forces], list[tuple[str, Status]]]


def _rules(setup: BattleSetup, side: Side, targets: Targets, in_combat_round: bool) -> _Rules:
    """``_Rules`` for ``side``'s assignment of hits that reach ``targets``, found once per
    setup."""
    key = (_RULES, side, targets, in_combat_round)
    known = setup.memo.get(key)
    if known is None:
        may_sustain = targets is not _FIGHTERS
        reached = targets.types(setup, side)

        def cancels(hits: int) -> int:
            return sustain_damage.hits_cancelled(setup, side, hits)

        def eligible(area: Forces) -> list[tuple[str, Status]]:
            return [(u, s) for u, s, _ in area if u in reached]

        known = setup.memo[key] = _Rules(
            reached=reached,
            may_sustain=may_sustain,
            able=sustain_damage.sustainable(setup, side) if may_sustain else _never,
            cancels=cancels,
            damaged=sustain_damage.damaged_status(in_combat_round),
            sustain_first=sustain_damage.immune_to_direct_hit(setup, side),
            eligible=eligible,
        )
    return known  # type: ignore[return-value]  # (a ``cast`` would be a call at each step)


_RULES = "assign_hits_rules"


@dataclass(frozen=True)
class _Hooks:
    """The handlers in play that override each hook of hit assignment (positions in
    ``setup.handlers`` for the stepped ones)."""

    forbid: tuple[Handler, ...]
    lend: tuple[Handler, ...]
    before: tuple[int, ...]
    after: tuple[int, ...]
    destroyed: tuple[int, ...]
    #: every handler asked, each once, in the order ``leap_key`` and ``blind`` ask them
    #: (forbid, lend, before, after, destroyed), and those that hear what is assigned
    #: (``after_sustain``, ``after_destroyed``): values of the setup and the cause alone,
    #: made once with the rest (24N-1)
    asked: tuple[Handler, ...] = ()
    heard: frozenset[Handler] = frozenset()
    #: whether one of ``asked`` answers ``blind_while_assigning``
    some_blind: bool = False
    #: whether some handler acts with nodes of its own around the assignment (``before``,
    #: ``after`` or ``destroyed``; a field, read at every step, 24AI-3)
    acting: bool = False


def _hooks(setup: BattleSetup, cause: str) -> _Hooks:
    """The handlers asked about the assignment of hits of ``cause``: those that answer each
    hook, but for a handler that acts on the hits of some causes only (``Handler.assigns_for``)
    when ``cause`` is not one of them."""
    known = setup.memo.get((_HOOKS, cause))
    if known is not None:
        # (asked at every step of a hit assignment: read before ``remembered`` makes its maker,
        # and without a ``cast``, a call)
        return known  # type: ignore[return-value]

    def find() -> _Hooks:
        handlers = setup.handlers

        def overriding(name: str) -> tuple[int, ...]:
            return tuple(
                i
                for i, h in enumerate(handlers)
                if overrides(h, name) and (h.assigns_for is None or cause in h.assigns_for)
            )

        forbid = tuple(handlers[i] for i in overriding("forbids_sustain"))
        lend = tuple(handlers[i] for i in overriding("lends_sustain"))
        before = overriding("before_assign_hits")
        after = overriding("after_sustain")
        destroyed = overriding("after_destroyed")
        asked = tuple(
            dict.fromkeys((*forbid, *lend, *(handlers[i] for i in (*before, *after, *destroyed))))
        )
        return _Hooks(
            forbid=forbid,
            lend=lend,
            before=before,
            after=after,
            destroyed=destroyed,
            asked=asked,
            heard=frozenset(handlers[i] for i in (*after, *destroyed)),
            some_blind=any(overrides(h, "blind_while_assigning") for h in asked),
            acting=bool(before or after or destroyed),
        )

    return setup.remembered((_HOOKS, cause), find)


_HOOKS = "assign_hits_hooks"


def alone(setup: BattleSetup, cause: str) -> bool:
    """Whether no handler in play is asked about the assignment of hits of ``cause`` (``_hooks``:
    ``forbids_sustain``, ``lends_sustain``, ``before_assign_hits``, ``after_sustain``,
    ``after_destroyed``): then a player's assignment of such hits is decided from that player's
    units in the arena and the number of hits alone, one ``assign_hit`` decision a hit
    (``next_hit``: its request holds the hits and the area), nothing is queued for the
    handlers to hear (``follow_up`` is never asked), unless some of the hits must go to
    non-fighter ships (``free_hits``), which this does not look at."""
    hooks = _hooks(setup, cause)
    return not (hooks.forbid or hooks.lend or hooks.acting)


def leap_key(
    setup: BattleSetup, state: BattleState, side: Side, where: int | None, cause: str
) -> Hashable | None:
    """What, besides ``side``'s units in ``where`` and the hits, decides ``side``'s whole
    assignment of hits of ``cause`` from ``state`` (the exact engine takes it at once:
    Ti4Battle ``leap``): ``()`` when no handler is asked about it (``alone``), or when every
    handler asked is idle while ``side`` assigns (``Handler.idle_while_assigning``: it acts
    on the other player's assignment only, its card was played, its effect used up; it then
    answers as a handler not in play would, so the walk is the one without it); where the
    handlers asked and not idle hear nothing of what is assigned (no ``after_sustain``,
    ``after_destroyed``), the step's cursor and record of SUSTAIN DAMAGE, what each of them
    declares it reads (``Handler.reads_while_assigning``) and which of the others are idle;
    ``None`` when one of them does not declare it. Hits the defender's effects produced
    against the attacker while it assigned (Reflective Shielding) do not refuse it: the
    attacker assigns them once the defender's hits are assigned or lost alike
    (``_handing_back``; docs/rulings.md 27U-1), after the state the walk reaches."""
    hooks: _Hooks = setup.memo.get((_HOOKS, cause)) or _hooks(setup, cause)  # type: ignore[assignment]
    if not (hooks.forbid or hooks.lend or hooks.acting):
        return ()
    asked, heard = hooks.asked, hooks.heard
    idle: list[int] = []
    reads = []
    for position, handler in enumerate(asked):
        if handler.idle_while_assigning(setup, state, side):
            idle.append(position)
            continue
        if handler in heard:
            return None
        read = handler.reads_while_assigning(setup, state, side, where)
        if read is None:
            return None
        reads.append(read)
    if len(idle) == len(asked):
        return ()
    key = (state.cursor, state.sustained, tuple(reads))
    return (*key, tuple(idle)) if idle else key


def blind(setup: BattleSetup, state: BattleState, side: Side, cause: str) -> bool:
    """Whether every handler asked about ``side``'s assignment of hits of ``cause`` from
    ``state`` on is idle then (``Handler.idle_while_assigning``) or reads nothing of the other
    player's part nor the hits against it (``Handler.blind_while_assigning``), none of them
    cancellable (``Card.watcher``): then the assignment reads, of the state, all but the
    other player's part and the hits against it, and changes those hits only by adding to
    them (the exact engine: ``Ti4Battle.leap``)."""
    hooks: _Hooks = setup.memo.get((_HOOKS, cause)) or _hooks(setup, cause)  # type: ignore[assignment]
    if not hooks.some_blind:
        return False  # (asked where ``leap_key`` refused: one of them is not idle)
    for handler in hooks.asked:
        if handler.idle_while_assigning(setup, state, side):
            continue
        if getattr(handler, "watcher", None) is not None:
            return False
        if not handler.blind_while_assigning(setup, state, side):
            return False
    return True


def paired(setup: BattleSetup, state: BattleState, side: Side, cause: str) -> bool:
    """Whether every handler asked about ``side``'s assignment of hits of ``cause`` from
    ``state`` on is idle then (``Handler.idle_while_assigning``), blind
    (``Handler.blind_while_assigning``) or reads nothing of the hits against the other player
    (``Handler.paired_while_assigning``), none of them cancellable (``Card.watcher``): then the
    assignment reads, of the state, all but the hits against the other player, and changes
    those hits only by adding to them, the other player's part not at all (the exact engine's
    paired tables: rulesets/ti4/split_rolls.py ``_walked_whole``; 24Z-2)."""
    for handler in _hooks(setup, cause).asked:
        if handler.idle_while_assigning(setup, state, side):
            continue
        if getattr(handler, "watcher", None) is not None:
            return False
        if not (
            handler.blind_while_assigning(setup, state, side)
            or handler.paired_while_assigning(setup, state, side)
        ):
            return False
    return True


def placing(setup: BattleSetup, state: BattleState, side: Side, cause: str) -> bool:
    """Whether some handler asked while ``side`` assigns hits of ``cause`` from ``state`` places
    units of the other player's (``Handler.places_while_assigning``: Ipswitch, Loose Cannon)
    and every one asked is idle then, or that, or blind (``Handler.blind_while_assigning``),
    or declares what it reads (``Handler.reads_while_assigning``), none cancellable
    (``Card.watcher``): then none reads the hits against the other player, nor its purse,
    and none changes the other player's part but by placing units there or adding hits
    against it (the exact engine: split_rolls.py ``_walked_placing``, ``Ti4Battle.leap``;
    issue 24, 24X-3)."""
    some = False
    where = arena(setup, state)
    for handler in _hooks(setup, cause).asked:
        if handler.idle_while_assigning(setup, state, side):
            continue
        if getattr(handler, "watcher", None) is not None:
            return False
        if handler.places_while_assigning(setup, state, side):
            some = True
            continue
        if handler.blind_while_assigning(setup, state, side):
            continue
        if handler.reads_while_assigning(setup, state, side, where) is None:
            return False
    return some


def _handing_back(
    side: Side, done: Callable[[BattleState], BattleState]
) -> Callable[[BattleState], BattleState]:
    """``done``, unless hits the defender's units produced while it assigned (Reflective
    Shielding) are pending against the attacker: the attacker, who assigned first, assigns
    them now (``turn`` back to it; the step's ``done`` then moves on as usual), whether the
    defender's last hits were assigned or lost for want of units (docs/rulings.md 27U-1)."""

    def handing_back(state: BattleState) -> BattleState:
        if _produced_back(state, side):
            return state.changed(turn=_A)
        return done(state)

    return handing_back


def _produced_back(state: BattleState, side: Side) -> bool:
    """Whether the attacker has hits to assign in a combat round's Assign Hits step after the
    defender, who assigns second, is done: hits the defender's effects produced."""
    return state.phase is Phase.ASSIGN_HITS and side is _D and state.hits_on(_A) > 0


def _finishing(done: Callable[[BattleState], BattleState]) -> Callable[[BattleState], BattleState]:
    """``done``, after clearing what the assignment kept (its cursor, its SUSTAIN DAMAGE)."""
    return lambda s: done(s.changed(cursor=0, sustained=(), following=()))


def _before(
    setup: BattleSetup,
    state: BattleState,
    side: Side,
    where: int | None,
    cause: str,
    hooks: _Hooks,
) -> Node[BattleState]:
    for index in hooks.before:
        if index < state.cursor:
            continue
        node = setup.handlers[index].before_assign_hits(setup, state, side, where, cause)
        if node is not None:
            return with_cursor(node, index + 1)
    return Step(state.changed(cursor=len(setup.handlers)))


def _noting(side: Side, hooks: _Hooks) -> Callable[[BattleState, Option], BattleState]:
    """After a hit is assigned: a unit that sustained damage or was destroyed is queued for the
    handlers acting after that (``following``)."""

    def note(state: BattleState, option: Option) -> BattleState:
        unit = option.unit or ""
        if option.action == "sustain":
            if not hooks.after:
                return state
            state = state.changed(sustained=(*state.sustained, unit))
            return sustain_damage.queued(state, FollowUp.sustained(side, unit))
        if not hooks.destroyed:
            return state
        return sustain_damage.queued(state, FollowUp.destroyed(side, unit))

    return note


def _follow(
    setup: BattleSetup,
    state: BattleState,
    where: int | None,
    cause: str,
    hooks: _Hooks,
) -> Node[BattleState]:
    """Ask the handlers about the first thing queued in ``following``, then drop it."""

    def must(s: BattleState, head: FollowUp) -> Node[BattleState]:
        return _must_destroy(setup, s, head.player, head.detail, hooks)

    node = follow_ups(
        setup,
        state,
        where,
        cause,
        during="while hits are assigned",
        dropped=lambda s: _next_followed(setup, s),
        must_destroy=must,
    )
    assert node is not None
    return node


def _next_followed(setup: BattleSetup, state: BattleState, *more: FollowUp) -> BattleState:
    """The first thing queued dropped (and ``more`` queued): the handlers are asked about the
    next from the first (``cursor`` 0), or, with none left, the assignment goes on."""
    following = (*state.following[1:], *more)
    return state.changed(following=following, cursor=0 if following else len(setup.handlers))


def _must_destroy(
    setup: BattleSetup, state: BattleState, who: Side, cause: str, hooks: _Hooks
) -> Node[BattleState]:
    """``who`` destroys one of their ships in the space area, of their choice (Courageous to
    the End): an "assign_hit" decision with only "destroy" options."""
    ships = setup.side(who).ship_types
    area = state.side(who).space
    present = tuple((u, s, False) for u, s, _ in area if u in ships)
    if not present:
        return Step(_next_followed(setup, state))  # no ship left to destroy
    request = DecisionRequest(
        decision="assign_hit",
        player=who.value,
        prompt=f"{cause}: destroy one of your ships",
        options=_destroy_options(present),
        facts={"hits": 1, "cause": cause, "sustain_first": frozenset(), "area": area},
    )

    def then(option: Option) -> Step[BattleState]:
        unit, status = option.unit or "", STATUSES[option.status or 0]
        current = state.side(who)
        removed = state.with_side(who, current.with_space(area.remove(unit, status)))
        more = (FollowUp.destroyed(who, unit),) if hooks.destroyed else ()
        destroyed = unit_destroyed(who, unit, status, cause)
        return Step(_next_followed(setup, removed, *more), (destroyed,))

    return Decision(request, then)


def _destroy_options(present: tuple[tuple[str, Status, bool], ...]) -> tuple[Option, ...]:
    return tuple(Option(f"destroy {describe(u, s)}", "destroy", u, s) for u, s, _ in present)


def _lenders(
    setup: BattleSetup,
    state: BattleState,
    side: Side,
    where: int | None,
    lend: tuple[Handler, ...],
) -> Callable[[Forces], list[tuple[str, Status]]]:
    """The units in an area that may sustain damage against hits that cannot reach them."""
    types: frozenset[str] = frozenset().union(
        *(h.lends_sustain(setup, state, side, where) for h in lend)
    )

    def lenders(area: Forces) -> list[tuple[str, Status]]:
        return [(u, s) for u, s, _ in area if u in types]

    return lenders


def _unless_forbidden(
    setup: BattleSetup,
    state: BattleState,
    side: Side,
    where: int | None,
    able: Callable[[str, Status], bool],
    forbid: tuple[Handler, ...],
) -> Callable[[str, Status], bool]:
    def may(unit: str, status: Status) -> bool:
        return able(unit, status) and not any(
            h.forbids_sustain(setup, state, side, where, unit) for h in forbid
        )

    return may


def _why_aimed(
    setup: BattleSetup,
    side: Side,
    area: Forces,
    text: str,
    eligible: Callable[[Forces], list[tuple[str, Status]]],
) -> str | None:
    """Why a fighter may not take the next hit now (``aiming``), or ``None``."""
    unit = text.partition(" ")[2].split(" (")[0]
    if unit not in setup.side(side).fighter_types or unit not in area.types():
        return None
    if any(u == unit for u, _ in eligible(area)):
        return None
    return "these hits must be assigned to non-fighter ships while you have any"


def _why_refused(
    setup: BattleSetup,
    side: Side,
    *,
    area_types: tuple[str, ...],
    text: str,
    targets: Targets,
    may_sustain: bool,
    forbidden: Callable[[str], bool],
    lent: Callable[[str], bool],
) -> str:
    verb, _, rest = text.partition(" ")
    unit = rest.split(" (")[0]
    if verb not in ("sustain", "destroy"):
        return "an answer is 'sustain UNIT' or 'destroy UNIT'"
    if unit not in setup.side(side).cards:
        return f"{unit!r} is not a unit"
    if not targets.admits(setup, side, unit) and not (verb == "sustain" and lent(unit)):
        return f"these hits can only be assigned to {targets.value}"
    if unit not in area_types:
        return f"you have no {unit} here"
    if verb == "sustain":
        if not may_sustain:
            return "SUSTAIN DAMAGE cannot cancel anti-fighter barrage hits"
        if not setup.side(side).card(unit).sustain_damage:
            return f"{unit} has no SUSTAIN DAMAGE"
        if forbidden(unit):
            return f"{unit} cannot use SUSTAIN DAMAGE here"
        return f"no undamaged {unit} is left to sustain damage"
    return f"no {describe(unit, Status.UNDAMAGED)} in that state; name it as listed"
