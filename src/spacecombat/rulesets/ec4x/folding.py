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

from collections.abc import Callable, Hashable

from spacecombat.rulesets.ec4x.setup import MEMO_LIMIT
from spacecombat.rulesets.ec4x.state import Attack

#: tuples of selections the tables number before they are emptied (between two folds): about
#: 0.3-0.5 KB each with their entries, some 40-60 MB at most
TABLE_LIMIT = 2 * MEMO_LIMIT

Selections = tuple[Attack, ...]


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

    def fresh(self) -> None:
        """Before a fold: the tables emptied if they grew over ``TABLE_LIMIT`` tuples (the
        numbers a fold holds are never forgotten while it runs)."""
        if len(self.tuples) > TABLE_LIMIT or len(self._merged) > 4 * TABLE_LIMIT:
            self._numbers.clear()
            self.tuples.clear()
            self._records.clear()
            self._classes.clear()
            self._merged.clear()
            self._effective.clear()

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

    def effective(self, selections: int, effective: Callable[[Selections], Selections]) -> int:
        """The number of the effective selections of those numbered ``selections``."""
        found = self._effective.get(selections)
        if found is None:
            found = self._effective[selections] = self.number(effective(self.tuples[selections]))
        return found
