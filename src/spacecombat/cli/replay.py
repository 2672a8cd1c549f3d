"""``spacecombat replay``: play a log again and say whether it reproduces."""

from __future__ import annotations

import argparse
import json

from spacecombat.cli.streams import read_text, write
from spacecombat.core.errors import SpacecombatError
from spacecombat.core.events import Event
from spacecombat.core.limits import MAX_LOG_BYTES
from spacecombat.resolver import replay


def run(args: argparse.Namespace) -> int:
    events: list[Event] = []
    for number, line in enumerate(read_text(args.log, limit=MAX_LOG_BYTES).splitlines(), 1):
        if not line.strip():
            continue
        try:
            item = json.loads(line)
        except json.JSONDecodeError as exc:
            raise SpacecombatError(f"log line {number}: not JSON ({exc.msg})") from exc
        if not isinstance(item, dict):
            raise SpacecombatError(f"log line {number}: an event is a JSON object")
        events.append(item)
    report = replay(events)
    if report.reproduces:
        write(f"reproduces: {report.events} events replayed identically\n")
        return 0
    lines = [f"does not reproduce: {report.reason}"]
    if report.index is not None:
        lines.append(f"  first difference at event {report.index + 1}")
        lines.append(f"  log:    {json.dumps(report.expected)}")
        lines.append(f"  replay: {json.dumps(report.got)}")
    write("\n".join(lines) + "\n")
    return 1
