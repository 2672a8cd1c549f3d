"""Demilitarized Zone (law, elects a cultural planet): every unit on it is destroyed, and no
unit may afterwards be committed to, produced on or placed on it (ti4-combat-effects.md §7).

No battle step changes: the planet holds no units, and no ground force can be committed to it,
so an invasion of it cannot happen. The setup (``setup.py``, ``_check_elected``) refuses a
scenario that invades the planet the law elects (``elected: {demilitarized_zone: NAME}``),
naming the planet and the law; any other battle is played as if the law were not there."""

from __future__ import annotations

from spacecombat.core.limits import shown
from spacecombat.rulesets.ti4.abilities.base import Handler, register

#: the law's id in data/laws.toml
LAW = "demilitarized_zone"


@register
class DemilitarizedZone(Handler):
    """Registered so the law is accepted; its effect is the setup's refusal."""

    id = "demilitarized_zone"


def refusal(planet: str) -> str:
    """Why an invasion of the elected planet cannot be fought."""
    return (
        f"{shown(planet)} is the planet Demilitarized Zone elected: no unit may be committed "
        "to it, so it cannot be invaded"
    )
