"""``spacecombat ec4x new-game --systems N --houses H [--seed S] [--fleets F] [--diplomacy D]
[--out STATE]``: a new EC4X game, its map made by the generator
(``rulesets/ec4x/turn/starmap.py``, docs/ec4x.md "The map generator").

The state of turn 1 goes to ``--out`` (else standard output), written whole or not at all, as
JSON with sorted keys: the same arguments give the same bytes. An argument out of its range
exits 2 with one line naming the option.
"""

from __future__ import annotations

import argparse
import secrets
from pathlib import Path

from spacecombat.cli import status
from spacecombat.cli.streams import write, write_whole
from spacecombat.cli.turn import dumps
from spacecombat.core.errors import ScenarioError
from spacecombat.core.limits import MAX_FLEETS, MAX_SEED
from spacecombat.rulesets.ec4x.turn.starmap import generate_map, max_fleets


def run(args: argparse.Namespace) -> int:
    """Dispatch ``spacecombat ec4x SUBCOMMAND``."""
    if args.ec4x_command == "new-game":
        return new_game(args)
    raise ScenarioError("ec4x", f"unknown subcommand {args.ec4x_command}")  # pragma: no cover


def new_game(args: argparse.Namespace) -> int:
    """Generate the map and write the state of turn 1."""
    if args.fleets > max_fleets(args.houses):
        raise ScenarioError(
            "--fleets",
            f"at most {max_fleets(args.houses):,} a house with {args.houses} houses "
            f"(a game holds at most {MAX_FLEETS:,} fleets; got {args.fleets:,})",
        )
    seed = args.seed if args.seed is not None else secrets.randbelow(MAX_SEED + 1)
    try:
        state = generate_map(
            seed, args.systems, args.houses, fleets=args.fleets, diplomacy=args.diplomacy
        )
    except ValueError as exc:
        # the sizes are each in range (argparse checked them); only their mix can fail here
        raise ScenarioError("--systems", str(exc)) from exc
    text = dumps(state.to_json())
    if args.out is None:
        write(text)
    else:
        write_whole(Path(args.out), text)
    return status.DONE
