"""Limits that keep any input from exhausting the machine, checked before work starts.

Every limit here is documented in docs/limits.md (and summarised in the README); a refusal is a
``ScenarioError`` (exit status 2 from the command line) naming the field and the limit.
"""

from __future__ import annotations

import os

#: bytes in a scenario file, a scenario on standard input, or one line of an ``odds -`` batch
MAX_SCENARIO_BYTES = 1_000_000
#: bytes in an EC4X game state file or orders file: the largest state the limits below allow
#: (MAX_SYSTEMS systems, 6 x MAX_SYSTEMS lanes, MAX_FLEETS fleets of MAX_UNITS_PER_SIDE units
#: each, as ``spacecombat turn`` writes it, is about 64 MB), with a quarter more for ids longer
#: than the map generator's; docs/limits.md derives it
MAX_STATE_BYTES = 80_000_000
#: bytes in an event log given to ``replay``
MAX_LOG_BYTES = 20_000_000
#: nesting of mappings and lists in a scenario or a log line (a scenario needs 6)
MAX_DEPTH = 32
#: units a side may have in one battle, counted over every area and planet
MAX_UNITS_PER_SIDE = 200
#: Monte Carlo battles in one run
MAX_TRIALS = 1_000_000
#: the narrowest and the widest half-width of the 95% intervals at which Monte Carlo may be
#: asked to stop (``--precision``; 0 asks for a fixed number of trials instead)
MIN_PRECISION = 0.0001
MAX_PRECISION = 0.25
#: the most chance states the exact engine's state graph may be allowed (``--budget``): as many
#: as the states reached from outcomes (``analysis/budget.GRAPH_SETTLED``), so the other
#: budgets, left as they are, still bound the time (steps, outcomes: a few seconds each) and
#: the memory (each state is kept with its edges)
MAX_CHANCE_STATES = 100_000
#: ``--rounds N``: the latest round whose state may be asked for
MAX_ROUNDS = 100
#: EC4X game state: systems on one map (a generated map of 2,000 systems validates in well
#: under a second)
MAX_SYSTEMS = 2_000
#: EC4X game state: fleets in one game
MAX_FLEETS = 5_000
#: EC4X game turn: units of one house in one system's battle. The state read bounds it (each
#: fleet within MAX_UNITS_PER_SIDE, at most MAX_FLEETS fleets), so a battle the turn builds
#: after movement is never refused; a battle scenario of its own keeps MAX_UNITS_PER_SIDE
MAX_GAME_BATTLE_UNITS = MAX_FLEETS * MAX_UNITS_PER_SIDE

#: EC4X: waypoints an order 01 (move) may name (ruling G34)
MAX_WAYPOINTS = 20
#: EC4X game state: hex coordinates run from -MAX_COORD to MAX_COORD
MAX_COORD = 1_000
#: ``spacecombat serve --time-limit``: the seconds one request's work may take, by default
#: (ruling 25S-1), and the most it may be set to (a request must not hold a worker for hours)
SERVER_TIME_LIMIT = 10.0
MAX_SERVER_TIME_LIMIT = 600.0
#: ``spacecombat serve --max-requests``: API requests in one server process at once, by
#: default; more get 503 at once (ruling 25S-2: with clients that never pause, a request's
#: wait is the requests in the server divided by the throughput)
SERVER_MAX_REQUESTS = 16
#: characters of an input value echoed back in a message
ECHO = 40
#: dice seeds: what ``random.Random`` tells apart (it takes a negative seed as its absolute
#: value, so a log's -1 would replay as 1)
MAX_SEED = 2**64 - 1


def cores() -> int:
    """Cores this process may use."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:  # not on Linux
        return max(1, os.cpu_count() or 1)


def max_workers() -> int:
    """Monte Carlo processes: by default one per core; asked for, up to four per core."""
    return 4 * cores()


def shown(value: object, width: int = ECHO) -> str:
    """An input value as a person wrote it (JSON-like, never a Python repr), cut to ``width``
    characters."""
    text = _plain(value, width + 1)
    return text if len(text) <= width else text[: width - 1] + "…"


def shown_path(path: str, width: int = ECHO) -> str:
    """A file's path, quoted; a long one keeps its end (the file's name), cut at the start."""
    if len(path) <= width - 2:
        return f"'{path}'"
    return "'…" + path[-(width - 3) :] + "'"


def _plain(value: object, budget: int) -> str:
    """``value`` as text, built no longer than about ``budget`` characters (so that a huge value
    costs nothing to show)."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        digits = _digits(value)
        return str(value) if digits <= budget else f"a number of {digits} digits"
    if isinstance(value, float):
        return repr(value) if value == value else "NaN"  # nan != nan
    if isinstance(value, str):
        return "'" + one_line(value[:budget]) + ("'" if len(value) <= budget else "")
    if isinstance(value, dict):
        parts: list[str] = []
        used = 1
        for key, item in value.items():
            if used > budget:
                parts.append("…")
                break
            part = f"{_plain(key, budget - used)}: {_plain(item, budget - used)}"
            parts.append(part)
            used += len(part) + 2
        return "{" + ", ".join(parts) + "}"
    if isinstance(value, list | tuple):
        items: list[str] = []
        used = 1
        for item in value:
            if used > budget:
                items.append("…")
                break
            part = _plain(item, budget - used)
            items.append(part)
            used += len(part) + 2
        return "[" + ", ".join(items) + "]"
    return str(value)[:budget]


def one_line(text: str) -> str:
    """``text`` with line breaks, other control characters and lone surrogates written as
    escapes, so that a message stays one printable line."""
    if text.isprintable():
        return text
    return "".join(c if c.isprintable() else _escape(c) for c in text)


def _escape(char: str) -> str:
    code = ord(char)
    named = {"\n": "\\n", "\r": "\\r", "\t": "\\t"}.get(char)
    if named is not None:
        return named
    return f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}" if code < 0x10000 else char


def _digits(value: int) -> int:
    """Decimal digits of ``value`` without converting it (huge ints are slow to convert)."""
    size = abs(value)
    digits = int((max(1, size.bit_length()) - 1) * 0.30102999566398120) + 1
    return digits + 1 if size >= 10**digits else digits
