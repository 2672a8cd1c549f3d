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


def test_each_leader_says_which_kind_of_leader_it_is() -> None:
    # agents are exhausted and heroes purged when used; commanders act again and again
    from dataclasses import replace

    from spacecombat.core.errors import RulesDataError
    from spacecombat.rulesets.ti4.rules import _cross_check

    data = load()
    kinds = {c.id: c.leader for c in data.cards.values() if c.kind == "leader"}
    assert kinds["claire_gibson"] == "commander"
    assert kinds["viscount_unlenn"] == "agent"
    assert kinds["ipswitch_loose_cannon"] == "hero"
    assert all(c.leader is None for c in data.cards.values() if c.kind != "leader")
    unsaid = data.cards["claire_gibson"].model_copy(update={"leader": None})
    with pytest.raises(RulesDataError, match="claire_gibson: a leader says which"):
        _cross_check(replace(data, cards={**data.cards, "claire_gibson": unsaid}))
