"""``spacecombat turn STATE ORDERS [--out NEXT] [--report DIR]``: play one turn's conflict
phase of an EC4X game (``rulesets/ec4x/turn/conflict.py``).

The next state (turn + 1) goes to ``--out`` (else standard output); with ``--report DIR``, each
house's report to ``DIR/turn-N-HOUSE.json``. Every file is written whole or not at all (a
temporary file in the same directory, then renamed); the input files are never changed. JSON
with sorted keys: the same inputs give the same bytes. Bad input (a field of the state or the
orders) exits 2 with one message naming the field.
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path
from typing import Any

from spacecombat.cli import status
from spacecombat.cli.streams import write, write_whole
from spacecombat.core.errors import ScenarioError
from spacecombat.core.limits import shown_path
from spacecombat.rulesets.ec4x.turn.conflict import turn
from spacecombat.rulesets.ec4x.turn.game import load_game
from spacecombat.scenario.ec4x_orders import load_orders


def dumps(data: Any) -> str:
    """The JSON of a state or report: sorted keys, one-space indent, a final newline."""
    return json.dumps(data, indent=1, sort_keys=True, ensure_ascii=False) + "\n"


def run(args: argparse.Namespace) -> int:
    state = load_game(args.state)
    orders = load_orders(args.orders, state)
    inputs = {Path(args.state).resolve(), Path(args.orders).resolve()}
    out = Path(args.out) if args.out else None
    reports = Path(args.report) if args.report else None
    if out is not None and out.resolve() in inputs:
        raise ScenarioError("--out", "the next state is never written over an input file")
    if reports is not None and not reports.is_dir():
        raise ScenarioError("--report", f"{shown_path(str(reports))} is not a directory")
    result = turn(state, orders)
    if reports is not None:
        for house, report in result.reports.items():
            write_whole(reports / f"turn-{state.turn}-{house}.json", dumps(report))
    text = dumps(result.state.to_json())
    if out is None:
        write(text)
    else:
        write_whole(out, text)
    return status.DONE
