"""Articles of War (law, Prophecy of Kings): every mech loses its printed abilities except
SUSTAIN DAMAGE (ti4-combat-effects.md §7; data/laws.toml).

It changes the unit cards before the battle starts rather than any step of it: at set-up
(``set_up_side``) each side's mech card becomes ``stripped(card)``, first of all the effects
acting then (a law's handler comes before the players'), so a mech's handlers (the
Mentak mech's, the Naalu mech's ...) are never in play and its stat abilities (the Arborec
mech's PLANETARY SHIELD, the L1Z1X mech's BOMBARDMENT, the Xxcha mech's SPACE CANNON) are gone;
its combat value, cost and SUSTAIN DAMAGE stay (a combat value is a statistic, not an ability:
docs/rulings.md, "Articles of War")."""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING

from spacecombat.core.rulesdata import UnitDef
from spacecombat.rulesets.ti4.abilities.base import Handler, register

if TYPE_CHECKING:
    from spacecombat.rulesets.ti4.setup import SideDraft
    from spacecombat.scenario.schema import Scenario

#: the law's id in data/laws.toml
LAW = "articles_of_war"


@register
class ArticlesOfWar(Handler):
    """The law: its whole effect is ``stripped`` at set-up."""

    id = "articles_of_war"

    def set_up_side(self, scenario: Scenario, draft: SideDraft) -> SideDraft:
        """Every player's mech card without its printed abilities."""
        return replace(draft, cards={unit: stripped(card) for unit, card in draft.cards.items()})


def stripped(card: UnitDef) -> UnitDef:
    """A mech card without its printed abilities, SUSTAIN DAMAGE kept (other cards as they
    are)."""
    if card.type != "mech":
        return card
    return card.model_copy(
        update={
            "abilities": (),
            "anti_fighter_barrage": None,
            "bombardment": None,
            "space_cannon": None,
            "planetary_shield": False,
            "disables_enemy_planetary_shield": False,
            "fighter_capacity_exemption": 0,
        }
    )
