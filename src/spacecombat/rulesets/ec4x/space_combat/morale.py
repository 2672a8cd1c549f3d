"""EC4X morale (7.1.4): the 1D20 check at the start of each turn and what it does to CER.
Pure rules: the roll is an argument."""

from __future__ import annotations

from dataclasses import dataclass

from spacecombat.rulesets.ec4x.tables import MoraleRow, tables


@dataclass(frozen=True, slots=True)
class MoraleBand:
    """A row of the Morale Check Table: prestige ``low``..``high`` (None: unbounded); the check
    succeeds on a roll above ``succeeds_above`` (None: never, the crisis band)."""

    name: str
    low: int | None
    high: int | None
    succeeds_above: int | None


@dataclass(frozen=True, slots=True)
class MoraleEffect:
    """What the morale check gives a house for this turn (7.1.4)."""

    band: str
    rolled: int | None
    success: bool
    all_cer: int  # added to every CER roll of the house this turn
    one_squadron_cer: int  # +1 for one random squadron (Average band on success), else 0
    auto_critical: bool  # High band on success: the turn's first valid attack is a critical
    crisis: bool  # prestige <= 0: no roll; -1 all CER; one random fleet refuses orders


def _row(prestige: int) -> MoraleRow:
    for row in tables().morale:
        if (row.low is None or prestige >= row.low) and (row.high is None or prestige <= row.high):
            return row
    raise AssertionError("the morale table covers every prestige (checked on load)")


def band(prestige: int) -> MoraleBand:
    """The morale band of a house's prestige (7.1.4 Morale Check Table)."""
    row = _row(prestige)
    return MoraleBand(row.name, row.low, row.high, row.succeeds_above)


def needs_roll(prestige: int) -> bool:
    """Whether the check is rolled: not in a crisis ("Prestige <= 0 automatically triggers
    morale crisis without requiring a roll")."""
    return not _row(prestige).crisis


def morale_effect(prestige: int, d20: int | None) -> MoraleEffect:
    """The turn's morale effect. ``d20`` is None exactly in a crisis; the check succeeds when
    the roll is greater than the band's threshold ("> 18"). A failed check has no effect."""
    row = _row(prestige)
    if row.crisis:
        if d20 is not None:
            raise ValueError(f"prestige {prestige} is a morale crisis: no roll (7.1.4)")
        return MoraleEffect(
            band=row.name,
            rolled=None,
            success=False,
            all_cer=row.all_cer,
            one_squadron_cer=row.one_squadron_cer,
            auto_critical=row.auto_critical,
            crisis=True,
        )
    if d20 is None or not 1 <= d20 <= 20:
        raise ValueError(f"prestige {prestige} needs a 1D20 morale roll 1..20, got {d20}")
    assert row.succeeds_above is not None
    success = d20 > row.succeeds_above
    return MoraleEffect(
        band=row.name,
        rolled=d20,
        success=success,
        all_cer=row.all_cer if success else 0,
        one_squadron_cer=row.one_squadron_cer if success else 0,
        auto_critical=row.auto_critical and success,
        crisis=False,
    )
