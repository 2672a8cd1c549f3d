"""The TI4 rules data: it loads, it is consistent, and it carries every fact of the reference
(../shared/reference/ti4-units.json) through tools/convert_ti4_units.py."""

from __future__ import annotations

import pytest

from spacecombat.rulesets.ti4.abilities.base import HANDLERS
from spacecombat.rulesets.ti4.rules import UNIT_TYPES, load
from tools.convert_ti4_units import DEFAULT_SOURCE, DEFAULT_TARGET, convert


def test_units_toml_is_the_conversion_of_the_reference() -> None:
    if not DEFAULT_SOURCE.exists():
        pytest.skip("../shared/reference is not beside this checkout")
    assert DEFAULT_TARGET.read_text(encoding="utf-8") == convert(DEFAULT_SOURCE)


def test_every_generic_unit_type_has_a_level_one_card() -> None:
    data = load()
    for unit_type in UNIT_TYPES:
        if unit_type != "flagship":
            assert data.generic(unit_type, 1).type == unit_type


def test_upgrades_are_level_two_cards() -> None:
    data = load()
    assert data.generic("dreadnought", 2).id == "dreadnought2"
    assert data.generic("fighter", 2).move == 2  # Fighter II moves on its own


def test_faction_units_replace_generic_ones_by_level() -> None:
    data = load()
    first, second = (
        data.faction_card("argent", "destroyer", 1),
        data.faction_card("argent", "destroyer", 2),
    )
    assert first is not None
    assert second is not None
    assert (first.id, second.id) == ("argent_destroyer", "argent_destroyer2")


def test_implemented_handlers_are_named_in_the_data() -> None:
    data = load()
    named = {t.handler for t in data.technologies.values()} | {
        law.handler for law in data.laws.values()
    }
    named |= {a.handler for f in data.factions.values() for a in f.abilities}
    named |= {a.handler for u in data.units.values() for a in u.abilities}
    named |= {c.handler for c in data.cards.values()}
    named |= {"nebula"}  # the active system's anomaly, not a data record
    assert set(HANDLERS) <= named
