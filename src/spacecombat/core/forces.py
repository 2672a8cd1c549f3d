"""Forces: a small frozen multiset of units, the building block of battle states.

A side has at most one unit card per unit type (an upgrade or a faction unit replaces the
generic one), so a unit is named by its type and its damage status. States are keys of the
exact odds engine, so ``Forces`` is hashable and cheap to compare.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from enum import IntEnum


class Status(IntEnum):
    """How a unit stands with respect to SUSTAIN DAMAGE."""

    UNDAMAGED = 0
    DAMAGED = 1
    #: damaged by SUSTAIN DAMAGE during the current combat round (Duranium Armor cannot repair it)
    SUSTAINED_THIS_ROUND = 2

    @property
    def label(self) -> str:
        return _STATUS_LABELS[self]


_DAMAGED, _SUSTAINED = Status.DAMAGED, Status.SUSTAINED_THIS_ROUND

#: each status by its value (``STATUSES[1]`` is ``Status.DAMAGED``), without the enum's call
STATUSES = tuple(Status)

_STATUS_LABELS = {
    Status.UNDAMAGED: "",
    Status.DAMAGED: "damaged",
    Status.SUSTAINED_THIS_ROUND: "sustained this round",
}

Key = tuple[str, Status]


def describe(unit: str, status: Status) -> str:
    """``dreadnought`` or ``dreadnought (damaged)``."""
    return f"{unit} ({status.label})" if status else unit


Item = tuple[str, Status, int]


class Forces(tuple[Item, ...]):
    """Units by (type, status), with counts; immutable and hashable.

    The value is the tuple of its (type, status, count) triples, merged, sorted and with
    positive counts, so a state made of ``Forces`` hashes as fast as a plain tuple (in C, with
    no call back into Python): the exact engine hashes states by the hundred thousand. It is
    never equal to a plain tuple, only to the same ``Forces``."""

    __slots__ = ()

    def __new__(cls, items: Iterable[Item] = ()) -> Forces:
        merged: dict[Key, int] = {}
        for unit, status, count in items:
            if count < 0:
                raise ValueError(f"negative count {count} of {unit}")
            if count:
                key = (unit, Status(status))
                merged[key] = merged.get(key, 0) + count
        return tuple.__new__(
            cls, [(unit, status, count) for (unit, status), count in sorted(merged.items())]
        )

    @classmethod
    def of(cls, counts: Mapping[str, int], damaged: Mapping[str, int] | None = None) -> Forces:
        """Forces from undamaged counts, some of which start damaged."""
        damaged = damaged or {}
        items: list[Item] = []
        for unit, count in counts.items():
            hurt = damaged.get(unit, 0)
            items.append((unit, Status.UNDAMAGED, count - hurt))
            items.append((unit, Status.DAMAGED, hurt))
        return cls(items)

    @property
    def items(self) -> tuple[Item, ...]:
        """(type, status, count) triples in a fixed order."""
        return tuple(self)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Forces) and tuple.__eq__(self, other)

    def __ne__(self, other: object) -> bool:
        return not self == other

    # Equal forces are equal tuples: the tuple's hash (computed in C) serves.
    __hash__ = tuple.__hash__

    def __repr__(self) -> str:
        return f"Forces({list(self)!r})"

    def __str__(self) -> str:
        return (
            ", ".join(f"{count} {describe(unit, status)}" for unit, status, count in self) or "none"
        )

    def count(self, unit: str | None = None, status: Status | None = None) -> int:
        """How many units (of a type, of a status)."""
        total = 0
        for u, s, n in self:
            if (unit is None or u == unit) and (status is None or s == status):
                total += n
        return total

    def total(self, where: Callable[[str], bool] | None = None) -> int:
        """How many units whose type passes ``where``."""
        total = 0
        for u, _, n in self:
            if where is None or where(u):
                total += n
        return total

    def types(self) -> tuple[str, ...]:
        """The unit types present, in a fixed order."""
        return tuple(dict.fromkeys(u for u, _, _ in self))

    def by_type(self) -> dict[str, int]:
        """Counts by type, all statuses together."""
        counts: dict[str, int] = {}
        for unit, _, count in self:
            counts[unit] = counts.get(unit, 0) + count
        return counts

    def add(self, unit: str, status: Status = Status.UNDAMAGED, count: int = 1) -> Forces:
        if count <= 0:
            return self if count == 0 else Forces((*self, (unit, status, count)))
        key = (unit, status)
        for index, (u, s, n) in enumerate(self):
            if u == unit and s == status:
                return _sorted((*self[:index], (u, s, n + count), *self[index + 1 :]))
            if (u, s) > key:
                return _sorted((*self[:index], (unit, status, count), *self[index:]))
        return _sorted((*self, (unit, status, count)))

    def remove(self, unit: str, status: Status, count: int = 1) -> Forces:
        """Take ``count`` units of a type and status away; there must be that many."""
        if count < 0:
            raise ValueError(
                f"cannot remove a negative count ({count}) of {describe(unit, status)}"
            )
        if count == 0:
            return self
        for index, (u, s, n) in enumerate(self):
            if u == unit and s == status:
                if n < count:
                    break
                if n == count:
                    return _sorted((*self[:index], *self[index + 1 :]))
                return _sorted((*self[:index], (u, s, n - count), *self[index + 1 :]))
        have = self.count(unit, status)
        raise ValueError(f"cannot remove {count} {describe(unit, status)}: {have} present")

    def move(self, unit: str, source: Status, target: Status, count: int = 1) -> Forces:
        """Change the status of ``count`` units."""
        return self.remove(unit, source, count).add(unit, target, count)

    def keep(self, where: Callable[[str], bool]) -> Forces:
        """Only the units whose type passes ``where``."""
        return _sorted(tuple(item for item in self if where(item[0])))

    def without(self, where: Callable[[str], bool]) -> Forces:
        """The units whose type fails ``where``."""
        return _sorted(tuple(item for item in self if not where(item[0])))

    def plus(self, other: Forces) -> Forces:
        if not other:
            return self
        if not self:
            return other
        return Forces((*self, *other))

    def settle_round(self) -> Forces:
        """At the end of a combat round, units that sustained this round are simply damaged."""
        for _, s, _ in self:
            if s is _SUSTAINED:
                return Forces((u, _DAMAGED if s is _SUSTAINED else s, n) for u, s, n in self)
        return self

    def to_json(self) -> list[dict[str, object]]:
        """A list of ``{"unit", "count", "status"}`` records (status omitted when undamaged)."""
        out: list[dict[str, object]] = []
        for unit, status, count in self:
            record: dict[str, object] = {"unit": unit, "count": count}
            if status:
                record["status"] = status.label
            out.append(record)
        return out


def _sorted(items: tuple[Item, ...]) -> Forces:
    """Forces from items already merged, sorted and positive (no checks: internal)."""
    return tuple.__new__(Forces, items)
