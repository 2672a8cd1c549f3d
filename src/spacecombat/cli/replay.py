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
from spacecombat.core.limits import MAX_LOG_BYTES
from spacecombat.replayer import read_log, replay, replay_message


def run(args: argparse.Namespace) -> int:
    events, lines = read_log(read_text(args.log, limit=MAX_LOG_BYTES, field="log"))
    report = replay(events, lines)
    write(replay_message(report) + "\n")
    if report.reproduces:
        return status.DONE if report.verified else status.UNVERIFIED
    return status.DOES_NOT_REPRODUCE
