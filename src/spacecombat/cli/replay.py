"""``spacecombat replay``: play a log again and say whether it reproduces.

Exit statuses (``spacecombat.cli.status``; docs/protocol.md, "Replay"): 0 the log reproduces
and its dice were re-derived from its seed; 1 it does not reproduce (the first difference is
named by its log line, on standard output); 2 the log is malformed or cannot be replayed (a
``ReplayError``: one message on standard error, nothing on standard output); 3 it reproduces,
but it has no seed, so its dice were taken from the log and are not verified.
"""

from __future__ import annotations

import argparse

from spacecombat.cli import status
from spacecombat.cli.streams import read_text, write
from spacecombat.core.errors import ReplayError, ScenarioError
from spacecombat.core.events import Event
from spacecombat.core.limits import MAX_LOG_BYTES
from spacecombat.replayer import ReplayReport, replay
from spacecombat.scenario.formats import load_json

#: what JSON allows around a value; a line of only these is blank
_BLANK = " \t\r"


def run(args: argparse.Namespace) -> int:
    events, lines = read_log(read_text(args.log, limit=MAX_LOG_BYTES, field="log"))
    report = replay(events, lines)
    write(replay_message(report) + "\n")
    if report.reproduces:
        return status.DONE if report.verified else status.UNVERIFIED
    return status.DOES_NOT_REPRODUCE


def replay_message(report: ReplayReport) -> str:
    """What the command says of a replay (the HTTP API says the same)."""
    if report.reproduces and report.verified:
        return (
            f"reproduces: {report.events} events replayed identically; the dice were "
            f"re-derived from the seed {report.seed}"
        )
    if report.reproduces:
        return (
            f"reproduces, unverified: {report.events} events replayed identically, but the log "
            "has no seed, so its dice were taken from the log and are NOT verified"
        )
    out = [f"does not reproduce: {report.reason}"]
    if report.logged:
        out.append(f"  log:    {report.logged}")
    if report.replayed and report.replayed not in report.reason:
        out.append(f"  replay: {report.replayed}")
    if report.seed is None:
        out.append("  (the log has no seed: its dice were taken from the log, not verified)")
    return "\n".join(out)


def read_log(text: str) -> tuple[list[Event], list[int]]:
    """The events of a JSON Lines log and the line each is on (from 1, counting blank lines);
    each line read strictly (depth, duplicate keys, NaN). ``ReplayError`` names the line."""
    events: list[Event] = []
    lines: list[int] = []
    for number, line in enumerate(text.split("\n"), 1):
        if not line.strip(_BLANK):
            continue
        try:
            item = load_json(line, f"log line {number}", field="")
        except ScenarioError as exc:  # the position within a line of JSON Lines is a column
            raise ReplayError(str(exc).replace(" at line 1 column ", " at column ")) from exc
        if not isinstance(item, dict):
            raise ReplayError(f"log line {number}: an event is a JSON object")
        events.append(item)
        lines.append(number)
    return events, lines
