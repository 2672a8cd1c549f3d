"""The stalemate check's paths where effects take units away or place a few (issue 24, 24AC-3;
docs/rulings.md 24AC-3).

The check (procedures/stalemate.py, docs/rulings.md R20) follows, at each new pair of fleets,
the path where one side (the favoured) hits with every die and the other never does. 24Y-3
answers "a side can win" at once where every handler acting in the rounds adds at most to the
favoured side's dice. This extends it, in a space combat, to handlers that declare
(``Handler.never_stalls_where_all_hit``) that on those paths they only take units away (their
owner's, or the other side's by a hit they produce: Devotion) or place, a bounded number of
times, units of the declared types for their owner (Brother Milor: 2 fighters, once), where
every die the favoured side may roll can hit:

- the favoured side's ships are those it has now, less those taken away, plus those placed for
  it; where every one of its ship types now and every type placed for it can hit with its
  printed value and the modifiers of the setup (``_every_die_hits``; the round's roll
  changers, all declared, only add), it has a die that can hit in every round it still has a
  ship, so each of its rounds takes at least one hit point (a unit, or a SUSTAIN DAMAGE) from
  the other side;
- the other side is given nothing back: no handler acting in the rounds repairs, cancels or
  prevents a hit (24Y-3's declarations), and where a declared handler could still place units
  for the other side (its card still held), the shortcut is not taken (``_placing_for``): so
  the other side's hit points only fall, its fleets never repeat at a round's end, and the path
  ends (its ships run out, or a retreat ends the combat first), as the path followed says.

Handlers asked only in timing windows of another kind of battle (``Acts.battles``: Indoctrination,
at the start of a ground combat) are never asked in a space combat (procedures/windows.py
``timing_window`` asks only those ``Acts.admits``) and are passed over.
"""

from __future__ import annotations

from spacecombat.core.pool import DiceGroup, DicePool
from spacecombat.rulesets.ti4.abilities.base import (
    Card,
    Handler,
    Roll,
    acts_in_rounds,
    overrides,
)
from spacecombat.rulesets.ti4.effects import arena
from spacecombat.rulesets.ti4.hooks import IN_ROUNDS
from spacecombat.rulesets.ti4.procedures import stalemate_paths
from spacecombat.rulesets.ti4.setup import BattleSetup
from spacecombat.rulesets.ti4.sides import Side
from spacecombat.rulesets.ti4.state import BattleState

#: whether the check is answered at once where every handler acting in the rounds declares
#: ``never_stalls_where_all_hit`` or what 24Y-3 passes over, and the favoured side's every die
#: can hit (``ends_where_all_hit``); off: such paths are followed, the old way (24AC-3;
#: tests/ti4/test_stalemate_bounded.py)
DECLARED = True


def ends_where_all_hit(setup: BattleSetup, state: BattleState, favoured: Side) -> bool:
    """Whether ``favoured``'s path from ``state`` (a space combat's Announce Retreats) ends, as
    the module says: every handler acting in the rounds passed over or declared, none able to
    place units for the other side, and every ship type of ``favoured``'s, and every type
    placed for it, able to hit."""
    if not DECLARED or arena(setup, state) is not None:
        return False
    declared = _declared(setup, favoured)
    if declared is None:
        return False
    placed: set[str] = set()
    for handler, types in declared:
        if not types:
            continue
        if handler.owner is favoured:
            placed |= types
        elif not isinstance(handler, Card) or handler.held(state):
            return False  # (it may still give the other side units)
    ships = frozenset(u for u, _, _ in state.side(favoured).space)
    if not ships:
        return False
    cards = setup.side(favoured)
    fighting = ships | {u for u in placed if u in cards.ship_types}
    return all(_every_die_hits(setup, favoured, unit) for unit in fighting)


def _declared(
    setup: BattleSetup, favoured: Side
) -> tuple[tuple[Handler, frozenset[str]], ...] | None:
    """The handlers acting in the rounds that declare ``never_stalls_where_all_hit``, with the
    types they may place, where every other one is passed over by 24Y-3 or never asked in this
    kind of battle; ``None`` elsewhere. A value of the setup alone, found once."""

    def found() -> tuple[tuple[Handler, frozenset[str]], ...] | None:
        declared = []
        for handler in setup.handlers:
            if not acts_in_rounds(handler) or _never_asked(setup, handler):
                continue
            kind = type(handler)
            if kind.never_stalls or (kind.never_stalls_for_owner and handler.owner is favoured):
                continue
            if stalemate_paths.passed_over(setup, handler, favoured):
                continue  # (24AF-1: it gives the other side nothing back)
            if kind.never_stalls_where_all_hit is None:
                return None
            declared.append((handler, kind.never_stalls_where_all_hit))
        return tuple(declared)

    return setup.remembered(("stalemate", "never stalls where all hit (24AC-3)", favoured), found)


def _never_asked(setup: BattleSetup, handler: Handler) -> bool:
    """Whether ``handler`` acts in the rounds only in timing windows (``in_window``) of another
    kind of battle than ``setup``'s (``Acts.battles``): never asked here."""
    acts = handler.acts
    if acts is None or setup.kind in acts.battles:
        return False
    return all(hook == "in_window" for hook in IN_ROUNDS if overrides(handler, hook))


def _every_die_hits(setup: BattleSetup, side: Side, unit: str) -> bool:
    """Whether each die of ``side``'s ``unit`` in a space combat can hit with its printed value
    and the setup's modifiers (effects.py ``_combat_pool``, without the round's roll changers,
    which only add here): a value of the setup alone, found once."""
    return setup.remembered(
        ("stalemate", "every die hits (24AC-3)", side, unit),
        lambda: _hits(setup, side, unit),
    )


def _hits(setup: BattleSetup, side: Side, unit: str) -> bool:
    cards = setup.side(side)
    if unit not in cards.ship_types or unit not in cards.cards:
        return False
    combat = cards.card(unit).combat
    if combat is None or combat.dice is None:
        return False
    group = DiceGroup(unit, combat.dice, combat.hit, setup.modifier(side, Roll.SPACE_COMBAT, unit))
    return DicePool.of([group]).max_hits > 0  # (the dice of a group are alike)
