"""The TI3 battle as a process: each phase handled by the procedure the rules name."""

from __future__ import annotations

from collections.abc import Callable, Mapping

from spacecombat.core.battle import RulesetBattle, no_destination
from spacecombat.core.engine import Node
from spacecombat.core.outcome import resources_lost, unit_counts, unit_records
from spacecombat.core.sides import PLAYER_SIDES, SIDES, Side
from spacecombat.rulesets.notices import (
    Notices,
    counted,
    opening_events,
)
from spacecombat.rulesets.ti3.procedures import (
    fleet_check,
    invasion,
    round_start,
    sabotage_run,
    space_battle,
)
from spacecombat.rulesets.ti3.rounds import Ti3ProductRounds
from spacecombat.rulesets.ti3.setup import Ti3Setup, why_not_destination
from spacecombat.rulesets.ti3.state import Phase, Ti3State

Procedure = Callable[[Ti3Setup, Ti3State], Node[Ti3State]]

PROCEDURES: dict[Phase, Procedure] = {
    Phase.PDS_FIRE: space_battle.pds_fire,
    Phase.PDS_FIRE_HITS: space_battle.pds_fire_hits,
    Phase.PRE_COMBAT: space_battle.pre_combat,
    Phase.PRE_COMBAT_STEP: space_battle.pre_combat_step,
    Phase.PRE_COMBAT_HITS: space_battle.pre_combat_hits,
    Phase.SABOTAGE_RUN_DECLARE: sabotage_run.declare,
    Phase.SABOTAGE_RUN_WAR_SUN_FIRE: sabotage_run.war_sun_fire,
    Phase.SABOTAGE_RUN_FIGHTERS: sabotage_run.fighters_roll,
    Phase.START_OF_ROUND: round_start.start_of_round,
    # the stalemate check (T15) plays rounds ahead with this battle's own steps
    Phase.ANNOUNCE_WITHDRAWALS: lambda setup, state: space_battle.announce_withdrawals(
        setup, state, advance
    ),
    Phase.ROLL_COMBAT_DICE: space_battle.roll_combat_dice,
    Phase.REMOVE_CASUALTIES: space_battle.remove_casualties,
    Phase.EXECUTE_WITHDRAWALS: space_battle.execute_withdrawals,
    Phase.END_OF_ROUND: space_battle.end_of_round,
    Phase.END_OF_SPACE_BATTLE: space_battle.end_of_space_battle,
    Phase.FLEET_CHECK: fleet_check.fleet_check,
    Phase.BOMBARDMENT: invasion.bombardment,
    Phase.BOMBARDMENT_HITS: invasion.bombardment_hits,
    Phase.PDS_FIRE_AT_LANDING: invasion.pds_fire_at_landing,
    Phase.PDS_FIRE_AT_LANDING_HITS: invasion.pds_fire_at_landing_hits,
    Phase.CHEMICAL_WARFARE_HITS: invasion.chemical_warfare_hits,
    Phase.INVASION_ROUND: invasion.invasion_round,
    Phase.INVASION_CASUALTIES: invasion.invasion_casualties,
    Phase.INVASION_END_OF_ROUND: invasion.invasion_end_of_round,
    Phase.VALKYRIE_ARMOR_HITS: invasion.valkyrie_armor_hits,
    Phase.INVASION_SUCCESS: invasion.invasion_success,
    Phase.OVER: fleet_check.over,
}


class Ti3Battle(Notices, RulesetBattle[Ti3Setup, Ti3State]):
    """One TI3 battle (space, or invasion) for the resolver and the odds engine (Xxcha looks at
    round 1, the stock policies at the rounds they name: ``round_cap``)."""

    procedures = PROCEDURES

    def __init__(self, setup: Ti3Setup) -> None:
        super().__init__(setup)
        #: each player's units at the start, by type (what ``losses`` counts from)
        self._before: dict[Side, dict[str, int]] = {}

    def _opening_notices(self) -> list[str]:
        """What the fleet check before the battle removes (T16), as the stock policies choose."""
        setup = self.setup
        if setup.kind != "space":
            return []
        if setup.initial.phase is not Phase.FLEET_CHECK:
            return [
                f"The {side.value}'s fleet is over {over} at the start; with "
                "check_fleets_before_battle: false it fights whole, and the excess is removed "
                "after the battle."
                for side in SIDES
                if (over := fleet_check.over_at_start(setup, side)) is not None
            ]
        opening = opening_events(
            self,
            self.stock_policies(),
            lambda s: s.phase is Phase.FLEET_CHECK and s.step == fleet_check.BEFORE,
        )
        said = []
        for side in SIDES:
            by_reason: dict[str, list[object]] = {}
            for e in opening:
                if e.get("event") == "unit_removed" and e.get("player") == side.value:
                    by_reason.setdefault(str(e.get("reason")), []).append(e.get("unit"))
            for reason, units in by_reason.items():
                what = reason.removeprefix("beyond ").removesuffix(" before the battle")
                said.append(
                    f"The {side.value}'s fleet is over {what} at the start, so {counted(units)} "
                    "are removed before the battle (fleets are checked before it, T16), as the "
                    "stock policy chooses."
                )
        return said

    def _never_retreats(self, player: str) -> str | None:
        return _never_retreats(self.setup, Side(player))

    def product_rounds(self) -> Ti3ProductRounds | None:
        """The combat rounds in product form, if the rules allow it (``rounds.py``)."""
        if Ti3ProductRounds.applies(self.setup):
            return Ti3ProductRounds(self.setup, self)
        return None

    def product_refusal(self) -> str | None:
        """Why the combat rounds are not in product form (``None``: they are)."""
        return Ti3ProductRounds.refusal(self.setup)

    def survivors(self, outcome: Mapping[str, object], player: str) -> dict[str, int]:
        """A player's units left in the fight: ships in the system (or that withdrew) in a
        space battle; ground units on the planets in an invasion."""
        cards = self.setup.side(PLAYER_SIDES[player])
        keep = cards.is_ship if self.setup.kind == "space" else cards.is_ground_force
        counts: dict[str, int] = {}
        for unit, count in unit_records(_lists(outcome, player, self.setup.kind)):
            if keep(unit):
                counts[unit] = counts.get(unit, 0) + count
        return counts

    def losses(self, outcome: Mapping[str, object], player: str) -> float:
        """Resources of the player's units destroyed (a unit's cost divided by how many units
        one payment buys); units gained (Dacxive Animators) count against the losses."""
        side = PLAYER_SIDES[player]
        cards = self.setup.side(side)
        before = self._before.get(side)
        if before is None:
            before = self._before[side] = unit_counts(self.setup.initial.side(side))
        after: dict[str, int] = {}
        for unit, count in unit_records(_lists(outcome, player, "all")):
            after[unit] = after.get(unit, 0) + count
        # a Shock Troop is a promoted ground force: it is worth one (T13)
        return resources_lost(
            set(before) | set(after),
            before,
            after,
            lambda unit: cards.card("ground_force" if unit == "shock_troop" else unit),
        )


def advance(setup: Ti3Setup, state: Ti3State) -> Node[Ti3State]:
    """The node that follows ``state`` (for procedures that look ahead: the stalemate)."""
    return PROCEDURES[state.phase](setup, state)


def _never_retreats(setup: Ti3Setup, side: Side) -> str | None:
    """Why ``side`` can never withdraw or retreat in this battle, or ``None`` if it may."""
    if setup.kind != "space":
        return "an invasion has no withdrawal or retreat"
    if any(h.id == "code_of_honor" for h in setup.handlers):
        return "Code of Honor (a law in force) forbids every withdrawal and retreat (27Z-9)"
    if not setup.adjacent:
        return "system.adjacent lists no system to move to"
    reasons = [(s.name, why_not_destination(side, s)) for s in setup.adjacent]
    return no_destination(reasons, "a destination")


def _lists(outcome: Mapping[str, object], player: str, kind: str) -> list[object]:
    block = outcome.get(player)
    space = block.get("space") if isinstance(block, Mapping) else None
    planets = list(block.get("planets", [])) if isinstance(block, Mapping) else []
    away = outcome.get("withdrawal")
    moved = (
        away.get("units") if isinstance(away, Mapping) and away.get("player") == player else None
    )
    if kind == "space":
        return [space, moved]
    if kind == "invasion":
        return planets
    return [space, *planets, moved]
