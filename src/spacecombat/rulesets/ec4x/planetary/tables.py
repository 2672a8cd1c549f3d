"""EC4X planetary combat tables (``data/planetary.toml``): the Bombardment Table (7.5.1), the
planetary shields (7.5.2), the Ground Combat Table (7.6), the planet-side units (facts §6) and
the limits and factors of 7.5–7.6, validated when loaded (in the style of ``tables.py``).

A file with an unknown key, a missing key, a value of the wrong kind, a die table that does not
cover the faces 0–9 exactly once, a shield row whose "% chance" is not the chance of its d20
column, or a missing or doubled unit is refused with ``RulesDataError`` naming the file and
the key. Nothing here rolls dice.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from fractions import Fraction
from functools import cache
from importlib.resources.abc import Traversable
from pathlib import Path
from types import MappingProxyType

from pydantic import BaseModel, ConfigDict, Field, StrictBool, StrictInt, StrictStr, field_validator

from spacecombat.core.errors import RulesDataError
from spacecombat.rulesets.ec4x.tables import DATA, _check_set, _parse

PLANETARY_FILE: Traversable = DATA.joinpath("planetary.toml")

#: the faces of the d10 the planetary tables read (7.5.1, 7.6: "0, 1, 2" … "9")
D10_FACES: tuple[int, ...] = tuple(range(10))
#: 7.5.2: SLD1 to SLD6
SHIELD_LEVELS: tuple[int, ...] = (1, 2, 3, 4, 5, 6)
#: facts §6: the planet-side units
GROUND_CODES: tuple[str, ...] = ("PS", "GB", "AA", "MD", "SP")


@dataclass(frozen=True, slots=True)
class DieRow:
    """A row of a d10 table: faces ``low``..``high`` give ``cer``; ``critical`` (7.5.1 "9*")."""

    low: int
    high: int
    cer: Fraction
    critical: bool


@dataclass(frozen=True, slots=True)
class ShieldRow:
    """A row of 7.5.2: the shield blocks ``blocked_pct``% when the d20 is above ``d20_above``."""

    level: int
    chance_pct: int
    d20_above: int
    blocked_pct: int


@dataclass(frozen=True, slots=True)
class GroundUnit:
    """A planet-side unit of facts §6: ``attack`` is AS, ``defense`` DS."""

    code: str
    name: str
    pc: int
    attack: int
    defense: int


@dataclass(frozen=True)
class PlanetaryTables:
    """All planetary tables, read-only."""

    bombardment: tuple[DieRow, ...]
    ground: tuple[DieRow, ...]
    shields: Mapping[int, ShieldRow]
    units: Mapping[str, GroundUnit]
    bombardment_max_rounds: int
    invasion_iu_loss: Fraction
    blitz_marine_as: Fraction
    crippled_as: Fraction
    transport_marines: int

    def bombardment_row(self, face: int) -> DieRow:
        """7.5.1: the Bombardment Table row of a d10 face (0–9)."""
        return _row(self.bombardment, face)

    def ground_row(self, face: int) -> DieRow:
        """7.6: the Ground Combat Table row of a d10 face (0–9)."""
        return _row(self.ground, face)


def _row(rows: tuple[DieRow, ...], face: int) -> DieRow:
    for row in rows:
        if row.low <= face <= row.high:
            return row
    raise ValueError(f"a d10 face is 0-9 (got {face})")


# ---- file schema ------------------------------------------------------------------------------


class _Record(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


def _fraction(value: str, low: Fraction, high: Fraction) -> str:
    try:
        found = Fraction(value)
    except (ValueError, ZeroDivisionError) as exc:
        raise ValueError("a fraction such as '1/2'") from exc
    if not low < found <= high:
        raise ValueError(f"a fraction in ({low}, {high}]")
    return value


class _DieRecord(_Record):
    low: StrictInt = Field(ge=0, le=9)
    high: StrictInt = Field(ge=0, le=9)
    cer: StrictStr
    critical: StrictBool = False

    @field_validator("cer")
    @classmethod
    def _cer(cls, value: str) -> str:
        return _fraction(value, Fraction(0), Fraction(2))


class _ShieldRecord(_Record):
    level: StrictInt
    chance_pct: StrictInt = Field(ge=1, le=100)
    d20_above: StrictInt = Field(ge=0, le=19)
    blocked_pct: StrictInt = Field(ge=1, le=100)


class _UnitRecord(_Record):
    code: StrictStr
    name: StrictStr
    pc: StrictInt = Field(ge=1)
    AS: StrictInt = Field(ge=0)
    DS: StrictInt = Field(ge=1)


class _Limits(_Record):
    bombardment_max_rounds: StrictInt = Field(ge=1, le=10)
    invasion_iu_loss: StrictStr
    blitz_marine_as: StrictStr
    crippled_as: StrictStr
    transport_marines: StrictInt = Field(ge=1)

    @field_validator("invasion_iu_loss", "blitz_marine_as", "crippled_as")
    @classmethod
    def _share(cls, value: str) -> str:
        return _fraction(value, Fraction(0), Fraction(1))


class _PlanetaryFile(_Record):
    bombardment_cer: tuple[_DieRecord, ...] = Field(min_length=1)
    ground_cer: tuple[_DieRecord, ...] = Field(min_length=1)
    shield: tuple[_ShieldRecord, ...]
    ground_unit: tuple[_UnitRecord, ...]
    limits: _Limits


# ---- loading ----------------------------------------------------------------------------------


def _die_table(where: str, key: str, records: tuple[_DieRecord, ...]) -> tuple[DieRow, ...]:
    """Rows in order must cover the faces 0..9 exactly once."""
    expected = 0
    for index, r in enumerate(records):
        if r.low != expected:
            raise RulesDataError(f"{where}: {key}.{index}: low: must be {expected} (faces 0-9)")
        if r.high < r.low:
            raise RulesDataError(f"{where}: {key}.{index}: low {r.low} is above high {r.high}")
        expected = r.high + 1
    if expected != 10:
        raise RulesDataError(f"{where}: {key}: the rows must end at face 9")
    return tuple(DieRow(r.low, r.high, Fraction(r.cer), r.critical) for r in records)


def read_planetary(path: Path | Traversable) -> PlanetaryTables:
    """Read and validate the planetary data file (``RulesDataError`` names file and key)."""
    where, data = _parse(path, _PlanetaryFile)
    bombardment = _die_table(where, "bombardment_cer", data.bombardment_cer)
    ground = _die_table(where, "ground_cer", data.ground_cer)
    if any(r.critical for r in ground):
        raise RulesDataError(f"{where}: ground_cer: the Ground Combat Table has no critical")
    if [r.critical for r in bombardment] != [False] * (len(bombardment) - 1) + [True]:
        raise RulesDataError(f"{where}: bombardment_cer: only the row of face 9 is critical")
    _check_set(where, "shield", [r.level for r in data.shield], SHIELD_LEVELS)
    for index, r in enumerate(data.shield):
        faces = 20 - r.d20_above
        if r.chance_pct * 20 != faces * 100:
            raise RulesDataError(
                f"{where}: shield.{index}: chance_pct {r.chance_pct} is not the chance of a "
                f"d20 above {r.d20_above} ({faces} faces of 20)"
            )
    _check_set(where, "ground_unit", [r.code for r in data.ground_unit], GROUND_CODES)
    limits = data.limits
    view = MappingProxyType
    return PlanetaryTables(
        bombardment=bombardment,
        ground=ground,
        shields=view(
            {
                r.level: ShieldRow(r.level, r.chance_pct, r.d20_above, r.blocked_pct)
                for r in data.shield
            }
        ),
        units=view(
            {r.code: GroundUnit(r.code, r.name, r.pc, r.AS, r.DS) for r in data.ground_unit}
        ),
        bombardment_max_rounds=limits.bombardment_max_rounds,
        invasion_iu_loss=Fraction(limits.invasion_iu_loss),
        blitz_marine_as=Fraction(limits.blitz_marine_as),
        crippled_as=Fraction(limits.crippled_as),
        transport_marines=limits.transport_marines,
    )


@cache
def planetary() -> PlanetaryTables:
    """The packaged planetary tables, read once."""
    return read_planetary(PLANETARY_FILE)
