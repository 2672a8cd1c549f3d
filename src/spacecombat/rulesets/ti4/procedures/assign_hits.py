"""Assigning hits: the player whose units were hit chooses, one hit at a time, to use a unit's
SUSTAIN DAMAGE (cancelling one hit, or more with Non-Euclidean Shielding) or to destroy one of
their own units that the hits may reach (ti4-space-combat.md step 4; ti4-ground-combat.md
step 2). Hits that no unit can take are lost."""

from __future__ import annotations

from collections.abc import Callable
from enum import StrEnum

from spacecombat.core.engine import Node, Step
from spacecombat.core.forces import Status, describe
from spacecombat.core.hits import next_hit
from spacecombat.rulesets.ti4.abilities import sustain_damage
from spacecombat.rulesets.ti4.setup import BattleSetup
from spacecombat.rulesets.ti4.sides import Side
from spacecombat.rulesets.ti4.state import BattleState


class Targets(StrEnum):
    """Which of a player's units a kind of hit may reach."""

    SHIPS = "ships"
    FIGHTERS = "fighters"
    GROUND_FORCES = "ground forces"

    def types(self, setup: BattleSetup, side: Side) -> frozenset[str]:
        """The unit types of ``side`` these hits may reach."""
        cards = setup.side(side)
        if self is _SHIPS:
            return cards.ship_types
        if self is _FIGHTERS:
            return cards.fighter_types
        return cards.ground_force_types

    def admits(self, setup: BattleSetup, side: Side, unit: str) -> bool:
        return unit in self.types(setup, side)


_SHIPS, _FIGHTERS = Targets.SHIPS, Targets.FIGHTERS


def _never(unit: str, status: Status) -> bool:
    """No unit may sustain damage (anti-fighter barrage hits, docs/rulings.md R4)."""
    return False


def assign_hits(
    setup: BattleSetup,
    state: BattleState,
    side: Side,
    where: int | None,
    targets: Targets,
    cause: str,
    *,
    in_combat_round: bool,
    done: Callable[[BattleState], BattleState],
) -> Node[BattleState]:
    """Ask ``side`` to assign the next hit against it, or move on with ``done`` when none is left.

    ``where`` is the space area (``None``) or a planet. Anti-fighter barrage hits cannot be
    cancelled by SUSTAIN DAMAGE (docs/rulings.md R4): only fighters take them.
    """
    if not state.hits_on(side):
        return Step(done(state))  # as next_hit would, without making its rules first
    may_sustain = targets is not _FIGHTERS
    reached = targets.types(setup, side)
    return next_hit(
        state,
        side,
        where,
        eligible=lambda area: [(u, s) for u, s, _ in area if u in reached],
        targets=targets,  # a StrEnum: its text
        cause=cause,
        verb="assign",
        may_sustain=sustain_damage.sustainable(setup, side) if may_sustain else _never,
        cancels=lambda hits: sustain_damage.hits_cancelled(setup, side, hits),
        damaged=sustain_damage.damaged_status(in_combat_round),
        done=done,
        sustain_first=sustain_damage.immune_to_direct_hit(setup, side),
        explain=lambda area, text: _why_refused(
            setup,
            side,
            area_types=area.types(),
            text=text,
            targets=targets,
            may_sustain=may_sustain,
        ),
    )


def _why_refused(
    setup: BattleSetup,
    side: Side,
    *,
    area_types: tuple[str, ...],
    text: str,
    targets: Targets,
    may_sustain: bool,
) -> str:
    verb, _, rest = text.partition(" ")
    unit = rest.split(" (")[0]
    if verb not in ("sustain", "destroy"):
        return "an answer is 'sustain UNIT' or 'destroy UNIT'"
    if unit not in setup.side(side).cards:
        return f"{unit!r} is not a unit"
    if not targets.admits(setup, side, unit):
        return f"these hits can only be assigned to {targets.value}"
    if unit not in area_types:
        return f"you have no {unit} here"
    if verb == "sustain":
        if not may_sustain:
            return "SUSTAIN DAMAGE cannot cancel anti-fighter barrage hits"
        if not setup.side(side).card(unit).sustain_damage:
            return f"{unit} has no SUSTAIN DAMAGE"
        return f"no undamaged {unit} is left to sustain damage"
    return f"no {describe(unit, Status.UNDAMAGED)} in that state; name it as listed"
