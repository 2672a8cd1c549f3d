"""Into the Breach (TI3 base action card; data/action_cards.toml; docs/rulings.md 27A-10):
the holder chooses one of its dreadnoughts in the space battle; all its ships there get +1 on
every combat roll for the rest of the battle, and the first 2 hits against its fleet must be
taken by that dreadnought.

Played "immediately before a space battle" (the first of the spec's pre-combat items): at the
start of the battle, after PDS fire, before the pre-combat steps; the attacker is asked first.
The chosen dreadnought is an undamaged one if there is one (it absorbs two hits: SUSTAIN
DAMAGE, then destroyed), else a damaged one (one hit). ``Ti3State.breach`` holds, per player,
-1 (not played) or what the dreadnought still owes (below); dreadnoughts of one status are
alike, so "that dreadnought" is one of the status it has now.

With Duranium Armor (docs/rulings.md 27Y-7 to 27Y-9) the chosen dreadnought may be repaired
while it owes hits: the card's "first 2 hits" are counted as hits, so a repaired one takes what
is left of them (undamaged, it may use SUSTAIN DAMAGE again). Two more values tell apart what
only a repair makes different: a damaged dreadnought chosen at the start (it owes the first 2
hits, and is destroyed by the first unless it is repaired before) and an undamaged one that
owes one hit (repaired after it took the first).

Under the option ``duranium_not_damaged_this_round`` (damage told apart by round, 27Q-1) a
chosen dreadnought that sustained its first hit this round is "damaged this round": not the one
a repair at this round's end may fix, and, with another damaged dreadnought in the fleet, the
one the second hit must go on. One more value keeps it (``SUSTAINED_OWES``, only when the
holder has Duranium Armor and the option is on); at the round's end (``settled``) it is an
ordinary damaged chosen dreadnought owing the second hit."""

from __future__ import annotations

from spacecombat.core.decisions import Option
from spacecombat.core.engine import Node, Step
from spacecombat.core.forces import Status
from spacecombat.core.sides import Side
from spacecombat.core.state import ships
from spacecombat.rulesets.ti3.abilities.base import RollKind
from spacecombat.rulesets.ti3.cards.common import offer
from spacecombat.rulesets.ti3.setup import Ti3Setup
from spacecombat.rulesets.ti3.state import Ti3State

CARD = "into_the_breach"

A = Side.ATTACKER

#: ``Ti3State.breach`` of a player who did not play the card
NOT_PLAYED = -1
#: what the chosen dreadnought owes: nothing more (the card's +1 goes on)
DONE = 0
#: damaged, it takes the next hit (and is destroyed by it)
DAMAGED_OWES = 1
#: undamaged, it owes the first 2 hits
UNDAMAGED_OWES_TWO = 2
#: undamaged (repaired after it took the first hit), it owes the second (27Y-8)
UNDAMAGED_OWES_ONE = 3
#: damaged when chosen, it owes the first 2 hits (only with Duranium Armor: a repair before
#: the first hit makes it undamaged, owing both; without one it is ``DAMAGED_OWES``: 27Y-8)
DAMAGED_OWES_TWO = 4

#: damaged this round (its first hit sustained this round), it owes the second: only under the
#: option ``duranium_not_damaged_this_round`` with Duranium Armor held (27Q-1); at the round's
#: end it is ``DAMAGED_OWES``
SUSTAINED_OWES = 5

#: the values where the chosen dreadnought is undamaged
_UNDAMAGED = (UNDAMAGED_OWES_TWO, UNDAMAGED_OWES_ONE)


def owed(state: Ti3State, side: Side) -> int:
    return state.breach[0 if side is A else 1]


def _with_owed(state: Ti3State, side: Side, value: int) -> Ti3State:
    breach = (value, state.breach[1]) if side is A else (state.breach[0], value)
    return state.changed(breach=breach)


def held_by_anyone(setup: Ti3Setup) -> bool:
    return any(s.holds(CARD) for s in setup.sides.values())


def applies(setup: Ti3Setup, state: Ti3State, side: Side) -> bool:
    """``side`` holds the card, has a dreadnought in the battle and faces enemy ships."""
    return (
        setup.kind == "space"
        and CARD in state.hand(side)
        and bool(state.side(side).space.count("dreadnought"))
        and bool(ships(setup, state, side.other))
    )


def ask(setup: Ti3Setup, state: Ti3State, side: Side, passed: Ti3State) -> Node[Ti3State]:
    """``side`` may play the card on one of its dreadnoughts."""
    undamaged = state.side(side).space.count("dreadnought", Status.UNDAMAGED)
    if undamaged:
        chosen = UNDAMAGED_OWES_TWO
    elif setup.side(side).has("duranium_armor"):
        chosen = DAMAGED_OWES_TWO  # a repair may make it undamaged before the first hit
    else:
        chosen = DAMAGED_OWES

    def play(after: Ti3State) -> Step[Ti3State]:
        return Step(_with_owed(after, side, chosen).changed(step=passed.step))

    return offer(
        side,
        CARD,
        state,
        "play Into the Breach: +1 on your ships' combat rolls this battle, the first 2 hits on "
        "your fleet taken by one dreadnought?",
        play,
        passed,
        facts={"dreadnought": "undamaged" if undamaged else "damaged"},
    )


def bonus(setup: Ti3Setup, state: Ti3State, roller: Side, kind: RollKind) -> int:
    """+1 on every combat roll of the holder's ships (T4: combat rounds, anti-fighter barrage,
    pre-combat shots) once played."""
    if setup.kind != "space" or not kind.is_combat_roll:
        return 0
    return int(owed(state, roller) != NOT_PLAYED)


def eligible(
    state: Ti3State, side: Side, found: list[tuple[str, Status]]
) -> list[tuple[str, Status]]:
    """The ships a hit against ``side``'s fleet may go on: the chosen dreadnought while it
    still owes hits (a dreadnought of the status it has)."""
    left = owed(state, side)
    if left <= 0:
        return found
    chosen = [(u, s) for u, s in found if u == "dreadnought" and _is_chosen(left, s)]
    return chosen or found


def _is_chosen(left: int, status: Status) -> bool:
    """Whether a dreadnought of ``status`` is the chosen one, which owes ``left``."""
    if left == SUSTAINED_OWES:
        return status is Status.SUSTAINED_THIS_ROUND  # damaged this round (27Q-1)
    return (status is Status.UNDAMAGED) == (left in _UNDAMAGED)


def after_hit(setup: Ti3Setup, state: Ti3State, side: Side, option: Option) -> Ti3State:
    """The chosen dreadnought took a hit: sustained, it owes one more; destroyed, none."""
    left = owed(state, side)
    if left <= 0 or option.unit != "dreadnought":
        return state
    if not _is_chosen(left, Status(option.status or 0)):
        return state  # another dreadnought (only when the chosen one could not take it)
    if left == UNDAMAGED_OWES_TWO and option.action == "sustain":
        if _told_apart(setup, side):
            return _with_owed(state, side, SUSTAINED_OWES)  # damaged this round (27Q-1)
        return _with_owed(state, side, DAMAGED_OWES)
    return _with_owed(state, side, DONE)  # its second hit, or destroyed


def _told_apart(setup: Ti3Setup, side: Side) -> bool:
    """Whether ``side``'s chosen dreadnought damaged this round must be told apart from one
    damaged before: its owner's Duranium Armor repairs only the latter (27Q-1). Without
    Duranium Armor held by the holder the two are alike for it, and the states stay as
    before."""
    return setup.options.duranium_not_damaged_this_round and setup.side(side).has("duranium_armor")


def settled(state: Ti3State) -> Ti3State:
    """The round is over (its damage settled, ``Forces.settle_round``): a chosen dreadnought
    damaged this round is now damaged, owing the second hit (27Q-1)."""
    if SUSTAINED_OWES not in state.breach:
        return state
    breach = tuple(DAMAGED_OWES if v == SUSTAINED_OWES else v for v in state.breach)
    return state.changed(breach=(breach[0], breach[1]))


#: the text added to the Duranium Armor repair of the chosen dreadnought when another damaged
#: dreadnought may be repaired instead (27Y-9)
CHOSEN = ", chosen by Into the Breach"


def chosen_damaged(state: Ti3State, side: Side) -> bool:
    """Whether ``side``'s chosen dreadnought is damaged and still owes hits (a repair of it
    changes what it owes: 27Y-8)."""
    return owed(state, side) in (DAMAGED_OWES, DAMAGED_OWES_TWO)


def repaired(state: Ti3State, side: Side) -> Ti3State:
    """Duranium Armor repaired ``side``'s damaged chosen dreadnought: undamaged, it owes what
    was left of the first 2 hits (27Y-8)."""
    left = owed(state, side)
    if left == DAMAGED_OWES_TWO:
        return _with_owed(state, side, UNDAMAGED_OWES_TWO)
    if left == DAMAGED_OWES:
        return _with_owed(state, side, UNDAMAGED_OWES_ONE)
    return state


def destroyed_by_card(state: Ti3State, side: Side, unit: str) -> Ti3State:
    """Direct Hit destroyed ``side``'s just-damaged ``unit``: if it is the chosen dreadnought
    (it was the one that took the hit), it owes nothing more."""
    if unit == "dreadnought" and owed(state, side) in (DAMAGED_OWES, SUSTAINED_OWES):
        return _with_owed(state, side, DONE)
    return state
