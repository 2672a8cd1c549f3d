"""Invasion combat (ti3-combat.md, INVASION COMBAT), planet by planet in the order listed:
bombardment -> PDS fire at the landing ground forces -> combat rounds (no withdrawal or
retreat) -> invasion success."""

from __future__ import annotations

from spacecombat.core.decisions import DecisionRequest, Option
from spacecombat.core.engine import Chance, Decision, Node, Step
from spacecombat.core.events import event
from spacecombat.core.forces import Status
from spacecombat.core.hits import destroyed
from spacecombat.core.pool import DiceGroup, DicePool
from spacecombat.core.sides import SIDES, Side
from spacecombat.core.state import ground_forces
from spacecombat.rulesets.ti3.abilities import (
    dacxive_animators,
    graviton_negator,
    shock_troops,
    valkyrie_armor,
)
from spacecombat.rulesets.ti3.abilities.base import RollKind
from spacecombat.rulesets.ti3.abilities.races import Fanaticism, ValkyrieArmor, YinIndoctrination
from spacecombat.rulesets.ti3.cards import (
    chemical_warfare,
    dug_in,
    geomagnetic_mines,
    overrun,
    star_of_death,
)
from spacecombat.rulesets.ti3.cards.common import WindowCard, held_by_anyone, in_window, window
from spacecombat.rulesets.ti3.procedures import exchange, round_start
from spacecombat.rulesets.ti3.procedures.common import (
    Targets,
    pds_pool,
    pool,
    remove_casualties,
)
from spacecombat.rulesets.ti3.procedures.exchange import Exchange
from spacecombat.rulesets.ti3.setup import Ti3Setup
from spacecombat.rulesets.ti3.state import Phase, Ti3State

A, D = Side.ATTACKER, Side.DEFENDER

# --- bombardment ----------------------------------------------------------------------------


def _bombarders(setup: Ti3Setup, state: Ti3State) -> dict[str, int]:
    space = state.attacker.space
    chosen = setup.bombarded_by[state.planet]
    return {u: min(n, space.count(u)) for u, n in chosen.items() if min(n, space.count(u))}


def _bombardment_pool(setup: Ti3Setup, state: Ti3State, side: Side) -> DicePool | None:
    """Each bombarding unit rolls its bombardment dice; only the attacker bombards; not at a
    planet whose ground forces Dug In made immune (27S-21)."""
    if dug_in.dug_in(state):
        return None
    return _bombardment_dice(setup, state, side)


def _bombardment_dice(setup: Ti3Setup, state: Ti3State, side: Side) -> DicePool | None:
    targets = state.defender.planet(state.planet).total(
        lambda u: Targets.GROUND_FORCES.admits(setup, D, u)
    )
    units = _bombarders(setup, state)
    if side is D or not units or not targets:
        return None
    cards = setup.side(A)

    def value(unit: str) -> int:
        roll = cards.card(unit).bombardment
        assert roll is not None
        return roll.hit

    def dice(unit: str) -> int:
        roll = cards.card(unit).bombardment
        assert roll is not None
        return roll.dice

    return pool(
        setup, state, A, RollKind.BOMBARDMENT, sorted(units.items()), value=value, dice_each=dice
    )


BOMBARDMENT = Exchange(
    "bombardment",
    Phase.BOMBARDMENT,
    Phase.BOMBARDMENT_HITS,
    _bombardment_pool,
    Targets.GROUND_FORCES,
    on_planet=True,
    simultaneous=False,
    done=lambda setup, state: state.at(Phase.PDS_FIRE_AT_LANDING, turn=A),
    cause="bombardment",
)


def bombardment(setup: Ti3Setup, state: Ti3State) -> Node[Ti3State]:
    """Bombardment: dreadnoughts (not against a planet with an enemy PDS) and war suns roll
    their bombardment dice; each hit removes a defending ground force (Mechanized Units are
    immune). With X-89 Bacterial Weapon the attacker may instead destroy them all. First the
    defender may play Dug In (27S-21); before that, as the landing segment begins, the
    attacker Star of Death (27S-34)."""
    if star_of_death.applies(setup, state):
        return star_of_death.ask(setup, state)
    if (
        state.turn is A
        and not state.pending
        and state.step not in ("roll", dug_in.ASKED)
        and dug_in.holds(state)
        and _bombardment_dice(setup, state, A) is not None
    ):
        return dug_in.ask(setup, state)
    if state.turn is A and not state.pending and _x89_applies(setup, state):
        options = (
            Option("bombard", "bombard"),
            Option("x89_bacterial_weapon", "x89_bacterial_weapon"),
        )
        request = DecisionRequest(
            decision="bombardment_mode",
            player=A.value,
            prompt=f"bombard {setup.planets[state.planet]} or use X-89 Bacterial Weapon?",
            options=options,
        )

        def then(option: Option) -> Step[Ti3State]:
            if option.action == "bombard":
                return _roll_bombardment(setup, state)
            return _x89(setup, state)

        return Decision(request, then)
    node = exchange.roll(setup, state, BOMBARDMENT)
    return node


def _roll_bombardment(setup: Ti3Setup, state: Ti3State) -> Step[Ti3State]:
    # the attacker chose to roll: skip the question, roll next
    return Step(state.at(Phase.BOMBARDMENT, pending=0, turn=A, step="roll"))


def _x89_applies(setup: Ti3Setup, state: Ti3State) -> bool:
    return (
        state.step != "roll"
        and setup.side(A).has("x89_bacterial_weapon")
        and _bombardment_dice(setup, state, A) is not None
    )


def _x89(setup: Ti3Setup, state: Ti3State) -> Step[Ti3State]:
    """X-89: every ground force and shock troop of the defender on the planet is destroyed."""
    p = state.planet
    planet = state.defender.planet(p)
    gone = [(u, s, n) for u, s, n in planet if Targets.GROUND_FORCES.admits(setup, D, u)]
    for unit, status, count in gone:
        planet = planet.remove(unit, status, count)
    events = destroyed(D, gone, "X-89 Bacterial Weapon")
    after = state.with_side(D, state.defender.with_planet(p, planet))
    return Step(after.at(Phase.PDS_FIRE_AT_LANDING, turn=A), events)


def bombardment_hits(setup: Ti3Setup, state: Ti3State) -> Node[Ti3State]:
    return exchange.hits(setup, state, BOMBARDMENT)


# --- PDS fire at the landing ground forces --------------------------------------------------


def _landing_pool(setup: Ti3Setup, state: Ti3State, side: Side) -> DicePool | None:
    """Each defending PDS on the planet fires one shot at the landing ground forces."""
    count = state.defender.planet(state.planet).count("pds")
    landing = state.attacker.planet(state.planet).total(
        lambda u: Targets.GROUND_FORCES.admits(setup, A, u)
    )
    if side is A or not count or not landing:
        return None
    return pds_pool(setup, state, D, count, RollKind.PDS_FIRE_AT_LANDING)


def _start_rounds(setup: Ti3Setup, state: Ti3State) -> Ti3State:
    return state.at(Phase.INVASION_ROUND, turn=A, step="start", fallen=0)


PDS_FIRE_AT_LANDING = Exchange(
    "pds_fire_at_landing",
    Phase.PDS_FIRE_AT_LANDING,
    Phase.PDS_FIRE_AT_LANDING_HITS,
    _landing_pool,
    Targets.GROUND_FORCES,
    on_planet=True,
    simultaneous=False,
    rerolls=lambda setup, side: setup.side(side).has("graviton_laser_system"),
    done=_start_rounds,
    cause="PDS fire at the landing ground forces",
)


def pds_fire_at_landing(setup: Ti3Setup, state: Ti3State) -> Node[Ti3State]:
    """PDS fire: after bombardment, each defending PDS on the planet fires once; each hit
    destroys a landing ground force (Mechanized Units are immune)."""
    return exchange.roll(setup, state, PDS_FIRE_AT_LANDING)


def pds_fire_at_landing_hits(setup: Ti3Setup, state: Ti3State) -> Node[Ti3State]:
    return exchange.hits(setup, state, PDS_FIRE_AT_LANDING)


# --- combat rounds --------------------------------------------------------------------------


def ground_pool(setup: Ti3Setup, state: Ti3State, side: Side) -> DicePool | None:
    """Every ground unit on the planet rolls its combat dice, and every fighter that joined
    the combat with Graviton Negator its own (its combat value: 27Y-3)."""
    cards = setup.side(side)
    units = sorted(
        (u, n)
        for u, n in state.side(side).planet(state.planet).by_type().items()
        if cards.is_ground_force(u) or graviton_negator.joins(cards, u)
    )
    if not units:
        return None
    return pool(
        setup, state, side, RollKind.INVASION_COMBAT, units, marks=setup.options.shock_troops
    )


def invasion_exchange(setup: Ti3Setup) -> Exchange:
    return Exchange(
        "invasion_combat",
        Phase.INVASION_ROUND,
        Phase.INVASION_CASUALTIES,
        ground_pool,
        Targets.GROUND_UNITS,
        on_planet=True,
        tens=setup.options.shock_troops,
        done=lambda setup, state: state.at(Phase.INVASION_END_OF_ROUND, turn=A),
        cause="invasion combat",
    )


def invasion_round(setup: Ti3Setup, state: Ti3State) -> Node[Ti3State]:
    """Both players roll at once; then each removes casualties, the attacker first. Before
    the first round, a Yin attacker's Indoctrination (27R-19); then, just before the first
    round, the attacker may play Chemical Warfare (rulesets/ti3/cards/chemical_warfare.py)."""
    if state.step == "start" and _indoctrination_applies(setup, state):
        return _indoctrination(setup, state)
    if state.step in ("start", INDOCTRINATED) and chemical_warfare.applies(setup, state):
        asked = state.changed(step=_CHEMICAL_ASKED)
        return chemical_warfare.ask(
            setup,
            state,
            asked,
            lambda s, n: s.with_hits_on(D, n).at(Phase.CHEMICAL_WARFARE_HITS, turn=D),
        )
    if state.step in ("start", INDOCTRINATED, _CHEMICAL_ASKED) and held_by_anyone(
        setup, _BEFORE_COMBAT
    ):
        # the cards played before an invasion combat with Mechanized Units (Overrun,
        # Geomagnetic Mines), each player asked in turn, the attacker first
        return Step(state.changed(step=f"{_BEFORE}0"))
    if in_window(state, _BEFORE):
        return window(
            setup, state, _BEFORE_COMBAT, _BEFORE, lambda s: Step(s.changed(step=_CARDS_ASKED))
        )
    if state.step in ("start", INDOCTRINATED, _CHEMICAL_ASKED, _CARDS_ASKED):
        p = state.planet
        state, reverted = shock_troops.revert_all(state, p)
        if not all(ground_forces(setup, state, side, p) for side in SIDES):
            return Step(state.at(Phase.INVASION_SUCCESS, step=""), reverted)
        begun = state.at(round_start.first_phase(setup, Phase.INVASION_ROUND), round=1, step="")
        return Step(
            begun,
            (
                *reverted,
                event("combat_started", kind="invasion", planet=setup.planets[p]),
                event("round_started", round=1),
            ),
        )
    return exchange.roll(setup, state, invasion_exchange(setup))


#: ``step`` of the state once the attacker was asked about Chemical Warfare
_CHEMICAL_ASKED = "chemical_warfare"

#: ``step`` while the players are asked about the cards played before an invasion combat
#: with Mechanized Units (cards/common.py window), and once they were
_BEFORE = "before_invasion_combat:"
_CARDS_ASKED = "cards_asked"

#: those cards, in the order each player is asked
_BEFORE_COMBAT: tuple[WindowCard, ...] = (overrun, geomagnetic_mines)


def chemical_warfare_hits(setup: Ti3Setup, state: Ti3State) -> Node[Ti3State]:
    """The defender removes the ground forces Chemical Warfare destroys (shock troops first),
    then the invasion combat begins."""
    return remove_casualties(
        setup,
        state,
        D,
        state.planet,
        Targets.GROUND_FORCES,
        "Chemical Warfare",
        lambda s: s.at(Phase.INVASION_ROUND, step=_CHEMICAL_ASKED, turn=A),
    )


def invasion_casualties(setup: Ti3Setup, state: Ti3State) -> Node[Ti3State]:
    return exchange.hits(setup, state, invasion_exchange(setup))


def invasion_end_of_round(setup: Ti3Setup, state: Ti3State) -> Node[Ti3State]:
    """Valkyrie Armor's rolls (the attacker's, then the defender's), Shock Troop promotions,
    then another round if both players have ground units left."""
    if any(setup.side(s).has(ValkyrieArmor.id) for s in SIDES):
        for side, asked, done in ((A, "", _VALKYRIE[A]), (D, _VALKYRIE[A], _VALKYRIE[D])):
            if state.step == asked:
                if valkyrie_armor.rolls(setup, state, side):
                    return valkyrie_armor.roll(state, side, Phase.VALKYRIE_ARMOR_HITS, done)
                state = state.changed(step=done)
    return shock_troops.promote(setup, state, lambda s: _next_round(setup, s))


#: ``step`` of the end of an invasion combat round once each player's Valkyrie Armor rolled
_VALKYRIE = {A: "valkyrie_attacker", D: "valkyrie_defender"}


def valkyrie_armor_hits(setup: Ti3Setup, state: Ti3State) -> Node[Ti3State]:
    """The casualties Valkyrie Armor's 10s make the opponent take, at once."""
    return remove_casualties(
        setup,
        state,
        state.turn,
        state.planet,
        Targets.GROUND_UNITS,
        "Valkyrie Armor",
        lambda s: s.at(Phase.INVASION_END_OF_ROUND, turn=A),
    )


def _next_round(setup: Ti3Setup, state: Ti3State) -> Step[Ti3State]:
    p = state.planet
    settled = state.changed(
        attacker=state.attacker.with_planet(p, state.attacker.planet(p).settle_round()),
        defender=state.defender.with_planet(p, state.defender.planet(p).settle_round()),
        tens=(0, 0),
        taken=(0, 0),
        step="",
    )
    ended = (event("round_ended", round=state.round),)
    # Graviton Negator's fighters keep the combat going while they are left (27Y-5)
    if all(graviton_negator.fighting(setup, settled, side, p) for side in SIDES):
        nxt = settled.at(
            round_start.first_phase(setup, Phase.INVASION_ROUND), round=state.round + 1, turn=A
        )
        return Step(nxt, (*ended, event("round_started", round=state.round + 1)))
    rounds = list(state.ground_rounds)
    rounds[p] = state.round
    done = settled.at(Phase.INVASION_SUCCESS, ground_rounds=tuple(rounds))
    return Step(done, (*ended, event("combat_ended", kind="invasion", rounds=state.round)))


# --- invasion success -----------------------------------------------------------------------


def invasion_success(setup: Ti3Setup, state: Ti3State) -> Node[Ti3State]:
    """If every defending ground unit is destroyed and at least one attacking ground unit
    survives, the invasion succeeds: the defender's PDS and space docks there are destroyed
    and the planet passes to the attacker (exhausted). Otherwise the defender keeps it.
    Dacxive Animators act after a won invasion combat. Graviton Negator's fighters go back to
    space first (27Y-6)."""
    p = state.planet
    state, returned = graviton_negator.return_to_space(state, A)
    if returned:
        return Step(state, returned)
    if state.step != "dacxive" and dacxive_animators.applies(setup, state):
        return dacxive_animators.roll(setup, state)
    a_left = ground_forces(setup, state, A, p)
    d_left = ground_forces(setup, state, D, p)
    name = setup.planets[p]
    if a_left and not d_left:
        planet = state.defender.planet(p)
        structures = [(u, s, n) for u, s, n in planet if setup.side(D).is_structure(u)]
        for unit, status, count in structures:
            planet = planet.remove(unit, status, count)
        after = state.with_side(D, state.defender.with_planet(p, planet))
        events = (
            event(
                "invasion_succeeded",
                planet=name,
                destroyed=[{"unit": u, "count": n} for u, _, n in structures],
            ),
        )
    else:
        after = state
        why = "defending ground units remain" if d_left else "no attacking ground unit is left"
        events = (event("invasion_failed", planet=name, reason=why),)
    if p + 1 < len(setup.planets):
        nxt = after.at(Phase.BOMBARDMENT, planet=p + 1, round=0, turn=A, step="", fallen=0)
        return Step(nxt, events)
    return Step(after.at(Phase.OVER, step="", fallen=0), events)


# --- the Yin Brotherhood's Indoctrination -----------------------------------------------------

#: ``step`` once a Yin attacker's Indoctrination was rolled on the current planet
INDOCTRINATED = "indoctrinated"


def _converted(setup: Ti3Setup, state: Ti3State) -> list[str]:
    """The defender's units Indoctrination may take, in the order they go: its ground forces
    (the unit named), then Shock Troops, which count as ground forces for abilities
    (ti3-facts.md 8); not Mechanized Units (immune to what names ground forces)."""
    planet = state.defender.planet(state.planet)
    return [u for u in ("ground_force", "shock_troop") for _ in range(planet.count(u))]


def _indoctrination_applies(setup: Ti3Setup, state: Ti3State) -> bool:
    landed = state.attacker.planet(state.planet).total(setup.side(A).is_ground_force)
    return setup.side(A).has(YinIndoctrination.id) and bool(landed and _converted(setup, state))


def _indoctrination(setup: Ti3Setup, state: Ti3State) -> Node[Ti3State]:
    """Yin Indoctrination (wiki.omf2097.com joneirik:rpg:ti3_races; PC_Twi r_Yin.cpp): before
    invasion combat the attacking Yin rolls a die (two with Fanaticism); each 5 or more takes a
    ground force from the defender and gives the Yin one on the planet (27R-19)."""
    tries = 2 if setup.side(A).has(Fanaticism.id) else 1
    dice = DicePool.of([DiceGroup("ground_force", tries, YinIndoctrination.VALUE)])
    p = state.planet

    def then(hits: int) -> Step[Ti3State]:
        taken = _converted(setup, state)[:hits]
        defender = state.defender.planet(p)
        for unit in taken:
            defender = defender.remove(unit, Status.UNDAMAGED)
        attacker = state.attacker.planet(p)
        if taken:
            attacker = attacker.add("ground_force", count=len(taken))
        after = state.with_side(D, state.defender.with_planet(p, defender)).with_side(
            A, state.attacker.with_planet(p, attacker)
        )
        said = (event("ground_forces_converted", player=A.value, count=len(taken), units=taken),)
        return Step(after.changed(step=INDOCTRINATED), said)

    return Chance(A.value, "indoctrination", dice, then)
