"""Dice pools: one description of a roll, two views of it.

A pool lists groups of dice (one group per unit type), each with the face it hits on after
modifiers. ``sample`` rolls the faces (for the resolver and its log); ``distribution`` gives
the exact distribution of the number of hits (for the exact odds engine). Both come from the
same description, so they agree by construction.

A pool may need more than its hits to say what happened (``tallied``): units lost to their own
rerolls (``DiceGroup.doom``) and trade goods spent on +1s (``DiceGroup.budget``). Its outcome
is then a ``Tally``: ``tally`` reads it from sampled faces, ``tally_distribution`` gives its
exact distribution.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field, fields, replace
from fractions import Fraction
from functools import cache
from math import comb
from operator import attrgetter
from typing import NamedTuple

from spacecombat.core.dice import SIDES, Dice

NEVER = SIDES + 1  # hit_on value of a die that cannot hit (modifiers pushed it past 10)


def hit_face(value: int, modifier: int) -> int:
    """The smallest face that hits: ``face + modifier >= value``, clamped to 1..11.

    ti4-space-combat.md step 3: a result equal to or greater than the combat value hits.
    There is no "a 10 always hits" rule in TI4 (docs/rulings.md), so a modifier can make a
    hit impossible (11) or certain (1).
    """
    return min(NEVER, max(1, value - modifier))


#: whether the ``HashedOnce`` values (``DiceGroup``, rulesets/ti4/hooks.py ``FollowUp``,
#: rulesets/ti4/state.py ``Aim``) keep their hash once computed (docs/architecture.md 24AK-1);
#: off: computed afresh at each call, as the generated one was (tests/odds/test_hashed_once.py)
HASH_ONCE = True


class HashedOnce:
    """A slot for a frozen dataclass's hash, computed once (its ``__hash__``): a tuple does not
    keep its hash, so a value inside the exact engine's states (a kept roll's groups) was
    hashed afresh at every lookup of the state. Not a field: ``fields``, ``asdict``,
    ``replace``, ``repr``, equality and pickling (a frozen slotted dataclass pickles its fields
    alone) do not see it. The hash is the generated one's value, read off the class's fields
    (``_hashed_fields``); a subclass says ``__hash__ = HashedOnce.__hash__`` in its body, or
    ``dataclass`` would put its own there."""

    __slots__ = ("_hash",)
    _hash: int

    def __hash__(self) -> int:
        try:
            return self._hash
        except AttributeError:
            cls = type(self)
            read = _READERS.get(cls) or _READERS.setdefault(cls, _hashed_fields(cls))
            known = hash(read(self))
            if HASH_ONCE:
                object.__setattr__(self, "_hash", known)
            return known


#: each ``HashedOnce`` class's ``_hashed_fields``, made at its first hash
_READERS: dict[type, Callable[[object], tuple[object, ...]]] = {}


def _hashed_fields(cls: type) -> Callable[[object], tuple[object, ...]]:
    """The fields the hash ``dataclass`` generates for ``cls`` reads (those whose ``hash`` is
    true, or ``None`` and compared), in their order, read as one tuple."""
    names = [f.name for f in fields(cls) if (f.compare if f.hash is None else f.hash)]
    read = attrgetter(*names)
    return read if len(names) > 1 else lambda value: (read(value),)


@dataclass(frozen=True, slots=True)
class DiceGroup(HashedOnce):
    """``dice`` dice rolled together for units of one type, with printed ``value``."""

    unit: str
    dice: int
    value: int
    modifier: int = 0
    #: a natural (unmodified) face at or above this is also counted as a mark (TI3 Shock
    #: Troops: a natural 10); ``None``: the group counts hits only
    mark_on: int | None = None
    #: a natural face at or above this produces ``extra_hits`` more hits, whether or not the die
    #: hits (TI4 Jol-Nar flagship: a natural 9 or 10 produces 2 additional hits)
    extra_on: int | None = None
    extra_hits: int = 0
    #: each die that produced no hit is rolled once more, with this added to the group's
    #: modifier (the stock "reroll every miss" of Munitions Reserves, Fire Team: 0);
    #: ``None``: no reroll. The reroll's face replaces the die's first face.
    reroll: int | None = None
    #: rerolls made before ``reroll`` by other effects, in order, each with its modifier: each
    #: rolls again the dice that still produced no hit (a die may be rerolled by several
    #: effects, once by each: docs/rulings.md 14RR-1); ``reroll`` is the last of them, the one
    #: ``doom`` reads (the roller makes the rerolls that risk nothing first: 14RR-2)
    before: tuple[int, ...] = field(default=(), hash=False)
    #: this group is the reroll of another group's misses (as ``sample`` logs it)
    rerolled: bool = False
    #: > 0: the group's dice belong to units of ``doom`` dice each, its misses are rerolled
    #: (``reroll``), and a unit that rerolled is destroyed if it then produced no hit at all
    #: (TI4 Crown of Thalnos relic) or, with ``doom_strict``, no hit with its rerolls (the base
    #: game law); the roll's ``Tally`` counts the units lost
    doom: int = 0
    doom_strict: bool = False
    #: trade goods the roller may spend on this roll, 1 for +1 on one die (TI4 Hacan flagship),
    #: turning misses into hits cheapest first; shared by the pool (every group of it carries
    #: the same value); the roll's ``Tally`` counts what was spent
    budget: int = 0
    #: the effect behind ``budget``, else ``doom`` (its handler's id: events name it)
    effect: str = ""
    #: every hit of the group is also counted as a mark (TI4 L1Z1X flagship: those hits must
    #: go to non-fighter ships), for dice whose natural faces cannot say it (rerolled with a
    #: bonus, extra hits: docs/rulings.md 14RR-10); plain dice use ``mark_on = hit_on``
    aimed: bool = field(default=False, hash=False)
    #: ``False``: the dice are rolled again by another player's effect and that result is
    #: final (Scramble Frequency): the roller's own rerolls are not made (``with_reroll``
    #: keeps the group as it is; docs/rulings.md 14RR-9)
    rerollable: bool = field(default=True, hash=False)
    #: with ``reroll``: only a die that produced no hit and whose natural face is at most this
    #: is rolled again (TI3 Spec Ops Training: a 1; docs/rulings.md 27T-11); ``None``: every die
    #: that produced no hit. One reroll, by one effect (no ``before``, ``doom`` or ``budget``)
    reroll_at_most: int | None = None

    # the generated hash's value (of the fields hashed: those compared but ``before``,
    # ``aimed`` and ``rerollable``, in their order), kept once computed (24AK-1)
    __hash__ = HashedOnce.__hash__

    def __post_init__(self) -> None:
        # a plain group is built at every state of the exact engine: checked first, at once
        # (the fields for rerolls and aimed hits are compared, not hashed, for the same reason)
        if self.reroll is None:
            if not (self.before or self.doom or self.aimed or self.budget) and (
                self.reroll_at_most is None
            ):
                return  # a plain group: nothing to check
            if self.before:
                raise ValueError("a group with rerolls before its last one has a last one")
            if self.reroll_at_most is not None:
                raise ValueError("a group that rerolls its low faces has a reroll")
        elif self.reroll_at_most is not None and (self.before or self.doom or self.budget):
            raise ValueError("a group that rerolls its low faces rerolls them once, by one effect")
        elif self.mark_on is not None and not self._marks_kept():
            first = hit_face(self.value, self.modifier)
            if any(self.mark_on < hit_face(self.value, self.modifier + m) for m in self.stages) or (
                self.mark_on < first
            ):
                # a marked face that missed would be rerolled away: which to keep is a choice
                raise ValueError("a rerolled group that counts marks marks hits only")
        if self.doom and (self.reroll is None or self.dice % self.doom):
            raise ValueError("a doomed group rerolls its misses, in whole units")
        if self.aimed and self.mark_on is not None:
            raise ValueError("a group counts its hits or its natural faces as marks, not both")
        if self.budget and (
            self.extra_hits
            or self.mark_on is not None
            or self.aimed
            or (self.doom > 1 and self.dice != self.doom)
        ):
            # (units of several dice the Crown may destroy: which misses to buy is a choice,
            # but for one unit: 14RR-11, docs/rulings.md 27V-2, 27V-3)
            raise ValueError("a group with trade goods to spend has plain dice, one to a unit")

    @property
    def need(self) -> int:
        """The result (face + modifier) a die needs to hit: a miss showing ``face`` needs
        ``need - face`` more."""
        return self.value - self.modifier

    @property
    def hit_on(self) -> int:
        """The smallest face that hits."""
        return hit_face(self.value, self.modifier)

    @property
    def hit_chance(self) -> Fraction:
        """The chance that one die of this group hits."""
        return Fraction(SIDES + 1 - self.hit_on, SIDES)

    @property
    def plain(self) -> bool:
        """Whether one die is a plain hit or miss (no extra hits, no reroll, no trade goods to
        spend on it)."""
        return self.extra_hits == 0 and self.reroll is None and self.budget == 0

    @property
    def stages(self) -> tuple[int, ...]:
        """The modifiers of the group's rerolls, in the order they are made (``before``, then
        ``reroll``); empty when its dice are not rerolled."""
        if self.reroll is None:
            return ()
        return (*self.before, self.reroll)

    def _marks_kept(self) -> bool:
        """Whether no marked face is ever rerolled away because only faces below ``mark_on``
        are rerolled (``reroll_at_most``)."""
        return (
            self.mark_on is not None
            and self.reroll_at_most is not None
            and self.mark_on > self.reroll_at_most
        )

    def again(self, face: int) -> bool:
        """Whether a die of this group showing ``face`` that produced no hit is rolled again
        by its reroll (every such die, or one whose natural face is at most
        ``reroll_at_most``)."""
        return self.reroll_at_most is None or face <= self.reroll_at_most

    def with_reroll(self, modifier: int) -> DiceGroup:
        """The group whose misses one more effect rerolls (with ``modifier``): after the rerolls
        it has, but before a reroll that may destroy units (``doom``: 14RR-2). A group whose
        result is final (``rerollable`` false) is kept as it is."""
        if not self.rerollable:
            return self
        if self.reroll_at_most is not None:
            raise ValueError("a group that rerolls its low faces takes no other reroll")
        if self.reroll is None:
            return replace(self, reroll=modifier)
        if self.doom:
            return replace(self, before=(*self.before, modifier))
        return replace(self, before=self.stages, reroll=modifier)

    def dooming(self, modifier: int, per_unit: int, strict: bool, effect: str) -> DiceGroup:
        """The group whose misses left after its other rerolls are rerolled last (with
        ``modifier``), each unit of ``per_unit`` dice whose reroll failed being lost
        (``doom``, ``doom_strict``)."""
        if self.doom:
            raise ValueError("a group is doomed by one effect")
        return replace(
            self,
            before=self.stages,
            reroll=modifier,
            doom=per_unit,
            doom_strict=strict,
            effect=self.effect if self.budget else effect,  # trade goods keep their name
        )

    def face_hits(self, face: int) -> int:
        """The hits one die showing ``face`` produces (extra hits included)."""
        hits = int(face >= self.hit_on)
        if self.extra_on is not None and face >= self.extra_on:
            hits += self.extra_hits
        return hits

    def rerolling(self, misses: int, stage: int = -1) -> DiceGroup:
        """The group of ``misses`` dice rolled again by the reroll ``stage`` (an index of
        ``stages``; the last by default): its faces replace theirs."""
        return DiceGroup(
            self.unit,
            misses,
            self.value,
            self.modifier + self.stages[stage],
            mark_on=self.mark_on,
            extra_on=self.extra_on,
            extra_hits=self.extra_hits,
            rerolled=True,
            aimed=self.aimed,
        )

    def roll(self, dice: Dice) -> tuple[RolledGroup, ...]:
        """Roll the group (one ``dice.roll`` call), then, reroll by reroll, the dice that still
        produced no hit (one more call each, logged as a group of its own, while some die
        missed; with ``reroll_at_most``, only those whose natural face is at most that)."""
        rolled = [RolledGroup(self, dice.roll(self.dice))]
        for stage in range(len(self.stages)):
            last = rolled[-1]
            group = last.group
            misses = sum(1 for f in last.faces if not group.face_hits(f) and group.again(f))
            if not misses:
                break
            rolled.append(RolledGroup(self.rerolling(misses, stage), dice.roll(misses)))
        return tuple(rolled)


@dataclass(frozen=True, slots=True)
class RolledGroup:
    """A group's faces, as rolled."""

    group: DiceGroup
    faces: tuple[int, ...]

    @property
    def hits(self) -> int:
        """Hits of the faces; a die that is rerolled produces none (its reroll counts)."""
        group = self.group
        if group.plain:
            return sum(1 for face in self.faces if face >= group.hit_on)
        return sum(group.face_hits(face) for face in self.faces)

    @property
    def marks(self) -> int:
        """Faces at or above the group's ``mark_on`` (natural faces: modifiers do not count),
        or its hits when they are all marks (``aimed``)."""
        if self.group.aimed:
            return self.hits
        mark_on = self.group.mark_on
        return 0 if mark_on is None else sum(1 for face in self.faces if face >= mark_on)


@dataclass(frozen=True, slots=True)
class DicePool:
    """The dice a player rolls in one roll, grouped by unit type."""

    groups: tuple[DiceGroup, ...]
    #: the roll's ``Tally`` also tells each group's hits (``Tally.by_group``): a pool with
    #: trade goods to spend whose misses left are rerolled group by group (War Funding Ω)
    by_group: bool = False
    #: how many dice the pool rolls
    dice: int = field(init=False, repr=False, compare=False)
    #: the most hits the pool can produce
    max_hits: int = field(init=False, repr=False, compare=False)
    #: trade goods the roller may spend on the roll (``DiceGroup.budget``)
    budget: int = field(init=False, repr=False, compare=False)
    #: whether the roll's outcome is a ``Tally`` (units lost, trade goods spent)
    tallied: bool = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        # read at every state of the exact engine: counted once
        object.__setattr__(self, "dice", sum(group.dice for group in self.groups))
        budgets = {group.budget for group in self.groups}
        if len(budgets) > 1:
            raise ValueError("the groups of a pool carry the same trade goods to spend")
        budget = budgets.pop() if budgets else 0
        if budget and not all(group.budget for group in self.groups):
            raise ValueError("the groups of a pool carry the same trade goods to spend")
        object.__setattr__(self, "budget", budget)
        if self.by_group and not budget:
            raise ValueError("a pool tells each group's hits in its tally when it spends")
        object.__setattr__(
            self, "tallied", bool(budget) or any(group.doom for group in self.groups)
        )
        hitting = sum(group.dice * _most_hits(group) for group in self.groups)
        object.__setattr__(self, "max_hits", hitting)

    @classmethod
    def of(cls, groups: list[DiceGroup]) -> DicePool:
        """A pool in rolling order: ascending printed value, then unit name.

        ti4-space-combat.md step 3.3: roll the dice of combat value 1 first, then 2, and so on.
        """
        kept = sorted((g for g in groups if g.dice > 0), key=lambda g: (g.value, g.unit))
        return cls(tuple(kept))

    def sample(self, dice: Dice) -> tuple[RolledGroup, ...]:
        """Roll every group in order, one ``dice.roll`` call per group, and right after a
        rerolling group one more for its misses (logged as a group of its own)."""
        return tuple(rolled for group in self.groups for rolled in group.roll(dice))

    @property
    def plain(self) -> bool:
        """Whether every group is plain (no extra hits, no rerolls)."""
        return all(group.plain for group in self.groups)

    def distribution(self) -> Mapping[int, Fraction]:
        """The exact distribution of the number of hits."""
        return _distribution(self.groups)

    def float_distribution(self) -> Mapping[int, float]:
        """The same distribution computed in floating point (fast; for the float engine)."""
        return _float_distribution(self.groups)

    @property
    def marks(self) -> bool:
        """Whether some group counts marks (natural faces at or above its ``mark_on``, or its
        hits: ``aimed``)."""
        return any(group.mark_on is not None or group.aimed for group in self.groups)

    def joint_distribution(self) -> Mapping[tuple[int, int], Fraction]:
        """The exact joint distribution of (hits, marks)."""
        return _joint(self.groups)

    def tally_distribution(self) -> Mapping[Tally, Fraction]:
        """The exact distribution of the roll's ``Tally`` (a ``tallied`` pool)."""
        if self.budget:
            return _bought(self.groups, self.budget, self.by_group)
        return _doomed(self.groups)

    def tally(self, rolled: tuple[RolledGroup, ...]) -> Tally:
        """The ``Tally`` of rolled faces (as ``sample`` rolled them)."""
        hits = total_hits(rolled)
        chains = _chains(self.groups, rolled)
        if self.budget:
            # the misses left after every reroll: those of each group's last rolled dice, bought
            # cost by cost (at equal cost those that save a unit first: 14RR-11)
            costs = [
                [
                    chain[-1].group.need - face
                    for face in chain[-1].faces
                    if face < chain[-1].group.hit_on
                ]
                for chain in chains
            ]
            misses = [len(c) for c in costs]
            risk = tuple(_at_risk(g, chain) for g, chain in zip(self.groups, chains, strict=True))
            left = self.budget
            for cost in sorted({c for group_costs in costs for c in group_costs}):
                found = [group_costs.count(cost) for group_costs in costs]
                bought = min(sum(found), left // cost)
                taken = _buy_order(self.groups, misses, found, bought, risk)
                misses = [m - t for m, t in zip(misses, taken, strict=True)]
                hits += bought
                left -= bought * cost
                if bought < sum(found):
                    break  # the trade goods ran out: nothing dearer can be bought
            lost = _lost_unbought(self.groups, misses, risk)
            by_group = _hits_by_group(self.groups, misses) if self.by_group else ()
            return Tally(hits, self.budget - left, lost, 0, by_group)
        lost = tuple(
            _units_lost(group, chain) if group.doom else 0
            for group, chain in zip(self.groups, chains, strict=True)
        )
        return Tally(hits, 0, lost, total_marks(rolled))


class Tally(NamedTuple):
    """What a ``tallied`` roll produced: its hits, the trade goods spent on it, the units lost
    in each of its groups (in the pool's order), and its marks (a pool that counts them)."""

    hits: int
    spent: int
    lost: tuple[int, ...]
    marks: int = 0
    #: each group's hits, trade goods' included (a pool ``by_group``); else empty
    by_group: tuple[int, ...] = ()


def _chains(
    groups: tuple[DiceGroup, ...], rolled: tuple[RolledGroup, ...]
) -> list[tuple[RolledGroup, ...]]:
    """The rolled groups of each of ``groups`` (as ``sample`` rolls them): its first roll,
    then its rerolls (the ``rerolled`` groups right after it)."""
    chains: list[tuple[RolledGroup, ...]] = []
    at = 0
    for _ in groups:
        end = at + 1
        while end < len(rolled) and rolled[end].group.rerolled:
            end += 1
        chains.append(rolled[at:end])
        at = end
    return chains


def _die_paths(group: DiceGroup, faces: list[Iterator[int]]) -> Iterator[tuple[int, int, int]]:
    """Each die of ``group`` followed through its rerolls, ``faces`` giving the faces of its
    first roll and of each reroll in order: (hits, whether the last reroll rolled it, the hits
    of that reroll)."""
    stages = group.stages
    for face in faces[0]:
        produced = group.face_hits(face)
        stage = 0
        while not produced and stage < len(stages):
            produced = group.rerolling(1, stage).face_hits(next(faces[stage + 1]))
            stage += 1
        last = int(bool(stages) and stage == len(stages))
        yield produced, last, produced if last else 0


def _units_lost(group: DiceGroup, chain: tuple[RolledGroup, ...]) -> int:
    """Units of a doomed group lost: its dice in order, ``doom`` to a unit, each miss replaced
    by the next face of the reroll that follows."""
    faces = [iter(r.faces) for r in chain]
    faces += [iter(())] * (len(group.stages) + 1 - len(faces))
    paths = list(_die_paths(group, faces))
    lost = 0
    for start in range(0, len(paths), group.doom):
        unit = paths[start : start + group.doom]
        rerolled = any(last for _, last, _ in unit)
        produced = sum(last_hits if group.doom_strict else hits for hits, _, last_hits in unit)
        if rerolled and not produced:
            lost += 1
    return lost


@cache
def _die_classes(group: DiceGroup) -> dict[tuple[int, int, int, int], int]:
    """One die of ``group``: how many of its ``SIDES ** _rolls(group)`` equally likely faces
    (its first roll's, then its rerolls') give each (hits, whether the last reroll rolled it,
    that reroll's hits, mark); a die that produced no hit is rerolled while a reroll is left
    (with ``reroll_at_most``, only one whose natural face is at most that), and the last face
    counts (its hits and its mark)."""
    stages = group.stages
    mark_on = group.mark_on if group.mark_on is not None else NEVER
    classes: dict[tuple[int, int, int, int], int] = {}

    def follow(stage: int, ways: int) -> None:
        rolling = group if stage == 0 else group.rerolling(1, stage - 1)
        for face in range(1, SIDES + 1):
            produced = rolling.face_hits(face)
            if produced or stage == len(stages) or not rolling.again(face):
                last = int(bool(stages) and stage == len(stages))
                mark = produced if group.aimed else int(face >= mark_on)
                key = (produced, last, produced if last else 0, mark)
                classes[key] = classes.get(key, 0) + ways
            else:
                follow(stage + 1, ways // SIDES)

    follow(0, SIDES ** len(stages))
    return classes


@cache
def _unit_classes(group: DiceGroup) -> tuple[tuple[tuple[int, int, int], int], ...]:
    """One unit of a doomed group: how many of its ``SIDES ** (_rolls(group) * doom)``
    equally likely rolls (its dice's faces and rerolls' faces) give each (hits, marks, lost)."""
    die: dict[tuple[int, int, int, int], int] = {}
    for key, ways in _die_classes(group).items():
        die[key] = die.get(key, 0) + ways
    unit: dict[tuple[int, int, int, int], int] = {(0, 0, 0, 0): 1}
    for _ in range(group.doom):
        merged: dict[tuple[int, int, int, int], int] = {}
        for (hits, rerolled, reroll_hits, marks), ways in unit.items():
            for (h, r, rh, m), more in die.items():
                key = (hits + h, rerolled | r, reroll_hits + rh, marks + m)
                merged[key] = merged.get(key, 0) + ways * more
        unit = merged
    classes: dict[tuple[int, int, int], int] = {}
    for (hits, rerolled, reroll_hits, marks), ways in unit.items():
        lost = int(bool(rerolled) and not (reroll_hits if group.doom_strict else hits))
        classes[(hits, marks, lost)] = classes.get((hits, marks, lost), 0) + ways
    return tuple(sorted(classes.items()))


@cache
def _doomed(groups: tuple[DiceGroup, ...]) -> Mapping[Tally, Fraction]:
    """The exact distribution of (hits, units lost per group, marks) of a pool without trade
    goods."""
    result: dict[tuple[int, int, tuple[int, ...]], Fraction] = {(0, 0, ()): Fraction(1)}
    for group in groups:
        step: dict[tuple[int, int, int], Fraction]
        if group.doom:
            units = group.dice // group.doom
            # (hits, marks) as one number for ``_spread``: marks never reach ``base``
            base = group.dice * _most_hits(group) + 1
            encoded = tuple(
                ((hits * base + marks, lost), ways)
                for (hits, marks, lost), ways in _unit_classes(group)
            )
            counts = _spread(encoded, units)
            total = SIDES ** (_rolls(group) * group.dice)
            step = {
                (value // base, value % base, gone): Fraction(ways, total)
                for (value, gone), ways in counts.items()
            }
        elif group.mark_on is not None or group.aimed:
            step = {(h, m, 0): chance for (h, m), chance in _joint((group,)).items()}
        else:
            step = {(h, 0, 0): chance for h, chance in enumerate(_hits_of(group)) if chance}
        merged: dict[tuple[int, int, tuple[int, ...]], Fraction] = {}
        for (hits, marks, lost), weight in result.items():
            for (more, more_marks, gone), chance in step.items():
                key = (hits + more, marks + more_marks, (*lost, gone))
                merged[key] = merged.get(key, Fraction(0)) + weight * chance
        result = merged
    return {Tally(hits, 0, lost, marks): chance for (hits, marks, lost), chance in result.items()}


@cache
def _bought(
    groups: tuple[DiceGroup, ...], budget: int, by_group: bool = False
) -> Mapping[Tally, Fraction]:
    """The exact distribution of (hits, trade goods spent, units lost) of groups whose roller
    spends up to ``budget`` trade goods, 1 for +1 on one die, on the misses left after their
    rerolls that need the least first, and at equal cost those of units the Crown of Thalnos
    would destroy (``doom``: units of one die; docs/rulings.md 14RR-11).

    First the hits of each group (binomial: a die misses at last only if each of its rolls
    missed); then, cost by cost from 1 up, how many of each group's misses need exactly that
    much (a miss left is equally likely any of the faces its last roll may miss with); they are
    bought while the trade goods last, and once some cannot be, no dearer one can either. The
    misses of a doomed group not bought are its units lost. A unit of several dice the law
    destroys (``_law_unit``) is followed through the dice the Crown rerolled and their misses:
    it is at risk when all of them missed (``risk``: its misses then, else -1), and lost when
    none of those misses is bought (docs/rulings.md 27V-3). ``by_group``: the tally also tells
    each group's hits (``Tally.by_group``)."""
    count = len(groups)
    # the roll a miss left comes from: the last reroll when there is one
    last = tuple(g.rerolling(1) if g.stages else g for g in groups)
    result: dict[Tally, Fraction] = {}

    def add(
        hits: int, spent: int, unbought: Sequence[int], chance: Fraction, risk: Sequence[int]
    ) -> None:
        by = _hits_by_group(groups, unbought) if by_group else ()
        key = Tally(hits, spent, _lost_unbought(groups, unbought, risk), 0, by)
        result[key] = result.get(key, Fraction(0)) + chance

    def faces_left(at: int, cost: int) -> int:
        # the miss faces needing ``cost`` or more: 1 .. need - cost (at most 10)
        return max(0, min(SIDES, last[at].need - cost, last[at].hit_on - 1))

    def level(
        cost: int,
        left: int,
        misses: tuple[int, ...],
        hits: int,
        chance: Fraction,
        risk: tuple[int, ...],
    ) -> None:
        if cost > left or not any(misses):
            add(hits, budget - left, misses, chance, risk)
            return
        spread(cost, left, misses, hits, chance, risk, 0, (), ())

    def spread(
        cost: int,
        left: int,
        misses: tuple[int, ...],
        hits: int,
        chance: Fraction,
        risk: tuple[int, ...],
        at: int,
        still: tuple[int, ...],
        found: tuple[int, ...],
    ) -> None:
        if at == count:
            total = sum(found)
            bought = min(total, left // cost)
            if bought < total:
                # the trade goods ran out at this cost: nothing dearer can be bought; those
                # that save a unit are bought first
                taken = _buy_order(groups, misses, found, bought, risk)
                left_over = [m - t for m, t in zip(misses, taken, strict=True)]
                add(hits + bought, budget - left + bought * cost, left_over, chance, risk)
                return
            level(cost + 1, left - bought * cost, still, hits + bought, chance, risk)
            return
        dice = misses[at]
        faces = faces_left(at, cost)
        face = last[at].need - cost
        if not dice or faces == 0 or not 1 <= face < last[at].hit_on:
            spread(cost, left, misses, hits, chance, risk, at + 1, (*still, dice), (*found, 0))
            return
        for k, p in enumerate(_binomial(dice, Fraction(1, faces))):
            if p:
                spread(
                    cost,
                    left,
                    misses,
                    hits,
                    chance * p,
                    risk,
                    at + 1,
                    (*still, dice - k),
                    (*found, k),
                )

    def natural(
        at: int, hits: int, misses: tuple[int, ...], chance: Fraction, risk: tuple[int, ...]
    ) -> None:
        if at == count:
            level(1, budget, misses, hits, chance, risk)
            return
        group = groups[at]
        if _law_unit(group):
            # the dice the Crown rerolls (those that missed through the rerolls before it),
            # then its reroll's misses: the unit is at risk when every rerolled die missed
            missed = 1 - group.hit_chance
            for stage in range(len(group.stages) - 1):
                missed *= 1 - group.rerolling(1, stage).hit_chance
            again = 1 - group.rerolling(1).hit_chance
            for rerolled, p in enumerate(_binomial(group.dice, missed)):
                for left, q in enumerate(_binomial(rerolled, again)):
                    if p and q:
                        natural(
                            at + 1,
                            hits + group.dice - left,
                            (*misses, left),
                            chance * p * q,
                            (*risk, left if rerolled and left == rerolled else -1),
                        )
            return
        missed = 1 - group.hit_chance
        for stage in range(len(group.stages)):
            missed *= 1 - group.rerolling(1, stage).hit_chance
        for k, p in enumerate(_binomial(group.dice, 1 - missed)):
            if p:
                natural(at + 1, hits + k, (*misses, group.dice - k), chance * p, (*risk, -1))

    natural(0, 0, (), Fraction(1), ())
    return result


def _law_unit(group: DiceGroup) -> bool:
    """Whether ``group`` is one unit of several dice lost when its rerolled dice produced no
    hit (the Crown of Thalnos, law), with trade goods to spend (docs/rulings.md 27V-3)."""
    return group.doom > 1 and group.doom_strict


def _at_risk(group: DiceGroup, chain: tuple[RolledGroup, ...]) -> int:
    """For ``_law_unit`` ``group`` rolled as ``chain``: its misses left when the law would
    destroy it (every die the Crown rerolled, the last of its rerolls, missed), else -1."""
    if not _law_unit(group) or len(chain) < 1 + len(group.stages):
        return -1  # (the Crown's reroll was not made: no die missed before it)
    crowned = chain[-1]
    left = sum(1 for face in crowned.faces if not crowned.group.face_hits(face))
    return left if left == len(crowned.faces) else -1


def _buy_order(
    groups: tuple[DiceGroup, ...],
    misses: Sequence[int],
    found: Sequence[int],
    bought: int,
    risk: Sequence[int],
) -> list[int]:
    """How many of each group's misses at one cost (``found``) are bought, ``bought`` in all,
    ``misses`` being each group's misses not bought yet: first those that save a unit the Crown
    of Thalnos would destroy (every miss of a group of one-die units; one miss of a one-unit
    group none of whose dice hit, or with the law none of whose rerolled dice hit: its misses
    are still ``risk``), then the others, in the pool's order (14RR-11; docs/rulings.md
    27V-3)."""
    taken = [0] * len(groups)
    give = bought
    for at, group in enumerate(groups):
        if group.doom == 1:
            saving = found[at]
        elif _law_unit(group):
            saving = min(1, found[at]) if misses[at] == risk[at] else 0
        elif group.doom and misses[at] == group.dice:
            saving = min(1, found[at])
        else:
            continue
        took = min(give, saving)
        taken[at] += took
        give -= took
    for at in range(len(groups)):
        took = min(give, found[at] - taken[at])
        taken[at] += took
        give -= took
    return taken


def _hits_by_group(groups: tuple[DiceGroup, ...], unbought: Sequence[int]) -> tuple[int, ...]:
    """Each group's hits when ``unbought`` of its misses are left (its dice, plain ones, each
    hit or missed: ``DiceGroup`` with trade goods to spend)."""
    return tuple(group.dice - left for group, left in zip(groups, unbought, strict=True))


def _lost_unbought(
    groups: tuple[DiceGroup, ...], unbought: Sequence[int], risk: Sequence[int]
) -> tuple[int, ...]:
    """The units each group loses to the Crown of Thalnos when ``unbought`` of its misses are
    left: each one of one-die units; a unit of several dice none of whose dice hit, or with the
    law none of whose rerolled dice hit (its misses still ``risk``: none bought)."""
    return tuple(
        unbought[at]
        if group.doom == 1
        else int(unbought[at] == risk[at])
        if _law_unit(group)
        else int(bool(group.doom) and unbought[at] == group.dice)
        for at, group in enumerate(groups)
    )


def _most_hits(group: DiceGroup) -> int:
    """The most hits one die of ``group`` can produce (its reroll, trade goods included)."""
    if group.budget:
        needs = [group.need] + [group.rerolling(1, s).need for s in range(len(group.stages))]
        return int(min(needs) - SIDES <= group.budget)
    if group.plain:
        return int(group.hit_on <= SIDES)
    most = group.face_hits(SIDES)
    for stage in range(len(group.stages)):
        most = max(most, group.rerolling(1, stage).face_hits(SIDES))
    return most


def _rolls(group: DiceGroup) -> int:
    """How many d10s one die of ``group`` may take: 1, and 1 more for each of its rerolls."""
    return 1 + len(group.stages)


def _die_faces(group: DiceGroup) -> dict[tuple[int, int], int]:
    """One die of ``group``: how many of its ``SIDES ** _rolls(group)`` equally likely faces
    (its roll's, then its rerolls') give each (hits, mark) pair; a die that produced no hit is
    rerolled (``DiceGroup.roll``), and its reroll's face replaces its face."""
    faces: dict[tuple[int, int], int] = {}
    for (hits, _, _, mark), ways in _die_classes(group).items():
        faces[(hits, mark)] = faces.get((hits, mark), 0) + ways
    return faces


def _group_faces(group: DiceGroup) -> dict[tuple[int, int], int]:
    """All the dice of ``group``: for each (hits, marks), how many of the
    ``SIDES ** (_rolls(group) * dice)`` equally likely rolls give it. The multinomial sum over
    how many dice land in each (hits, mark) class (a few classes, usually three): about
    dice² / 2 terms, where adding the dice one at a time would take about dice³ / 2 steps."""
    return _spread(tuple(_die_faces(group).items()), group.dice)


@cache
def _spread(
    classes: tuple[tuple[tuple[int, int], int], ...], dice: int
) -> dict[tuple[int, int], int]:
    """``dice`` dice whose classes (hits, mark) have the given weights: the weight of each
    total (hits, marks)."""
    counts: dict[tuple[int, int], int] = {}

    def spread(at: int, left: int, hits: int, marks: int, ways: int) -> None:
        (hit, mark), faces = classes[at]
        if at == len(classes) - 1:
            key = (hits + hit * left, marks + mark * left)
            counts[key] = counts.get(key, 0) + ways * faces**left
            return
        for k in range(left + 1):
            spread(
                at + 1,
                left - k,
                hits + hit * k,
                marks + mark * k,
                ways * comb(left, k) * faces**k,
            )

    spread(0, dice, 0, 0, 1)
    return counts


@cache
def _joint(groups: tuple[DiceGroup, ...]) -> Mapping[tuple[int, int], Fraction]:
    """Counts of equally likely rolls by (hits, marks), group by group, in whole numbers; one
    division at the end."""
    result: dict[tuple[int, int], int] = {(0, 0): 1}
    dice = 0
    for group in groups:
        merged: dict[tuple[int, int], int] = {}
        faces = _group_faces(group)
        for (hits, marks), ways in result.items():
            for (more_hits, more_marks), more in faces.items():
                key = (hits + more_hits, marks + more_marks)
                merged[key] = merged.get(key, 0) + ways * more
        result = merged
        dice += _rolls(group) * group.dice
    total = SIDES**dice
    return {key: Fraction(ways, total) for key, ways in result.items()}


def total_hits(rolled: tuple[RolledGroup, ...]) -> int:
    """Hits produced by a rolled pool."""
    return sum(group.hits for group in rolled)


def total_marks(rolled: tuple[RolledGroup, ...]) -> int:
    """Marks (natural faces at or above ``mark_on``) in a rolled pool."""
    return sum(group.marks for group in rolled)


@cache
def _binomial(dice: int, chance: Fraction) -> tuple[Fraction, ...]:
    miss = 1 - chance
    return tuple(comb(dice, k) * chance**k * miss ** (dice - k) for k in range(dice + 1))


def _hits_of(group: DiceGroup) -> tuple[Fraction, ...]:
    """The exact distribution of a group's hits (by number of hits)."""
    if group.plain:
        return _binomial(group.dice, group.hit_chance)
    counts = _group_faces(group)
    top = max(hits for hits, _ in counts)
    step = [0] * (top + 1)
    for (hits, _), ways in counts.items():
        step[hits] += ways
    total = SIDES ** (_rolls(group) * group.dice)
    return tuple(Fraction(ways, total) for ways in step)


@cache
def _distribution(groups: tuple[DiceGroup, ...]) -> Mapping[int, Fraction]:
    result: dict[int, Fraction] = {0: Fraction(1)}
    for group in groups:
        step = _hits_of(group)
        merged: dict[int, Fraction] = {}
        for hits, weight in result.items():
            for extra, chance in enumerate(step):
                if chance:
                    merged[hits + extra] = merged.get(hits + extra, Fraction(0)) + weight * chance
        result = merged
    return result


@cache
def _float_distribution(groups: tuple[DiceGroup, ...]) -> Mapping[int, float]:
    result = [1.0]
    for group in groups:
        if group.plain:
            p = float(group.hit_chance)
            step = [
                comb(group.dice, k) * p**k * (1 - p) ** (group.dice - k)
                for k in range(group.dice + 1)
            ]
        else:
            step = [float(chance) for chance in _hits_of(group)]
        merged = [0.0] * (len(result) + len(step) - 1)
        for hits, weight in enumerate(result):
            for extra, chance in enumerate(step):
                merged[hits + extra] += weight * chance
        result = merged
    return {hits: weight for hits, weight in enumerate(result) if weight > 0.0}
