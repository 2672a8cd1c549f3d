"""``spacecombat turn STATE ORDERS [--out NEXT] [--report DIR]``: play one turn's conflict
phase of an EC4X game (``rulesets/ec4x/turn/conflict.py``).

The next state (turn + 1) goes to ``--out`` (else standard output); with ``--report DIR`` (made
if missing), each house's report to ``DIR/turn-N-HOUSE.json`` and its picture of the map to
``DIR/turn-N-HOUSE.svg``, and the game master's picture of the whole map to ``DIR/turn-N.svg``
(``rulesets/ec4x/turn/picture.py``). Every file is written all or none (each to a temporary
file beside it, then all renamed; on an error nothing is left), readable by others (0644); the
input files are never changed. JSON with sorted keys: the same inputs give the same bytes. Bad
input (a field of the state or the orders) exits 2 with one message naming the field; an
input that cannot be read exits 74.
"""

from __future__ import annotations

import argparse
import json
from collections.abc import Callable
from pathlib import Path
from typing import Any, TypeVar

from spacecombat.cli import status
from spacecombat.cli.streams import InputFailed, write, write_all
from spacecombat.core.errors import ScenarioError
from spacecombat.core.limits import shown_path
from spacecombat.rulesets.ec4x.turn.conflict import TurnResult, turn
from spacecombat.rulesets.ec4x.turn.game import load_game
from spacecombat.rulesets.ec4x.turn.picture import house_view, master_view, render
from spacecombat.scenario.ec4x_orders import load_orders

T = TypeVar("T")


def dumps(data: Any) -> str:
    """The JSON of a state or report: sorted keys, one-space indent, a final newline."""
    return json.dumps(data, indent=1, sort_keys=True, ensure_ascii=False) + "\n"


def read(what: str, load: Callable[[], T]) -> T:
    """``load()``; an input file that cannot be read (missing, unreadable) is an I/O error
    (exit 74, docs/limits.md), not bad input: ``InputFailed`` naming it as ``what``."""
    try:
        return load()
    except ScenarioError as exc:
        if isinstance(exc.__cause__, OSError):
            raise InputFailed(f"{what}: {exc.message}") from exc
        raise


def report_files(folder: Path, played: int, result: TurnResult) -> dict[Path, str]:
    """Each house's report and picture, and the game master's picture, by path."""
    files: dict[Path, str] = {}
    houses = list(result.state.houses)
    retreats: dict[str, list[str]] = {}
    for house, report in result.reports.items():
        files[folder / f"turn-{played}-{house}.json"] = dumps(report)
        files[folder / f"turn-{played}-{house}.svg"] = render(house_view(report, houses))
        retreats |= report["retreats"]
    battles = [str(b["system"]) for b in result.battles]
    whole = master_view(result.state, played, result.moves, retreats, battles)
    files[folder / f"turn-{played}.svg"] = render(whole)
    return files


def run(args: argparse.Namespace) -> int:
    state = read("STATE", lambda: load_game(args.state))
    orders = read("ORDERS", lambda: load_orders(args.orders, state))
    inputs = {Path(args.state).resolve(), Path(args.orders).resolve()}
    out = Path(args.out) if args.out else None
    reports = Path(args.report) if args.report else None
    if out is not None and out.resolve() in inputs:
        raise ScenarioError("--out", "the next state is never written over an input file")
    if reports is not None and reports.exists() and not reports.is_dir():
        raise ScenarioError("--report", f"{shown_path(str(reports))} is not a directory")
    result = turn(state, orders)
    text = dumps(result.state.to_json())
    files = report_files(reports, state.turn, result) if reports is not None else {}
    if out is not None:
        files[out] = text
    write_all(files)
    if out is None:
        write(text)
    return status.DONE
