"""The spacecombat command line: play a battle, replay its log, or give its odds.

Exit statuses (docs/limits.md): 0 done; 1 a replayed log does not reproduce; 2 bad input (one
message on standard error naming the field and what is allowed; nothing on standard output);
3 a replayed log reproduces but its dice cannot be verified (it has no seed); 70 an internal
error (a bug: please report it); 74 the input or output could not be read or written; 130
interrupted (Ctrl-C); 141 the reader of the output went away (a broken pipe).
"""

from __future__ import annotations

import argparse
import importlib
import os
import re
import sys
from collections.abc import Callable, Sequence

from spacecombat.cli import status
from spacecombat.cli.streams import InputFailed, OutputFailed, say, silence_stdout
from spacecombat.core.errors import SpacecombatError
from spacecombat.core.limits import (
    ECHO,
    MAX_CHANCE_STATES,
    MAX_FLEETS,
    MAX_PRECISION,
    MAX_ROUNDS,
    MAX_SEED,
    MAX_SERVER_TIME_LIMIT,
    MAX_SYSTEMS,
    MAX_TRIALS,
    MIN_PRECISION,
    SERVER_MAX_REQUESTS,
    SERVER_TIME_LIMIT,
    max_workers,
    shown,
)

# Kept importable from here (earlier releases had them in this module).
BAD_INPUT = status.BAD_INPUT


class _Usage(Exception):
    pass


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> None:  # type: ignore[override]
        # argparse repeats what it was given: cut each long value, as every message does.
        message = _QUOTED.sub(lambda m: shown(m.group(1)), message)
        raise _Usage(_LONG.sub(lambda m: m.group()[: ECHO - 1] + "…", message))


_QUOTED = re.compile("'([^']{" + str(ECHO + 1) + ",})'")
_LONG = re.compile(r"\S{" + str(ECHO + 1) + ",}")


class _Help(argparse.RawDescriptionHelpFormatter):
    """Help with each option's default shown, when it has one."""

    def _get_help_string(self, action: argparse.Action) -> str | None:
        text = action.help or ""
        if action.default not in (None, argparse.SUPPRESS) and "default" not in text:
            text += " (default: %(default)s)"
        return text


class _Version(argparse.Action):
    """``--version``, as argparse's own, but the version is read only when asked for (reading
    the installed metadata is slow: every other run would pay for it)."""

    def __init__(self, option_strings: Sequence[str], dest: str = argparse.SUPPRESS) -> None:
        super().__init__(
            option_strings,
            dest,
            nargs=0,
            default=argparse.SUPPRESS,
            help="show program's version number and exit",
        )

    def __call__(
        self,
        parser: argparse.ArgumentParser,
        namespace: argparse.Namespace,
        values: object,
        option_string: str | None = None,
    ) -> None:
        parser._print_message(f"{parser.prog} {_package_version()}\n", sys.stdout)
        parser.exit()


def _package_version() -> str:
    # imported here for start-up time: reading the installed metadata is slow (``_Version``)
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("spacecombat")
    except PackageNotFoundError:  # run from a source tree that is not installed
        return "unknown"


def _parser() -> argparse.ArgumentParser:
    parser = _Parser(
        prog="spacecombat",
        description="Space 4X battles (TI4, TI3) played out exactly as their rules say, "
        "and their exact odds.",
        epilog=(__doc__ or "").split("\n\n", 1)[1],
        formatter_class=_Help,
    )
    parser.add_argument("--version", action=_Version)
    commands = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    res = commands.add_parser(
        "resolve", help="play one battle from a scenario file", formatter_class=_Help
    )
    res.add_argument("file", help="scenario, YAML or JSON ('-' for standard input)")
    res.add_argument(
        "--seed", type=_seed, help="seed for the dice (default: a random one, written in the log)"
    )
    res.add_argument(
        "--format",
        choices=("text", "jsonl"),
        default="text",
        help="text: a readable account; jsonl: the event log, one JSON object per line",
    )
    res.add_argument(
        "--ask",
        metavar="PLAYER",
        help="ask this player's decisions on the terminal instead of the scenario's policy: "
        "attacker, defender or both (TI4, TI3); a house's name or all (EC4X)",
    )
    rep = commands.add_parser(
        "replay",
        help="replay an event log and check that it reproduces",
        formatter_class=_Help,
        description="Exit status: 0 it reproduces, dice re-derived from its seed; 1 it does "
        "not reproduce (the first difference is named by log line); 2 the log is malformed; "
        "3 it reproduces but has no seed, so its dice were taken from the log unverified.",
    )
    rep.add_argument("log", help="event log, JSON Lines ('-' for standard input)")
    odd = commands.add_parser(
        "odds", help="the odds of a battle: exact, or by Monte Carlo", formatter_class=_Help
    )
    odd.add_argument(
        "file",
        help="scenario, YAML or JSON; '-': JSON Lines on standard input, "
        "one scenario per line, one JSON result per line",
    )
    odd.add_argument(
        "--format",
        choices=("text", "json", "jsonl"),
        help="text: a readable report; json: indented JSON; jsonl: JSON on one line "
        "(default: text for a file, jsonl for '-')",
    )
    odd.add_argument(
        "--method",
        choices=("exact", "montecarlo"),
        default="exact",
        help="exact: every state of the battle (Monte Carlo, noted, when it is too large); "
        "montecarlo: --trials battles played with the resolver",
    )
    odd.add_argument(
        "--trials",
        type=_at_least(1, most=MAX_TRIALS),
        help="Monte Carlo battles at most, played until every headline probability is known "
        "within --precision (default: enough for any probability, 38,415 at ±0.5 points); "
        "with --precision 0, exactly this many (default: 20000)",
    )
    odd.add_argument(
        "--precision",
        type=_precision,
        help="Monte Carlo stops when every headline probability's 95%% interval is within "
        f"this of it (default: 0.005, ±0.5 points; from {MIN_PRECISION} to {MAX_PRECISION}); "
        "0: play exactly --trials battles",
    )
    odd.add_argument("--seed", type=_seed, help="Monte Carlo seed (default: 0)")
    odd.add_argument(
        "--workers",
        type=_at_least(1, most=max_workers()),
        help="Monte Carlo processes (default: one per core)",
    )
    odd.add_argument(
        "--rounds",
        type=_at_least(0, most=MAX_ROUNDS),
        help="also the battle's state after N rounds (exact method only)",
    )
    odd.add_argument(
        "--fractions",
        action="store_true",
        help="also the headline probabilities as exact fractions (exact method only; slower)",
    )
    odd.add_argument(
        "--budget",
        type=_at_least(1, most=MAX_CHANCE_STATES),
        help="the battle states the exact engine may explore before it answers by Monte Carlo "
        f"(default: 3000, at most {MAX_CHANCE_STATES:,}: docs/limits.md)",
    )
    odd.add_argument(
        "--plot",
        metavar="OUT",
        help="also draw the report's charts into OUT, an .svg or .png file (one scenario file)",
    )
    _sweep_parser(commands)
    trn = commands.add_parser(
        "turn",
        help="play one turn's conflict phase of an EC4X game",
        formatter_class=_Help,
        description="Carry out ORDERS on the game STATE (EC4X 6.2, 7.3): the next state "
        "(turn + 1) and, with --report, one report per house of what it saw. Files are "
        "written whole or not at all; the inputs are never changed.",
    )
    trn.add_argument("state", help="the game state, JSON or YAML")
    trn.add_argument("orders", help="the turn's orders file, JSON or YAML")
    trn.add_argument("--out", metavar="NEXT", help="write the next state here (default: stdout)")
    trn.add_argument(
        "--report",
        metavar="DIR",
        help="write each house's report and map picture to DIR/turn-N-HOUSE.json and .svg, "
        "and the whole map to DIR/turn-N.svg (DIR made if missing; all files or none)",
    )
    _ec4x_parser(commands)
    srv = commands.add_parser(
        "serve",
        help="serve the HTTP API and the page",
        formatter_class=_Help,
        description="The HTTP API (/api/v1, documented at /docs) and the calculator page (/), "
        "until Ctrl-C. Scenarios, results and battle logs are kept in the store: --db, else "
        "SPACECOMBAT_DB, else SQLite in the user's data folder.",
    )
    srv.add_argument("--host", default="127.0.0.1", help="address to listen on")
    srv.add_argument("--port", type=_at_least(0, most=65535), default=8000, help="port")
    srv.add_argument(
        "--db", metavar="URL", help="the store: sqlite:///FILE or postgresql://... (a URL)"
    )
    srv.add_argument(
        "--processes",
        type=_at_least(1, most=64),
        default=1,
        help="server processes sharing the port, each with its own work pool (cores shared "
        "out among them)",
    )
    srv.add_argument(
        "--time-limit",
        metavar="SECONDS",
        type=_time_limit,
        default=SERVER_TIME_LIMIT,
        help="the longest one request's work may take: odds answer within it (Monte Carlo to "
        "the precision it allows, saying so) or 422 naming the option and how much fits; "
        f"from 1 to {MAX_SERVER_TIME_LIMIT:g}",
    )
    srv.add_argument(
        "--max-requests",
        metavar="N",
        type=_at_least(1, most=10_000),
        default=SERVER_MAX_REQUESTS,
        help="API requests in a server process at once; more are answered 503 with "
        "Retry-After at once (a short queue answers the others in time)",
    )
    srv.add_argument(
        "--access-log",
        action="store_true",
        help="log a line for every request (off by default: under load the lines cost the "
        "server's event loop a quarter of what it spends on a request it sheds)",
    )
    return parser


def _sweep_parser(commands: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    """``spacecombat sweep SPEC --out TABLE`` (cli/sweep.py, docs/sweeps.md)."""
    swp = commands.add_parser(
        "sweep",
        help="a balance sweep: a scenario's odds over axes of values, on Dask",
        formatter_class=_Help,
        description="Solve the spec's base scenario at every point of its axes and write one "
        "row per point (the axes' values, the odds, the method) to OUT, a Parquet file, "
        "whole or not at all. Finished points are kept in OUT.partial: the same command "
        "again after an interruption solves only the rest (docs/sweeps.md).",
    )
    swp.add_argument("spec", help="the sweep spec, YAML or JSON")
    swp.add_argument("--out", required=True, metavar="OUT", help="the table, a .parquet file")
    swp.add_argument(
        "--csv", action="store_true", help="also write the table as CSV, beside OUT (OUT.csv)"
    )
    swp.add_argument(
        "--scheduler",
        metavar="ADDRESS",
        help="a running Dask cluster's scheduler, e.g. tcp://host:8786 (default: "
        "SPACECOMBAT_DASK_SCHEDULER, else a local cluster started for the sweep)",
    )
    swp.add_argument(
        "--workers",
        type=_at_least(1, most=max_workers()),
        help="the local cluster's worker processes (default: one per core)",
    )
    swp.add_argument(
        "--plot",
        metavar="PICTURE",
        help="also draw the table into PICTURE, an .svg or .png file: a heat map of the "
        "attacker's win chance for two axes, lines for one",
    )
    swp.add_argument(
        "--db",
        metavar="URL",
        help="also save the sweep and its table in the store: sqlite:///FILE or postgresql://...",
    )


def _ec4x_parser(commands: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    """``spacecombat ec4x new-game ...`` (cli/ec4x.py). The bounds are the generator's
    (rulesets/ec4x/turn/starmap.py: 7 systems at least, 8 houses at most, 2 fleets a house at
    least), written here so that the parser does not import the turn engine (a fast start);
    tests/ec4x/game/test_new_game.py checks that they agree."""
    ec4x = commands.add_parser(
        "ec4x",
        help="EC4X games: start a new one",
        formatter_class=_Help,
        description="EC4X game tools. new-game: a generated map and the state of turn 1.",
    )
    tools = ec4x.add_subparsers(dest="ec4x_command", required=True, metavar="SUBCOMMAND")
    new = tools.add_parser(
        "new-game",
        help="a new game on a generated map: the state of turn 1",
        formatter_class=_Help,
        description="A connected hex map (the hub with 6 lanes, each homeworld with 3), each "
        "house's homeworld colony and starting fleets, and the houses' diplomacy "
        "(docs/ec4x.md, 'The map generator'). The same arguments give the same bytes.",
    )
    new.add_argument(
        "--systems", type=_at_least(7, most=MAX_SYSTEMS), required=True, help="systems, 7 to 2,000"
    )
    new.add_argument("--houses", type=_at_least(1, most=8), required=True, help="houses, 1 to 8")
    new.add_argument(
        "--seed", type=_seed, help="the generator's seed (default: a random one, in game_id)"
    )
    new.add_argument(
        "--fleets",
        type=_at_least(2, most=MAX_FLEETS),
        default=2,
        help="starting fleets a house: two, then destroyer pickets (at most 5,000 in a game)",
    )
    new.add_argument(
        "--diplomacy",
        choices=("neutral", "non_aggression", "enemy"),
        default="neutral",
        help="the status of every pair of houses (8.1)",
    )
    new.add_argument("--out", metavar="STATE", help="write the state here (default: stdout)")


def _at_least(minimum: int, *, most: int) -> Callable[[str], int]:
    """An argparse type: a whole number from ``minimum`` to ``most``."""

    def whole(text: str) -> int:
        if not text.strip().isascii() or not text.strip().lstrip("+-").isdigit():
            raise argparse.ArgumentTypeError(f"{text[:40]!r} is not a whole number")
        if len(text.strip()) > 20:
            raise argparse.ArgumentTypeError(f"{text[:20]}… is more than {most:,}")
        value = int(text)
        if value < minimum:
            raise argparse.ArgumentTypeError(f"{value} is not at least {minimum}")
        if value > most:
            raise argparse.ArgumentTypeError(f"{value:,} is more than the limit of {most:,}")
        return value

    return whole


_seed = _at_least(0, most=MAX_SEED)


def _precision(text: str) -> float:
    """An argparse type: 0, or a number from ``MIN_PRECISION`` to ``MAX_PRECISION``."""
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text[:40]!r} is not a number") from None
    if not (value == 0 or MIN_PRECISION <= value <= MAX_PRECISION):
        raise argparse.ArgumentTypeError(
            f"{text[:40]} is not 0 (exactly --trials battles) or a number from {MIN_PRECISION} "
            f"to {MAX_PRECISION}"
        )
    return value


def _time_limit(text: str) -> float:
    """An argparse type: seconds from 1 to ``MAX_SERVER_TIME_LIMIT``."""
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text[:40]!r} is not a number") from None
    if not 1 <= value <= MAX_SERVER_TIME_LIMIT:
        raise argparse.ArgumentTypeError(
            f"{text[:40]} is not a number of seconds from 1 to {MAX_SERVER_TIME_LIMIT:g}"
        )
    return value


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; return the exit status. Nothing escapes as a traceback."""
    try:
        return _run(argv)
    except KeyboardInterrupt:
        say("interrupted")
        return status.INTERRUPTED
    except OutputFailed as exc:
        silence_stdout()
        if exc.broken:
            return status.BROKEN_PIPE
        say(str(exc))
        return status.IO_ERROR
    except InputFailed as exc:
        say(str(exc))
        return status.IO_ERROR
    except (MemoryError, RecursionError) as exc:
        # The limits (docs/limits.md) are meant to make this unreachable.
        say(f"internal error: out of {'memory' if isinstance(exc, MemoryError) else 'stack'}")
        return status.INTERNAL_ERROR
    except Exception as exc:
        if os.environ.get("SPACECOMBAT_DEBUG"):
            raise
        say(f"internal error: {type(exc).__name__}: {str(exc)[:200]} (please report it)")
        return status.INTERNAL_ERROR


def console() -> None:
    """The ``spacecombat`` command and ``python -m spacecombat``: ``main``, then exit with its
    status. After Ctrl-C the workers are already stopped (``analysis/montecarlo.py``); the process
    exits at once, without the interpreter's exit handlers, which join the process pool's
    threads and can wait for ever on a pool that was interrupted mid-flight."""
    code = main()
    if code == status.INTERRUPTED:
        for stream in (sys.stdout, sys.stderr):
            try:
                if stream is not None:
                    stream.flush()
            except (OSError, ValueError):
                pass
        os._exit(code)
    sys.exit(code)


def _run(argv: Sequence[str] | None) -> int:
    try:
        args = _parser().parse_args(argv)
        # each command's module after the parser, and only that one: a fast start (--help,
        # and an odds run is not kept waiting by the EC4X turn engine's imports)
        command = importlib.import_module(f"spacecombat.cli.{args.command}")
        run: Callable[[argparse.Namespace], int] = command.run
        return run(args)
    except _Usage as exc:
        say(str(exc))
        return status.BAD_INPUT
    except SystemExit as exc:  # --help and --version
        return exc.code if isinstance(exc.code, int) else status.DONE
    except SpacecombatError as exc:
        say(str(exc))
        return status.BAD_INPUT


if __name__ == "__main__":
    sys.exit(main())
