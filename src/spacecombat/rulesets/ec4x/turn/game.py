"""An EC4X game state as the ruleset reads it: ``scenario/ec4x_game.py`` checks its shape and
the references between its entries; this module then checks what the rules decide, the named
options (movement's, ``turn/movement.py``, the conflict phase's, ``TurnOptions`` in
``turn/orders.py``, and space combat's, ``options.py``) and each fleet's
squadrons against the ship classes (7.3.1.4's command rating, carriers' capacity) under those
options. ``parse_game`` and ``load_game`` do both; ``ScenarioError`` names the first bad field.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from spacecombat.core.errors import ScenarioError
from spacecombat.core.limits import MAX_STATE_BYTES
from spacecombat.rulesets.ec4x.options import (
    Ec4xOptions,
    check_squadron,
    read_options,
    refuse_unimplemented,
)
from spacecombat.rulesets.ec4x.turn.movement import MOVEMENT_OPTIONS, read_movement_options
from spacecombat.rulesets.ec4x.turn.orders import TURN_OPTIONS, read_turn_options
from spacecombat.scenario.ec4x_game import GameState
from spacecombat.scenario.ec4x_game import parse_game as parse_shape
from spacecombat.scenario.schema import read_document


def battle_options(state: GameState) -> dict[str, Any]:
    """The state's options that are space combat's (every one but movement's and the
    turn's)."""
    return {
        k: v
        for k, v in (state.options or {}).items()
        if k not in MOVEMENT_OPTIONS and k not in TURN_OPTIONS
    }


def check_game(state: GameState) -> GameState:
    """``state`` (parsed by ``scenario/ec4x_game.py``) if the rules accept it: its options
    known and valid, and each squadron valid under them."""
    raw = dict(state.options or {})
    for key in raw:
        known = (MOVEMENT_OPTIONS, TURN_OPTIONS, tuple(Ec4xOptions.model_fields))
        if not any(key in names for names in known):
            field = f"options.{key}" if key.isidentifier() and len(key) <= 40 else "options"
            raise ScenarioError(
                field,
                "unknown option for an EC4X game; allowed: movement "
                f"({', '.join(MOVEMENT_OPTIONS)}), the turn ({', '.join(TURN_OPTIONS)}) "
                "and space combat (docs/ec4x.md)",
            )
    read_movement_options({k: v for k, v in raw.items() if k in MOVEMENT_OPTIONS})
    read_turn_options({k: v for k, v in raw.items() if k in TURN_OPTIONS})
    battle = read_options(battle_options(state))
    refuse_unimplemented(battle)  # refused now, not at the turn's first battle
    for f, fleet in enumerate(state.fleets):
        aco = state.houses[fleet.owner].aco
        for q, squadron in enumerate(fleet.squadrons):
            check_squadron(f"fleets[{f}].squadrons[{q}]", squadron, aco, battle)
    return state


def parse_game(data: object) -> GameState:
    """A decoded game state, checked by the scenario layer and then by the ruleset."""
    return check_game(parse_shape(data))


def load_game(path: str | Path) -> GameState:
    """Read a JSON (or YAML) game state file (within ``MAX_STATE_BYTES``) and check it."""
    return parse_game(read_document(path, MAX_STATE_BYTES))


__all__ = ["battle_options", "check_game", "load_game", "parse_game"]
