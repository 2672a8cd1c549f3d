"""Planetary combat's shared terms (7.5 bombardment, 7.6.1 invasion, 7.6.2 blitz): what does
not change (``Assault``), the state (``Siege``), its stages, and the report of a siege. The
procedure of each stage is in ``bombardment.py``, ``invasion.py`` and ``blitz.py``; which one
follows each stage, in ``process.py``.

The attacker's units taking part (``Striker``) are its squadrons in the fleets under orders
06–08 and their troop transports, in unit order (the squadrons of each fleet, then its TTs,
fleets in scenario order). A siege is played on its own (``process.SiegeProcess``, for tests) or
as the last part of an EC4X battle after space combat (``chain.py``).

Stages, in order: ``START`` → ``BOMBARD`` (a round's draws, then its hits) → ``ALLOCATE`` (the
attacker's choices among armies and marines, 7.5.4) → ``ROUND_END`` (another bombardment round,
or the invasion's check of the batteries, 7.6.1) → ``LAND`` (7.6.1, 7.6.2) → ``GROUND`` (a
ground round's draws and hits) → ``GROUND_ALLOCATE`` → ``GROUND_END`` → ``DONE``.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from enum import IntEnum
from typing import Any, Literal, NamedTuple, Protocol

from spacecombat.core.engine import Node, Step
from spacecombat.core.events import event
from spacecombat.rulesets.ec4x.planetary.colony import Colony
from spacecombat.rulesets.ec4x.planetary.tables import planetary
from spacecombat.rulesets.ec4x.state import CRIPPLED, DESTROYED, UNDAMAGED

Mission = Literal["bombard", "invade", "blitz"]
#: 6.2: the planetary orders and their missions
MISSIONS: dict[int, Mission] = {6: "bombard", 7: "invade", 8: "blitz"}
#: a striker whose fleet does not take part (it refused orders, 7.1.4) or is not in the system
OUT = 5
STANDING = (UNDAMAGED, CRIPPLED)
CONDITION = {UNDAMAGED: "undamaged", CRIPPLED: "crippled", DESTROYED: "destroyed", OUT: "out"}


class Readings(Protocol):
    """The rule options planetary combat reads (``Ec4xOptions`` has them; rulings E64–E68,
    G26, G27)."""

    @property
    def bombard_crippled_as(self) -> Literal["half", "full"]: ...
    @property
    def shield_roll(self) -> Literal["d20", "no_roll"]: ...
    @property
    def max_shield_level(self) -> int: ...
    @property
    def battery_excess(self) -> Literal["pass_on", "lost_while_standing"]: ...
    @property
    def battery_critical(self) -> Literal["lowest_ds", "lowest_ds_undamaged"]: ...
    @property
    def blitz_marine_as(self) -> Literal["stacked", "once"]: ...
    @property
    def bombard_spaceports(self) -> Literal["after_ground_forces", "never"]: ...
    @property
    def invasion_bombardment(self) -> Literal["one_round", "three_rounds"]: ...


@dataclass(frozen=True)
class DefaultReadings:
    """The default readings (for a siege played on its own)."""

    bombard_crippled_as: Literal["half", "full"] = "half"
    shield_roll: Literal["d20", "no_roll"] = "d20"
    max_shield_level: int = 6
    battery_excess: Literal["pass_on", "lost_while_standing"] = "pass_on"
    battery_critical: Literal["lowest_ds", "lowest_ds_undamaged"] = "lowest_ds"
    blitz_marine_as: Literal["stacked", "once"] = "stacked"
    bombard_spaceports: Literal["after_ground_forces", "never"] = "after_ground_forces"
    invasion_bombardment: Literal["one_round", "three_rounds"] = "one_round"


@dataclass(frozen=True, slots=True)
class Striker:
    """An attacking unit: a squadron (its conventional and planet-breaker AS apart, 7.5.2) or
    a troop transport (AS 0; ``marines`` the divisions it carries)."""

    uid: str
    kind: Literal["squadron", "transport"]
    attack: int
    attack_crippled: int
    breaker: int
    breaker_crippled: int
    defense: int
    marines: int = 0
    #: its unit in the space battle (``Setup.units``), -1 for a troop transport
    unit: int = -1
    #: its ships, as the log names them
    ships: tuple[str, ...] = ()


@dataclass(frozen=True)
class Assault:
    """Everything about a siege that does not change while it is fought."""

    mission: Mission
    attacker: str
    defender: str
    colony_name: str
    strikers: tuple[Striker, ...]
    start: Colony
    readings: Readings

    @property
    def rounds(self) -> int:
        """7.5 at most three bombardment rounds; 7.6.2 one; 7.6.1 one, or 6.2.8's "three
        round battle" as order 06's three (option ``invasion_bombardment``, ruling G27)."""
        most = planetary().bombardment_max_rounds
        if self.mission == "invade":
            return most if self.readings.invasion_bombardment == "three_rounds" else 1
        return most if self.mission == "bombard" else 1


class Stage(IntEnum):
    START = 0
    BOMBARD = 1  # 7.5.1–7.5.3
    ALLOCATE = 2  # 7.5.4
    ROUND_END = 3
    LAND = 4  # 7.6.1, 7.6.2
    GROUND = 5  # 7.6.1
    GROUND_ALLOCATE = 6
    GROUND_END = 7
    DONE = 8


class Siege(NamedTuple):
    """One moment of planetary combat."""

    stage: Stage
    colony: Colony
    #: per striker: UNDAMAGED, CRIPPLED, DESTROYED or OUT
    cond: tuple[int, ...]
    round: int = 0
    #: the round's draws so far (-1: a draw not needed)
    rolls: tuple[int, ...] = ()
    #: hits the attacker still places on ground forces (7.5.4, 7.6.1)
    hits: int = 0
    #: the invaders on the ground: (undamaged, crippled) divisions
    landed: tuple[int, int] = (0, 0)
    #: divisions landed in all
    landed_total: int = 0
    #: "", "bombarded", "failed", "conquered", "held", "stalemate"
    result: str = ""

    def at(self, stage: Stage, **changes: Any) -> Siege:
        return self._replace(stage=stage, **changes)


Procedure = Callable[[Assault, Siege], Node[Siege]]


def start(assault: Assault, cond: tuple[int, ...] | None = None) -> Step[Siege]:
    """The siege's first state, with ``planetary_combat_started``."""
    found = cond if cond is not None else tuple(UNDAMAGED for _ in assault.strikers)
    siege = Siege(Stage.START, assault.start, found)
    return Step(
        siege,
        (
            event(
                "planetary_combat_started",
                mission=assault.mission,
                attacker=assault.attacker,
                defender=assault.defender,
                colony=assault.colony_name,
                strikers=[s.uid for s, c in zip(assault.strikers, found, strict=True) if c != OUT],
                defences=describe(assault.start),
            ),
        ),
    )


def describe(colony: Colony) -> dict[str, object]:
    """A colony's planetary defences and infrastructure, as events and outcomes give them."""
    return {
        "owner": colony.owner,
        "shield": colony.shield,
        "batteries": [colony.batteries, colony.batteries_crippled],
        "armies": [colony.armies, colony.armies_crippled],
        "marines": [colony.marines, colony.marines_crippled],
        "spaceports": colony.spaceports,
        "iu": colony.iu,
        "pu": colony.pu,
    }


def report(assault: Assault, siege: Siege | None) -> dict[str, object]:
    """The outcome's planetary part (the ``colony`` block): ``siege`` None when the attacker
    did not hold orbit (nothing happened to the colony)."""
    start_ = assault.start
    colony = siege.colony if siege is not None else start_
    fallen = colony.owner != start_.owner
    seized = fallen and assault.mission == "blitz"

    def units(undamaged: int, crippled: int, before: int, can_seize: bool) -> dict[str, int]:
        return {
            "undamaged": undamaged,
            "crippled": crippled,
            "destroyed": before - undamaged - crippled,
            "seized": undamaged + crippled if seized and can_seize else 0,
        }

    landed = siege.landed if siege is not None else (0, 0)
    total = siege.landed_total if siege is not None else 0
    return {
        "mission": assault.mission,
        "attacker": assault.attacker,
        "result": siege.result if siege is not None else "orbit_not_held",
        "owner_after": colony.owner,
        "fallen": fallen,
        "seized": seized,
        "iu": colony.iu,
        "pu": colony.pu,
        "shield": colony.shield,
        "spaceports": colony.spaceports,
        "batteries": units(
            colony.batteries, colony.batteries_crippled, start_.battery_count, can_seize=True
        ),
        "armies": units(
            colony.armies, colony.armies_crippled, start_.armies + start_.armies_crippled, False
        ),
        "marines": units(
            colony.marines,
            colony.marines_crippled,
            start_.marines + start_.marines_crippled,
            False,
        ),
        "invaders": {
            "landed": total,
            "undamaged": landed[0],
            "crippled": landed[1],
            "destroyed": total - landed[0] - landed[1],
        },
    }
