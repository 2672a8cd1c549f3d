"""Greyfire Mutagen (Yin promissory note; abilities/greyfire_mutagen.py): after a system is
activated, the Yin Brotherhood cannot use faction abilities or faction technologies during this
tactical action (ti4-combat-effects.md §5). Listed by a side, it has been played: against a Yin
opponent their faction abilities and faction technologies are not in play."""

from __future__ import annotations

from typing import Any

from spacecombat.rulesets import parse_ti_scenario
from spacecombat.rulesets.ti4.setup import BattleSetup, build
from spacecombat.rulesets.ti4.sides import Side
from tests.helpers import space

A, D = Side.ATTACKER, Side.DEFENDER
NOTE = {"promissory_notes": ["greyfire_mutagen"]}


def setup_of(scenario: dict[str, Any]) -> BattleSetup:
    return build(parse_ti_scenario(scenario))


def yin_handlers(setup: BattleSetup) -> list[str]:
    return [h.id for h in setup.handlers if h.owner is D]


def test_the_yin_keep_a_plain_technology() -> None:
    # Duranium Armor is not a faction technology: Greyfire Mutagen leaves it
    setup = setup_of(
        space(
            {"units": "1 cruiser", **NOTE},
            {"faction": "yin", "units": "1 cruiser", "technologies": ["duranium_armor"]},
        )
    )
    assert "duranium_armor" in yin_handlers(setup)


def test_against_the_yin_their_faction_abilities_and_technologies_are_out() -> None:
    setup = setup_of(
        space(
            {"units": "1 cruiser", **NOTE},
            {"faction": "yin", "units": "1 cruiser", "technologies": ["impulse_core"]},
        )
    )
    handlers = yin_handlers(setup)
    assert "devotion" not in handlers
    assert "indoctrination" not in handlers
    assert "impulse_core" not in handlers


def test_against_another_faction_it_does_nothing() -> None:
    setup = setup_of(
        space({"units": "1 cruiser", **NOTE}, {"faction": "sardakk", "units": "1 cruiser"})
    )
    assert "unrelenting" in yin_handlers(setup)
