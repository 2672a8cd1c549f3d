"""Forces: a small frozen multiset of units, the building block of battle states.

A side has at most one unit card per unit type (an upgrade or a faction unit replaces the
generic one), so a unit is named by its type and its damage status. States are keys of the
exact odds engine, so ``Forces`` is hashable and cheap to compare.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Mapping
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


_STATUS_LABELS = {
    Status.UNDAMAGED: "",
    Status.DAMAGED: "damaged",
    Status.SUSTAINED_THIS_ROUND: "sustained this round",
}

Key = tuple[str, Status]


def describe(unit: str, status: Status) -> str:
    """``dreadnought`` or ``dreadnought (damaged)``."""
    return f"{unit} ({status.label})" if status else unit


class Forces:
    """Units by (type, status), with counts; immutable and hashable."""

    __slots__ = ("_hash", "_items")

    def __init__(self, items: Iterable[tuple[str, Status, int]] = ()) -> None:
        merged: dict[Key, int] = {}
        for unit, status, count in items:
            if count < 0:
                raise ValueError(f"negative count {count} of {unit}")
            if count:
                key = (unit, Status(status))
                merged[key] = merged.get(key, 0) + count
        self._items: tuple[tuple[str, Status, int], ...] = tuple(
            (unit, status, count) for (unit, status), count in sorted(merged.items())
        )
        self._hash = hash(self._items)

    @classmethod
    def of(cls, counts: Mapping[str, int], damaged: Mapping[str, int] | None = None) -> Forces:
        """Forces from undamaged counts, some of which start damaged."""
        damaged = damaged or {}
        items: list[tuple[str, Status, int]] = []
        for unit, count in counts.items():
            hurt = damaged.get(unit, 0)
            items.append((unit, Status.UNDAMAGED, count - hurt))
            items.append((unit, Status.DAMAGED, hurt))
        return cls(items)

    @property
    def items(self) -> tuple[tuple[str, Status, int], ...]:
        """(type, status, count) triples in a fixed order."""
        return self._items

    def __iter__(self) -> Iterator[tuple[str, Status, int]]:
        return iter(self._items)

    def __bool__(self) -> bool:
        return bool(self._items)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Forces) and self._items == other._items

    def __hash__(self) -> int:
        return self._hash

    def __repr__(self) -> str:
        return f"Forces({list(self._items)!r})"

    def __str__(self) -> str:
        return (
            ", ".join(f"{count} {describe(unit, status)}" for unit, status, count in self) or "none"
        )

    def count(self, unit: str | None = None, status: Status | None = None) -> int:
        """How many units (of a type, of a status)."""
        return sum(
            n
            for u, s, n in self._items
            if (unit is None or u == unit) and (status is None or s == status)
        )

    def total(self, where: Callable[[str], bool] | None = None) -> int:
        """How many units whose type passes ``where``."""
        return sum(n for u, _, n in self._items if where is None or where(u))

    def types(self) -> tuple[str, ...]:
        """The unit types present, in a fixed order."""
        return tuple(dict.fromkeys(u for u, _, _ in self._items))

    def by_type(self) -> dict[str, int]:
        """Counts by type, all statuses together."""
        counts: dict[str, int] = {}
        for unit, _, count in self._items:
            counts[unit] = counts.get(unit, 0) + count
        return counts

    def add(self, unit: str, status: Status = Status.UNDAMAGED, count: int = 1) -> Forces:
        if count <= 0:
            return self if count == 0 else Forces((*self._items, (unit, status, count)))
        items = self._items
        for index, (u, s, n) in enumerate(items):
            if (u, s) == (unit, status):
                return Forces._sorted((*items[:index], (u, s, n + count), *items[index + 1 :]))
            if (u, s) > (unit, status):
                return Forces._sorted((*items[:index], (unit, status, count), *items[index:]))
        return Forces._sorted((*items, (unit, status, count)))

    @classmethod
    def _sorted(cls, items: tuple[tuple[str, Status, int], ...]) -> Forces:
        """Forces from items already merged, sorted and positive (no checks: internal)."""
        forces = cls.__new__(cls)
        forces._items = items
        forces._hash = hash(items)
        return forces

    def remove(self, unit: str, status: Status, count: int = 1) -> Forces:
        """Take ``count`` units of a type and status away; there must be that many."""
        if count < 0:
            raise ValueError(
                f"cannot remove a negative count ({count}) of {describe(unit, status)}"
            )
        if count == 0:
            return self
        for index, (u, s, n) in enumerate(self._items):
            if u == unit and s == status:
                if n < count:
                    break
                left = n - count
                kept = ((u, s, left),) if left else ()
                return Forces._sorted(self._items[:index] + kept + self._items[index + 1 :])
        have = self.count(unit, status)
        raise ValueError(f"cannot remove {count} {describe(unit, status)}: {have} present")

    def move(self, unit: str, source: Status, target: Status, count: int = 1) -> Forces:
        """Change the status of ``count`` units."""
        return self.remove(unit, source, count).add(unit, target, count)

    def keep(self, where: Callable[[str], bool]) -> Forces:
        """Only the units whose type passes ``where``."""
        return Forces((u, s, n) for u, s, n in self._items if where(u))

    def without(self, where: Callable[[str], bool]) -> Forces:
        """The units whose type fails ``where``."""
        return Forces((u, s, n) for u, s, n in self._items if not where(u))

    def plus(self, other: Forces) -> Forces:
        return Forces((*self._items, *other._items))

    def settle_round(self) -> Forces:
        """At the end of a combat round, units that sustained this round are simply damaged."""
        if not any(s is Status.SUSTAINED_THIS_ROUND for _, s, _ in self._items):
            return self
        return Forces(
            (u, Status.DAMAGED if s is Status.SUSTAINED_THIS_ROUND else s, n)
            for u, s, n in self._items
        )

    def to_json(self) -> list[dict[str, object]]:
        """A list of ``{"unit", "count", "status"}`` records (status omitted when undamaged)."""
        out: list[dict[str, object]] = []
        for unit, status, count in self._items:
            record: dict[str, object] = {"unit": unit, "count": count}
            if status:
                record["status"] = status.label
            out.append(record)
        return out
