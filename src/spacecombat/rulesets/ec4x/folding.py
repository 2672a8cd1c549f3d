"""An attack step's selections combined as small numbers, for the exact engine's folds
(7.3.1 "Simultaneous Attack Resolution"; issue 24, docs/architecture.md 24S-1).

``Ec4xBattle.folded`` convolves each attacker's distribution of selections into the step's:
for each selection so far and each of the next attacker's, the two combined as damage
application reads them (``Ec4xBattle._merged``: per target, the hits without a critical summed
and capped, each critical on its own). The selections so far are tuples of ``Attack``, and a
dictionary keyed by them hashes the whole tuple at every look-up (Python does not keep a
tuple's hash): three such hashes per pair were most of a fold's time (3-4 µs a pair on the
project's machine). ``SelectionTables`` gives each tuple of selections met in a battle a number
once (``number``) and remembers each combination by numbers (``merged``), so a pair costs a
look-up of three small integers. The same pairs are combined, in the same order, to the same
tuples: the folds' distributions are those of the tuples, summed in the same order (the same
floats).

The tables live as long as the battle (the folds of many chance states combine the same
selections) and are emptied between two folds when they hold more than ``TABLE_LIMIT`` tuples
(the numbers given before are then forgotten all at once, never during a fold).
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Mapping
from fractions import Fraction

from spacecombat.analysis.graph import Weight, chances, following
from spacecombat.core.engine import Chance, Draw, Node, Step
from spacecombat.rulesets.ec4x.setup import MEMO_LIMIT, Setup
from spacecombat.rulesets.ec4x.state import Attack, Stage, State

#: tuples of selections the tables number before they are emptied (between two folds): about
#: 0.3-0.5 KB each with their entries, some 40-60 MB at most
TABLE_LIMIT = 2 * MEMO_LIMIT

Selections = tuple[Attack, ...]
#: one attacker's selections in a step (``Ec4xBattle._selection``): its number (never given
#: twice in a battle) and each selection (None: no valid target), its number
#: (``SelectionTables.record``), the houses it engaged, the starbases it re-rolled against
#: and its chance
Own = tuple[int, tuple[tuple[Attack | None, int, int, int, Weight], ...]]
#: a step's selections so far, by number, with the houses they engaged and the starbases
#: re-rolled against, and their chance
Profiles = dict[tuple[int, int, int], Weight]
#: where a step's damage leaves it: the units' conditions, the hits kept below DS, the houses
#: engaged and starbases re-rolled against, and the chance
Landed = dict[tuple[tuple[int, ...], tuple[int, ...], int, int], Weight]
#: what an attack step's damage leaves: each unit's condition and the hits kept below DS
#: (option damage_memory; () without), with its chance
Damaged = dict[tuple[tuple[int, ...], tuple[int, ...]], Weight]


class SelectionTables:
    """Numbers for the tuples of selections of a battle's folds, and their combinations."""

    def __init__(self) -> None:
        #: each tuple's number, and the tuples by number
        self._numbers: dict[Selections, int] = {}
        self.tuples: list[Selections] = []
        #: the number of each one attacker's selection and of each way of trading alike
        #: targets (``Ec4xBattle._target_classes``, as a key)
        self._records: dict[Attack, int] = {}
        self._classes: dict[Hashable, int] = {}
        #: (classes, selections so far, one more) -> the selections combined, by numbers
        self._merged: dict[tuple[int, int, int], int] = {}
        #: selections -> their effective selections (``Ec4xBattle._effective``), by numbers
        self._effective: dict[int, int] = {}
        #: the most hits later attackers may add, by number; (classes, selections, that
        #: number) -> the selections within that reach (``Ec4xBattle._within_reach``)
        self._reaches: dict[Hashable, int] = {}
        self._within: dict[tuple[int, int, int], int] = {}
        #: the ends of a step's damage on the units of some houses (``damage_ends``; None: not
        #: followed) by the houses, those units' conditions and hits kept below DS, the
        #: selections' number and exact or not
        self.damage: dict[
            tuple[frozenset[int], tuple[int, ...], tuple[int, ...], int, bool], Damaged | None
        ] = {}
        #: a whole fold (``Ec4xBattle.folded``) by what it reads: where its damage leaves it,
        #: or its selections where the damage is left to the explorer
        self.folds: dict[Hashable, tuple[Landed | None, Profiles]] = {}

    def fresh(self) -> None:
        """Before a fold: the tables emptied if they grew over ``TABLE_LIMIT`` tuples (the
        numbers a fold holds are never forgotten while it runs)."""
        if (
            len(self.tuples) > TABLE_LIMIT
            or len(self._merged) > 4 * TABLE_LIMIT
            or len(self.damage) > TABLE_LIMIT
            or len(self.folds) > TABLE_LIMIT
        ):
            # (the numbers of one attacker's selections are kept: they are few, and the
            # attackers' selections remembered hold them)
            self._numbers.clear()
            self.tuples.clear()
            self._classes.clear()
            self._merged.clear()
            self._effective.clear()
            self._reaches.clear()
            self._within.clear()
            self.damage.clear()
            self.folds.clear()

    def number(self, selections: Selections) -> int:
        """The number of a tuple of selections (given at the first meeting)."""
        found = self._numbers.get(selections)
        if found is None:
            found = self._numbers[selections] = len(self.tuples)
            self.tuples.append(selections)
        return found

    def record(self, record: Attack | None) -> int:
        """The number of one attacker's selection (-1: none, nothing to combine)."""
        if record is None:
            return -1
        found = self._records.get(record)
        if found is None:
            found = self._records[record] = len(self._records)
        return found

    def classes(self, key: Hashable) -> int:
        """The number of a way of trading alike targets."""
        found = self._classes.get(key)
        if found is None:
            found = self._classes[key] = len(self._classes)
        return found

    def merged(
        self,
        classes: int,
        selections: int,
        number: int,
        record: Attack,
        combine: Callable[[Selections, Attack], Selections],
    ) -> int:
        """The number of the selections numbered ``selections`` and one attacker's
        selection ``record`` (numbered ``number``) combined by ``combine`` with the alike
        targets traded as ``classes`` says, remembered by numbers."""
        key = (classes, selections, number)
        found = self._merged.get(key)
        if found is None:
            combined = combine(self.tuples[selections], record)
            found = self._merged[key] = self.number(combined)
        return found

    def reach(self, most: Hashable) -> int:
        """The number of what later attackers may add to each target (as a key)."""
        found = self._reaches.get(most)
        if found is None:
            found = self._reaches[most] = len(self._reaches)
        return found

    def within_reach(
        self, classes: int, selections: int, reach: int, keep: Callable[[Selections], Selections]
    ) -> int:
        """The number of the selections numbered ``selections`` kept only as their damage will
        read them with what later attackers may add (numbered ``reach``), as ``keep`` keeps
        them (``Ec4xBattle._within_reach``, put in order)."""
        key = (classes, selections, reach)
        found = self._within.get(key)
        if found is None:
            found = self._within[key] = self.number(keep(self.tuples[selections]))
        return found

    def effective(self, selections: int, effective: Callable[[Selections], Selections]) -> int:
        """The number of the effective selections of those numbered ``selections``."""
        found = self._effective.get(selections)
        if found is None:
            found = self._effective[selections] = self.number(effective(self.tuples[selections]))
        return found


def damage_ends(
    procedures: Mapping[Stage, Callable[[Setup, State], Node[State]]],
    setup: Setup,
    state: State,
    exact: bool,
) -> tuple[Damaged, int] | None:
    """The ends of the damage of the attack step of ``state`` (its selections all made, 7.3.1),
    followed by the rules' own procedures (``procedures``: damage application and force
    reduction, 7.3.3, on the battle without its log, ``setup``): each unit's condition and the
    hits kept once it is done, as the next attack step begins, with its chance (force
    reduction's draws among squadrons of equal DS followed), and the steps taken. None where
    anything else of the state changes or something other than a draw or a step is met: the
    damage is then left to the explorer."""
    one: Weight = Fraction(1) if exact else 1.0
    after = state.step + 1
    frontier: dict[State, Weight] = {state: one}
    found: Damaged = {}
    steps = 0
    while frontier:
        current, p = frontier.popitem()
        if current.stage is Stage.ATTACK and current.step == after:
            # the damage done: the next step begins with no selections
            if current != state.at(
                Stage.ATTACK,
                cond=current.cond,
                damage=current.damage,
                step=after,
                attacks=(),
                cursor=(),
            ):
                return None
            key = (current.cond, current.damage)
            found[key] = found.get(key, 0) + p
            continue
        steps += 1
        node = procedures[current.stage](setup, current)
        if isinstance(node, Step):
            frontier[node.state] = frontier.get(node.state, 0) + p
        elif isinstance(node, Chance | Draw):
            for face, q in chances(node, exact).items():
                reached = following(node, face).state
                frontier[reached] = frontier.get(reached, 0) + p * q
        else:  # a decision or an end: not the damage of a step
            return None
    return found, steps
