"""Technological Singularity (Nekro faction ability): once per combat, after one of your
opponent's units is destroyed, you may gain one technology that player owns and you do not
(ti4-combat-effects.md §3; data/factions.toml; docs/rulings.md 14B3-7).

The engine fixes each player's technologies and unit cards when the battle is set up, so a
technology gained during a combat cannot act in it. This handler therefore acts only where the
technology taken cannot change the battle: when the opponent owns no technology the battle
models that the Nekro lacks (no technology with a combat rule, no upgraded unit card the Nekro
does not have). Then taking one changes nothing here, and nothing is asked or logged. Where it
could change the fight, the battle is refused by name when an enemy unit is destroyed during a
combat (not by space cannon or bombardment: those are outside combat), unless that player has
placed Antivirus face up (abilities/antivirus.py)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from spacecombat.core.engine import Node
from spacecombat.core.errors import RuleNotImplemented
from spacecombat.rulesets.ti4.abilities.base import Handler, register
from spacecombat.rulesets.ti4.state import Phase

if TYPE_CHECKING:
    from spacecombat.rulesets.ti4.setup import BattleSetup
    from spacecombat.rulesets.ti4.sides import Side
    from spacecombat.rulesets.ti4.state import BattleState

#: the promissory note that blocks it (data/cards.toml)
ANTIVIRUS = "antivirus"

#: hits assigned outside any combat: units destroyed then do not trigger it
_OUTSIDE_COMBAT = frozenset(
    {
        Phase.SPACE_CANNON_OFFENSE,
        Phase.SPACE_CANNON_OFFENSE_HITS,
        Phase.BOMBARDMENT,
        Phase.BOMBARDMENT_HITS,
        Phase.SPACE_CANNON_DEFENSE,
        Phase.SPACE_CANNON_DEFENSE_HITS,
    }
)


def _level(unit: str, setup: BattleSetup, side: Side) -> int | None:
    from spacecombat.rulesets.ti4.rules import load

    card = setup.side(side).card(unit)
    if card.level is not None or card.replaces is None:
        return card.level
    base = load().units.get(card.replaces)
    return None if base is None else base.level


def gainable(setup: BattleSetup, nekro: Side) -> str | None:
    """A technology the Nekro's opponent owns, the Nekro does not, and the battle models (a
    technology with a combat rule, or an upgraded unit card the Nekro's differs from), or
    ``None`` if there is none (found once)."""
    from spacecombat.rulesets.ti4.rules import load

    def find() -> str | None:
        data = load()
        mine, theirs = setup.side(nekro), setup.side(nekro.other)
        for tech in theirs.technologies:
            if tech not in mine.technologies and data.technologies[tech].combat == "rule":
                return data.technologies[tech].name
        for unit, card in theirs.cards.items():
            if _level(unit, setup, nekro.other) != 2:
                continue
            own = mine.cards.get(unit)
            if own is None or own.id != card.id:
                return card.name
        return None

    return setup.remembered(("singularity_gainable", nekro), find)


@register
class TechnologicalSingularity(Handler):
    id = "technological_singularity"

    def after_destroyed(
        self,
        setup: BattleSetup,
        state: BattleState,
        side: Side,
        where: int | None,
        unit: str,
        cause: str,
    ) -> Node[BattleState] | None:
        owner = self.owner
        if owner is None or side is not owner.other or state.phase in _OUTSIDE_COMBAT:
            return None
        tech = gainable(setup, owner)
        if tech is None or state.has_used(side, ANTIVIRUS):
            return None  # nothing it could take would change this battle
        raise RuleNotImplemented(
            f"Technological Singularity taking {tech} during the combat (each player's "
            "technologies are fixed when the battle is set up)",
            f"{owner.value}, after the {side.value}'s {unit} was destroyed",
        )
