"""Each house's report of a turn: only what that house saw (docs/ec4x.md, "Turn
reports").

- its orders and whether each was carried out or refused (and the requirement it lacked);
- its fleets' moves and its fleets and colonies at the end of the turn; for each of its
  colonies whether it was blockaded (6.2.6) and the GCO factor for this turn's income (0.4
  under blockade, else 1);
- its prestige before and after, with each change; production points credited (salvage);
- the battles it fought in: the system, the result, the rounds, and for each house that
  engaged there its fate, losses, survivors and crippled ships (what the battle showed);
  after planetary combat (7.5, 7.6) the colony's fate (``planetary``: the mission, the result,
  the owner after, what is left of it, the invaders);
  houses present but not engaged (cloaked movers passing by) are left out;
- the intelligence of its spies and patrols; what happened to its fleets (losses,
  retreats, merges, colonies founded, salvage).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from spacecombat.rulesets.ec4x.turn import orders as o
from spacecombat.scenario.ec4x_game import ColonySpec, GameState

#: the planetary part of a battle outcome's ``colony`` block (siege.report), as reported
PLANETARY_KEYS = (
    "mission",
    "attacker",
    "result",
    "owner_after",
    "fallen",
    "seized",
    "iu",
    "pu",
    "shield",
    "spaceports",
    "batteries",
    "armies",
    "marines",
    "invaders",
)


#: the colony's ground units (7.5.3, 7.6), reported by state
GROUND_UNITS = ("batteries", "armies", "marines")


def colony_by_state(colony: ColonySpec) -> dict[str, Any]:
    """A colony as its owner's report gives it: the state's fields, with each kind of ground
    unit as ``{"undamaged": n, "crippled": m}`` (7.1.2; the state writes a plain count when
    none is crippled)."""
    seen = colony.model_dump(mode="json", exclude_none=True)
    for kind in GROUND_UNITS:
        seen[kind] = getattr(colony, kind).model_dump(mode="json")
    return seen


def report(
    world: o.World,
    new: GameState,
    house: str,
    orders_seen: Mapping[str, list[dict[str, object]]],
    moves: Mapping[str, tuple[str, ...]],
    battles: list[dict[str, Any]],
    blockades: Mapping[str, list[str]],
) -> dict[str, Any]:
    """The report of ``house`` for the turn ``world.state.turn``."""
    before = world.state.houses[house].prestige
    own_fleets = [f for f in new.fleets if f.owner == house]
    start_fleets = {f.id for f in world.state.fleets if f.owner == house}
    colonies = []
    for system in new.systems:
        colony = system.colony()
        if colony is None or colony.owner != house:
            continue
        under = system.id in blockades
        colonies.append(
            {
                "system": system.id,
                "colony": colony_by_state(colony),
                "blockaded": under,
                "gco_factor": o.BLOCKADE_GCO_FACTOR if under else 1.0,
            }
        )
    blockading = sorted(
        system for system, fleets in blockades.items() if any(fid in start_fleets for fid in fleets)
    )
    fought = []
    for record in battles:
        if house not in record["houses"]:
            continue
        outcome = record["outcome"]
        seen = {
            h: block
            for h, block in outcome.get("houses", {}).items()
            if h == house or block.get("fate") != "not_engaged"
        }
        entry: dict[str, Any] = {
            "system": record["system"],
            "wave": record["wave"],
            "result": outcome.get("result"),
            "rounds": outcome.get("rounds"),
            "houses": seen,
        }
        colony = outcome.get("colony")
        if isinstance(colony, dict) and "mission" in colony:
            # planetary combat (7.5, 7.6): every house there sees the colony's fate
            entry["planetary"] = {k: colony[k] for k in PLANETARY_KEYS if k in colony}
        fought.append(entry)
    return {
        "game_id": world.state.game_id,
        "turn": world.state.turn,
        "house": house,
        "prestige": {
            "before": before,
            "after": new.houses[house].prestige,
            "changes": [{"reason": r, "change": n} for r, n in world.prestige.get(house, [])],
        },
        "credited_pp": world.credits.get(house, 0),
        "orders": orders_seen.get(house, []),
        "moves": {fid: list(p) for fid, p in sorted(moves.items()) if fid in start_fleets},
        "fleets": [f.model_dump(mode="json", exclude_none=True) for f in own_fleets],
        "colonies": colonies,
        "blockading": blockading,
        "battles": fought,
        "intelligence": world.intel.get(house, []),
        "events": world.notes.get(house, []),
    }
