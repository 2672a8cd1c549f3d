"""Matriarch (Naalu flagship; data/units.toml ``naalu_flagship``), with its FAQ errata: "During an
invasion in this system, you may commit fighters to planets as if they were ground forces. When
combat ends, return those units to the space area." docs/rulings.md 14M-1 to 14M-5.

The scenario commits fighters as it commits ground forces: a planet's ``commit`` may name
``fighter`` while the attacker's Matriarch is in the space area (``may_commit``; nothing is
committed that the scenario does not name, 14M-2). A committed fighter becomes a unit type of
its own, ``committed_fighter``, whose card is the side's fighter card (its combat value: Fighter
II, Hybrid Crystal Fighter ...) made a ground force and not a ship (``committed_cards``, added
at set-up: ``set_up_side``): on its planet it is a ground force for every purpose, so space
cannon defense may hit it, it rolls in the ground combat and takes its hits, and casualty orders
rank it right after ``fighter``. The change is made right after invasion step 2
(``after_commit``), before Parley, which sends it back as a fighter (``as_fighters``).

When the ground combat on its planet ends it goes back to the space area as a fighter, first
in the "end of combat" window (ti4-ground-combat.md rule 4; a "when" effect), before the
combat's winner is told: a player left with committed fighters only has no ground forces and
does not win (14M-3). Committed fighters on a planet where no ground combat was fought go back
before control is established (``before_establishing_control``): fighters alone never
establish control (14M-3). In a space battle the handler is not in play (``battles``)."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import replace
from typing import TYPE_CHECKING

from spacecombat.core.engine import Node, Step
from spacecombat.core.events import Event, event
from spacecombat.core.forces import Forces
from spacecombat.core.rulesdata import UnitDef
from spacecombat.rulesets.ti4.abilities.base import Acts, Handler, register
from spacecombat.rulesets.ti4.effects import changed_events, relabel
from spacecombat.rulesets.ti4.hooks import Window
from spacecombat.rulesets.ti4.sides import Side

if TYPE_CHECKING:
    from spacecombat.rulesets.ti4.setup import BattleSetup, SideDraft, SideSetup
    from spacecombat.rulesets.ti4.state import BattleState
    from spacecombat.scenario.schema import Scenario

ID = "naalu_flagship_fighters_invade"
FLAGSHIP = "flagship"
FIGHTER = "fighter"
#: a fighter committed to a planet: a ground force there until it returns to the space area
COMMITTED = "committed_fighter"


def committed_cards(cards: Mapping[str, UnitDef]) -> dict[str, UnitDef]:
    """The committed fighter's card, for a side whose flagship has this ability (else none):
    the side's own fighter card, a ground force and not a ship."""
    flagship, fighter = cards.get(FLAGSHIP), cards.get(FIGHTER)
    if flagship is None or fighter is None:
        return {}
    if not any(a.handler == ID for a in flagship.abilities):
        return {}
    card = fighter.model_copy(
        update={
            "name": f"{fighter.name} (committed by the Matriarch)",
            "is_ship": False,
            "is_ground_force": True,
        }
    )
    return {COMMITTED: card}


def as_fighters(units: Forces) -> Forces:
    """``units`` leaving a planet for the space area: committed fighters are fighters again."""
    back, _ = relabel(units, lambda u: FIGHTER if u == COMMITTED else None)
    return back


@register
class NaaluFlagshipFightersInvade(Handler):
    id = ID
    battles = frozenset({"invasion"})  # a space combat keeps its rounds in product form
    acts = Acts(frozenset({Window.END_OF_COMBAT}))

    def set_up_side(self, scenario: Scenario, draft: SideDraft) -> SideDraft:
        """In an invasion, the committed fighter's card for the attacker with the Matriarch in
        the space area (docs/rulings.md 14M-1)."""
        if (
            scenario.battle != "invasion"
            or draft.side is not Side.ATTACKER
            or draft.side is not self.owner
            or not draft.spec.units.get(FLAGSHIP)
        ):
            return draft
        made = committed_cards(draft.cards)
        return replace(draft, cards={**draft.cards, **made}) if made else draft

    def may_commit(self, cards: SideSetup, unit: str) -> bool:
        """Its fighters, while they may become committed fighters (docs/rulings.md 14M-1)."""
        return unit == FIGHTER and COMMITTED in cards.cards

    def after_commit(
        self, setup: BattleSetup, state: BattleState, planet: int
    ) -> Node[BattleState] | None:
        owner = self.owner
        if owner is not Side.ATTACKER or COMMITTED not in setup.side(owner).cards:
            return None
        mine = state.side(owner)
        landed, changed = relabel(
            mine.planet(planet), lambda u: COMMITTED if u == FIGHTER else None
        )
        if not changed:
            return None
        done = state.with_side(owner, mine.with_planet(planet, landed))
        return Step(done, changed_events(owner, changed, ID))

    def acts_first_in_window(self) -> bool:
        return True  # "when combat ends": before what happens "at the end of combat"

    def in_window(
        self, setup: BattleSetup, state: BattleState, windows: frozenset[Window]
    ) -> Node[BattleState] | None:
        return self._return(setup, state, (state.planet,))

    def before_establishing_control(
        self, setup: BattleSetup, state: BattleState
    ) -> Node[BattleState] | None:
        return self._return(setup, state, range(len(setup.planets)))

    def _return(
        self, setup: BattleSetup, state: BattleState, planets: Iterable[int]
    ) -> Step[BattleState] | None:
        """The owner's committed fighters on ``planets`` back in the space area as fighters."""
        owner = self.owner
        if owner is not Side.ATTACKER:
            return None
        mine = state.side(owner)
        events: list[Event] = []
        for p in planets:
            here = mine.planet(p)
            committed = here.keep(COMMITTED.__eq__)
            if not committed:
                continue
            back = as_fighters(committed)
            mine = mine.with_planet(p, here.without(COMMITTED.__eq__))
            mine = mine.with_space(mine.space.plus(back))
            events += changed_events(
                owner, [(COMMITTED, st, n, FIGHTER) for _, st, n in committed], ID
            )
            events.append(
                event(
                    "ground_forces_returned",
                    planet=setup.planets[p],
                    units=back.to_json(),
                    by=ID,
                )
            )
        if not events:
            return None
        return Step(state.with_side(owner, mine), tuple(events))
