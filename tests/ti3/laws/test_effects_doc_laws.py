"""docs/effects.md's TI3 laws table (tools/effects_doc_ti3_laws.py; docs/rulings.md 27Z): one
row per political card, each implemented law with its test file."""

from __future__ import annotations

from spacecombat.rulesets.ti3.laws import political_cards
from tools.effects_doc import render
from tools.effects_doc_ti3_laws import _status, _test_file, lines


def test_the_table_is_in_the_catalogue() -> None:
    assert "\n".join(lines()) in render()


def test_one_row_per_card() -> None:
    rows = [line for line in lines() if line.startswith("| ")]
    assert len(rows) == len(political_cards()) + 1  # the header


def test_every_implemented_law_has_its_test_file() -> None:
    untested = [c.name for c in political_cards().values() if _status(c) == "yes"]
    assert untested
    assert [n for n in untested if _test_file(political_cards()[_id(n)]) == "—"] == []


def _id(name: str) -> str:
    return next(c.id for c in political_cards().values() if c.name == name)
