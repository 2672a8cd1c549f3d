"""Technological Singularity (Nekro faction ability): "Once per combat, after 1 of your
opponent's units is destroyed, you may gain 1 technology that is owned by that player"
(data/factions.toml; ti4-combat-effects.md §3; docs/rulings.md 14T-1 to 14T-6).

Heard through ``after_destroyed`` (procedures/assign_hits.py, procedures/windows.py): after
each of the opponent's units destroyed during a combat (not by space cannon or bombardment,
which are outside combat), while it is unused in this combat, the Nekro is asked once, a
``play_card`` decision: ``play technological_singularity: gain TECH`` for each technology the
opponent owns, the Nekro does not, and that can still change this battle (``offers``), or
``pass`` (it may then be used after a later destruction). Used, it is recorded per combat
(``used``: ``technological_singularity:space`` or ``technological_singularity:PLANET``, since
each ground combat is a combat of its own), and the technology joins ``BattleState.gained``:
from the next step on the battle is read as if the scenario had listed it
(``BattleSetup.having``). A unit upgrade is gained as ``upgrade:UNIT``.

Not while the opponent has placed Antivirus face up (abilities/antivirus.py). Another
faction's faction technology is never gained: its text does nothing for the Nekro; a Nekro
with a Valefar Assimilator whose token is free may put the token on it instead, offered as
``play technological_singularity: copy TECH with valefar_assimilator_x`` (``COPY_ACTS``,
``free_tokens``; docs/rulings.md 27V-4); a faction unit upgrade of the opponent (Exotrireme II)
so copied is named by its card's id, and that card replaces the Nekro's of its unit type
(``copied_upgrades``; docs/rulings.md 27V-7)."""

from __future__ import annotations

from fractions import Fraction
from typing import TYPE_CHECKING, cast

from spacecombat.core.engine import Step
from spacecombat.core.errors import RuleNotImplemented
from spacecombat.core.events import event
from spacecombat.rulesets.ti4.abilities.base import Handler, offer_plays, register
from spacecombat.rulesets.ti4.effects import combatants
from spacecombat.rulesets.ti4.rules import UPGRADE, faction_unit_upgrade, load
from spacecombat.rulesets.ti4.state import Phase

if TYPE_CHECKING:
    from collections.abc import Callable

    from spacecombat.core.engine import Node
    from spacecombat.core.rulesdata import UnitDef
    from spacecombat.rulesets.ti4.setup import BattleSetup
    from spacecombat.rulesets.ti4.sides import Side
    from spacecombat.rulesets.ti4.state import BattleState

#: the promissory note that blocks it (data/cards.toml)
ANTIVIRUS = "antivirus"
#: the Nekro technologies that copy a faction technology instead (data/technologies.toml)
ASSIMILATORS = ("valefar_assimilator_x", "valefar_assimilator_y")


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

#: Each technology with a combat rule and no faction, with where it can still act once a unit
#: has been destroyed in a combat of this battle (docs/rulings.md 14T-2), best first: the stock
#: policy takes these, in this order, after the unit upgrades that add to the Nekro's combat
#: rolls. "space": the rest of the space combat; "ground": the rest of this ground combat or a
#: later one; "later_ground": the start of a ground combat still to come; "ground_won": when a
#: ground combat is won (this one, even once its last enemy unit is destroyed, or a later one).
#: Empty: its moment is over by then (the start of the space combat; space cannon and
#: bombardment come before the combats).
LATER_ACTS: dict[str, frozenset[str]] = {
    "duranium_armor": frozenset({"space", "ground"}),  # every round, after hits are assigned
    "magen_defense_grid": frozenset({"ground"}),  # the start of each ground combat round
    "magen_defense_grid_omega": frozenset({"later_ground"}),  # the start of a ground combat
    "dacxive_animators": frozenset({"ground_won"}),  # when a ground combat is won
    "dark_energy_tap": frozenset({"space"}),  # a retreat
    "antimass_deflectors": frozenset({"space"}),  # a retreat into an asteroid field
    "assault_cannon": frozenset(),  # the start of a space combat
    "plasma_scoring": frozenset(),  # SPACE CANNON and BOMBARDMENT rolls
    "graviton_laser_system": frozenset(),  # SPACE CANNON offense
    "x89_bacterial_weapon_omega": frozenset(),  # after BOMBARDMENT
}


#: Each faction technology with a combat rule, with where it can still act once a unit has been
#: destroyed in a combat of this battle (as ``LATER_ACTS``): what a Valefar Assimilator's token
#: may copy "instead of gaining" a technology (docs/rulings.md 27V-4), in the stock policy's
#: order, after the technologies of ``LATER_ACTS``. Empty: its moment is over by then (the start
#: of the space combat; space cannon comes before the combats).
COPY_ACTS: dict[str, frozenset[str]] = {
    "non_euclidean_shielding": frozenset({"space", "ground"}),  # each SUSTAIN DAMAGE
    "supercharge": frozenset({"space", "ground"}),  # the start of each combat round
    "valkyrie_particle_weave": frozenset({"ground"}),  # each ground combat round
    "magmus_reactor": frozenset({"space"}),  # a retreat into a supernova
    "dimensional_splicer": frozenset(),  # the start of a space combat
    "impulse_core": frozenset(),  # the start of a space combat
    "l4_disruptors": frozenset(),  # SPACE CANNON defense, before the ground combats
    "iihq_modernization": frozenset(),  # SPACE CANNON offense
}


def _has_use(tech: str, setup: BattleSetup, state: BattleState, nekro: Side) -> bool:
    """Whether the Nekro has what ``tech`` needs to act in this battle: a unit with SUSTAIN
    DAMAGE that fights (Duranium Armor), a unit with PLANETARY SHIELD on a planet (Magen
    Defense Grid), a structure on a planet still to be fought over (its Omega), an adjacent
    system (Dark Energy Tap), an adjacent asteroid field (Antimass Deflectors)."""
    cards = setup.side(nekro)
    units = state.side(nekro)
    if tech in ("duranium_armor", "non_euclidean_shielding"):
        fights = cards.is_ship if setup.kind == "space" else cards.is_ground_force
        areas = (units.space,) if setup.kind == "space" else units.planets
        return any(fights(u) and u in cards.sustainers for a in areas for u in a.types())
    if tech == "magen_defense_grid":
        return any(cards.card(u).planetary_shield for p in units.planets for u in p.types())
    if tech == "magen_defense_grid_omega":
        return any(cards.card(u).is_structure for p in state.order for u in units.planet(p).types())
    if tech == "dark_energy_tap":
        return bool(setup.system.adjacent)
    if tech == "antimass_deflectors":
        return any(s.anomaly == "asteroid_field" for s in setup.system.adjacent)
    if tech == "magmus_reactor":
        return any(s.anomaly == "supernova" for s in setup.system.adjacent)
    return True


def combat_of(setup: BattleSetup, state: BattleState) -> str | None:
    """The combat under way (``"space"``, or the planet of a ground combat), or ``None`` when
    hits are being assigned outside any combat."""
    if state.phase in _OUTSIDE_COMBAT:
        return None
    return "space" if setup.kind == "space" else setup.planets[state.planet]


def used_key(combat: str) -> str:
    """The ``used`` entry that records it used in ``combat``."""
    return f"{TechnologicalSingularity.id}:{combat}"


def _hits_per_round(card: UnitDef) -> Fraction:
    combat = card.combat
    if combat is None or combat.dice is None:
        return Fraction(0)
    return Fraction(combat.dice * (11 - combat.hit), 10)


def _upgrades(
    setup: BattleSetup, state: BattleState, nekro: Side
) -> tuple[list[tuple[Fraction, str]], list[str]]:
    """The opponent's generic unit upgrades that the Nekro lacks, for unit types of the Nekro
    that fight in this battle's combats (ships in a space battle, ground forces in an
    invasion): those that add to the expected hits of a combat round (with the gain), and the
    others that change the card."""

    def name(unit: str, card: UnitDef, own: UnitDef) -> str | None:
        if card.faction is not None or card.level != 2 or own.level != 1 or own.faction:
            return None  # not a generic upgrade, or the Nekro's card is not the generic one
        return UPGRADE + unit

    return _gains(setup, state, nekro, name)


def copied_upgrades(
    setup: BattleSetup, state: BattleState, nekro: Side
) -> tuple[list[tuple[Fraction, str]], list[str]]:
    """The opponent's faction unit upgrades (its cards of ``faction_unit_upgrade``) that a free
    Valefar Assimilator token of the Nekro may copy, each named by the card's id, for unit
    types of the Nekro that fight in this battle's combats and whose card is not already
    another faction's (docs/rulings.md 27V-7; the Nekro's own flagship too: its card is
    replaced, as a scenario naming the copy under ``cards`` has it): those that add to the
    expected hits of a combat round (with the gain), and the others that change the card (as
    ``_upgrades``)."""
    if not free_tokens(setup, nekro):
        return [], []
    mine = setup.side(nekro)

    def name(unit: str, card: UnitDef, own: UnitDef) -> str | None:
        if own.faction is not None and own.faction != mine.faction:
            return None  # a token is on another faction's unit upgrade of this type already
        if not faction_unit_upgrade(card) or card.faction == mine.faction:
            return None
        return card.id

    return _gains(setup, state, nekro, name)


def _gains(
    setup: BattleSetup,
    state: BattleState,
    nekro: Side,
    name: Callable[[str, UnitDef, UnitDef], str | None],
) -> tuple[list[tuple[Fraction, str]], list[str]]:
    """For each unit type of the Nekro present that fights in this battle's combats (ships in
    a space battle, ground forces in an invasion) and that both players have a card of, the
    opponent's card that ``name`` names (``None``: not one it may take): those that add to the
    expected hits of a combat round (with the gain), and the others that change the card (a
    copied faction upgrade always does: its faction is not the Nekro's card's)."""
    mine, theirs = setup.side(nekro), setup.side(nekro.other)
    units = state.side(nekro)
    present = set(units.space.types()).union(*(p.types() for p in units.planets))
    fights = mine.is_ship if setup.kind == "space" else mine.is_ground_force
    adding: list[tuple[Fraction, str]] = []
    other: list[str] = []
    for unit in sorted(present):
        card, own = theirs.cards.get(unit), mine.cards.get(unit)
        if card is None or own is None or not fights(unit):
            continue
        named = name(unit, card, own)
        if named is None:
            continue
        count = units.space.count(unit) + sum(p.count(unit) for p in units.planets)
        gain = count * (_hits_per_round(card) - _hits_per_round(own))
        if gain > 0:
            adding.append((gain, named))
        elif card != own:
            other.append(named)
    return adding, other


#: ``offers`` remembered per setup by what it reads (docs/architecture.md 24W-1); off: each
#: call computes it (the old way, for tests)
REMEMBER = True
_OFFERS = "technological_singularity.offers"


def offers(setup: BattleSetup, state: BattleState, nekro: Side) -> tuple[str, ...]:
    """What the Nekro may gain now that can still change this battle (``gained`` entries:
    technology ids, ``upgrade:UNIT``, a card's id for a faction unit upgrade a token copies),
    in the stock policy's order (docs/rulings.md 14T-3, 27V-7): unit upgrades that add to the
    Nekro's combat rolls (generic ones gained and faction ones copied alike), the most expected
    hits a round first; then technologies in ``LATER_ACTS`` order; then faction technologies
    copied (``COPY_ACTS`` order); then other unit upgrades, generic ones first. Once the
    opponent has no unit left in the combat, only what acts in a later ground combat, or when a
    ground combat is won, is offered. A technology with a combat rule whose later moments are
    not known here is refused by name."""
    going = combatants(setup, state, nekro.other) > 0  # this combat goes on
    if not REMEMBER:
        return _offers(setup, state, nekro, going)
    # what it reads of the state: the Nekro's units, whether this combat goes on, the
    # combats still to come (docs/architecture.md 24W-1)
    key = (_OFFERS, nekro, going, state.order, state.side(nekro))
    known = setup.memo.get(key)
    if known is None:
        known = setup.memo[key] = _offers(setup, state, nekro, going)
    return cast("tuple[str, ...]", known)


def _offers(setup: BattleSetup, state: BattleState, nekro: Side, going: bool) -> tuple[str, ...]:
    """``offers``, with ``going``: whether the opponent still has units in this combat."""
    if setup.kind == "space":
        moments = {"space"} if going else set()
    else:
        moments = {"ground_won"}
        if going or state.order:  # this ground combat goes on, or others are still to come
            moments.add("ground")
        if state.order:
            moments.add("later_ground")
    copying: list[str] = []
    if free_tokens(setup, nekro):
        # a faction technology: a Valefar Assimilator's token copies it instead (27V-4)
        copying = _acting(
            setup, state, nekro, moments, COPY_ACTS, True, "copying {} with a Valefar Assimilator"
        )
    technologies = _acting(setup, state, nekro, moments, LATER_ACTS, False, "taking {}")
    if not moments - {"ground_won"}:
        # no more combat rounds: unit upgrades change nothing
        return (*technologies, *copying)
    adding, other = _upgrades(setup, state, nekro)
    # a faction unit upgrade a token copies ranks with the generic ones (27V-7)
    adding_copied, other_copied = copied_upgrades(setup, state, nekro)
    adding += adding_copied
    adding.sort(key=lambda pair: -pair[0])  # stable: unit types in name order among equals
    return (*(u for _, u in adding), *technologies, *copying, *other, *other_copied)


def _acting(
    setup: BattleSetup,
    state: BattleState,
    nekro: Side,
    moments: set[str],
    acts: dict[str, frozenset[str]],
    faction: bool,
    doing: str,
) -> list[str]:
    """The opponent's technologies with a combat rule that the Nekro lacks, faction ones when
    ``faction`` (a token copies them), else the others, that act at one of
    ``moments`` (by ``acts``) and have a use in this battle, in ``acts`` order. One ``acts``
    does not name is refused by name (``doing``: the words of what the Nekro would do with
    it, ``{}`` its name)."""
    data = load()
    mine, theirs = setup.side(nekro), setup.side(nekro.other)
    found: list[str] = []
    for tech in theirs.technologies:
        record = data.technologies[tech]
        if tech in mine.technologies or record.combat != "rule":
            continue
        if (record.faction is not None) is not faction:
            continue
        moments_of = acts.get(tech)
        if moments_of is None:
            raise RuleNotImplemented(
                f"Technological Singularity {doing.format(record.name)} (when it can still act "
                "once the combat is under way is not known)",
                f"{nekro.other.value}.technologies",
            )
        if moments_of & moments and _has_use(tech, setup, state, nekro):
            found.append(tech)
    ranked = {tech: i for i, tech in enumerate(acts)}
    found.sort(key=ranked.__getitem__)
    return found


def free_tokens(setup: BattleSetup, nekro: Side) -> tuple[str, ...]:
    """The Valefar Assimilators of the Nekro whose token is on no technology yet: those it
    owns, less one for each other faction's technology it has (copied: the scenario lists the
    copied technology itself, docs/rulings.md R23; or copied in this battle) and one for each
    other faction's unit upgrade card it plays with (27V-7), X's token first (docs/rulings.md
    27V-4)."""
    data = load()
    mine = setup.side(nekro)
    owned = tuple(a for a in ASSIMILATORS if a in mine.technologies)
    if not owned:
        return ()
    faction = mine.faction
    copied = sum(
        1
        for tech in mine.technologies
        if (f := data.technologies[tech].faction) is not None and f != faction
    )
    copied += sum(
        1 for card in mine.cards.values() if faction_unit_upgrade(card) and card.faction != faction
    )
    return owned[copied:]


#: whether ``copies``, a value of the setup alone (its technologies, cards and tokens), is
#: found once per setup (``setup.memo``): asked at each idle check while hits are assigned
#: (``idle_while_assigning``; no. 24 of the faction mix: 3,087 times, 24AB-3); off: each call
#: finds it afresh, the old way (tests/ti4/test_singularity_copies_remembered.py)
COPIES_REMEMBERED = True


def copies(setup: BattleSetup, nekro: Side) -> str | None:
    """A faction technology of the opponent with a combat rule that a Valefar Assimilator of
    the Nekro could copy (its name), or ``None`` (read as before 27V-4 by Antivirus and the
    assignment's idle check; the faction unit upgrades it may copy are in ``offers``, 27V-7)."""
    if not COPIES_REMEMBERED:
        return _copies(setup, nekro)
    return setup.remembered(
        ("technological_singularity.copies", nekro), lambda: _copies(setup, nekro)
    )


def _copies(setup: BattleSetup, nekro: Side) -> str | None:
    """``copies``, found afresh."""
    data = load()
    theirs = setup.side(nekro.other)
    if not free_tokens(setup, nekro):
        return None
    for tech in theirs.technologies:
        record = data.technologies[tech]
        if record.faction is not None and record.combat == "rule":
            return record.name
    return None


#: whether ``TechnologicalSingularity.idle_while_assigning`` is remembered per setup by what it
#: reads (the same answers: it is asked at every step of an assignment of hits, the defender's
#: after Courageous to the End's roll at every state the roll leads to; docs/architecture.md
#: 24AL-2); off: worked out at each call (tests/odds/test_graph_tail_calls.py)
IDLE_REMEMBERED = True
_IDLE = "technological_singularity.idle_while_assigning"


def could_act(setup: BattleSetup, state: BattleState, nekro: Side) -> bool:
    """Whether Technological Singularity could change this battle from ``state`` on (read by
    Antivirus)."""
    return bool(offers(setup, state, nekro)) or copies(setup, nekro) is not None


@register
class TechnologicalSingularity(Handler):
    id = "technological_singularity"
    asks = id  # its decisions are named by its id (Handler.asks)

    def idle_while_assigning(self, setup: BattleSetup, state: BattleState, side: Side) -> bool:
        """It hears of the opponent's units destroyed only, once a combat (``used_key``), and
        only while it could gain something (``offers``): while its owner assigns, once used in
        this combat or once the opponent used Antivirus, or with nothing to gain, it answers
        ``None`` (``Handler.idle_while_assigning``). What it could gain reads the owner's units
        and whether the opponent still has units in the combat, so while the opponent assigns
        it can only shrink: nothing to gain when the assignment begins is nothing all through
        it. With a Valefar Assimilator that could copy a faction technology it is refused when
        heard, so never idle then (nor where what it could take is refused by name).

        Remembered per setup by all it reads (``IDLE_REMEMBERED``): the players, the phase
        and the planet fought over (``combat_of``, ``combatants``), what was used, the
        combats still to come and both players' parts (``offers``, ``combatants``); the
        gains are the setup's (``BattleSetup.having``) and in the key all the same."""
        if not IDLE_REMEMBERED:
            return self._idle_while_assigning(setup, state, side)
        key = (
            _IDLE,
            self.owner,
            side,
            state.phase,
            state.planet,
            state.used,
            state.order,
            state.gained,
            state.attacker,
            state.defender,
        )
        memo = setup.memo
        known = memo.get(key)
        if known is None:
            known = memo[key] = self._idle_while_assigning(setup, state, side)
        return known is True

    def _idle_while_assigning(self, setup: BattleSetup, state: BattleState, side: Side) -> bool:
        """``idle_while_assigning``, worked out afresh."""
        owner = self.owner
        if owner is None or side is not owner.other:
            return True
        combat = combat_of(setup, state)
        if combat is None or state.has_used(owner, used_key(combat)):
            return True
        if copies(setup, owner) is not None:
            return False
        if state.has_used(side, ANTIVIRUS):
            return True
        try:
            return not offers(setup, state, owner)
        except RuleNotImplemented:
            return False  # refused when heard, as it is

    def paired_while_assigning(self, setup: BattleSetup, state: BattleState, side: Side) -> bool:
        """While the opponent assigns, it reads its owner's units, whether the opponent still
        has units in the combat, the combats still to come, what was used and gained
        (``offers``), never the hits against its owner; used, it changes what was used and
        gained, nothing of its owner's part (``Handler.paired_while_assigning``; 24Z-2). Not
        where what it could take is refused by name (refused when heard, as it is)."""
        owner = self.owner
        if owner is None:
            return False
        try:
            offers(setup, state, owner)
        except RuleNotImplemented:
            return False
        return True

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
        if owner is None or side is not owner.other:
            return None
        combat = combat_of(setup, state)
        if combat is None or state.has_used(owner, used_key(combat)):
            return None
        if state.has_used(side, ANTIVIRUS):
            return None
        gains = offers(setup, state, owner)
        tokens = free_tokens(setup, owner)
        if not gains:
            return None  # nothing it could take would change this battle

        def gain(tech: str) -> Callable[[BattleState], Step[BattleState]]:
            def act(s: BattleState) -> Step[BattleState]:
                # a faction technology: the token on the opponent's, the assimilator has its
                # text (read as the Nekro owning it: docs/rulings.md R23, 27V-4)
                gained = event(
                    "technology_gained",
                    player=owner.value,
                    technology=tech,
                    name=_name(setup, side, tech),
                    **({"unit": _unit(tech)} if _unit(tech) else {}),
                    **({"copied_with": tokens[0]} if _copied(tech) else {}),
                    source=side.value,
                    by=self.id,
                )
                return Step(s.using(owner, used_key(combat)).gaining(owner, tech), (gained,))

            return act

        prompt = (
            f"Technological Singularity: the {side.value}'s {unit} was destroyed; gain one of "
            "their technologies?"
        )
        choices = [
            (f"copy {tech} with {tokens[0]}" if _copied(tech) else f"gain {tech}", gain(tech))
            for tech in gains
        ]
        return offer_plays(owner, self.id, state, prompt, choices, once=False)


def _copied(tech: str) -> bool:
    """Whether ``tech`` (an entry of ``offers``) is a faction technology or a faction unit
    upgrade (a card's id), copied with a Valefar Assimilator's token rather than gained."""
    if tech.startswith(UPGRADE):
        return False
    data = load()
    return tech in data.units or data.technologies[tech].faction is not None


def _unit(tech: str) -> str | None:
    """The unit type of a unit upgrade ``tech`` (an entry of ``offers``), or ``None``."""
    if tech.startswith(UPGRADE):
        return tech.removeprefix(UPGRADE)
    card = load().units.get(tech)
    return None if card is None else card.type


def _name(setup: BattleSetup, owner: Side, tech: str) -> str:
    """The printed name of ``owner``'s technology or unit upgrade ``tech``."""
    if tech.startswith(UPGRADE):
        return setup.side(owner).card(tech.removeprefix(UPGRADE)).name
    data = load()
    if tech in data.units:
        return data.units[tech].name
    return data.technologies[tech].name
