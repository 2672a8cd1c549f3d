"""Fleet notation: ``"2 dreadnought, 3 fighter"`` and back."""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping
from dataclasses import dataclass

from spacecombat.core.errors import ScenarioError
from spacecombat.core.limits import MAX_UNITS_PER_SIDE, shown

# ASCII digits only: "٣ dreadnought" is not read as 3.
_ITEM = re.compile(r"^\s*([0-9]+)\s*(?:x\s*)?([a-z_][a-z0-9_]*)\s*$", re.IGNORECASE | re.ASCII)


@dataclass(frozen=True)
class Fleet:
    """Unit counts by unit id, in the order given. ``str(Fleet.parse(s))`` gives ``s`` back
    (normalised)."""

    counts: tuple[tuple[str, int], ...]

    @classmethod
    def parse(cls, text: str, field: str = "units") -> Fleet:
        """Read ``"2 dreadnought, 3 fighter"`` (also ``"2x dreadnought"``); "" is no units."""
        counts: dict[str, int] = {}
        if text.strip():
            for part in text.split(","):
                match = _ITEM.match(part)
                if match is None:
                    raise ScenarioError(
                        field,
                        f"cannot read {shown(part.strip())}: write a count and a unit, "
                        "e.g. '2 dreadnought, 3 fighter'",
                    )
                unit = match.group(2).lower()
                digits = match.group(1)
                if len(digits) > len(str(MAX_UNITS_PER_SIDE)):
                    raise ScenarioError(
                        field,
                        f"{shown(part.strip())}: more units than the limit of "
                        f"{MAX_UNITS_PER_SIDE} a side",
                    )
                counts[unit] = counts.get(unit, 0) + int(digits)
        return cls(tuple(counts.items()))

    @classmethod
    def of(cls, counts: Mapping[str, int]) -> Fleet:
        return cls(tuple(counts.items()))

    def as_dict(self) -> dict[str, int]:
        return dict(self.counts)

    def __iter__(self) -> Iterator[tuple[str, int]]:
        return iter(self.counts)

    def __str__(self) -> str:
        return ", ".join(f"{count} {unit}" for unit, count in self.counts if count)
