"""Articles of War (law; abilities/articles_of_war.py): every mech loses its printed abilities
except SUSTAIN DAMAGE (ti4-combat-effects.md §7). Applied to the unit cards at set-up: a mech's
handlers are not in play and its stat abilities are gone; SUSTAIN DAMAGE and the combat value
stay."""

from __future__ import annotations

from typing import Any

from spacecombat.core.forces import Forces
from spacecombat.rulesets import parse_ti_scenario
from spacecombat.rulesets.ti4.abilities.planetary_shield import is_shielded
from spacecombat.rulesets.ti4.rules import load
from spacecombat.rulesets.ti4.setup import BattleSetup, build
from spacecombat.rulesets.ti4.sides import Side
from tests.helpers import invasion, rolls, run

A, D = Side.ATTACKER, Side.DEFENDER
DREADNOUGHT = Forces.of({"dreadnought": 1})


def arborec_invasion(**extra: Any) -> dict[str, Any]:
    return invasion(
        {"units": "1 dreadnought, 1 infantry"},
        {"faction": "arborec"},
        planets=[{"name": "P", "defender": {"mech": 1, "infantry": 1}}],
        **extra,
    )


def setup_of(scenario: dict[str, Any]) -> BattleSetup:
    return build(parse_ti_scenario(scenario))


def test_the_arborec_mech_shields_its_planet_without_the_law() -> None:
    # units.toml: the Arborec mech (Letani Behemoth) has PLANETARY SHIELD
    assert is_shielded(setup_of(arborec_invasion()), D, Forces.of({"mech": 1}), DREADNOUGHT)


def test_with_the_law_it_loses_planetary_shield_and_keeps_sustain_damage() -> None:
    setup = setup_of(arborec_invasion(laws=["articles_of_war"]))
    assert not is_shielded(setup, D, Forces.of({"mech": 1}), DREADNOUGHT)
    card = setup.side(D).card("mech")
    assert card.sustain_damage
    assert card.abilities == ()
    assert card.combat == load().units["arborec_mech"].combat


def test_the_shield_is_gone_so_the_dreadnought_bombards() -> None:
    played = run(arborec_invasion(laws=["articles_of_war"]), [10] * 40, all_dice=False)
    assert rolls(played, "bombardment")


def test_a_mechs_handler_is_not_in_play_under_the_law() -> None:
    # the Jol-Nar mech's "your infantry on its planet ignore FRAGILE" is one of its printed
    # abilities: with the law the mech is plain (no handler asked for, none in play)
    scenario = invasion(
        {"faction": "jolnar", "units": "1 carrier, 1 mech"},
        {},
        planets=[{"name": "P", "defender": {"infantry": 1}}],
        laws=["articles_of_war"],
    )
    setup = setup_of(scenario)
    assert not [h for h in setup.handlers if h.owner is A and "mech" in h.id]


def test_other_units_are_untouched() -> None:
    setup = setup_of(arborec_invasion(laws=["articles_of_war"]))
    assert setup.side(D).card("pds").planetary_shield
