"""The TI3 races' part of docs/effects.md (issue 27): each race's combat abilities, racial
technologies and Shards of the Throne flagship, and the Mechanized Unit, from the TI3 data
(``src/spacecombat/rulesets/ti3/data/*.toml``), the registered handlers and the test files.
``tools/effects_doc.py`` appends it; do not edit the section by hand."""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

from spacecombat.core.rulesdata import Ability
from spacecombat.rulesets.ti3 import rules
from spacecombat.rulesets.ti3.abilities import HANDLERS
from spacecombat.rulesets.ti3.abilities.races import PARTLY, REFUSED_WHERE_IT_CAN_ACT
from spacecombat.rulesets.ti3.rounds import _NOT_IN_PRODUCT_FORM

ROOT = Path(__file__).resolve().parent.parent
TESTS = ROOT / "tests" / "ti3"

INTRO = """## TI3: races, flagships and Mechanized Units

Every TI3 race (base game, Shattered Empire, Shards of the Throne) with each of its racial
abilities, racial technologies and its flagship, and how the engine treats it (docs/rulings.md
27R: the sources, and the rulings where they leave a choice). Columns as for TI4 above; **Kind**
is `race` (the race sheet's ability), `technology` (a racial technology, held only by its race)
or `flagship` (the race's Shards of the Throne flagship: its card, `<race>_flagship` in
`units.toml`, stands for `flagship` in a side of that race). A flagship no source gives is
refused by name. **Test**: a test file under `tests/ti3/` for the handler (`test_<handler>.py`,
else the file that tests its class).
"""


@dataclass(frozen=True)
class Row:
    race: str
    kind: str
    name: str
    source: str
    combat: str
    handler: str | None
    text: str


def _rows() -> list[Row]:
    data = rules.load()
    out: list[Row] = []
    for race_id, race in data.factions.items():
        for ability in race.abilities:
            out.append(_ability_row(race_id, "race", race.name, race.source, ability))
        for tech in data.technologies.values():
            if tech.faction == race_id:
                out.append(
                    Row(
                        race_id,
                        "technology",
                        tech.name,
                        tech.source,
                        tech.combat,
                        tech.handler,
                        tech.text,
                    )
                )
        card = data.units.get(rules.flagship_id(race_id))
        if card is None:
            out.append(
                Row(
                    race_id,
                    "flagship",
                    "—",
                    "sot",
                    "none",
                    None,
                    "No flagship: this race is played only in a scenario without flagships; "
                    "naming one is bad input (27X-4).",
                )
            )
            continue
        assert card.combat is not None
        dice = card.combat.dice if card.combat.dice is not None else "*"
        stats = (
            f"{card.name}: cost {card.cost:g}, combat {card.combat.hit} x{dice}, move "
            f"{card.move}, capacity {card.capacity}, SUSTAIN DAMAGE."
        )
        for ability in card.abilities:
            text = f"{stats} {ability.text}"
            out.append(
                Row(
                    race_id,
                    "flagship",
                    card.name,
                    card.source,
                    ability.combat,
                    ability.handler,
                    text,
                )
            )
    return out


def _ability_row(race: str, kind: str, name: str, source: str, ability: Ability) -> Row:
    return Row(
        race, kind, ability.name or name, source, ability.combat, ability.handler, ability.text
    )


def _status(row: Row) -> str:
    if row.combat != "rule":
        return "—"
    if row.handler in REFUSED_WHERE_IT_CAN_ACT:
        return "refused where it can act"
    if row.handler in PARTLY:
        return PARTLY[row.handler]
    return "yes" if row.handler in HANDLERS else "refused"


def _test_file(row: Row) -> str:
    if row.handler is None or row.handler not in HANDLERS:
        return "—"
    named = sorted(TESTS.rglob(f"test_{row.handler}.py"))
    if named:
        return f"`{named[0].relative_to(ROOT).as_posix()}`"
    # else the file that makes one (``Name(``), else one that plays it (``"id"``), the
    # files beside this section's first
    files = sorted(TESTS.glob("test_*.py")) + sorted(TESTS.glob("*/test_*.py"))
    for pattern in (rf"\b{HANDLERS[row.handler].__name__}\(", f'"{row.handler}"'):
        for path in files:
            if re.search(pattern, path.read_text(encoding="utf-8")):
                return f"`{path.relative_to(ROOT).as_posix()}`"
    return "—"


def _engine(row: Row) -> str:
    if row.handler in PARTLY:
        return "state graph"
    if _status(row) != "yes":
        return "—"
    return "state graph" if row.handler in _NOT_IN_PRODUCT_FORM else "product form"


def _cell(text: str) -> str:
    return text.replace("|", "\\|").replace("\n", " ")


def races_section() -> list[str]:
    """The lines of the section."""
    rows = _rows()
    implemented = sum(1 for r in rows if _status(r) == "yes")
    refused = sum(1 for r in rows if _status(r) == "refused")
    lines = [INTRO]
    lines.append(
        f"**Summary.** {len(rows)} entries over {len(rules.load().factions)} races: "
        f"{implemented} implemented, {refused} refused by name, "
        f"{sum(1 for r in rows if r.combat == 'stats')} stats, "
        f"{sum(1 for r in rows if r.combat == 'none')} none."
    )
    lines.append("")
    lines.append(
        "| Race | Kind | Name | Source | In battle | Handler | Implemented | Test | Exact engine "
        "| Text |"
    )
    lines.append("|---|---|---|---|---|---|---|---|---|---|")
    for r in rows:
        cells = [
            r.race,
            r.kind,
            r.name,
            r.source,
            r.combat,
            f"`{r.handler}`" if r.handler else "—",
            _status(r),
            _test_file(r),
            _engine(r),
            r.text,
        ]
        lines.append("| " + " | ".join(_cell(c) for c in cells) + " |")
    lines.append("")
    mech = rules.load().units["mechanized_unit"]
    assert mech.combat is not None
    lines.append(
        f"**Mechanized Unit** (Shards of the Throne): cost {mech.cost:g}, combat "
        f"{mech.combat.hit}, dice the option `mechanized_unit_dice` (default 2, as PC_Twi and "
        "a second TI3 program give it: 27S-12; 1 as an option), SUSTAIN DAMAGE; fights in "
        "invasion combat, immune to bombardment, PDS fire "
        "and every effect that names ground forces. Test: "
        "`tests/ti3/units/test_mechanized_unit.py`; exact engine: product form."
    )
    lines.append("")
    return lines
