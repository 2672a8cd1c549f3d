"""Magen Defense Grid Ω (red technology, Codex I): at the start of a ground combat on a planet
that contains 1 or more of your structures, you may produce 1 hit and assign it to 1 of your
opponent's ground forces (ti4-combat-effects.md §1, text checked against the Codex I card:
docs/rulings.md 14D2-3; data/technologies.toml).

Offered through "play_card" in the "start of combat" window of each ground combat
(ti4-ground-combat.md rule 4.1, note 1; a passive technology: not exhausted), one option per
type and status of the opponent's ground forces there: the owner assigns the hit (the
producer chooses: ti4-combat-effects.md "Hit assignment"); the stock policy takes the first,
a unit the hit destroys outright (no SUSTAIN DAMAGE left), best combat value first. The hit is
then taken by the opponent, whose unit may use SUSTAIN DAMAGE (invasion.py
``space_cannon_defense_hits`` during a ground combat, ``state.aim``)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from spacecombat.core.engine import Node, Step
from spacecombat.core.forces import STATUSES, Status, describe
from spacecombat.rulesets.ti4.abilities.base import INVASION_ONLY, Acts, Handler, register
from spacecombat.rulesets.ti4.abilities.invasion_effects import offer_ways
from spacecombat.rulesets.ti4.abilities.sustain_damage import sustainable
from spacecombat.rulesets.ti4.hooks import Window
from spacecombat.rulesets.ti4.state import Aim, Phase

if TYPE_CHECKING:
    from spacecombat.rulesets.ti4.setup import BattleSetup
    from spacecombat.rulesets.ti4.state import BattleState

CAUSE = "Magen Defense Grid Ω"


@register
class MagenDefenseGridOmega(Handler):
    id = "magen_defense_grid_omega"
    battles = INVASION_ONLY  # offered at the start of a ground combat (24AJ-1)
    #: acts at the start of combat, before the first round's dice (product form kept)
    keeps_product_form = frozenset({"in_window"})
    card = "magen_defense_grid_omega"
    asks = card  # its play_card decisions (Handler.asks)
    acts = Acts(frozenset({Window.START_OF_COMBAT}), battles=frozenset({"invasion"}))

    def in_window(
        self, setup: BattleSetup, state: BattleState, windows: frozenset[Window]
    ) -> Node[BattleState] | None:
        owner = self.player
        planet = state.planet
        mine = setup.side(owner)
        if not state.side(owner).planet(planet).keep(mine.is_structure):
            return None
        opponent = owner.other
        cards = setup.side(opponent)
        able = sustainable(setup, opponent)
        targets = [
            (unit, status)
            for unit, status, _ in state.side(opponent).planet(planet)
            if cards.is_ground_force(unit)
        ]
        if not targets:
            return None

        def order(target: tuple[str, Status]) -> tuple[bool, int, str, int]:
            unit, status = target
            combat = cards.card(unit).combat
            value = combat.hit if combat is not None else 11
            return (able(unit, status), value, unit, int(status))

        ways = [
            (f"on {describe(unit, status)}", f"{unit}:{int(status)}")
            for unit, status in sorted(targets, key=order)
        ]

        def play(s: BattleState, aim: str | None) -> Step[BattleState]:
            aimed = s.at(Phase.SPACE_CANNON_DEFENSE_HITS).with_hits_on(opponent, 1)
            return Step(aimed.changed(aim=_aimed_at(aim)))

        return offer_ways(
            owner,
            self.card,
            state,
            "Magen Defense Grid Ω: produce 1 hit on one of your opponent's ground forces?",
            ways,
            play,
            exhaust=False,
        )


def _aimed_at(way: str | None) -> Aim:
    """The aim of the hit placed on the unit a way names ("UNIT:STATUS")."""
    if way is None:
        return Aim(CAUSE)
    unit, _, status = way.partition(":")
    return Aim(CAUSE, unit=(unit, STATUSES[int(status)]))
