"""What a battle's end says: result, winner, rounds, survivors, retreat."""

from __future__ import annotations

from spacecombat.core.sides import combat_result
from spacecombat.rulesets.ti4.setup import BattleSetup
from spacecombat.rulesets.ti4.sides import SIDES, Side
from spacecombat.rulesets.ti4.state import BattleState

A, D = Side.ATTACKER, Side.DEFENDER


def space_outcome(setup: BattleSetup, state: BattleState) -> dict[str, object]:
    """Space combat: the player with ships left wins; neither: a draw (rule 10). No combat at
    all (space cannon offense left a player without ships) is ``no_combat`` (R14)."""
    left = {side: state.side(side).space.total(setup.side(side).is_ship) for side in SIDES}
    result = "no_combat" if state.round == 0 else state.result or combat_result(left[A], left[D])
    winner = {"attacker_win": "attacker", "defender_win": "defender"}.get(result)
    outcome: dict[str, object] = {
        "battle": "space",
        "result": result,
        "winner": winner,
        "rounds": state.round,
        "attacker": _units(state, A),
        "defender": _units(state, D),
    }
    if state.retreat is not None and state.retreat.done:
        outcome["retreat"] = {
            "player": state.retreat.side.value,
            "to": state.retreat.destination,
            "units": state.retreat.arrived.to_json(),
        }
    return outcome


def invasion_outcome(setup: BattleSetup, state: BattleState) -> dict[str, object]:
    """Invasion: for each planet, who has ground forces left and who controls it; overall, the
    attacker wins if it took every planet, the defender if it kept them all with ground
    forces, a draw if no ground forces are left anywhere, else ``mixed``."""
    planets = []
    taken = 0
    results = []
    for p, name in enumerate(setup.planets):
        a_left = state.attacker.planet(p).total(setup.side(A).is_ground_force)
        d_left = state.defender.planet(p).total(setup.side(D).is_ground_force)
        result = combat_result(a_left, d_left)
        results.append(result)
        taken += a_left > 0
        planets.append(
            {
                "planet": name,
                "result": result,
                "controller": "attacker" if a_left else "defender",
                "rounds": state.ground_rounds[p] if state.ground_rounds else 0,
                "attacker": state.attacker.planet(p).to_json(),
                "defender": state.defender.planet(p).to_json(),
            }
        )
    if len(results) == 1:
        overall = results[0]
    elif all(r == "attacker_win" for r in results):
        overall = "attacker_win"
    elif all(r == "defender_win" for r in results):
        overall = "defender_win"
    elif all(r == "draw" for r in results):
        overall = "draw"
    else:
        overall = "mixed"
    winner = {"attacker_win": "attacker", "defender_win": "defender"}.get(overall)
    return {
        "battle": "invasion",
        "result": overall,
        "winner": winner,
        "planets_taken": taken,
        "rounds": max(state.ground_rounds, default=0),
        "planets": planets,
        "attacker": _units(state, A),
        "defender": _units(state, D),
    }


def _units(state: BattleState, side: Side) -> dict[str, object]:
    here = state.side(side)
    return {"space": here.space.to_json(), "planets": [p.to_json() for p in here.planets]}
