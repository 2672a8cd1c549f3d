"""X-89 Bacterial Weapon Ω (green technology, Codex I): after 1 or more of your units use
BOMBARDMENT against a planet, if at least 1 of your opponent's infantry was destroyed, you may
destroy all of your opponent's infantry on that planet (ti4-combat-effects.md §1, text checked
against the Codex I card: docs/rulings.md 14D2-7; data/technologies.toml).

Asked after every bombardment of the owner (the attacker), once its hits are assigned: step 1
of the invasion and Harrow's (invasion.py ``bombardment_hits``, ``after_bombardment``), through
"play_card" (a passive technology: not exhausted). A bombardment a planetary shield stops, or
that is not rolled, destroys nothing, so it does not act. The infantry is destroyed
(``unit_destroyed``, cause "X-89 Bacterial Weapon Ω"), not hit: SUSTAIN DAMAGE has no say."""

from __future__ import annotations

from typing import TYPE_CHECKING

from spacecombat.core.engine import Node, Step
from spacecombat.core.hits import destroyed
from spacecombat.rulesets.ti4.abilities.base import INVASION_ONLY, Handler, register
from spacecombat.rulesets.ti4.abilities.invasion_effects import offer_ways
from spacecombat.rulesets.ti4.sides import Side

if TYPE_CHECKING:
    from spacecombat.rulesets.ti4.setup import BattleSetup
    from spacecombat.rulesets.ti4.state import BattleState

INFANTRY = "infantry"
CAUSE = "X-89 Bacterial Weapon Ω"


@register
class X89BacterialWeaponOmega(Handler):
    id = "x89_bacterial_weapon_omega"
    battles = INVASION_ONLY  # asked after a bombardment (24AJ-1)
    card = "x89_bacterial_weapon_omega"
    asks = card  # its play_card decisions (Handler.asks)

    def after_bombardment(
        self, setup: BattleSetup, state: BattleState, planet: int, infantry_destroyed: int
    ) -> Node[BattleState] | None:
        owner = self.owner
        if owner is not Side.ATTACKER or infantry_destroyed < 1:
            return None
        opponent = owner.other
        theirs = state.side(opponent)
        here = theirs.planet(planet)
        infantry = here.keep(lambda unit: unit == INFANTRY)
        if not infantry:
            return None

        def play(s: BattleState, unit: str | None) -> Step[BattleState]:
            left = here.without(lambda u: u == INFANTRY)
            return Step(
                s.with_side(opponent, theirs.with_planet(planet, left)),
                destroyed(opponent, infantry, CAUSE),
            )

        return offer_ways(
            owner,
            self.card,
            state,
            "X-89 Bacterial Weapon Ω: destroy all of your opponent's infantry on the planet?",
            [("", None)],
            play,
            exhaust=False,
        )
