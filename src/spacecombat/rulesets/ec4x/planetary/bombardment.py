"""Planetary Bombardment (7.5): rounds of fleet against ground batteries, simultaneous, at
most three a turn; one round before an invasion (7.6.1) or a blitz (7.6.2).

A round (7.5.1): the attacker totals the AS of its surviving squadrons (crippled at half,
option ``bombard_crippled_as``), planet-breakers apart (7.5.2); the defender the AS of its
remaining ground batteries. The draws, in order, each only when it can matter:

1. ``bombardment`` (attacker) d10 0–9: the conventional ships' Bombardment CER;
2. ``bombardment_pb`` (attacker) d10: the planet-breakers' own CER (they ignore shields);
3. ``shield`` (defender) d20 1–20: the shield blocks its percentage when the roll is above its
   row's number (7.5.2; option ``shield_roll``); the conventional hits are reduced, rounded up;
4. ``bombardment`` (defender) d10: the batteries' CER; a 9 is critical against the fleet.

Then, at once: the batteries' hits on the fleet (restrictions 1, 2, 4; a critical nullifies
2 and, if it reduced nothing, reduces the squadron of lowest DS, option ``battery_critical``);
the attacker's hits on the batteries, summed (restriction 3); what is left on armies and
marines, one reduction at a time chosen by the attacker (``ground_hits``, 7.5.4, not in a
blitz); under order 06, then on the spaceports (6.2.7, option ``bombard_spaceports``, ruling
G26); and what is left after them on the IU, then the PU.

Rounds: up to three for order 06 (7.5); one for a blitz (7.6.2); one for an invasion (7.6.1),
or three (6.2.8 "a three round battle", option ``invasion_bombardment``, ruling G27).
"""

from __future__ import annotations

import math
from fractions import Fraction
from functools import lru_cache

from spacecombat.core.decisions import DecisionRequest, Option
from spacecombat.core.engine import Decision, Draw, Node, Step
from spacecombat.core.events import Event, event
from spacecombat.rulesets.ec4x.planetary.colony import Colony, reduce_alike
from spacecombat.rulesets.ec4x.planetary.siege import (
    STANDING,
    Assault,
    Siege,
    Stage,
    Striker,
    describe,
)
from spacecombat.rulesets.ec4x.planetary.tables import planetary
from spacecombat.rulesets.ec4x.state import CRIPPLED, UNDAMAGED

#: the draw slots of a bombardment round, in order
FLEET, BREAKERS, SHIELD, BATTERIES = range(4)
NOT_DRAWN = -1


def begin(assault: Assault, siege: Siege) -> Node[Siege]:
    """``START``: the first round."""
    return _new_round(assault, siege.at(Stage.BOMBARD))


def _new_round(assault: Assault, siege: Siege) -> Step[Siege]:
    number = siege.round + 1
    return Step(
        siege.at(Stage.BOMBARD, round=number, rolls=()),
        (event("bombardment_round_started", round=number, mission=assault.mission),),
    )


def fleet_strength(assault: Assault, cond: tuple[int, ...]) -> tuple[int, int]:
    """7.5.1 "the AS value of their fleet's surviving squadrons": (conventional, planet-breaker)
    AS; a crippled squadron at its crippled AS (option ``bombard_crippled_as``)."""
    full = assault.readings.bombard_crippled_as == "full"
    conventional = breakers = 0
    for s, c in zip(assault.strikers, cond, strict=True):
        if s.kind != "squadron" or c not in STANDING:
            continue
        crippled = c == CRIPPLED and not full
        conventional += s.attack_crippled if crippled else s.attack
        breakers += s.breaker_crippled if crippled else s.breaker
    return conventional, breakers


def _needed(assault: Assault, siege: Siege, slot: int) -> bool:
    conventional, breakers = fleet_strength(assault, siege.cond)
    if slot == FLEET:
        return conventional > 0
    if slot == BREAKERS:
        return breakers > 0
    if slot == SHIELD:
        return (
            conventional > 0 and siege.colony.shield > 0 and assault.readings.shield_roll == "d20"
        )
    return siege.colony.battery_strength() > 0 and any(
        c in STANDING and _targetable(assault, s)
        for s, c in zip(assault.strikers, siege.cond, strict=True)
    )


def _targetable(assault: Assault, s: Striker) -> bool:
    """Squadrons; troop transports only in a blitz (7.6.2: "included as individual units")."""
    return s.kind == "squadron" or assault.mission == "blitz"


def bombard(assault: Assault, siege: Siege) -> Node[Siege]:
    """``BOMBARD``: the round's next draw, or (all drawn) its hits. The state keeps what each
    draw meant (hits), not its face: the event that says it follows the draw at once."""
    rolls = siege.rolls
    while len(rolls) < 4 and not _needed(assault, siege, len(rolls)):
        rolls = (*rolls, NOT_DRAWN)
    if len(rolls) == 4:
        return _resolve(assault, siege.at(Stage.BOMBARD, rolls=rolls))
    slot = len(rolls)
    tables = planetary()
    conventional, breakers = fleet_strength(assault, siege.cond)

    def kept(value: int, *events: Event) -> Step[Siege]:
        return Step(siege.at(Stage.BOMBARD, rolls=(*rolls, value)), events)

    if slot == FLEET:

        def fleet(face: int) -> Step[Siege]:
            hits = cer_hits(conventional, tables.bombardment_row(face).cer)
            return kept(hits, _rolled(assault.attacker, "fleet", conventional, face, hits))

        return Draw.die(assault.attacker, "bombardment", 10, fleet, first=0)
    if slot == BREAKERS:

        def breaking(face: int) -> Step[Siege]:
            hits = cer_hits(breakers, tables.bombardment_row(face).cer)
            return kept(hits, _rolled(assault.attacker, "planet_breakers", breakers, face, hits))

        return Draw.die(assault.attacker, "bombardment_pb", 10, breaking, first=0)
    if slot == SHIELD:

        def shield(face: int) -> Step[Siege]:
            effective, told = _shield(assault, siege.colony.shield, rolls[FLEET], face)
            return kept(effective, told)

        return Draw.die(assault.defender, "shield", 20, shield)
    strength = siege.colony.battery_strength()

    def batteries(face: int) -> Step[Siege]:
        row = tables.bombardment_row(face)
        hits = cer_hits(strength, row.cer)
        told = _rolled(assault.defender, "batteries", strength, face, hits, row.critical)
        return kept(2 * hits + row.critical, told)

    return Draw.die(assault.defender, "bombardment", 10, batteries, first=0)


def _shield(assault: Assault, level: int, hits: int, roll: int | None) -> tuple[int, Event]:
    """7.5.2: the conventional hits left by the shield, and the event that says so."""
    shield = planetary().shields[level]
    holds = roll is None or roll > shield.d20_above
    effective = shielded(hits, shield.blocked_pct) if holds else hits
    return effective, event(
        "shield_rolled",
        house=assault.defender,
        level=level,
        roll=roll,
        above=shield.d20_above,
        holds=holds,
        blocked_pct=shield.blocked_pct if holds else 0,
        hits=hits,
        effective=effective,
    )


@lru_cache(maxsize=4096)
def cer_hits(strength: int, cer: Fraction) -> int:
    """7.5.1, 7.6: "The CER multiplied by AS equals the number of hits", rounded up
    (memoised: the exact engine asks it for every face of every round's draws)."""
    return math.ceil(strength * cer)


def shielded(hits: int, blocked_pct: int) -> int:
    """7.5.2 "Reduce the attacking player's hits by the percentage, rounding up": AS 75 against
    SLD3 (35%) gives ceil(75 x 0.65) = 49."""
    return math.ceil(Fraction(hits * (100 - blocked_pct), 100))


def _resolve(assault: Assault, siege: Siege) -> Step[Siege]:
    colony = siege.colony
    events: list[Event] = []
    fleet_hits, pb_hits, shield_hits, battery = siege.rolls
    hits = 0
    if fleet_hits != NOT_DRAWN:
        if shield_hits != NOT_DRAWN:
            hits = shield_hits
        elif colony.shield and assault.readings.shield_roll == "no_roll":
            hits, told = _shield(assault, colony.shield, fleet_hits, None)
            events.append(told)
        else:
            hits = fleet_hits
    if pb_hits != NOT_DRAWN:
        hits += pb_hits
    cond = siege.cond
    if battery != NOT_DRAWN:
        cond, fleet_events = fleet_damage(assault, cond, battery // 2, critical=bool(battery % 2))
        events += fleet_events
    colony, unused, battery_events = battery_damage(assault, colony, hits)
    events += battery_events
    siege = siege.at(Stage.ALLOCATE, colony=colony, cond=cond, hits=unused, rolls=())
    if assault.mission == "blitz":
        # 7.6.2: "ground units and civilian infrastructure are not targeted"
        if unused:
            events.append(event("hits_lost", house=assault.attacker, hits=unused, reason="blitz"))
        return Step(siege.at(Stage.ROUND_END, hits=0), tuple(events))
    return Step(siege, tuple(events))


def _rolled(
    house: str, source: str, strength: int, roll: int, hits: int, critical: bool = False
) -> Event:
    row = planetary().bombardment_row(roll)  # the event of a draw, just after it
    return event(
        "bombardment_rolled",
        house=house,
        source=source,
        strength=strength,
        die=roll,
        cer=str(row.cer),
        hits=hits,
        critical=critical,
    )


def fleet_damage(
    assault: Assault, cond: tuple[int, ...], hits: int, *, critical: bool
) -> tuple[tuple[int, ...], list[Event]]:
    """The batteries' hits on the attacking fleet (7.5.3). Restriction 1: hits equal to a
    unit's DS reduce it one step; 2: no unit is destroyed while another is not yet crippled
    (nullified by a critical); 4: hits that cannot reduce a unit are lost. The defender's
    hits go first to troop transports (in a blitz: the marines), then to squadrons of lowest
    DS first, unit order among equals (ruling E67). A critical that reduced nothing reduces
    the squadron of lowest DS (option ``battery_critical``)."""
    strikers = assault.strikers
    found = list(cond)
    order = sorted(
        (i for i, s in enumerate(strikers) if _targetable(assault, s)),
        key=lambda i: (strikers[i].kind != "transport", strikers[i].defense, i),
    )

    def reducible(i: int, left: int) -> bool:
        if found[i] not in STANDING or left < strikers[i].defense:
            return False
        if found[i] == UNDAMAGED or critical:
            return True
        return all(found[j] != UNDAMAGED for j in order if j != i)

    events: list[Event] = []
    left = hits
    reduced = 0
    while (chosen := next((i for i in order if reducible(i, left)), None)) is not None:
        left -= strikers[chosen].defense
        found[chosen] += 1
        reduced += 1
        events.append(_reduced(assault, chosen, found[chosen], "hits"))
    if critical and not reduced:
        target = _critical_target(assault, found)
        if target is not None:
            found[target] += 1
            reduced += 1
            events.append(_reduced(assault, target, found[target], "critical"))
    events.insert(
        0,
        event(
            "fleet_bombarded",
            house=assault.attacker,
            hits=hits,
            critical=critical,
            reductions=reduced,
            lost=left,
        ),
    )
    return tuple(found), events


def _critical_target(assault: Assault, cond: list[int]) -> int | None:
    """7.5.3 "if a player takes a critical hit and is unable to reduce a unit according to
    restriction #1 above, then the squadron with the lowest DS is reduced": among standing
    squadrons (not troop transports), lowest DS, unit order among equals; with option
    ``battery_critical: lowest_ds_undamaged``, an undamaged one if any (ruling E65)."""
    squadrons = [
        i for i, s in enumerate(assault.strikers) if s.kind == "squadron" and cond[i] in STANDING
    ]
    if assault.readings.battery_critical == "lowest_ds_undamaged":
        undamaged = [i for i in squadrons if cond[i] == UNDAMAGED]
        squadrons = undamaged or squadrons
    return min(squadrons, key=lambda i: (assault.strikers[i].defense, i), default=None)


def _reduced(assault: Assault, index: int, condition: int, reason: str) -> Event:
    s = assault.strikers[index]
    kind = "unit_crippled" if condition == CRIPPLED else "unit_destroyed"
    ships = list(s.ships) or (["TT"] if s.kind == "transport" else [s.uid])
    return event(kind, unit=s.uid, house=assault.attacker, ships=ships, reason=reason)


def battery_damage(assault: Assault, colony: Colony, hits: int) -> tuple[Colony, int, list[Event]]:
    """The attacker's hits on the ground batteries (7.5.3): summed (restriction 3), each DS
    worth reducing one battery, every battery crippled before any is destroyed (restriction
    2). Returns the colony, the hits left for 7.5.4 (option ``battery_excess``) and events."""
    defense = planetary().units["GB"].defense
    undamaged, crippled, left, crippling, destroying = reduce_alike(
        colony.batteries, colony.batteries_crippled, hits, defense
    )
    colony = colony.at(batteries=undamaged, batteries_crippled=crippled)
    lost = 0
    if assault.readings.battery_excess == "lost_while_standing" and colony.battery_count:
        lost, left = left, 0
    events = [
        event(
            "batteries_bombarded",
            house=assault.defender,
            hits=hits,
            crippled=crippling,
            destroyed=destroying,
            standing=[undamaged, crippled],
            unused=left,
            lost=lost,
        )
    ]
    return colony, left, events


# ---- 7.5.4 Ground Units & Civilian Infrastructure ----------------------------------------------


def ground_options(colony: Colony, hits: int) -> tuple[Option, ...]:
    """The reductions the attacker may choose with ``hits`` left (7.5.4, 7.6.1 restrictions):
    a unit is reduced by hits equal to its DS (1); a crippled unit is destroyed only when no
    other unit is undamaged (2). Marines first, crippling before destroying (the stock
    policy takes the first: the most AS taken away first)."""
    units = planetary().units
    marine, army = units["MD"].defense, units["AA"].defense
    undamaged = colony.marines + colony.armies
    found: list[Option] = []
    if colony.marines and hits >= marine:
        found.append(Option("cripple marine", "cripple", unit="MD"))
    if colony.armies and hits >= army:
        found.append(Option("cripple army", "cripple", unit="AA"))
    if colony.marines_crippled and hits >= marine and undamaged == 0:
        found.append(Option("destroy marine", "destroy", unit="MD"))
    if colony.armies_crippled and hits >= army and undamaged == 0:
        found.append(Option("destroy army", "destroy", unit="AA"))
    return tuple(found)


def apply_ground_option(colony: Colony, option: Option) -> tuple[Colony, int]:
    """The colony after one reduction, and the hits it cost (the unit's DS)."""
    units = planetary().units
    if option.unit == "MD":
        defense = units["MD"].defense
        if option.action == "cripple":
            return colony.at(
                marines=colony.marines - 1, marines_crippled=colony.marines_crippled + 1
            ), defense
        return colony.at(marines_crippled=colony.marines_crippled - 1), defense
    defense = units["AA"].defense
    if option.action == "cripple":
        return colony.at(
            armies=colony.armies - 1, armies_crippled=colony.armies_crippled + 1
        ), defense
    return colony.at(armies_crippled=colony.armies_crippled - 1), defense


def ground_decision(
    assault: Assault, siege: Siege, options: tuple[Option, ...], stage: Stage
) -> Decision[Siege]:
    """The attacker's choice of the next ground unit to reduce (the player who rolled chooses
    where hits go, 7.5.3, 7.6.1); answered, the hits are spent and the choice comes again."""
    colony = siege.colony
    request = DecisionRequest(
        "ground_hits",
        assault.attacker,
        f"{siege.hits} hits on {assault.defender}'s ground forces: which unit is reduced?",
        options,
        facts={
            "hits": siege.hits,
            "armies": [colony.armies, colony.armies_crippled],
            "marines": [colony.marines, colony.marines_crippled],
        },
    )

    def then(option: Option) -> Step[Siege]:
        after, cost = apply_ground_option(siege.colony, option)
        state = "crippled" if option.action == "cripple" else "destroyed"
        return Step(
            siege.at(stage, colony=after, hits=siege.hits - cost),
            (
                event(
                    "ground_unit_reduced",
                    house=assault.defender,
                    unit=option.unit,
                    state=state,
                    hits=cost,
                ),
            ),
        )

    return Decision(request, then)


def allocate(assault: Assault, siege: Siege) -> Node[Siege]:
    """``ALLOCATE`` (7.5.4): the unused hits on armies and marines, one reduction at a time;
    then, when no ground unit stands, the spaceports (6.2.7, option ``bombard_spaceports``,
    ruling G26); then "if there are unused hits left over from ground batteries and ground
    forces, subtract the number of hits from the planet's IU. If there is no remaining IU,
    apply hits to the planet's PU instead" — only when no ground unit stands: otherwise
    "Excess hits are lost if restrictions apply" (ruling E64)."""
    options = ground_options(siege.colony, siege.hits)
    if options:
        return ground_decision(assault, siege, options, Stage.ALLOCATE)
    colony, left = siege.colony, siege.hits
    events: list[Event] = []
    if left and not colony.ground_count and _spaceports_targeted(assault, colony):
        colony, left, told = spaceport_damage(assault, colony, left)
        events += told
    if left and colony.ground_count:
        events.append(event("hits_lost", house=assault.attacker, hits=left, reason="ground forces"))
    elif left:
        iu_lost = min(left, colony.iu)
        pu_lost = min(left - iu_lost, colony.pu)
        colony = colony.at(iu=colony.iu - iu_lost, pu=colony.pu - pu_lost)
        events.append(
            event(
                "infrastructure_bombarded",
                house=assault.defender,
                hits=left,
                iu_lost=iu_lost,
                pu_lost=pu_lost,
                iu=colony.iu,
                pu=colony.pu,
            )
        )
    return Step(siege.at(Stage.ROUND_END, colony=colony, hits=0), tuple(events))


def _spaceports_targeted(assault: Assault, colony: Colony) -> int:
    """The spaceports bombardment may still hit: 6.2.7 names them among order 06's targets
    (option ``bombard_spaceports``, ruling G26). Not in an invasion's rounds (6.2.8 pounds
    "the population centers" and ground troops; the landing destroys the spaceports, 7.6.1)
    nor a blitz's (7.6.2: ground units and infrastructure are not targeted)."""
    if assault.readings.bombard_spaceports == "never" or assault.mission != "bombard":
        return 0
    return colony.spaceports


def spaceport_damage(
    assault: Assault, colony: Colony, hits: int
) -> tuple[Colony, int, tuple[Event, ...]]:
    """6.2.7 "Spaceports" (ruling G26): after the ground forces (6.2.7's order; 7.5.4's
    "Finally" keeps the IU last), each 50 hits (a spaceport's DS, facts §6) destroy one
    spaceport (a facility: no crippled state); the rest goes on to the IU (as the batteries'
    remainder goes on, option ``battery_excess: pass_on``, E64). Told only when one falls."""
    defense = planetary().units["SP"].defense
    destroyed = min(hits // defense, colony.spaceports)
    if not destroyed:
        return colony, hits, ()
    left = hits - destroyed * defense
    after = colony.at(spaceports=colony.spaceports - destroyed)
    told = event(
        "spaceports_bombarded",
        house=assault.defender,
        hits=destroyed * defense,
        destroyed=destroyed,
        standing=after.spaceports,
        unused=left,
    )
    return after, left, (told,)


def round_end(assault: Assault, siege: Siege) -> Node[Siege]:
    """``ROUND_END``: another bombardment round (7.5.4 "If there are remaining rounds (max 3),
    return to 7.5.1"), while the fleet has a squadron standing and the colony anything left
    to hit; after a blitz's round, or an invasion's last (one, or three with option
    ``invasion_bombardment``, ruling G27), the landing (7.6.1, 7.6.2)."""
    colony = siege.colony
    if assault.mission == "blitz":
        return Step(siege.at(Stage.LAND, rolls=()))
    conventional, breakers = fleet_strength(assault, siege.cond)
    left = (
        colony.battery_count
        or colony.ground_count
        or _spaceports_targeted(assault, colony)
        or colony.iu
        or colony.pu
    )
    if siege.round < assault.rounds and conventional + breakers > 0 and left:
        return _new_round(assault, siege)
    if assault.mission == "invade":
        return Step(siege.at(Stage.LAND, rolls=()))
    return Step(
        siege.at(Stage.DONE, rolls=(), result="bombarded"),
        (event("bombardment_ended", rounds=siege.round, colony=describe(colony)),),
    )
