"""docs/effects.md's TI3 races section (issue 27; tools/effects_doc_ti3_races.py): every race,
each with its abilities, racial technologies and flagship, one row each, with each implemented
handler's test file."""

from __future__ import annotations

from spacecombat.rulesets.ti3 import rules
from tools.effects_doc import render
from tools.effects_doc_ti3_races import _rows, _status, _test_file, races_section


def test_the_section_is_in_the_catalogue() -> None:
    assert "\n".join(races_section()) in render()


def test_every_race_has_its_flagship_row() -> None:
    rows = _rows()
    for race in rules.load().factions:
        assert [r for r in rows if r.race == race and r.kind == "flagship"]


def test_one_table_row_per_entry() -> None:
    lines = [line for line in races_section() if line.startswith("| ")]
    assert len(lines) == len(_rows()) + 1  # the header


def test_every_implemented_entry_has_a_test_file() -> None:
    untested = [r.name for r in _rows() if _status(r) == "yes" and _test_file(r) == "—"]
    assert untested == []
