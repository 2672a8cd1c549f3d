"""What a battle's end says: result, winner, rounds, survivors, retreat."""

from __future__ import annotations

from spacecombat.core.outcome import ending, overall, planet_record
from spacecombat.core.sides import combat_result
from spacecombat.core.state import ships
from spacecombat.rulesets.ti4.setup import BattleSetup
from spacecombat.rulesets.ti4.sides import SIDES, Side
from spacecombat.rulesets.ti4.state import BattleState

A, D = Side.ATTACKER, Side.DEFENDER


def space_outcome(setup: BattleSetup, state: BattleState) -> dict[str, object]:
    """Space combat: the player with ships left wins; neither: a draw (rule 10). No combat at
    all (space cannon offense left a player without ships) is ``no_combat`` (R14)."""
    left = {side: ships(setup, state, side) for side in SIDES}
    result = "no_combat" if state.round == 0 else state.result or combat_result(left[A], left[D])
    outcome = ending("space", result, state, rounds=state.round)
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
            planet_record(
                state,
                p,
                name,
                result,
                controller="attacker" if a_left else "defender",
                rounds=state.ground_rounds[p] if state.ground_rounds else 0,
            )
        )
    return ending(
        "invasion",
        overall(results),
        state,
        planets_taken=taken,
        rounds=max(state.ground_rounds, default=0),
        planets=planets,
    )
