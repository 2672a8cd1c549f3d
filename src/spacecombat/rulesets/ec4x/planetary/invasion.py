"""Planetary Invasion (7.6.1) and the ground combat an invasion or a blitz ends with (7.6).

7.6.1: "To land Marines on a planet during ground invasion, all the surface Ground Batteries
must be destroyed. First conduct one round of planetary bombardment ... If there are remaining
Ground Batteries, the mission fails." Otherwise "the Marines are dropped onto the surface.
Planetary shields and Spaceports are immediately destroyed."

Ground combat, round after round "until one side is completely destroyed": both sides total
the AS of their armies and marines (crippled at half, rounded up) and roll on the Ground Combat
Table, the invader first: ``ground_combat`` (attacker) d10 0–9, then ``ground_combat``
(defender) d10; hits = CER x AS rounded up. The defender's hits reduce the invading marines
(all alike: nothing to choose); the attacker chooses which defending unit each reduction falls
on (``ground_hits``). Restrictions 1–3: a unit is reduced by hits equal to its DS; none is
destroyed while another is undamaged; excess hits are lost.

On conquest "loyal House citizens destroy 50% of the colony's remaining IU" (invasion only;
the destroyed half rounded up, ruling E69); a blitz seizes every asset (``blitz.py``).
"""

from __future__ import annotations

import math

from spacecombat.core.engine import Draw, Node, Step
from spacecombat.core.events import Event, event
from spacecombat.rulesets.ec4x.planetary import blitz
from spacecombat.rulesets.ec4x.planetary.bombardment import (
    cer_hits,
    ground_decision,
    ground_options,
)
from spacecombat.rulesets.ec4x.planetary.colony import half, reduce_alike
from spacecombat.rulesets.ec4x.planetary.siege import STANDING, Assault, Siege, Stage, describe
from spacecombat.rulesets.ec4x.planetary.tables import planetary

ATTACKER, DEFENDER = 0, 1


def marines_aboard(assault: Assault, cond: tuple[int, ...]) -> int:
    """7.6.1: the divisions of the troop transports still with the fleet (one per loaded TT,
    facts §6, ruling E63)."""
    return sum(
        s.marines
        for s, c in zip(assault.strikers, cond, strict=True)
        if s.kind == "transport" and c in STANDING
    )


def land(assault: Assault, siege: Siege) -> Node[Siege]:
    """``LAND``: the marines land, or the mission fails."""
    colony = siege.colony
    if assault.mission == "blitz":
        return blitz.land(assault, siege)
    if colony.battery_count:
        return _failed(siege, f"{colony.battery_count} ground batteries remain (7.6.1)")
    divisions = marines_aboard(assault, siege.cond)
    if not divisions:
        return _failed(siege, "no marines to land")
    destroyed = {"shield": colony.shield, "spaceports": colony.spaceports}
    colony = colony.at(shield=0, spaceports=0)
    events = (
        event(
            "marines_landed",
            house=assault.attacker,
            marines=[divisions, 0],
            strength=invader_strength(assault, (divisions, 0)),
            destroyed=destroyed,
        ),
    )
    return Step(
        siege.at(
            Stage.GROUND_END,
            colony=colony,
            landed=(divisions, 0),
            landed_total=divisions,
            round=0,
            rolls=(),
        ),
        events,
    )


def _failed(siege: Siege, reason: str) -> Step[Siege]:
    return Step(
        siege.at(Stage.DONE, result="failed", rolls=()),
        (event("invasion_failed", reason=reason),),
    )


def invader_strength(assault: Assault, landed: tuple[int, int]) -> int:
    """The invaders' AS: a division's AS, crippled at half rounded up; in a blitz, halved
    again (7.6.2, option ``blitz_marine_as``)."""
    marine = planetary().units["MD"].attack
    undamaged, crippled = marine, half(marine)
    if assault.mission == "blitz":
        undamaged, crippled = blitz.landed_attack(assault)
    return landed[0] * undamaged + landed[1] * crippled


def ground(assault: Assault, siege: Siege) -> Node[Siege]:
    """``GROUND``: the round's two draws (each kept as its hits, its event at once), then the
    hits."""
    rolls = siege.rolls
    tables = planetary()
    if len(rolls) < 2:
        attacking = len(rolls) == ATTACKER
        player = assault.attacker if attacking else assault.defender
        strength = (
            invader_strength(assault, siege.landed) if attacking else siege.colony.ground_strength()
        )

        def then(face: int) -> Step[Siege]:
            row = tables.ground_row(face)
            hits = cer_hits(strength, row.cer)
            told = event(
                "ground_combat_rolled",
                house=player,
                strength=strength,
                die=face,
                cer=str(row.cer),
                hits=hits,
            )
            return Step(siege.at(Stage.GROUND, rolls=(*rolls, hits)), (told,))

        return Draw.die(player, "ground_combat", 10, then, first=0)
    a_hits, d_hits = rolls
    undamaged, crippled, left, crippling, destroying = reduce_alike(
        *siege.landed, d_hits, tables.units["MD"].defense
    )
    told = event(
        "marines_hit",
        house=assault.attacker,
        hits=d_hits,
        crippled=crippling,
        destroyed=destroying,
        standing=[undamaged, crippled],
        lost=left,
    )
    return Step(
        siege.at(Stage.GROUND_ALLOCATE, landed=(undamaged, crippled), hits=a_hits, rolls=()),
        (told,),
    )


def allocate(assault: Assault, siege: Siege) -> Node[Siege]:
    """``GROUND_ALLOCATE``: the attacker's hits on armies and marines, one reduction at a time;
    hits that can reduce no unit are lost (restriction 3)."""
    options = ground_options(siege.colony, siege.hits)
    if options:
        return ground_decision(assault, siege, options, Stage.GROUND_ALLOCATE)
    events: tuple[Event, ...] = ()
    if siege.hits:
        events = (event("hits_lost", house=assault.attacker, hits=siege.hits, reason="ground"),)
    return Step(siege.at(Stage.GROUND_END, hits=0), events)


def ground_end(assault: Assault, siege: Siege) -> Node[Siege]:
    """``GROUND_END``: conquest, defeat, a stalemate, or another round."""
    colony = siege.colony
    invaders = siege.landed[0] + siege.landed[1]
    if not invaders:
        return _ended(siege, "held", "the invading marines are destroyed")
    if not colony.ground_count:
        return _conquered(assault, siege)
    if _stalemate(assault, siege):
        return _ended(siege, "stalemate", "neither side can ever reduce a unit of the other")
    number = siege.round + 1
    return Step(
        siege.at(Stage.GROUND, round=number, rolls=()),
        (event("ground_round_started", round=number),),
    )


def _stalemate(assault: Assault, siege: Siege) -> bool:
    """No roll of either side can reduce a unit of the other: the best CER times the AS is
    below the lowest DS standing on the other side (ruling E69)."""
    best = max(row.cer for row in planetary().ground)
    units = planetary().units
    attack = cer_hits(invader_strength(assault, siege.landed), best)
    defence = cer_hits(siege.colony.ground_strength(), best)
    colony = siege.colony
    lowest = min(
        d
        for d, n in (
            (units["AA"].defense, colony.armies + colony.armies_crippled),
            (units["MD"].defense, colony.marines + colony.marines_crippled),
        )
        if n
    )
    return attack < lowest and defence < units["MD"].defense


def _ended(siege: Siege, result: str, reason: str) -> Step[Siege]:
    return Step(
        siege.at(Stage.DONE, result=result, rolls=(), round=0),
        (event("colony_held", owner=siege.colony.owner, result=result, reason=reason),),
    )


def _conquered(assault: Assault, siege: Siege) -> Step[Siege]:
    colony = siege.colony
    if assault.mission == "blitz":
        return blitz.seize(assault, siege)
    destroyed = math.ceil(colony.iu * planetary().invasion_iu_loss)
    after = colony.at(owner=assault.attacker, iu=colony.iu - destroyed)
    return Step(
        siege.at(Stage.DONE, colony=after, result="conquered", rolls=(), round=0),
        (
            event(
                "colony_conquered",
                house=assault.attacker,
                previous=colony.owner,
                iu_destroyed=destroyed,
                seized=False,
                colony=describe(after),
            ),
        ),
    )
