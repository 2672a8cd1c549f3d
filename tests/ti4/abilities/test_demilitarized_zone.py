"""Demilitarized Zone (law electing a cultural planet; abilities/demilitarized_zone.py): no
unit may be committed to the elected planet (ti4-combat-effects.md §7), so an invasion of it is
refused at set-up, naming the planet; other battles play as without the law."""

from __future__ import annotations

from typing import Any

import pytest

from spacecombat import odds
from spacecombat.core.errors import ScenarioError
from tests.helpers import invasion, space


def refused(scenario: dict[str, Any]) -> ScenarioError:
    with pytest.raises(ScenarioError) as error:
        odds(scenario)
    return error.value


def dmz_invasion(zone: str) -> dict[str, Any]:
    return invasion(
        {"units": "1 carrier, 2 infantry"},
        {},
        planets=[{"name": "Lazar", "defender": {"infantry": 1}}],
        laws=["demilitarized_zone"],
        elected={"demilitarized_zone": zone},
    )


def test_demilitarized_zone_names_its_planet() -> None:
    error = refused(
        space({"units": "1 cruiser"}, {"units": "1 cruiser"}, laws=["demilitarized_zone"])
    )
    assert error.field == "laws[0]"
    assert "elected: {demilitarized_zone: PLANET}" in error.message


def test_the_demilitarized_planet_cannot_be_invaded() -> None:
    """ti4-combat-effects.md §7: no unit may be committed to the elected planet."""
    error = refused(dmz_invasion("Lazar"))
    assert error.field == "planets[0]"
    assert "Demilitarized Zone" in error.message


def test_another_planet_is_invaded_as_without_the_law() -> None:
    plain = dmz_invasion("Lazar")
    del plain["laws"], plain["elected"]
    assert odds(dmz_invasion("Mecatol Rex")).to_json() == odds(plain).to_json()
