"""Articles of War (law, Prophecy of Kings): every mech loses its printed abilities except
SUSTAIN DAMAGE (ti4-combat-effects.md §7; data/laws.toml).

It changes the unit cards before the battle starts rather than any step of it: the setup
(``setup.py``, ``_side``) gives each mech card ``stripped(card)``, so a mech's handlers (the
Mentak mech's, the Naalu mech's ...) are never in play and its stat abilities (the Arborec
mech's PLANETARY SHIELD, the L1Z1X mech's BOMBARDMENT, the Xxcha mech's SPACE CANNON) are gone;
its combat value, cost and SUSTAIN DAMAGE stay (a combat value is a statistic, not an ability:
docs/rulings.md, "Articles of War")."""

from __future__ import annotations

from spacecombat.core.rulesdata import UnitDef
from spacecombat.rulesets.ti4.abilities.base import Handler, register

#: the law's id in data/laws.toml
LAW = "articles_of_war"


@register
class ArticlesOfWar(Handler):
    """Registered so the law is accepted; its whole effect is ``stripped`` at set-up."""

    id = "articles_of_war"


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
