"""What a TI3 battle's end says: result, winner, rounds, survivors, withdrawal, planets taken."""

from __future__ import annotations

from spacecombat.core.outcome import ending, overall, planet_record
from spacecombat.core.sides import SIDES, Side, combat_result
from spacecombat.rulesets.ti3.setup import Ti3Setup
from spacecombat.rulesets.ti3.state import Ti3State

A, D = Side.ATTACKER, Side.DEFENDER


def outcome(setup: Ti3Setup, state: Ti3State) -> dict[str, object]:
    if setup.kind == "space":
        return space_outcome(setup, state)
    return invasion_outcome(setup, state)


def space_outcome(setup: Ti3Setup, state: Ti3State) -> dict[str, object]:
    """A space battle: the player whose ships hold the system wins (the other destroyed, or
    gone by withdrawal or retreat); no ships left on either side is a draw. No battle at all
    (PDS fire left a player without ships) is ``no_combat``."""
    out = ending("space", state.result or "no_combat", state, rounds=state.round)
    if state.withdrew is not None:
        side, destination = state.withdrew
        out["withdrawal"] = {
            "player": side.value,
            "kind": "withdrawal" if side is A else "retreat",
            "to": destination,
            "units": state.away.to_json(),
        }
    return out


def invasion_outcome(setup: Ti3Setup, state: Ti3State) -> dict[str, object]:
    """An invasion: for each planet, who has ground units left and whether it was taken; the
    planet is taken when the attacker's ground units alone survive (ti3-combat.md, Invasion
    success) — and nothing changes a planet's units after its success is settled, so control
    is read from the final units. ``planet_taken``: every planet was taken."""
    planets = []
    results = []
    taken: list[bool] = []
    for p, name in enumerate(setup.planets):
        left = [
            state.side(side).planet(p).total(setup.side(side).is_ground_force) for side in SIDES
        ]
        result = combat_result(*left)
        results.append(result)
        taken.append(result == "attacker_win")
        planets.append(
            planet_record(
                state,
                p,
                name,
                result,
                taken=taken[-1],
                controller=_controller(state, p, taken[-1]),
                rounds=state.ground_rounds[p],
            )
        )
    return ending(
        "invasion",
        overall(results),
        state,
        planet_taken=all(taken),
        planets_taken=sum(taken),
        rounds=max(state.ground_rounds, default=0),
        planets=planets,
    )


def _controller(state: Ti3State, planet: int, taken: bool) -> str:
    """Who holds the planet: the attacker if it took it, else the defender, unless Star of
    Death turned it neutral (27S-34)."""
    if taken:
        return "attacker"
    return "neutral" if planet in state.neutral else "defender"
