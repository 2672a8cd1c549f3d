"""A combat round's two rolls and two assignments of hits, player by player, for the exact
engine (analysis/graph.py ``Splitting``; docs/architecture.md, "The odds engine", 1.).

In Roll Dice (ti4-space-combat.md step 3, ti4-ground-combat.md step 1) the attacker rolls, then
the defender; in Assign Hits (step 4 / step 2) the attacker assigns the defender's hits, then
the defender the attacker's. Where nothing else acts between them, each player's roll changes
only that player's part of the state (its units, less those its own roll destroyed: The Crown
of Thalnos; the trade goods it spent: the Hacan flagship) and the hits against the other, and
each player's assignment reads only its own units and the hits against it (no handler is
asked while hits are assigned, ``assign_hits.alone``, or every one asked is idle then,
``Handler.idle_while_assigning``). The state after both assignments is then a function of the two
players' parts after, so the exact engine walks on once for each pair of parts after instead
of once for each pair of outcomes. Where a handler asked while hits are assigned is not idle
but declares what it reads (``Handler.reads_while_assigning``: the Mentak flagship, whose
owner notes before assigning that it was there when the step began, docs/rulings.md 14A-1,
and whose opponent's assignment reads that), each assignment is walked from the other
player's part as it stands when it begins, and the round's notes travel with the parts
(``_paired``: the attacker's part after by the defender's part, the defender's by the
attacker's part after).

Everything is taken from the rules' own steps: each roll's outcomes from the real Roll Dice
procedure (the attacker's from the chance state, the defender's from one of the states the
attacker's outcomes lead to), each assignment from the real Assign Hits procedure
(``Ti4Battle.leap``), and the state the explorer walks on from is put together from the
states those steps reached. What is checked first, state by state (otherwise ``None``: every
outcome is followed, as before): the chance state is the attacker's Roll Dice with nothing
queued, pending or kept (a timing window's aim is cleared with its hits, 27W-1); every
handler asked while a combat round's hits are assigned is idle while the player assigns,
for every pair of the players' parts (``_idle``), or declares what it reads (``_paired``);
each outcome of either roll leads straight to the next step (the defender's roll; Assign Hits,
through the "after roll dice" window only where no handler is asked in it now) with nothing
queued and changes nothing but the roller's units and purse and the hits against the other;
the defender's roll is the same pool whatever the attacker rolled, and is not kept group by
group. Hits of which some must go to non-fighter ships (the L1Z1X flagship's: the roll marks
how many are free, ``Mark.FREE_HITS``) are keyed with that number (``_produced``), set with
the hits for each assignment, and cleared for the state walked on from, as each player's
assignment clears its own at its end. Each player's part after an assignment is
remembered across the battle's rounds (``Ti4Battle.assigned_parts``).
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Iterable, Mapping, Sequence
from fractions import Fraction
from operator import itemgetter
from typing import TYPE_CHECKING, Any, NamedTuple, cast

from spacecombat.analysis.graph import SplitRolls
from spacecombat.core.decisions import Policy, decide
from spacecombat.core.engine import Chance, Decision, Node, Step
from spacecombat.core.forces import Forces
from spacecombat.core.sides import SideState
from spacecombat.rulesets.ti4 import rolls_blind, round_end_parts, round_end_reached
from spacecombat.rulesets.ti4.effects import arena, free_hits
from spacecombat.rulesets.ti4.hooks import Follow, Window
from spacecombat.rulesets.ti4.procedures import assign_hits, combat_round
from spacecombat.rulesets.ti4.procedures.marker_hooks import marker_only
from spacecombat.rulesets.ti4.setup import NOTHING_GAINED, BattleSetup
from spacecombat.rulesets.ti4.sides import Side
from spacecombat.rulesets.ti4.state import BattleState, Discarded, Mark, Phase

if TYPE_CHECKING:
    from spacecombat.rulesets.ti4.battle import Ti4Battle

A, D = Side.ATTACKER, Side.DEFENDER

#: whether a roll whose own losses are queued for the handlers that hear a unit destroyed (the
#: Crown of Thalnos's) is taken player by player where every such handler is idle for the
#: roller (``_losses_heard``; off: such a round's pairs of outcomes are all followed, as before,
#: tests/odds/test_graph_splits.py)
HEARD = True

#: whether the walk hearing a roll's own losses (``_losses_heard``) is remembered by the state
#: without the other player's part and with no hit against either (``_heard_remembered``),
#: which the hearing reads nothing of where its hearers are idle for the roller (24U-2), and
#: put back for each chance state (off: walked at each, as before;
#: tests/odds/test_graph_splits_remembered.py; 24AG-1)
HEARD_REMEMBERED = True

_NO_HITS = (0, 0)

#: whether ``_idle`` remembers, for each pair of the players' parts, whether every handler
#: asked while a player assigns is idle, by what puts the state asked together (the state
#: after both rolls but for the parts and the hits, numbered once, the player and the parts:
#: ``assign_hits.leap_key`` is a function of the state, the setup and the player), across the
#: chance states (off: asked at each, as before; tests/odds/test_graph_splits_remembered.py;
#: 24AG-2)
IDLE_REMEMBERED = True

#: whether an assignment where a handler asked acts on the state but reads nothing of the other
#: player's part nor the hits against it (``assign_hits.blind``: Direct Hit, Reflective
#: Shielding, the Tellurian) is walked whole by the real procedure for the paired tables
#: (``_walked_whole``; off: such a round's pairs of outcomes are all followed, as before,
#: tests/odds/test_graph_splits_whole.py)
WHOLE = True

#: whether a whole assignment (``_walked_whole``) is remembered by the state without the other
#: player's part nor the hits against it (``_blinded``), which a blind walk does not read (off:
#: once for each state, as before, tests/odds/test_graph_splits_blinded.py; 24W-2)
BLINDED = True

#: whether a whole assignment (``_walked_whole``) that produced hits against the other player
#: (Reflective Shielding's) is taken, those hits travelling with the assigning player's part
#: (``Noted``): the defender assigns the attacker's with its own, the attacker assigns the
#: defender's once the defender is done (docs/rulings.md 27U-1); off: such a walk is refused
#: and the round's pairs of outcomes are all followed, as before (24Z-1;
#: tests/odds/test_graph_splits_produced.py)
PRODUCED = True

#: whether a whole assignment where a handler asked reads the other player's part but not the
#: hits against it (``assign_hits.paired``: Technological Singularity while the opponent
#: assigns) is walked for the paired tables (``_walked_whole``), the technologies it gained
#: travelling with the part (``Noted``); off: such a round's pairs of outcomes are all
#: followed, as before (24Z-2; tests/odds/test_graph_splits_paired.py)
PAIRED = True

#: whether a player's assignment for the paired tables (``_walked``) is first looked up by the
#: key of the blind walks (``_blinded``), and remembered by it, wherever every handler asked
#: is idle or blind while it assigns (``assign_hits.blind``): the walk from a state alike but
#: for the other player's part and the hits against it is the same; off: each state's walk
#: begins afresh before it meets the memory of the whole walks, as before (24Z-3;
#: tests/odds/test_graph_splits_looked_up.py)
LOOKED_UP = True

#: whether the paired tables walk the defender's assignment only for the keys the explorer
#: reads (``_read``: each attacker's part after with the defender's part it was walked against)
#: rather than for every attacker's part after with every defender's part, where the
#: defender's roll leaves it several parts (the Crown of Thalnos's losses); off: all of them,
#: the old way (24Z-5; tests/odds/test_graph_splits_looked_up.py)
READ = True

#: whether the state the explorer walks on from, once both players have assigned, holds their
#: damage sustained this round already as plain damage where nothing reads the difference
#: before the round's end makes it so (``_settles_early``; off: as the assignments left it,
#: tests/odds/test_graph_splits_settled.py; 24Y-4)
SETTLED_EARLY = True

#: whether the attacker's whole assignment that meets a roll (Courageous to the End's, its ship
#: destroyed) is kept as the state that rolls, blind to the defender's part, so the round is
#: still taken player by player (``Rolling``; off: such a round's pairs of outcomes are all
#: followed, as before, tests/odds/test_graph_splits_rolling.py; 24Y-5)
ROLLING = True

#: whether each part after a table settles early (``_settled_part``) is remembered by the part
#: and the arena (``_settled_parts``) rather than settled again at every chance state (off: as
#: before; tests/odds/test_graph_settled_parts.py; 24AE-4)
SETTLED_PARTS_REMEMBERED = True

#: whether the paired tables look each walk up by what puts its state together (the state
#: after both rolls, numbered once, the player, the parts and the hits: ``_paired_walks``)
#: before putting the state together and looking it up (off: as before;
#: tests/odds/test_graph_paired_by_parts.py; 24AE-6)
PAIRED_BY_PARTS = True

#: the most steps of the rules a whole assignment is walked (``_walked_whole``): beyond, the
#: round's pairs of outcomes are followed as before
_WHOLE_STEPS = 400

_NO_ROLLS: tuple[tuple[()], tuple[()]] = ((), ())

#: a player's part of the state: its units and what it may still spend
Part = tuple[SideState, tuple[int, int]]

#: no units and nothing to spend: the other player's part in a blind walk's key (``_blinded``)
_NOBODY: Part = (SideState(Forces(), ()), (0, 0))


def _part(state: BattleState, side: Side) -> Part:
    # (``state.side(side), state.wealth(side)``, read from the fields: asked for every outcome
    # of both rolls at every chance state split)
    if side is A:
        return state.attacker, state.purse[0]
    return state.defender, state.purse[1]


#: the fields of a battle state that are the players' parts: their units and what they may spend
_PARTS = frozenset({"attacker", "defender", "purse"})


def _fields_but(left_out: frozenset[str]) -> Callable[[BattleState], tuple[object, ...]]:
    """Every field of a battle state but those named, in field order. Derived from
    ``BattleState._fields``, so a field added to the state is compared by default: a split
    can only be refused for it, never made where it would differ."""
    unknown = left_out - set(BattleState._fields)
    assert not unknown, f"not fields of BattleState: {sorted(unknown)}"
    kept = [i for i, name in enumerate(BattleState._fields) if name not in left_out]
    return cast("Callable[[BattleState], tuple[object, ...]]", itemgetter(*kept))


#: the fields of ``state`` that are neither player's part, the hits nor where the procedures
#: stand (phase, turn): those a roll must leave as they are
_rest = _fields_but(_PARTS | {"phase", "turn", "hits"})

#: the fields of ``state`` that are neither player's part nor the hits: what the state the
#: explorer walks on from takes from the chance state's (``SplitRolls.shared``; 24AA-1)
_template = _fields_but(_PARTS | {"hits"})


def _with_parts(
    template: BattleState, attacker: Part, defender: Part, hits: tuple[int, int]
) -> BattleState:
    """``template`` with both players' parts and the hits against each set."""
    return template.changed(
        attacker=attacker[0],
        defender=defender[0],
        purse=(attacker[1], defender[1]),
        hits=hits,
    )


def _plain(node: Node[BattleState]) -> Chance[BattleState] | None:
    """``node`` if it is a combat roll (its outcomes hits, hits and marks, or tallies)."""
    if not isinstance(node, Chance):
        return None
    return node


def _unmarked(state: BattleState) -> BattleState:
    """``state`` without the marks saying how many hits against each player are free, the
    others to go to non-fighter ships if able (``Mark.FREE_HITS``: the L1Z1X flagship's and
    Graviton Laser System's hits; effects.py ``aiming``): a roll sets them with the hits,
    each player's assignment clears its own at its end (assign_hits.py ``_unaiming``)."""
    attacker_marks, defender_marks = state.marks
    if not attacker_marks and not defender_marks:
        return state  # (no mark at all: ``unmarking`` gives the state itself)
    return state.unmarking(A, Mark.FREE_HITS).unmarking(D, Mark.FREE_HITS)


def _produced(state: BattleState, side: Side) -> Hashable:
    """The hits against ``side`` at ``state``: their number, or (number, how many are free)
    when some must go to non-fighter ships (``free_hits``)."""
    index = 0 if side is A else 1
    hits = state.hits[index]
    if not state.marks[index]:
        return hits  # (no mark at all: none of them is free)
    free = free_hits(state, side)
    return hits if free is None else (hits, free)


def _taking(state: BattleState, side: Side, taken: Hashable) -> BattleState:
    """``state`` (no hits against ``side``, no mark) with the hits ``_produced`` gave."""
    if isinstance(taken, tuple):
        hits, free = taken
        return state.with_hits_on(side, hits).marking(side, Mark.FREE_HITS, free)
    return state.with_hits_on(side, taken)  # type: ignore[arg-type]


def _window_passed(battle: Ti4Battle, setup: BattleSetup, state: BattleState) -> BattleState | None:
    """The state after the "after roll dice" window opened at ``state`` (procedures/
    windows.py ``timing_window``), where no handler in play is asked in it now
    (``Acts.admits``: the handler's owner, the kind of battle, the window, whether its card is
    held, none of them changed by a roll): the window passes alike whatever was rolled;
    ``None`` elsewhere."""
    if state.windows != ((Window.AFTER_ROLL_DICE,),) or state.then is not Phase.ASSIGN_HITS:
        return None
    current = frozenset(state.windows[0])
    for handler in setup.handlers:
        acts = handler.acts
        if acts is not None and acts.admits(handler, setup, state, current):
            return None
    node = battle.advance(state)
    if not isinstance(node, Step) or _begins_round(node.events):
        return None
    return battle.canonical(node.state)


def _losses_heard(
    battle: Ti4Battle,
    setup: BattleSetup,
    rolled: BattleState,
    roller: Side,
    others: Iterable[Hashable],
) -> BattleState | None:
    """``rolled`` (an outcome of ``roller``'s combat roll) once the units its own roll destroyed
    are heard (The Crown of Thalnos: ``combat_round._hear_destroyed``, by the handlers acting
    after a unit is destroyed, docs/rulings.md 14B3-5), or ``rolled`` itself when none is
    queued; ``None`` where the hearing may read or change more than the roller's own part.

    Each handler that hears a unit destroyed must be idle for the roller
    (``Handler.idle_while_assigning``: its hooks of hit assignment, ``after_destroyed`` among
    them, answer ``None`` whatever the units and the hits; what it reads is the side, what was
    used, spent or gained, and for Technological Singularity the units), for each part of the
    other player's it may meet (``others``: the defender's before its roll, or each of the
    attacker's after its own). Then the hearing drops the queued entries and the Roll Dice step
    goes on alike whatever the other player's part and the hits against either (24U-2): it is
    walked once, by the real procedure, from ``rolled``; ``None`` if the walk meets anything
    but steps, or begins a round."""
    if not rolled.following:
        return rolled
    if not HEARD or not _hearers_idle(setup, rolled, roller, others):
        return None
    if HEARD_REMEMBERED:
        return _heard_remembered(battle, setup, rolled, roller)
    return _heard(battle, rolled)


def _heard(battle: Ti4Battle, rolled: BattleState) -> BattleState | None:
    """The walk of ``_losses_heard`` from ``rolled``, by the real procedure: ``None`` if it
    meets anything but steps, or begins a round."""
    at = rolled
    while at.following:
        node = battle.advance(at)
        if not isinstance(node, Step) or _begins_round(node.events):
            return None
        at = battle.canonical(node.state)
    return at


def _heard_remembered(
    battle: Ti4Battle, setup: BattleSetup, rolled: BattleState, roller: Side
) -> BattleState | None:
    """``_heard`` remembered in ``setup.memo`` by ``rolled`` without the other player's part
    and with no hit against either (24AG-1): the hearers being idle for ``roller``
    (``_hearers_idle``, asked for each state as before), the walk goes on alike whatever those
    (24U-2), so its end is kept without them and they are put back. A walk that changed the
    other player's part or the hits, or was refused, is not remembered."""
    other = roller.other
    key = ("losses heard", roller, rolled.without_part(other).changed(hits=_NO_HITS))
    memo = setup.memo
    units, purse, hits = rolled.side(other), rolled.wealth(other), rolled.hits
    known = cast("BattleState | None", memo.get(key))
    if known is not None:
        return known.with_part(other, units, purse).changed(hits=hits)
    at = _heard(battle, rolled)
    if at is not None and at.side(other) == units and at.wealth(other) == purse and at.hits == hits:
        memo[key] = at.without_part(other).changed(hits=_NO_HITS)
    return at


def _hearers_idle(
    setup: BattleSetup, rolled: BattleState, roller: Side, others: Iterable[Hashable]
) -> bool:
    """Whether every entry queued at ``rolled`` is a unit of ``roller``'s destroyed and every
    handler hearing it is idle for ``roller`` with each of ``others`` as the other player's
    part (``_losses_heard``): reads of ``rolled`` the queue, ``roller``'s part and the hits."""
    if any(f.kind is not Follow.DESTROYED or f.player is not roller for f in rolled.following):
        return False
    hearers = setup.answering("after_destroyed")
    own = _part(rolled, roller)
    for part in others:
        other = cast(Part, part)
        met = (
            _with_parts(rolled, own, other, rolled.hits)
            if roller is A
            else _with_parts(rolled, other, own, rolled.hits)
        )
        if not all(h.idle_while_assigning(setup, met, roller) for h in hearers):
            return False
    return True


def _begins_round(events: tuple[Mapping[str, object], ...]) -> bool:
    return any(e.get("event") == "round_started" for e in events)


def split_rolls(
    battle: Ti4Battle, state: BattleState, policies: Mapping[str, Policy], exact: bool
) -> SplitRolls[BattleState] | None:
    """The attacker's and the defender's combat rolls of the round at ``state`` (the attacker's
    Roll Dice) and their assignments of each other's hits, player by player
    (``SplitRolls``), or ``None`` where they are not taken so (the module's docstring)."""
    if (
        state.phase is not Phase.ROLL_DICE
        or state.turn is not A
        or state.hits != (0, 0)
        or state.pending is not None
        or state.following
        or state.rolls != _NO_ROLLS
        or free_hits(state, A) is not None
        or free_hits(state, D) is not None
    ):
        return None
    setup = battle.setup if state.gained == NOTHING_GAINED else battle.setup.having(state.gained)
    where = arena(setup, state)
    cause = combat_round.combat_cause(where)
    if not assign_hits.alone(setup, cause) and (state.cursor or state.sustained):
        # (the Assign Hits step's end clears them where handlers are asked)
        return None
    node = _plain(battle.advance(state))
    if node is None:
        return None
    rest = _rest(state)
    canonical = battle.canonical
    keepers = setup.answering("keeps_rolls")
    # the attacker's roll: each outcome, the defender's roll next, with the attacker's part
    # and the hits against the defender changed only
    first: dict[tuple[Hashable, Hashable], Fraction | float] = {}
    #: the defender's roll's states, one for each of the attacker's outcomes (``SplitRolls``)
    folded: dict[BattleState, None] = {}
    outcomes = rolls_blind.outcomes(setup, node, state, exact)
    template: BattleState | None = None
    roll: Chance[BattleState] | None = None
    defender = _part(state, D)
    for chance, begun, reached in outcomes:
        rolled = canonical(reached)
        if rolled.following:
            # (``_losses_heard`` asked only where some are queued: else ``rolled`` itself)
            heard = _losses_heard(battle, setup, rolled, A, (defender,))
            if heard is None:
                return None
            rolled = heard
        if (
            begun
            or rolled.phase is not Phase.ROLL_DICE
            or rolled.turn is not D
            or rolled.hits[0] != 0
            or _rest(_unmarked(rolled)) != rest
            or (rolled.marks[0] and free_hits(rolled, A) is not None)
            or rolled.defender != defender[0]
            or rolled.purse[1] != defender[1]
        ):
            return None
        if keepers and any(h.keeps_rolls(setup, rolled, D) for h in keepers):
            return None  # the defender's roll kept group by group (War Funding Ω)
        if roll is not None:
            # the defender's roll after each of the attacker's outcomes: where it is blind, its
            # pool alone (24AE-5), else its node
            met = rolls_blind.pool(setup, rolled)
            if met is None:
                answered = _plain(battle.advance(rolled))
                met = None if answered is None else answered.pool
            if met is None or not met.groups or met != roll.pool:
                return None
        else:
            answered = _plain(battle.advance(rolled))
            if answered is None:
                return None
            template, roll = rolled, answered
        key = (_part(rolled, A), _produced(rolled, D))
        first[key] = first.get(key, 0) + chance
        folded[rolled] = None
    assert template is not None
    assert roll is not None
    # the defender's roll (the same pool whatever the attacker rolled): each outcome, Assign
    # Hits next, with the defender's part and the hits against the attacker changed only
    second: list[tuple[Hashable, Hashable, Fraction | float]] = []
    attacker = _part(template, A)
    against_defender = _produced(template, D)
    after_rolls: BattleState | None = None
    attackers = {part for part, _ in first}
    for chance, begun, reached in rolls_blind.outcomes(setup, roll, template, exact):
        if begun:
            return None
        rolled = canonical(reached)
        if rolled.following:
            heard = _losses_heard(battle, setup, rolled, D, attackers)
            if heard is None:
                return None
            rolled = heard
        if rolled.phase is Phase.TIMING_WINDOW:
            # the "after roll dice" window (War Funding Ω, The Thundarian): passed through
            # alike whatever was rolled when no handler is asked in it now
            passed = _window_passed(battle, setup, rolled)
            if passed is None:
                return None
            rolled = passed
        if (
            rolled.phase is not Phase.ASSIGN_HITS
            or rolled.turn is not A
            or _produced(rolled, D) != against_defender
            or _rest(_unmarked(rolled)) != rest
            or rolled.attacker != attacker[0]
            or rolled.purse[0] != attacker[1]
        ):
            return None
        after_rolls = after_rolls or rolled
        second.append((_part(rolled, D), _produced(rolled, A), chance))
    assert after_rolls is not None
    # the hits against each player and their marks are set for each assignment from the
    # outcomes (``_taking``); both marks are cleared once both players have assigned
    after_rolls = _unmarked(after_rolls)
    # both assignments made: the defender's Assign Hits step with no hit left (the attacker's
    # step's ``done`` moved it on; the defender's own moves on from there)
    assigned = after_rolls.changed(turn=D)
    settling = _settles_early(setup, assigned)
    where_settled = (where, settling)
    try:
        taken = _assignments(battle, policies, after_rolls, first, second, (where, cause))
    except _Asked:
        # a handler asked while hits are assigned is not idle (the Mentak flagship): each
        # assignment walked from the other player's part as it stands then (``_paired``)
        paired = _paired(battle, policies, after_rolls, first, second)
        if paired is None:
            return None

        def noted(a: Hashable, d: Hashable) -> BattleState:
            if isinstance(a, Rolling):
                return _rolling_state(a, cast("tuple[Part, Hashable]", d))
            a_noted: Noted = a  # type: ignore[assignment]
            attacker_after = a_noted[0]
            d_tuple: tuple[Any, ...] = d  # type: ignore[assignment]
            defender_after, boosts, used, back, gained = d_tuple[:5]
            if len(d_tuple) == 6:
                # the defender's assignment placed units of the attacker's (``Placed``)
                attacker_after = d_tuple[5]
            # the hits the defender's walk produced against the attacker (Reflective
            # Shielding's): the defender's step hands them back to the attacker (27U-1)
            state = _with_parts(assigned, attacker_after, defender_after, (back, 0))
            state = state.changed(boosts=boosts, used=used, gained=gained)
            if back or not settling:
                return state
            if gained != assigned.gained:
                # (technologies gained meanwhile may act after hits are assigned)
                found = battle.setup if gained == NOTHING_GAINED else battle.setup.having(gained)
                sides = _settles_early(found, state)
                return _settled_early(state, (where, sides)) if sides else state
            return _settled_early(state, where_settled)

        return SplitRolls(
            first,
            second,
            *paired,
            noted,
            tuple(folded),
            len(outcomes),
            paired=True,
            shared=(noted.__name__, _template(assigned), where_settled),
        )
    if taken is None:
        return None
    first_after, second_after = taken
    if settling:
        # each player's part after settled once, so that the pairs alike once settled are
        # one pair for the explorer too
        if A in settling:
            first_after = _settled_parts(setup, first_after, where)
        if D in settling:
            second_after = _settled_parts(setup, second_after, where)

    #: the round's end the steps from the first pair walked reach (24AC-6), once asked
    ended: list[BattleState | None] = []
    #: else, the round's end reached by the owners' parts of the handlers acting after hits
    #: are assigned on their owners' parts alone (24AG-4), once asked
    by_parts: list[round_end_parts.RoundEndByParts | None] = []

    def joined(a: Hashable, d: Hashable) -> BattleState:
        state = _with_parts(assigned, a, d, (0, 0))  # type: ignore[arg-type]
        if not ended:
            # the steps to the round's end, which read no part, walked once (24AC-6): every
            # pair is put together where they lead, and leads where its own walk would
            ended.append(round_end_reached.reached(battle, setup, state))
            acting = None if ended[0] is not None else round_end_parts.owners(setup, state)
            by_parts.append(
                None
                if acting is None
                else round_end_parts.RoundEndByParts(battle, policies, acting)
            )
        at_round_end = ended[0]
        if at_round_end is None:
            parts = by_parts[0]
            return state if parts is None else parts.reached(state)
        return _with_parts(at_round_end, a, d, (0, 0))  # type: ignore[arg-type]

    return SplitRolls(
        first,
        second,
        first_after,
        second_after,
        joined,
        tuple(folded),
        len(outcomes),
        shared=(joined.__name__, _template(assigned)),
    )


def _settles_early(setup: BattleSetup, assigned: BattleState) -> tuple[Side, ...]:
    """The players whose damage sustained this round nothing reads, from ``assigned`` (both
    players' assignments made, no hit left, nothing queued or pending), before the round's end
    makes it plain damage (24Y-4): the Assign Hits step's end clears its own record (its
    cursor, the types that sustained, ``_finishing``); no retreat is announced (Retreat,
    ti4-space-combat.md step 5, moves units); each handler acting after hits are assigned
    (``after_assign_hits``) reads and changes its owner's part alone
    (``Handler.own_part_after_assigning``: Duranium Armor repairs one of its owner's units that
    did not sustain this round), so every other player's; then the end of the round makes
    that damage plain damage in the arena before anything else (procedures/combat_round.py
    ``end_of_round``, space rule 9.1, ground rule 4.2). ``()``: none."""
    if (
        not SETTLED_EARLY
        or assigned.announced != (False, False)
        or assigned.retreat is not None
        or assigned.following
        or assigned.pending is not None
    ):
        return ()
    acting = [
        h
        for h in setup.answering("after_assign_hits")
        if h.owner is not None and not marker_only(h)
    ]
    if not all(type(h).own_part_after_assigning for h in acting):
        return ()
    owners = {h.owner for h in acting}
    return tuple(side for side in (A, D) if side not in owners)


def _settled_early(
    state: BattleState, where_settled: tuple[int | None, tuple[Side, ...]]
) -> BattleState:
    """``state`` with the damage sustained this round in the arena of the players given
    already plain damage, as the round's end will make it (``Forces.settle_round``;
    ``_settles_early``): the states that differ only by it play out alike from here on, and
    the explorer walks on once for them all."""
    where, settled_sides = where_settled
    for side in settled_sides:
        current = state.side(side)
        area = current.area(where)
        settled = area.settle_round()
        if settled is not area:
            state = state.with_side(side, current.with_area(where, settled))
    return state


def _settled_parts(
    setup: BattleSetup, after: Mapping[Hashable, Hashable], where: int | None
) -> dict[Hashable, Hashable]:
    """Each part after in a table (``_assignments``) settled (``_settled_part``), remembered in
    ``setup.memo`` by the part and the arena where ``SETTLED_PARTS_REMEMBERED``: the tables of
    every chance state hold the same parts after, remembered across the rounds (24AE-4)."""
    if not SETTLED_PARTS_REMEMBERED:
        return {k: _settled_part(cast(Part, v), where) for k, v in after.items()}
    memo = setup.memo
    settled: dict[Hashable, Hashable] = {}
    for k, v in after.items():
        key = ("settled_part", where, v)
        known = memo.get(key)
        if known is None:
            known = memo[key] = _interned(setup, _settled_part(cast(Part, v), where))
        settled[k] = known
    return settled


#: whether the players' parts after an assignment (``_assignments``) and settled
#: (``_settled_parts``) are kept as one object for each value (``_interned``); off: each walk's
#: own, as before (docs/architecture.md 24AL-1)
INTERNED = True

_INTERNED = "interned parts after"


def _interned(setup: BattleSetup, part: Part | None) -> Part | None:
    """``part``, or the part equal to it met first in this setup (``INTERNED``): the tables'
    parts after are looked up by value at every chance state (the explorer's numbers,
    analysis/graph.py ``_split_edges_numbered``, the pairs' keys), and a part found by a key
    equal but not the same object is compared field by field (``Forces.__eq__``); one object
    for each value is found by its identity. The same values: an equal part in its place."""
    if part is None or not INTERNED:
        return part
    table = setup.memo.get(_INTERNED)
    if table is None:
        table = setup.memo[_INTERNED] = {}
    return cast("dict[Part, Part]", table).setdefault(part, part)


def _settled_part(part: Part, where: int | None) -> Part:
    """``part`` with its damage sustained this round in the arena plain damage
    (``_settled_early``)."""
    units, purse = part
    area = units.area(where)
    settled = area.settle_round()
    return part if settled is area else (units.with_area(where, settled), purse)


def _assignments(
    battle: Ti4Battle,
    policies: Mapping[str, Policy],
    after_rolls: BattleState,
    first: Mapping[tuple[Hashable, Hashable], object],
    second: Sequence[tuple[Hashable, Hashable, object]],
    arena_and_cause: tuple[int | None, str],
) -> tuple[dict[Hashable, Hashable], dict[Hashable, Hashable]] | None:
    """Each player's part after assigning each number of hits the other rolled, by the real
    Assign Hits procedure (``Ti4Battle.leap``: the attacker's from the state after both
    rolls, the defender's once the attacker is done), or ``None`` if a walk is not taken at
    once; ``_Asked`` is raised if a handler asked while hits are assigned is not idle while
    that player assigns (``assign_hits.leap_key``, ``Handler.idle_while_assigning``) for
    some pair of parts: the attacker's before its assignment with the defender's after its
    roll, the attacker's after its assignment with the defender's before its own (an idle
    handler reads neither the hits nor anything an assignment changes, so the walk is the one
    without it, a function of the player's units and the hits alone)."""
    a_parts = {part for part, _ in first}
    d_parts = {part for part, _, _ in second}
    a_hits = {hits for _, hits in first}
    d_hits = {hits for _, hits, _ in second}
    some_d = next(iter(d_parts))
    some_a = next(iter(a_parts))
    if not _idle(battle, after_rolls, a_parts, d_parts, A, arena_and_cause):
        raise _Asked
    # remembered across the battle's rounds: the walk is a function of the player, the arena,
    # the gains, its part and the hits (the handlers asked are idle, none holds aimed hits)
    known = battle.assigned_parts.get(id(policies))
    if known is None or known[0] is not policies:
        known = battle.assigned_parts[id(policies)] = (policies, {})
    remembered = known[1]
    where, gained = arena_and_cause[0], after_rolls.gained
    first_after: dict[Hashable, Hashable] = {}
    for part in a_parts:
        for hits in d_hits:
            key = (A, where, gained, part, hits)
            left = remembered.get(key)
            if left is None:
                state = _with_parts(after_rolls, part, some_d, (0, 0))  # type: ignore[arg-type]
                state = _taking(state, A, hits)
                left = remembered[key] = _interned(
                    battle.setup, _assigned(battle, policies, state, A, hits)
                )
                if left is None:
                    return None
            first_after[(part, hits)] = left
    if not _idle(battle, after_rolls, set(first_after.values()), d_parts, D, arena_and_cause):
        raise _Asked
    second_after: dict[Hashable, Hashable] = {}
    for part in d_parts:
        for hits in a_hits:
            key = (D, where, gained, part, hits)
            left = remembered.get(key)
            if left is None:
                # the attacker done (its step's ``done``): the defender assigns
                state = _with_parts(after_rolls, some_a, part, (0, 0)).changed(turn=D)  # type: ignore[arg-type]
                state = _taking(state, D, hits)
                left = remembered[key] = _interned(
                    battle.setup, _assigned(battle, policies, state, D, hits)
                )
                if left is None:
                    return None
            second_after[(part, hits)] = left
    return first_after, second_after


class _Asked(Exception):
    """A handler asked while hits are assigned is not idle while a player assigns
    (``_assignments``): each assignment is then walked from the other player's part as it
    stands when it begins (``_paired``)."""


#: the technologies each player has gained (``BattleState.gained``)
Gained = tuple[frozenset[str], frozenset[str]]

#: what each player has used (``BattleState.used``)
Used = tuple[frozenset[str | Discarded], frozenset[str | Discarded]]

#: a player's part after its assignment, with the round's notes (``BattleState.boosts``),
#: what each player has used (``BattleState.used``: a card played meanwhile) then, and the
#: hits it produced against the other player meanwhile (Reflective Shielding's, 24Z-1) and
#: the technologies each player has gained then (Technological Singularity's, 24Z-2)
Noted = tuple[Part, tuple[frozenset[str], frozenset[str]], Used, int, Gained]

#: ``Noted``, and the other player's part as the assignment left it, where a handler asked
#: placed units of theirs meanwhile (Ipswitch, Loose Cannon: ``_walked_placing``)
Placed = tuple[Part, tuple[frozenset[str], frozenset[str]], Used, int, Gained, Part]


class Rolling(NamedTuple):
    """The attacker's whole assignment walked to a roll made in the middle of it (Courageous to
    the End's 2 dice, rolled once its holder's ship is destroyed, ti4-space-combat.md step 4;
    ``_walked_whole``, 24Y-5): the state that rolls, without the defender's part nor the hits
    against it (the walk is blind to them, ``assign_hits.blind``). The defender assigns
    nothing before the roll: the explorer walks on from this state with the defender's part
    after its roll and the hits against it put back (``_rolling_state``), to the chance state
    the walk step by step met."""

    state: BattleState


def _paired(
    battle: Ti4Battle,
    policies: Mapping[str, Policy],
    after_rolls: BattleState,
    first: Mapping[tuple[Hashable, Hashable], object],
    second: Sequence[tuple[Hashable, Hashable, object]],
) -> tuple[dict[Hashable, Hashable], dict[Hashable, Hashable]] | None:
    """Each player's assignment of the other's hits where a handler asked then is not idle
    (``SplitRolls.paired``): what such a handler reads of the other player's part or of the
    round's notes (``Handler.reads_while_assigning``: whether the Mentak flagship is there or
    was when the step began, docs/rulings.md 14A-1), and the notes it makes before its owner
    assigns (``before_assign_hits``), travel with the parts. The attacker's part after
    assigning, with the round's notes then, by (its part, the defender's part after its roll,
    hits taken); the defender's, with the notes then, by (the attacker's part and notes after
    its assignment, its part, hits taken); each walked by the real Assign Hits procedure
    (``_walked``). ``None`` if a walk is not taken so."""
    a_parts = {part for part, _ in first}
    a_hits = {hits for _, hits in first}
    d_taken = {(part, hits) for part, hits, _ in second}
    d_parts = {part for part, _ in d_taken}
    first_after: dict[Hashable, Hashable] = {}
    #: the defender's parts each attacker's walk that placed units of theirs began from
    #: (``Placed``: the defender's walk is made from the part it left, for those alone)
    placing: dict[Hashable, set[Hashable]] = {}
    # each walk looked up by what puts its state together (24AE-6), where ``PAIRED_BY_PARTS``
    by_parts, template = _paired_walks(battle, policies, after_rolls)

    def walk(
        key: Hashable, side: Side, base: BattleState, a: Hashable, d: Hashable, taking: Hashable
    ) -> Noted | Placed | Rolling | None:
        """The walk of ``side``'s assignment of ``taking`` hits from ``base`` with the parts
        ``a`` and ``d``, looked up by ``key``, what puts that state together (24AE-6); walked
        where not found, and remembered where ``PAIRED_BY_PARTS``."""
        found = by_parts.get(key, _UNWALKED)
        if found is not _UNWALKED:
            return cast("Noted | Placed | Rolling | None", found)
        state = _taking(_with_parts(base, a, d, (0, 0)), side, taking)  # type: ignore[arg-type]
        walked = _walked(battle, policies, state, side)
        if PAIRED_BY_PARTS:
            by_parts[key] = walked
        return walked

    for a in a_parts:
        for d, hits in d_taken:
            walked = walk((template, A, a, d, hits), A, after_rolls, a, d, hits)
            if walked is None:
                return None
            first_after[(a, d, hits)] = walked
            if len(walked) == 6:
                placing.setdefault(walked, set()).add(d)
    second_after: dict[Hashable, Hashable] = {}
    dones: dict[Hashable, BattleState] = {}
    for noted, d, hits in _read(first, first_after, d_parts, a_hits):
        if isinstance(noted, Rolling):
            # the defender assigns nothing before the attacker's roll: its part after its own
            # roll and the hits against it are those the state that rolls gets (24Y-5)
            second_after[(noted, d, hits)] = (d, hits)
            continue
        placed = cast(Placed, noted)[5] if noted in placing else None
        if placed is not None and d not in placing[noted]:
            continue  # (the attacker's walk that placed units began from another part)
        part, boosts, used, back, gained = cast(Noted, cast(tuple[object, ...], noted)[:5])
        start = d if placed is None else placed
        taking = hits
        if back:
            # the hits the attacker's walk produced against the defender join those it
            # rolled (24Z-1; not where some of them are marked free)
            if not isinstance(hits, int):
                return None
            taking = hits + back
        done = dones.get(noted)
        if done is None:
            # the attacker done (its step's ``done``): the defender assigns, from its units as
            # the attacker's assignment left them where a handler placed some (``Placed``)
            done = dones[noted] = after_rolls.changed(
                turn=D, boosts=boosts, used=used, gained=gained
            )
        walked = walk((template, D, noted, start, taking), D, done, part, start, taking)
        if walked is None:
            return None
        second_after[(noted, d, hits)] = walked
    return first_after, second_after


#: a walk not looked up yet (``_paired_walks``)
_UNWALKED = object()


def _paired_walks(
    battle: Ti4Battle, policies: Mapping[str, Policy], after_rolls: BattleState
) -> tuple[dict[Hashable, object], int]:
    """The paired tables' walks (``_walked``) by what puts each walk's state together: the
    state after both rolls but for the parts and the hits (``_template``, numbered once, so a
    key hashes two parts and a few numbers, not a whole state), the player, the parts and the
    hits; and the number of ``after_rolls``'s. Each
    key makes one state (``_with_parts``, ``_taking``), so its walk is that state's, remembered
    by it besides (24AE-6). Remembered with the walks by the state across the battle's rounds
    (``Ti4Battle.assigned_parts``); an empty memory where ``PAIRED_BY_PARTS`` is off."""
    if not PAIRED_BY_PARTS:
        return {}, 0
    known = battle.assigned_parts.get(id(policies))
    if known is None or known[0] is not policies:
        known = battle.assigned_parts[id(policies)] = (policies, {})
    memory = cast(
        "tuple[dict[tuple[object, ...], int], dict[Hashable, object]] | None",
        known[1].get(_PAIRED_WALKS),
    )
    if memory is None:
        memory = ({}, {})
        known[1][_PAIRED_WALKS] = memory
    numbers, walks = memory
    # (the parts and the hits are set anew in every state put together: the rest numbered)
    rest = _template(after_rolls)
    number = numbers.get(rest)
    if number is None:
        number = numbers[rest] = len(numbers)
    return walks, number


#: the key of the paired tables' walks by parts in ``Ti4Battle.assigned_parts`` (``_paired_walks``)
_PAIRED_WALKS = ("paired tables' walks by parts",)


def _read(
    first: Mapping[tuple[Hashable, Hashable], object],
    first_after: Mapping[Hashable, Hashable],
    d_parts: set[Hashable],
    a_hits: set[Hashable],
) -> Iterable[tuple[Hashable, Hashable, Hashable]]:
    """The keys of the defender's table the explorer reads (``Explorer._split_edges``): each
    of the attacker's parts after its assignment (``first_after``), with the defender's part
    it was walked against and each number of hits the attacker's part before it rolled
    (24Z-5). Every part after with every part of the defender's and every number of hits
    rolled where the defender's roll leaves it one part (the same keys, found without hashing
    each), or with ``READ`` off, the old way."""
    if not READ or len(d_parts) == 1:
        return [
            (noted, d, hits)
            for noted in set(first_after.values())
            for d in d_parts
            for hits in a_hits
        ]
    rolled: dict[Hashable, list[Hashable]] = {}
    for part, hits in first:
        rolled.setdefault(part, []).append(hits)
    keys = cast("Mapping[tuple[Hashable, Hashable, Hashable], Hashable]", first_after)
    return dict.fromkeys(
        (noted, d, hits) for (a, d, _), noted in keys.items() for hits in rolled[a]
    )


def _rolling_state(rolling: Rolling, defender: tuple[Part, Hashable]) -> BattleState:
    """The state that rolls in the middle of the attacker's assignment (``Rolling``) with the
    defender's part after its roll and the hits against it (and their mark) put back."""
    part, produced = defender
    state = rolling.state
    state = _with_parts(state, _part(state, A), part, (state.hits_on(A), 0))
    return _taking(state, D, produced)


def _walked(
    battle: Ti4Battle, policies: Mapping[str, Policy], state: BattleState, side: Side
) -> Noted | Placed | Rolling | None:
    """``side``'s part once it has assigned its hits from ``state``, with the round's notes
    then, by the real Assign Hits procedure (ti4-space-combat.md step 4, ti4-ground-combat.md
    step 2), remembered by the state across the battle's rounds: the handlers asked before
    the first hit is assigned (``before_assign_hits``: each a step that makes a note of the
    assigning player's, nothing else), then the whole assignment at once (``Ti4Battle.leap``:
    every handler asked declares what it reads, ``assign_hits.leap_key``). ``None`` if the
    walk meets anything else."""
    known = battle.assigned_parts.get(id(policies))
    if known is None or known[0] is not policies:
        known = battle.assigned_parts[id(policies)] = (policies, {})
    key = (side, state)
    remembered = known[1].get(key)
    if remembered is not None:
        return remembered  # type: ignore[return-value]
    start = at = battle.canonical(state)
    # a blind walk (every handler asked idle or blind while ``side`` assigns) made from a
    # state alike but for the other player's part and the hits against it: the same (24Z-3)
    blinded = _blind_key(battle, start, side) if LOOKED_UP else None
    if blinded is not None:
        remembered = known[1].get(blinded)
        if remembered is not None:
            known[1][key] = remembered
            return remembered  # type: ignore[return-value]
    other = 1 if side is A else 0
    # at most one step for each handler asked before the first hit, then the leap
    for _ in range(len(battle.setup.handlers) + 2 if at.hits_on(side) else 0):
        landed = battle.leap(at, policies, blind=False)
        if landed is not None:
            at = landed
            break
        node = battle.advance(at)
        if not isinstance(node, Step) or node.events:
            return _walked_whole(battle, policies, start, side, key)
        noted = battle.canonical(node.state)
        if (
            noted.boosts[other] != at.boosts[other]
            or noted.changed(cursor=at.cursor, boosts=at.boosts) != at
        ):
            # not a note of the assigning player's before its first hit
            return _walked_whole(battle, policies, start, side, key)
        at = noted
    if at.hits_on(side) or at.phase is not Phase.ASSIGN_HITS or at.turn is not side:
        return None
    back = at.hits_on(side.other) - start.hits_on(side.other)
    walked: Noted = (_part(at, side), at.boosts, at.used, back, at.gained)
    known[1][key] = walked
    if blinded is not None:
        known[1][blinded] = walked
    return walked


def _blind_key(battle: Ti4Battle, state: BattleState, side: Side) -> Hashable | None:
    """The key of ``side``'s whole assignment from ``state`` shared by every state alike but
    for the other player's part and the hits against it (``_blinded``), where every handler
    asked while ``side`` assigns is idle or blind then (``assign_hits.blind``: the assignment
    reads neither, changes the other player's part in none and adds the same hits against it
    in all); ``None`` elsewhere, or where no hit is to be assigned (24Z-3)."""
    if not BLINDED or not state.hits_on(side):
        return None
    setup = battle.setup if state.gained == NOTHING_GAINED else battle.setup.having(state.gained)
    cause = combat_round.combat_cause(arena(setup, state))
    if not assign_hits.blind(setup, state, side, cause):
        return None
    return _blinded(state, side)


def _walked_whole(
    battle: Ti4Battle,
    policies: Mapping[str, Policy],
    state: BattleState,
    side: Side,
    key: Hashable,
) -> Noted | Placed | Rolling | None:
    """``side``'s part once it has assigned its hits from ``state``, with the round's notes and
    what each player has used then, by the real Assign Hits procedure walked step by step,
    decided by ``policies`` (ti4-space-combat.md step 4; 24U-3), where every handler asked
    is idle or blind while ``side`` assigns (``assign_hits.blind``: it reads nothing of the
    other player's part nor the hits against it, so the attacker's walk, made with no hits
    yet against the defender, is the walk with them; none may be cancelled). The walk ends
    where the step would move on (no hit left against ``side``, nothing queued, no card
    pending: the step's ``done`` clears its cursor and record of SUSTAIN DAMAGE); it must
    change nothing but ``side``'s part, the notes and what was used (a card played, Direct
    Hit's by the other player), which travel with the parts (``Noted``), as do the hits it
    produced against the other player (Reflective Shielding's: the defender assigns the
    attacker's with its own, the attacker the defender's once the defender is done, 27U-1;
    24Z-1, ``PRODUCED``); no roll (Courageous to the End), no other field. ``None``
    elsewhere, and the round's pairs of outcomes are followed as before."""
    if not WHOLE:
        return None
    setup = battle.setup if state.gained == NOTHING_GAINED else battle.setup.having(state.gained)
    cause = combat_round.combat_cause(arena(setup, state))
    blind = assign_hits.blind(setup, state, side, cause)
    if not blind and not (PAIRED and assign_hits.paired(setup, state, side, cause)):
        return _walked_placing(battle, policies, state, side, key, (setup, cause))
    known = battle.assigned_parts[id(policies)][1]
    # (a walk that reads the other player's part is remembered by the whole state only)
    blinded = _blinded(state, side) if BLINDED and blind else None
    if blinded is not None:
        remembered = known.get(blinded)
        if remembered is not None:
            known[key] = remembered
            return remembered  # type: ignore[return-value]
    at = state
    for _ in range(_WHOLE_STEPS):
        if at.phase is not Phase.ASSIGN_HITS or at.turn is not side:
            return None
        if not at.hits_on(side) and not at.following and at.pending is None:
            break
        if at.hits_on(side):
            # the stretch the explorer would take at once (``Ti4Battle.leap``, remembered:
            # the blind walk, once for every state alike but for the other player's part)
            landed = battle.leap(at, policies)
            if landed is not None:
                at = battle.canonical(landed)
                continue
        node = battle.advance(at)
        if isinstance(node, Step):
            step = node
        elif isinstance(node, Decision):
            step = node.then(decide(node.request, policies))
        elif isinstance(node, Chance) and ROLLING and side is A and blind:
            # a roll in the middle of the attacker's assignment (Courageous to the End): the
            # state that rolls, blind to the defender's part and the hits against it (24Y-5)
            return _rolled_here(at, state, side, known, key, blinded)
        else:
            return None  # a roll (the defender's: it assigns last) or the battle's end
        if _begins_round(step.events):
            return None
        moved = battle.canonical(step.state)
        if moved.phase is not Phase.ASSIGN_HITS or moved.turn is not side:
            # moved on at once: the hits left lost for want of units (``next_hit``)
            lost = _lost_alike(battle, at, moved, side)
            if lost is None:
                return None
            at = lost
            blinded = None  # (whether it moves on alike was read of the whole state)
            break
        at = moved
    else:
        return None
    # the hits produced against the other player meanwhile (only ever added: blind), which
    # travel with the part (24Z-1)
    other = side.other
    back = at.hits_on(other) - state.hits_on(other)
    if back > 0 and PRODUCED:
        at = at.with_hits_on(other, state.hits_on(other))
    # all but the assigning player's part, the notes, what was used, and what the step's
    # ``done`` clears (its cursor, its SUSTAIN DAMAGE, the mark of free hits) as they were
    if _unchanged(at, side) != _unchanged(state.with_hits_on(side, 0), side):
        return None
    walked: Noted = (_part(at, side), at.boosts, at.used, back, at.gained)
    known[key] = walked
    if blinded is not None:
        known[blinded] = walked
    return walked


def _lost_alike(
    battle: Ti4Battle, at: BattleState, moved: BattleState, side: Side
) -> BattleState | None:
    """Where a whole assignment's step moved on at once from ``at`` to ``moved`` (the hits
    left against ``side`` lost for want of units, ``next_hit``): the state with them lost,
    which ends the walk, if it moves on alike (nothing queued, no card pending); else
    ``None`` (the walk is refused)."""
    if at.following or at.pending is not None:
        return None
    lost = at.with_hits_on(side, 0)
    alike = battle.advance(lost)
    if not isinstance(alike, Step) or battle.canonical(alike.state) != moved:
        return None
    return lost


#: whether an assignment where a handler asked places units of the other player's
#: (``Handler.places_while_assigning``: Ipswitch, Loose Cannon) is walked whole for the paired
#: tables, the other player's part carried with the parts (``_walked_placing``; off: such a
#: round's pairs of outcomes are all followed, as before, tests/odds/test_graph_splits_placed.py)
PLACING = True


def _walked_placing(
    battle: Ti4Battle,
    policies: Mapping[str, Policy],
    state: BattleState,
    side: Side,
    key: Hashable,
    setup_and_cause: tuple[BattleSetup, str],
) -> Noted | Placed | None:
    """``side``'s part once it has assigned its hits from ``state``, with the round's notes,
    what each player has used and the other player's part then, by the real Assign Hits
    procedure walked step by step, decided by ``policies`` (ti4-space-combat.md step 4;
    24X-3), where a handler asked places units of the other player's while ``side`` assigns
    and the others are idle, blind or declare what they read (``assign_hits.placing``). The paired
    tables walk from both players' parts as they stand; what is not as it stands is the hits
    against the other player (none yet in the attacker's walk), which no such handler reads.
    The walk ends as ``_walked_whole``'s does; it must change nothing but ``side``'s part,
    the notes, what was used and the other player's units (``Placed``: its part after, the
    defender's assignment then walked from it); ``None`` elsewhere, and the round's pairs of
    outcomes are followed as before. Remembered by the whole state (``key``)."""
    setup, cause = setup_and_cause
    if not PLACING or not assign_hits.placing(setup, state, side, cause):
        return None
    at = state
    for _ in range(_WHOLE_STEPS):
        if at.phase is not Phase.ASSIGN_HITS or at.turn is not side:
            return None
        if not at.hits_on(side) and not at.following and at.pending is None:
            break
        node = battle.advance(at)
        if isinstance(node, Step):
            step = node
        elif isinstance(node, Decision):
            step = node.then(decide(node.request, policies))
        else:
            return None  # a roll or the battle's end
        if _begins_round(step.events):
            return None
        moved = battle.canonical(step.state)
        if moved.phase is not Phase.ASSIGN_HITS or moved.turn is not side:
            # moved on at once: the hits left lost for want of units (as ``_walked_whole``)
            lost = _lost_alike(battle, at, moved, side)
            if lost is None:
                return None
            at = lost
            break
        at = moved
    else:
        return None
    other = side.other
    before = state.with_hits_on(side, 0)
    if (
        at.side(other).planets != before.side(other).planets
        or at.wealth(other) != before.wealth(other)
        or _unchanged(at.with_side(other, before.side(other)), side) != _unchanged(before, side)
    ):
        return None
    noted: Noted = (_part(at, side), at.boosts, at.used, 0, at.gained)
    walked: Noted | Placed = noted
    if at.side(other) != before.side(other):
        walked = (*noted, _part(at, other))
    battle.assigned_parts[id(policies)][1][key] = walked
    return walked


def _rolled_here(
    at: BattleState,
    state: BattleState,
    side: Side,
    known: dict[Hashable, object],
    key: Hashable,
    blinded: Hashable | None,
) -> Rolling | None:
    """The walk of ``side``'s (the attacker's) whole assignment from ``state`` stopped at
    ``at``, whose step is a roll (``_walked_whole``): kept as the state that rolls without the
    defender's part nor the hits against it, if the walk left those as they were (a blind walk
    reads neither, 24Y-5); remembered as the walk is."""
    other = side.other
    if (
        at.side(other) != state.side(other)
        or at.wealth(other) != state.wealth(other)
        or at.hits_on(other) != state.hits_on(other)
        or at.phase is not Phase.ASSIGN_HITS
        or at.rolls != _NO_ROLLS
    ):
        return None
    rolling = Rolling(_with_parts(at, _part(at, A), _NOBODY, (at.hits_on(A), 0)))
    known[key] = rolling
    if blinded is not None:
        known[blinded] = rolling
    return rolling


def _blinded(state: BattleState, side: Side) -> Hashable:
    """The key of ``side``'s whole assignment from ``state`` (``_walked_whole``) for every
    state alike but for the other player's part and the hits against it: a blind walk reads
    neither (``assign_hits.blind``), changes the other player's part in none, and adds the
    same hits against it in all (those refuse the walk alike). The rolls kept group by group
    stay in it (a walk from a state keeping them is refused: the step clears them). (24W-2)"""
    if side is A:
        blind = _with_parts(state, _part(state, A), _NOBODY, (state.hits_on(A), 0))
    else:
        blind = _with_parts(state, _NOBODY, _part(state, D), (0, state.hits_on(D)))
    return ("blinded", side, blind)


#: the fields a whole assignment may change, besides the players' parts (``_unchanged``)
_assignment_leaves = _fields_but(
    _PARTS | {"marks", "cursor", "used", "boosts", "sustained", "gained"}
)


def _unchanged(state: BattleState, side: Side) -> tuple[object, ...]:
    """The fields of ``state`` a whole assignment by ``side`` must leave as they were
    (``_walked_whole``): all but ``side``'s part, the notes, what was used, the technologies
    gained (24Z-2), the step's cursor and record of SUSTAIN DAMAGE, and the mark of ``side``'s
    free hits."""
    other = side.other
    return (
        state.side(other),
        state.wealth(other),
        state.unmarking(side, Mark.FREE_HITS).marks,
        *_assignment_leaves(state),
    )


def _idle(
    battle: Ti4Battle,
    after_rolls: BattleState,
    attackers: set[Hashable],
    defenders: set[Hashable],
    side: Side,
    arena_and_cause: tuple[int | None, str],
) -> bool:
    """Whether every handler asked while ``side`` assigns a combat round's hits is idle then
    (or none is asked: ``assign_hits.leap_key`` is ``()``) for each pair of the players'
    parts given."""
    setup = battle.setup
    if after_rolls.gained != NOTHING_GAINED:
        setup = setup.having(after_rolls.gained)
    where, cause = arena_and_cause
    if assign_hits.alone(setup, cause):
        return True
    hits = (1, 0) if side is A else (0, 1)
    # each pair's answer remembered by what puts its state together (24AG-2): the state after
    # both rolls but for the parts and the hits, numbered once, the player and the parts
    known: dict[Hashable, bool] | None = None
    number = 0
    if IDLE_REMEMBERED:
        numbers = cast("dict[Hashable, int]", setup.memo.setdefault(_IDLE_TEMPLATES, {}))
        rest = (side, _template(after_rolls))
        number = numbers.setdefault(rest, len(numbers))
        known = cast("dict[Hashable, bool]", setup.memo.setdefault(_IDLE_PAIRS, {}))
    for a in attackers:
        for d in defenders:
            if known is not None:
                found = known.get((number, a, d))
                if found is not None:
                    if not found:
                        return False
                    continue
            state = _with_parts(after_rolls, a, d, hits).changed(turn=side)  # type: ignore[arg-type]
            idle = assign_hits.leap_key(setup, state, side, where, cause) == ()
            if known is not None:
                known[(number, a, d)] = idle
            if not idle:
                return False
    return True


#: the keys in ``BattleSetup.memo`` of ``_idle``'s numbers of the states after both rolls and
#: its answers by pair (24AG-2)
_IDLE_TEMPLATES = ("idle while assigning: states after the rolls",)
_IDLE_PAIRS = ("idle while assigning: pairs",)


def _assigned(
    battle: Ti4Battle,
    policies: Mapping[str, Policy],
    state: BattleState,
    side: Side,
    hits: Hashable,
) -> Part | None:
    """``side``'s part once it has assigned ``hits`` from ``state`` (the leap the explorer
    takes there), ``None`` if that is not one leap to a state with no hits left."""
    if not state.hits_on(side):
        return _part(state, side)
    landed = battle.leap(battle.canonical(state), policies, blind=False)
    if (
        landed is None
        or landed.hits_on(side)
        or landed.phase is not Phase.ASSIGN_HITS
        or landed.turn is not side
    ):
        return None
    return _part(landed, side)


#: for the explorer's use of a battle's method (``Ti4Battle.split_rolls``)
Split = Callable[[BattleState, Mapping[str, Policy], bool], SplitRolls[BattleState] | None]
