"""The ``spacecombat`` command line.

Exit status: 0 done; 1 a replayed log does not reproduce; 2 bad input (one message on standard
error naming the field and what is allowed; nothing on standard output).
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable, Sequence
from typing import Any, TextIO

from spacecombat.core.decisions import DecisionRequest, Policy
from spacecombat.core.errors import IllegalChoice, ScenarioError, SpacecombatError
from spacecombat.core.events import Event, to_jsonl
from spacecombat.odds.api import odds
from spacecombat.odds.montecarlo import terminal_progress
from spacecombat.odds.text import render as render_odds
from spacecombat.report.text import render
from spacecombat.resolver import replay, resolve
from spacecombat.scenario.schema import decode, load_scenario, parse_scenario

BAD_INPUT = 2


class _Usage(Exception):
    pass


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> None:  # type: ignore[override]
        raise _Usage(message)


def _parser() -> argparse.ArgumentParser:
    parser = _Parser(prog="spacecombat", description=__doc__.splitlines()[0] if __doc__ else "")
    commands = parser.add_subparsers(dest="command", required=True)
    res = commands.add_parser("resolve", help="play one battle from a scenario file")
    res.add_argument("file", help="scenario, YAML or JSON ('-' for standard input)")
    res.add_argument("--seed", type=int, help="seed for the dice (default: a random one, logged)")
    res.add_argument("--format", choices=("text", "jsonl"), default="text")
    res.add_argument(
        "--ask",
        choices=("attacker", "defender", "both"),
        help="ask this player's decisions on the terminal instead of the policy",
    )
    rep = commands.add_parser("replay", help="replay an event log and check that it reproduces")
    rep.add_argument("log", help="event log, JSON Lines ('-' for standard input)")
    odd = commands.add_parser("odds", help="the odds of a battle: exact, or by Monte Carlo")
    odd.add_argument(
        "file",
        help="scenario, YAML or JSON; '-': JSON Lines on standard input, "
        "one scenario per line, one JSON result per line",
    )
    odd.add_argument("--format", choices=("text", "json", "jsonl"), default="text")
    odd.add_argument("--method", choices=("exact", "montecarlo"), default="exact")
    odd.add_argument("--trials", type=_positive, default=20_000, help="Monte Carlo battles")
    odd.add_argument("--seed", type=int, default=0, help="Monte Carlo seed")
    odd.add_argument("--workers", type=_positive, help="Monte Carlo processes (default: cores)")
    odd.add_argument(
        "--rounds", type=_non_negative, help="also the battle's state after N rounds (exact)"
    )
    return parser


def _at_least(minimum: int) -> Callable[[str], int]:
    """An argparse type: a whole number no smaller than ``minimum``."""

    def whole(text: str) -> int:
        try:
            value = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"{text!r} is not a whole number") from None
        if value < minimum:
            raise argparse.ArgumentTypeError(f"{value} is not at least {minimum}")
        return value

    return whole


_positive = _at_least(1)
_non_negative = _at_least(0)


class TerminalPlayer:
    """Asks a person for each decision; refuses an illegal answer with the reason and asks again."""

    def __init__(self, stdin: TextIO | None = None) -> None:
        self._stdin = stdin or sys.stdin

    def choose(self, request: DecisionRequest) -> str:
        while True:
            print(f"\n{request.player}: {request.prompt}", file=sys.stderr)
            for number, option in enumerate(request.options, 1):
                print(f"  {number}. {option.text}", file=sys.stderr)
            print("> ", end="", file=sys.stderr, flush=True)
            line = self._stdin.readline()
            if not line:
                raise IllegalChoice(
                    f"{request.player}'s {request.decision}: no answer (end of input)"
                )
            answer = str(line).strip()
            if answer.isdigit() and 1 <= int(answer) <= len(request.options):
                return request.options[int(answer) - 1].text
            try:
                return request.option(answer).text
            except IllegalChoice as exc:
                print(exc, file=sys.stderr)


def _read(path: str) -> str:
    if path == "-":
        return sys.stdin.read()
    try:
        with open(path, encoding="utf-8") as handle:
            return handle.read()
    except OSError as exc:
        raise SpacecombatError(f"file: cannot read {path!r}: {exc.strerror}") from exc
    except UnicodeDecodeError as exc:
        raise SpacecombatError(f"file: {path!r} is not UTF-8 text") from exc


def _resolve(args: argparse.Namespace) -> int:
    if args.file == "-":
        scenario = parse_scenario(decode(sys.stdin.read()))
    else:
        scenario = load_scenario(args.file)
    policies: dict[str, Policy] = {}
    if args.ask:
        person = TerminalPlayer()
        for player in ("attacker", "defender"):
            if args.ask in (player, "both"):
                policies[player] = person
    played = resolve(scenario, seed=args.seed, policies=policies)
    # Output is written only once the whole battle is resolved: never a half-written log.
    sys.stdout.write(to_jsonl(played.events) if args.format == "jsonl" else render(played.events))
    return 0


def _replay(args: argparse.Namespace) -> int:
    events: list[Event] = []
    for number, line in enumerate(_read(args.log).splitlines(), 1):
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
        print(f"reproduces: {report.events} events replayed identically")
        return 0
    print(f"does not reproduce: {report.reason}")
    if report.index is not None:
        print(f"  first difference at event {report.index + 1}")
        print(f"  log:    {json.dumps(report.expected)}")
        print(f"  replay: {json.dumps(report.got)}")
    return 1


def _odds_of(scenario: object, args: argparse.Namespace, *, progress: bool) -> dict[str, Any]:
    report = odds(
        parse_scenario(scenario),
        method=args.method,
        trials=args.trials,
        seed=args.seed,
        workers=args.workers,
        rounds=args.rounds,
        progress=terminal_progress if progress else None,
    )
    return report.to_json()


def _odds(args: argparse.Namespace) -> int:
    if args.file == "-":
        # One scenario per line in, one result per line out, in order; a bad line gets an
        # error object on its line and the rest go on.
        for number, line in enumerate(sys.stdin, 1):
            if not line.strip():
                continue
            try:
                try:
                    scenario = json.loads(line)
                except json.JSONDecodeError as exc:
                    raise ScenarioError("line", f"not JSON ({exc.msg})") from exc
                result = _odds_of(scenario, args, progress=False)
            except SpacecombatError as exc:
                result = {"error": str(exc), "line": number}
            sys.stdout.write(json.dumps(result) + "\n")
            sys.stdout.flush()
        return 0
    scenario = load_scenario(args.file)
    show = args.method == "montecarlo" and sys.stderr.isatty()
    result = _odds_of(scenario, args, progress=show)
    if args.format == "text":
        sys.stdout.write(render_odds(result))
    else:
        indent = 2 if args.format == "json" else None
        sys.stdout.write(json.dumps(result, indent=indent) + "\n")
    return 0


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; return the exit status."""
    try:
        args = _parser().parse_args(argv)
        if args.command == "resolve":
            return _resolve(args)
        if args.command == "odds":
            return _odds(args)
        return _replay(args)
    except _Usage as exc:
        print(f"spacecombat: {exc}", file=sys.stderr)
        return BAD_INPUT
    except SpacecombatError as exc:
        print(f"spacecombat: {exc}", file=sys.stderr)
        return BAD_INPUT


if __name__ == "__main__":
    sys.exit(main())
