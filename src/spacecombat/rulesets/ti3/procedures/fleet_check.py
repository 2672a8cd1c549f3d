"""The fleet check before and after a space battle (ti3-facts.md section 4.3, [M]) and after
a withdrawal or retreat (ti3-combat.md, Execute withdrawals: "excess ships are immediately
destroyed").

Capacity: fighters and ground units in space need room on carriers and war suns (6 each), or,
for fighters in the active system, a space dock's support (3). With Advanced Fighters,
fighters beyond capacity stay but count against fleet supply. Fleet supply: a player with a
``fleet_supply`` may keep that many ships (fighters aside) in the fleet. The owner chooses what
goes.
"""

from __future__ import annotations

from spacecombat.core.decisions import DecisionRequest, Option
from spacecombat.core.engine import Decision, End, Node, Step
from spacecombat.core.events import event
from spacecombat.core.forces import Forces, Status, describe
from spacecombat.core.sides import Side
from spacecombat.rulesets.ti3.outcome import outcome
from spacecombat.rulesets.ti3.setup import Ti3Setup
from spacecombat.rulesets.ti3.state import Phase, Ti3State

#: ti3-facts.md section 2: a space dock supports up to 3 fighters in its system
DOCK_SUPPORT = 3
#: Floating Factories (Saar): a space dock supports 5 fighters (PC_Twi r_Saar.cpp; 27R-13)
FLOATING_FACTORIES_SUPPORT = 5
#: the Matriarch (Naalu flagship): fleet supply 3 larger while it lives (PC_Twi
#: r_Naalu.cpp e_NaaluFlagship; 27R-8)
NAALU_FLAGSHIP_SUPPLY = 3

#: ``step`` of the check made before the space battle (fleets are checked before and after
#: combat, ti3-facts.md section 4.3)
BEFORE = "before"


Excess = tuple[str, tuple[str, ...]] | None


def _excess(setup: Ti3Setup, side: Side, fleet: Forces, docks: int) -> Excess:
    """The reason for the next removal and the unit types that may go, or ``None`` (a fact of
    the fleet and the docks alone: found once for them)."""
    return setup.remembered(
        ("fleet_excess", side, fleet, docks), lambda: _find_excess(setup, side, fleet, docks)
    )


def _find_excess(setup: Ti3Setup, side: Side, fleet: Forces, docks: int) -> Excess:
    cards = setup.side(side)
    room = sum(
        n * (cards.card(u).capacity or 0) for u, n in fleet.by_type().items() if cards.is_ship(u)
    )
    ground = fleet.total(cards.is_ground_force)
    if cards.has("sol_flagship") and fleet.count("flagship"):
        # Genesis carries any number of ground forces, besides its capacity (27R-8)
        ground = 0
    fighters = fleet.count("fighter")
    advanced = cards.has("advanced_fighters")
    support = FLOATING_FACTORIES_SUPPORT if cards.has("floating_factories") else DOCK_SUPPORT
    fighter_room = max(0, room - ground) + docks * support
    if ground > room:
        return "capacity", tuple(u for u in fleet.types() if cards.is_ground_force(u))
    if fighters > fighter_room and not advanced:
        return "capacity", ("fighter", *(u for u in fleet.types() if cards.is_ground_force(u)))
    if cards.fleet_supply is not None:
        supply = cards.fleet_supply
        if cards.has("naalu_flagship") and fleet.count("flagship"):
            supply += NAALU_FLAGSHIP_SUPPLY  # the Matriarch, while it lives (27R-8)
        loose = max(0, fighters - fighter_room) if advanced else 0
        big = fleet.total(lambda u: cards.is_ship(u) and u != "fighter")
        if cards.has("hybrid_crystal_drives"):
            # carriers and unsupported Advanced Fighters count half a ship each, the halves
            # rounded up (Naalu; 27R-21)
            halves = fleet.count("carrier") + loose
            big, loose = big - fleet.count("carrier") + (halves + 1) // 2, 0
        if big + loose > supply:
            kinds = tuple(u for u in fleet.types() if cards.is_ship(u) and u != "fighter")
            return "fleet supply", kinds + (("fighter",) if loose else ())
    return None


def over_at_start(setup: Ti3Setup, side: Side) -> str | None:
    """What ``side``'s fleet in the system is over at the battle's start ("capacity" or "fleet
    supply"), or ``None``."""
    units = setup.initial.side(side)
    found = _excess(setup, side, units.space, units.planet(0).count("space_dock"))
    return None if found is None else found[0]


def fleet_check(setup: Ti3Setup, state: Ti3State) -> Node[Ti3State]:
    """Check ``state.turn``'s fleet: the one in the system, or the one that moved away."""
    side = state.turn
    away = state.withdrew is not None and state.withdrew[0] is side
    fleet = state.away if away else state.side(side).space
    docks = 0 if away else state.side(side).planet(0).count("space_dock")
    found = _excess(setup, side, fleet, docks)
    if found is None:
        if side is Side.ATTACKER:
            return Step(state.changed(turn=Side.DEFENDER))
        if state.step == BEFORE:  # checked before the battle: PDS fire comes next
            return Step(state.at(Phase.PDS_FIRE, turn=Side.ATTACKER, step=""))
        return Step(state.at(Phase.OVER, turn=Side.ATTACKER))
    what, kinds = found
    reason = f"beyond {what} {_when(state, side, away)}"
    options = tuple(
        Option(f"remove {describe(u, s)}", "remove", u, s) for u, s, _ in fleet if u in kinds
    )
    request = DecisionRequest(
        decision="remove_excess",
        player=side.value,
        prompt=f"{reason}: remove a unit",
        options=options,
        facts={"reason": what},
    )

    def then(option: Option) -> Step[Ti3State]:
        unit = option.unit or ""
        left = fleet.remove(unit, Status(option.status or 0))
        after = (
            state.changed(away=left)
            if away
            else state.with_side(side, state.side(side).with_space(left))
        )
        return Step(after, (event("unit_removed", player=side.value, unit=unit, reason=reason),))

    return Decision(request, then)


def _when(state: Ti3State, side: Side, away: bool) -> str:
    """When this check is made, in words (the ``unit_removed`` event's reason ends with it)."""
    if state.step == BEFORE:
        return "before the battle"
    if away:
        return "after the withdrawal" if side is Side.ATTACKER else "after the retreat"
    return "after the battle"


def over(setup: Ti3Setup, state: Ti3State) -> End[Ti3State]:
    """The battle's end and its outcome."""
    result = outcome(setup, state)
    return End(result, (event("battle_ended", **result),))
