"""The Cavalry (Nomad promissory note): at the start of a space combat against a player other
than the Nomad, one of the holder's non-fighter ships in the active system is treated, during
this combat, as having the SUSTAIN DAMAGE ability, the combat value and the ANTI-FIGHTER
BARRAGE value of the Nomad's flagship: Memoria I (combat 7 x2, barrage 8 x3), or Memoria II
(5 x2, 5 x3) when the holder's ``conditions`` say the Nomad has it (``nomad_memoria_ii``).

Played in the "start of combat" window (ti4-space-combat.md rule 2.1), before anti-fighter
barrage, through one "play_card" decision naming the ship ("play the_cavalry: UNIT"; the stock
policy picks the ship that gains most). The chosen ship becomes a unit type of its own for the
combat, ``cavalry_UNIT`` (the state counts units by type), whose card is the ship's with the
flagship's values (``cavalry_cards``, added at set-up: ``set_up_side``). Once the combat's
result is decided it turns back into the ship it was, keeping its damage (``at_end_of_combat``).
docs/rulings.md 14S-2.

The chosen ship is still its unit type (a cruiser, the flagship) for every effect naming that
type, and keeps its own abilities (docs/rulings.md 14CV-1): handlers naming a type ask
``SideSetup.is_a`` / ``count_of``, which read the card's ``type``. A Z-Grav Eidolon and a
ground force participating with the Alastor are non-fighter ships and may be chosen; a planet
participant stops being one when its player's retreat begins and loses the lent values then
(``before_retreat``; 14CV-5)."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import replace
from typing import TYPE_CHECKING

from spacecombat.core.engine import Node, Step
from spacecombat.core.errors import RuleNotImplemented, ScenarioError
from spacecombat.core.forces import Status
from spacecombat.core.rulesdata import UnitDef
from spacecombat.rulesets.ti4.abilities.base import Acts, Card, offer_plays, register
from spacecombat.rulesets.ti4.abilities.nekro_flagship_ground_forces_fight import PLANET_PREFIX
from spacecombat.rulesets.ti4.effects import change_units, changed_events
from spacecombat.rulesets.ti4.hooks import Window
from spacecombat.rulesets.ti4.rules import load
from spacecombat.rulesets.ti4.sides import Side

if TYPE_CHECKING:
    from spacecombat.rulesets.ti4.rules import Ti4Data
    from spacecombat.rulesets.ti4.setup import BattleSetup, SideDraft
    from spacecombat.rulesets.ti4.state import BattleState
    from spacecombat.scenario.schema import Scenario

CARD = "the_cavalry"
NOMAD = "nomad"
#: the holder's condition: the Nomad has Memoria II (data/cards.toml)
MEMORIA_II = "nomad_memoria_ii"
FLAGSHIPS = ("nomad_flagship", "nomad_flagship2")
#: the unit type of the chosen ship during the combat: PREFIX + its own type
PREFIX = "cavalry_"
#: the abilities of a ship's own card that treat it as its unit type also as The Cavalry's
#: ship (or never name it): a holder with a ship having another ability is refused
#: (``set_up_side``; docs/rulings.md 14CV-1)
SEES_TYPES = frozenset(
    {
        "argent_destroyer2_afb_kills_infantry",  # reads the card's abilities (14CV-4)
        "argent_flagship_blocks_space_cannon",  # acts before the start of combat
        "creuss_flagship_delta_wormhole",
        "empyrean_flagship_repair",
        "hacan_flagship_buy_roll_bonus",
        "jolnar_flagship_extra_hits",
        "l1z1x_flagship_hits_non_fighters",
        "letnev_flagship_repair",
        "mahact_flagship_bonus",
        "mentak_flagship_no_enemy_sustain",
        "naalu_flagship_fighters_invade",  # acts in invasions, where The Cavalry is not played
        "naazrokha_flagship_mech_extra_die",
        "naazrokha_mech_flip",
        "nekro_flagship_ground_forces_fight",
        "sardakk_dreadnought2_sacrifice",
        "sardakk_flagship_bonus",
        "winnu_flagship_dice",
        "yin_flagship_destroys_all",
    }
)


def usable(battle: str, opponent_faction: str | None) -> bool:
    """Whether The Cavalry can be played in this battle: a space combat against a player other
    than the Nomad."""
    return battle == "space" and opponent_faction != NOMAD


def cavalry_cards(
    data: Ti4Data, cards: Mapping[str, UnitDef], memoria_ii: bool
) -> dict[str, UnitDef]:
    """The unit types a ship of ``cards`` becomes when chosen: each non-fighter ship's card with
    the SUSTAIN DAMAGE, combat value (its dice too: LRR "combat value contains burst icons")
    and ANTI-FIGHTER BARRAGE of the Nomad's flagship."""
    flagship = data.units[FLAGSHIPS[1] if memoria_ii else FLAGSHIPS[0]]
    return {
        PREFIX + unit: card.model_copy(
            update={
                "name": f"{card.name} (The Cavalry)",
                "combat": flagship.combat,
                "sustain_damage": True,
                "anti_fighter_barrage": flagship.anti_fighter_barrage,
            }
        )
        for unit, card in cards.items()
        if card.is_ship and card.type != "fighter"
    }


def base_type(unit: str) -> str:
    """The ship's own type (``cavalry_cruiser`` -> ``cruiser``)."""
    return unit.removeprefix(PREFIX)


def _gain(setup: BattleSetup, owner: Side, state: BattleState, unit: str, status: Status) -> float:
    """What the ship gains, in expected hits of one roll: combat dice, SUSTAIN DAMAGE (one hit
    cancelled) for an undamaged ship without it, barrage dice if the opponent has fighters."""
    cards = setup.side(owner)
    own, lent = cards.card(unit), cards.card(PREFIX + unit)

    def expected(roll: object) -> float:
        dice, hit = getattr(roll, "dice", None), getattr(roll, "hit", None)
        if dice is None or hit is None:
            return 0.0
        return float(dice * max(0, 11 - hit)) / 10

    gain = expected(lent.combat) - expected(own.combat)
    if not own.sustain_damage and status is Status.UNDAMAGED:
        gain += 1
    enemy = state.side(owner.other).space
    if enemy.total(setup.side(owner.other).fighter_types.__contains__):
        gain += expected(lent.anti_fighter_barrage) - expected(own.anti_fighter_barrage)
    return gain


@register
class TheCavalry(Card):
    id = CARD
    #: acts at the start of combat, before the first round's dice (product form kept)
    keeps_product_form = frozenset({"in_window"})
    card = CARD
    acts = Acts(frozenset({Window.START_OF_COMBAT}), battles=frozenset({"space"}), held=True)

    def set_up_side(self, scenario: Scenario, draft: SideDraft) -> SideDraft:
        """The unit types a ship of its holder becomes when the card is played on it (none when
        it cannot be played in this battle), after the effects making ships of other units (a
        Z-Grav Eidolon may be chosen: 14CV-5). A ship is still its unit type for the effects
        naming that type (``SideSetup.is_a``); a holder whose ship has an ability whose handler
        does not treat it so yet is refused (``SEES_TYPES``; docs/rulings.md 14CV-1)."""
        if draft.side is not self.owner:
            return draft
        where = draft.side.value
        notes = list(draft.spec.promissory_notes or ())
        field_name = f"{where}.promissory_notes[{notes.index(CARD)}]"
        if draft.faction == NOMAD:
            raise ScenarioError(field_name, "the Nomad cannot play its own promissory note")
        opponent = scenario.defender if draft.side is Side.ATTACKER else scenario.attacker
        if not usable(scenario.battle, opponent.faction):
            return draft
        cards = draft.cards
        for unit in draft.present:
            card = cards[unit]
            if not card.is_ship or card.type == "fighter":
                continue
            for ability in card.abilities:
                if ability.combat == "rule" and ability.handler not in SEES_TYPES:
                    raise RuleNotImplemented(
                        f"The Cavalry with {card.name} in the fleet (its ability "
                        f"{ability.handler} names its unit type)",
                        field_name,
                    )
        made = cavalry_cards(load(), cards, MEMORIA_II in draft.conditions)
        return replace(draft, cards={**cards, **made})

    def acts_first_in_window(self) -> bool:
        """Before its holder's other start-of-combat effects (Ambush rolls at the lent combat
        value, Impulse Core may give another ship), after those acting first that make ships
        of other units, which come before it in the handlers' order (the Eidolon's flip, the
        Alastor): the order its holder would choose (docs/rulings.md 14CV-2)."""
        return True

    def in_window(
        self, setup: BattleSetup, state: BattleState, windows: frozenset[Window]
    ) -> Node[BattleState] | None:
        owner = self.player
        cards = setup.side(owner)
        space = state.side(owner).space
        ships = [(u, st) for u, st, _ in space if PREFIX + u in cards.cards]
        if not ships:
            return None  # against the Nomad (no such types), or no non-fighter ship left
        ranked = sorted(ships, key=lambda s: (-_gain(setup, owner, state, *s), s[0], s[1]))

        def choose(unit: str, status: Status) -> Callable[[BattleState], Step[BattleState]]:
            def act(s: BattleState) -> Step[BattleState]:
                area = s.side(owner).space
                forces = area.remove(unit, status).add(PREFIX + unit, status)
                done = s.with_side(owner, s.side(owner).with_space(forces))
                return Step(done, changed_events(owner, [(unit, status, 1, PREFIX + unit)], CARD))

            return act

        choices = [
            (
                unit if status is Status.UNDAMAGED else f"{unit} ({status.label})",
                choose(unit, status),
            )
            for unit, status in ranked
        ]
        return offer_plays(
            owner,
            CARD,
            state,
            "The Cavalry: one of your non-fighter ships gains the Nomad flagship's SUSTAIN "
            "DAMAGE, combat value and ANTI-FIGHTER BARRAGE for this combat",
            choices,
        )

    def before_retreat(
        self, setup: BattleSetup, state: BattleState, side: Side
    ) -> Node[BattleState] | None:
        """A ground force chosen while participating from a planet with the Alastor stops being
        a ship when its player's retreat begins (14AL-3): it loses the lent values then, before
        it lands on its planet (14CV-5)."""
        if side is not self.owner:
            return None

        def back(unit: str) -> str | None:
            return base_type(unit) if unit.startswith(PREFIX + PLANET_PREFIX) else None

        return change_units(state, side, back, CARD)

    def at_end_of_combat(self, setup: BattleSetup, state: BattleState) -> Node[BattleState] | None:
        owner = self.owner
        if owner is None:
            return None

        def back(unit: str) -> str | None:
            return base_type(unit) if unit.startswith(PREFIX) else None

        return change_units(state, owner, back, CARD)
