"""Demilitarized Zone (law, elects a cultural planet): every unit on it is destroyed, and no
unit may afterwards be committed to, produced on or placed on it (ti4-combat-effects.md §7).

No battle step changes: the planet holds no units, and no ground force can be committed to it,
so an invasion of it cannot happen. The set-up refuses (``scenario_refusal``) a scenario that
invades the planet the law elects (``elected: {demilitarized_zone: NAME}``), naming the planet
and the law; any other battle is played as if the law were not there."""

from __future__ import annotations

from typing import TYPE_CHECKING

from spacecombat.core.errors import ScenarioError
from spacecombat.core.limits import shown
from spacecombat.rulesets.ti4.abilities.base import Handler, register

if TYPE_CHECKING:
    from spacecombat.scenario.schema import Scenario

#: the law's id in data/laws.toml
LAW = "demilitarized_zone"


@register
class DemilitarizedZone(Handler):
    """The law: its effect is the set-up's refusal."""

    id = "demilitarized_zone"

    def scenario_refusal(self, scenario: Scenario) -> ScenarioError | None:
        """An invasion of the planet the law elected."""
        zone = (scenario.elected or {}).get(LAW)
        if zone is None or scenario.battle != "invasion":
            return None
        for i, planet in enumerate(scenario.planets or ()):
            if planet.name == zone:
                return ScenarioError(f"planets[{i}]", refusal(zone))
        return None


def refusal(planet: str) -> str:
    """Why an invasion of the elected planet cannot be fought."""
    return (
        f"{shown(planet)} is the planet Demilitarized Zone elected: no unit may be committed "
        "to it, so it cannot be invaded"
    )
