"""EC4X rules tables: ship classes and target buckets (``data/units.toml``), the space CER,
morale, raider detection and ROE tables (``data/combat.toml``), validated when loaded.

A file with an unknown key, a missing key, a value of the wrong kind, a gap or overlap in a
table, or a class missing keys its kind needs is refused with ``RulesDataError`` naming the
file and the key. Nothing here rolls dice.
"""

from __future__ import annotations

import tomllib
from collections.abc import Mapping
from dataclasses import dataclass
from fractions import Fraction
from functools import cache
from importlib import resources
from importlib.resources.abc import Traversable
from pathlib import Path
from types import MappingProxyType
from typing import Literal, Self, TypeVar

from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    StrictBool,
    StrictInt,
    StrictStr,
    ValidationError,
    field_validator,
    model_validator,
)

from spacecombat.core.errors import RulesDataError

Kind = Literal["ship", "fighter", "starbase", "spacelift", "scout"]
RoeKind = Literal["never", "defenseless", "ratio", "always"]
RoeZeroDefenseless = Literal["retreat", "stay"]

#: Every class the EC4X tables must define (facts §2, §5, §6): no more, no fewer.
CODES: tuple[str, ...] = (
    "CT", "FG", "DD", "CL", "CA", "BC", "BB", "DN", "SD", "PB",
    "CV", "CX", "RR", "SC", "FS", "SB", "ET", "TT",
)  # fmt: skip
BUCKETS: tuple[int, ...] = (1, 2, 3, 4, 5)  # 7.3.2.2
ELI_LEVELS: tuple[int, ...] = (1, 2, 3, 4, 5)  # rows of the raider detection table
CLK_LEVELS: tuple[int, ...] = (1, 2, 3, 4, 5)  # its columns
ROE_LEVELS: tuple[int, ...] = tuple(range(11))  # 7.1.1: "from a scale of 0 to 10"

DATA: Traversable = resources.files("spacecombat.rulesets").joinpath("ec4x", "data")
UNITS_FILE: Traversable = DATA.joinpath("units.toml")
COMBAT_FILE: Traversable = DATA.joinpath("combat.toml")


@dataclass(frozen=True, slots=True)
class ShipClass:
    """One class of the reference table (facts §2): ``attack`` is AS, ``defense`` DS (7.1.2)."""

    code: str
    name: str
    pc: int
    attack: int
    defense: int
    cc: int | None
    cr: int | None
    cl: int | None
    bucket: int | None  # None: 7.3.2.2 does not name it (CT, FG, SC, PB) or screened (ET, TT)
    kind: Kind


@dataclass(frozen=True, slots=True)
class CerRow:
    """A row of the 7.3.3 CER table: modified rolls ``low``..``high`` (None: unbounded)."""

    low: int | None
    high: int | None
    cer: Fraction


@dataclass(frozen=True, slots=True)
class MoraleRow:
    """A row of the 7.1.4 Morale Check Table; the effect applies on success (crisis: always)."""

    name: str
    low: int | None
    high: int | None
    succeeds_above: int | None
    crisis: bool
    all_cer: int
    one_squadron_cer: int
    auto_critical: bool


@dataclass(frozen=True, slots=True)
class RoeRule:
    """A 7.1.1 ROE level; ``ratio`` levels stay engaged when own:hostile >= own:hostile."""

    level: int
    rule: RoeKind
    own: int | None
    hostile: int | None


@dataclass(frozen=True)
class Tables:
    """All EC4X tables, read-only."""

    classes: Mapping[str, ShipClass]
    bucket_weight: Mapping[int, int]
    carrier_capacity: Mapping[str, tuple[int, int, int]]
    bucket_name: Mapping[int, str]
    space_cer_rows: tuple[CerRow, ...]
    morale: tuple[MoraleRow, ...]
    raider_detection: Mapping[tuple[int, int], tuple[int, int] | None]
    roe: Mapping[int, RoeRule]


# ---- file schema ------------------------------------------------------------------------------


class _Record(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


_NEEDS: dict[Kind, tuple[frozenset[str], frozenset[str]]] = {
    # kind: (keys it must have, keys it must not have)
    "ship": (frozenset({"CC", "CR"}), frozenset()),
    "scout": (frozenset({"CC"}), frozenset({"CR", "CL", "bucket", "carrier_capacity"})),
    "fighter": (frozenset({"bucket"}), frozenset({"CC", "CR", "CL", "carrier_capacity"})),
    "starbase": (frozenset({"bucket"}), frozenset({"CC", "CR", "CL", "carrier_capacity"})),
    "spacelift": (frozenset({"CL"}), frozenset({"CC", "CR", "bucket", "carrier_capacity"})),
}
_KIND_BUCKET: dict[Kind, int] = {"fighter": 4, "starbase": 5}  # 7.3.2.2


class _ClassRecord(_Record):
    code: StrictStr
    name: StrictStr
    kind: Kind
    pc: StrictInt = Field(ge=1)
    AS: StrictInt = Field(ge=0)
    DS: StrictInt = Field(ge=1)
    CC: StrictInt | None = Field(default=None, ge=1)
    CR: StrictInt | None = Field(default=None, ge=1)
    CL: StrictInt | None = Field(default=None, ge=1)
    bucket: StrictInt | None = Field(default=None, ge=1, le=5)
    carrier_capacity: tuple[StrictInt, StrictInt, StrictInt] | None = None

    @model_validator(mode="after")
    def _keys_of_kind(self) -> Self:
        keys = ("CC", "CR", "CL", "bucket", "carrier_capacity")
        given = {key for key in keys if getattr(self, key) is not None}
        needs, refuses = _NEEDS[self.kind]
        if missing := sorted(needs - given):
            raise ValueError(f"{self.code} ({self.kind}) needs {', '.join(missing)}")
        if extra := sorted(refuses & given):
            raise ValueError(f"{self.code} ({self.kind}) cannot have {', '.join(extra)}")
        if self.kind in _KIND_BUCKET and self.bucket != _KIND_BUCKET[self.kind]:
            raise ValueError(f"{self.code} ({self.kind}) is in bucket {_KIND_BUCKET[self.kind]}")
        if (self.CL is None) != (self.carrier_capacity is None) and self.kind == "ship":
            raise ValueError(f"{self.code}: a ship with CL is a carrier and needs carrier_capacity")
        if self.carrier_capacity is not None and self.carrier_capacity[0] != self.CL:
            raise ValueError(f"{self.code}: CL must equal the capacity at ACO I (facts §3)")
        return self


class _BucketRecord(_Record):
    number: StrictInt = Field(ge=1, le=5)
    name: StrictStr
    base_weight: StrictInt = Field(ge=1)


class _UnitsFile(_Record):
    classes: tuple[_ClassRecord, ...] = Field(alias="class")
    bucket: tuple[_BucketRecord, ...]


class _CerRecord(_Record):
    low: StrictInt | None = None
    high: StrictInt | None = None
    cer: StrictStr

    @field_validator("cer")
    @classmethod
    def _fraction(cls, value: str) -> str:
        try:
            cer = Fraction(value)
        except ZeroDivisionError as exc:
            raise ValueError("a CER is a fraction such as '3/4'") from exc
        if not 0 < cer <= 1:
            raise ValueError("a CER is a fraction in (0, 1]")
        return value


class _MoraleRecord(_Record):
    name: StrictStr
    low: StrictInt | None = None
    high: StrictInt | None = None
    succeeds_above: StrictInt | None = Field(default=None, ge=0, le=20)
    crisis: StrictBool
    all_cer: StrictInt
    one_squadron_cer: StrictInt
    auto_critical: StrictBool

    @model_validator(mode="after")
    def _crisis_never_rolls(self) -> Self:
        if self.crisis == (self.succeeds_above is not None):
            raise ValueError(f"{self.name}: succeeds_above is given iff the band is not a crisis")
        return self


_Cell = tuple[StrictInt, StrictInt] | Literal["NA"]
_Row = tuple[_Cell, _Cell, _Cell, _Cell, _Cell]


class _DetectionTable(_Record):
    ELI1: _Row
    ELI2: _Row
    ELI3: _Row
    ELI4: _Row
    ELI5: _Row


class _RoeRecord(_Record):
    level: StrictInt = Field(ge=0, le=10)
    rule: RoeKind
    own: StrictInt | None = Field(default=None, ge=1)
    hostile: StrictInt | None = Field(default=None, ge=1)

    @model_validator(mode="after")
    def _ratio_has_terms(self) -> Self:
        terms = (self.own is not None, self.hostile is not None)
        if terms != ((True, True) if self.rule == "ratio" else (False, False)):
            raise ValueError(f"ROE {self.level}: own and hostile are given iff rule is 'ratio'")
        return self


class _CombatFile(_Record):
    space_cer: tuple[_CerRecord, ...] = Field(min_length=1)
    morale: tuple[_MoraleRecord, ...] = Field(min_length=1)
    raider_detection: _DetectionTable
    roe: tuple[_RoeRecord, ...]


# ---- loading ----------------------------------------------------------------------------------

_ModelT = TypeVar("_ModelT", bound=BaseModel)


def _parse(path: Path | Traversable, model: type[_ModelT]) -> tuple[str, _ModelT]:
    where = str(path)
    try:
        parsed = tomllib.loads(path.read_text(encoding="utf-8"))
    except (OSError, tomllib.TOMLDecodeError, UnicodeDecodeError) as exc:
        raise RulesDataError(f"{where}: cannot read: {exc}") from exc
    try:
        return where, model.model_validate(parsed)
    except ValidationError as exc:
        first = exc.errors()[0]
        loc = ".".join(str(part) for part in first["loc"]) or "(top)"
        raise RulesDataError(f"{where}: {loc}: {first['msg']}") from exc


def _ranges(
    where: str, key: str, rows: list[tuple[int | None, int | None]], first: int | None = None
) -> None:
    """Rows ``(low, high)`` in order must tile the integers (or from ``first``) without gaps."""
    for index, (low, high) in enumerate(rows):
        at = f"{where}: {key}.{index}"
        is_first, is_last = index == 0, index == len(rows) - 1
        if low is None and not (is_first and first is None):
            raise RulesDataError(f"{at}: low: only the first row may leave it out")
        if high is None and not is_last:
            raise RulesDataError(f"{at}: high: only the last row may leave it out")
        if is_first and first is not None and low != first:
            raise RulesDataError(f"{at}: low: the table starts at {first}")
        if low is not None and high is not None and low > high:
            raise RulesDataError(f"{at}: low {low} is above high {high}")
        if not is_first:
            previous_high = rows[index - 1][1]
            if previous_high is None or low != previous_high + 1:
                raise RulesDataError(f"{at}: low: must follow the previous row's high")


def _check_set(where: str, key: str, found: list[object], wanted: tuple[object, ...]) -> None:
    seen: set[object] = set()
    for item in found:
        if item in seen:
            raise RulesDataError(f"{where}: {key}: {item!r} appears twice")
        if item not in wanted:
            raise RulesDataError(f"{where}: {key}: unknown {item!r}; allowed: {wanted}")
        seen.add(item)
    if missing := [item for item in wanted if item not in seen]:
        raise RulesDataError(f"{where}: {key}: missing {', '.join(map(str, missing))}")


@dataclass(frozen=True, slots=True)
class _Units:
    classes: dict[str, ShipClass]
    carrier_capacity: dict[str, tuple[int, int, int]]
    buckets: dict[int, _BucketRecord]


def _units(path: Path | Traversable) -> _Units:
    where, data = _parse(path, _UnitsFile)
    _check_set(where, "class", [record.code for record in data.classes], CODES)
    _check_set(where, "bucket", [record.number for record in data.bucket], BUCKETS)
    return _Units(
        classes={
            r.code: ShipClass(r.code, r.name, r.pc, r.AS, r.DS, r.CC, r.CR, r.CL, r.bucket, r.kind)
            for r in data.classes
        },
        carrier_capacity={
            r.code: r.carrier_capacity for r in data.classes if r.carrier_capacity is not None
        },
        buckets={record.number: record for record in data.bucket},
    )


def _detection(table: _DetectionTable, where: str) -> dict[tuple[int, int], tuple[int, int] | None]:
    cells: dict[tuple[int, int], tuple[int, int] | None] = {}
    for eli in ELI_LEVELS:
        row: _Row = getattr(table, f"ELI{eli}")
        for clk, cell in zip(CLK_LEVELS, row, strict=True):
            if cell == "NA":
                cells[eli, clk] = None
                continue
            low, high = cell
            if not (low >= 1 and high == low + 2 and high <= 20):
                raise RulesDataError(
                    f"{where}: raider_detection.ELI{eli}.{clk - 1}: a range is three faces "
                    f"of 1D20 [lower, lower + 2], got [{low}, {high}]"
                )
            cells[eli, clk] = (low, high)
    return cells


def read_tables(units: Path | Traversable, combat: Path | Traversable) -> Tables:
    """Read and validate the two data files (``RulesDataError`` names file and key)."""
    unit_data = _units(units)
    where, data = _parse(combat, _CombatFile)
    _ranges(where, "space_cer", [(row.low, row.high) for row in data.space_cer])
    _ranges(where, "morale", [(row.low, row.high) for row in data.morale])
    crises = [row.crisis for row in data.morale]
    if crises[0] is not True or any(crises[1:]) or data.morale[0].high != 0:
        raise RulesDataError(f"{where}: morale.0: the first band is the crisis, prestige <= 0")
    _check_set(where, "roe", [row.level for row in data.roe], ROE_LEVELS)
    view = MappingProxyType
    return Tables(
        classes=view(unit_data.classes),
        bucket_weight=view({n: unit_data.buckets[n].base_weight for n in BUCKETS}),
        carrier_capacity=view(unit_data.carrier_capacity),
        bucket_name=view({n: unit_data.buckets[n].name for n in BUCKETS}),
        space_cer_rows=tuple(CerRow(r.low, r.high, Fraction(r.cer)) for r in data.space_cer),
        morale=tuple(
            MoraleRow(
                name=r.name,
                low=r.low,
                high=r.high,
                succeeds_above=r.succeeds_above,
                crisis=r.crisis,
                all_cer=r.all_cer,
                one_squadron_cer=r.one_squadron_cer,
                auto_critical=r.auto_critical,
            )
            for r in data.morale
        ),
        raider_detection=view(_detection(data.raider_detection, where)),
        roe=view({r.level: RoeRule(r.level, r.rule, r.own, r.hostile) for r in data.roe}),
    )


@cache
def tables() -> Tables:
    """The packaged EC4X tables, read once."""
    return read_tables(UNITS_FILE, COMBAT_FILE)


# ---- rules read from the tables ---------------------------------------------------------------


def space_cer(modified_roll: int) -> Fraction:
    """7.3.3 CER Table: the Space Combat CER of a modified 1D10 roll (any integer)."""
    for row in tables().space_cer_rows:
        if (row.low is None or modified_roll >= row.low) and (
            row.high is None or modified_roll <= row.high
        ):
            return row.cer
    raise AssertionError("the CER table covers every integer (checked on load)")


def roe_allows(
    roe: int,
    own_strength: int,
    hostile_strength: int,
    *,
    roe0_defenseless: RoeZeroDefenseless = "retreat",
) -> bool:
    """7.1.1 and 7.3.4: whether a Task Force with this ROE stays engaged (False: it wants to
    retreat), given its own total AS and the combined AS of all hostile Task Forces.

    ``roe0_defenseless`` (ruling E6): whether ROE 0 ("Avoid all hostile forces") also avoids
    hostile forces of AS 0 (``"retreat"``, default) or stays against them (``"stay"``).
    """
    if roe not in ROE_LEVELS:
        raise ValueError(f"ROE is 0..10 (7.1.1), got {roe}")
    if own_strength < 0 or hostile_strength < 0:
        raise ValueError("attack strengths are never negative")
    rule = tables().roe[roe]
    if rule.rule == "always":
        return True
    if rule.rule == "never":
        return hostile_strength == 0 and roe0_defenseless == "stay"
    if rule.rule == "defenseless":
        return hostile_strength == 0
    assert rule.own is not None
    assert rule.hostile is not None
    return own_strength * rule.hostile >= hostile_strength * rule.own
