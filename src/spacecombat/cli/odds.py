"""``spacecombat odds``: the odds of one scenario, or of a batch of them on standard input."""

from __future__ import annotations

import argparse
import codecs
import json
import sys
import time
from collections import deque
from pathlib import Path
from typing import TYPE_CHECKING, Any

from spacecombat.analysis import workers
from spacecombat.analysis.api import odds_result
from spacecombat.analysis.montecarlo import PRECISION, TerminalProgress
from spacecombat.analysis.text import render
from spacecombat.cli.streams import (
    LineTooLong,
    scenario_from,
    stdin_lines,
    utf8,
    write,
    write_whole,
)
from spacecombat.core.errors import ScenarioError, SpacecombatError
from spacecombat.core.limits import MAX_SCENARIO_BYTES, cores, one_line, shown_path
from spacecombat.report.plots import FORMATS, plot
from spacecombat.scenario.formats import decode_json_line

if TYPE_CHECKING:
    from concurrent.futures import Future, ProcessPoolExecutor


def odds_of(scenario: object, args: argparse.Namespace, *, progress: bool) -> dict[str, Any]:
    """The odds of a decoded scenario for the command's options (``odds_result``)."""
    precision = PRECISION if args.precision is None else args.precision
    return odds_result(
        scenario,
        method=args.method,
        trials=args.trials,
        seed=args.seed,
        workers=args.workers,
        rounds=args.rounds,
        precision=args.precision,
        fractions=args.fractions,
        budget=args.budget,
        progress=TerminalProgress(precision) if progress else None,
    )


def _plot_format(args: argparse.Namespace) -> str | None:
    """The format of ``--plot``, from its file name's suffix; refused before any work when it
    is not one of the formats, or with a batch."""
    if args.plot is None:
        return None
    if args.file == "-":
        raise ScenarioError("--plot", "draws the charts of one scenario file, not of a batch")
    fmt = Path(args.plot).suffix.lower().removeprefix(".")
    if fmt not in FORMATS:
        raise ScenarioError(
            "--plot", f"must name an .svg or .png file (got {shown_path(args.plot)})"
        )
    return fmt


#: the options of the exact method, refused with --method montecarlo
EXACT_ONLY = {
    "--rounds": "the state after N rounds comes from the exact method only",
    "--fractions": "exact fractions come from the exact method only",
    "--budget": "the exact method's budget of battle states; Monte Carlo has none",
}


def _check(args: argparse.Namespace) -> None:
    if args.method == "montecarlo":
        for name, given in (
            ("--rounds", args.rounds is not None),
            ("--fractions", args.fractions),
            ("--budget", args.budget is not None),
        ):
            if given:
                raise ScenarioError(name, EXACT_ONLY[name])
    if args.file == "-" and args.format in ("text", "json"):
        raise ScenarioError(
            "--format",
            "a batch on standard input is answered in JSON Lines (jsonl), one result per "
            "line; text and json are for one scenario file",
        )


def _batch(args: argparse.Namespace) -> int:
    """One scenario per line in, one result per line out, in order; a bad line gets an error
    object on its line and the rest go on. The lines are answered in this process until the
    batch has taken ``ALONE`` seconds, then by worker processes, one per core (``Answers``):
    the output is the same, in the same order."""
    first = True
    answers = Answers(args)
    try:
        for number, line in stdin_lines(MAX_SCENARIO_BYTES):
            if first and isinstance(line, bytes):
                if not line.strip():
                    continue
                if not line.removeprefix(codecs.BOM_UTF8).lstrip().startswith(b"{"):
                    # Not JSON Lines at all (a YAML scenario, say): refuse the input as a
                    # whole, before any output.
                    raise _NotJsonLines(number)
            first = False
            answers.add(number, line)
        answers.finish()
    except BaseException:
        answers.stop()
        raise
    return 0


def _answer(number: int, line: bytes | LineTooLong, args: argparse.Namespace) -> str | None:
    """The output line for one input line (``None`` for a blank one)."""
    try:
        if isinstance(line, LineTooLong):
            raise ScenarioError(
                f"line {number}", f"longer than the limit of {MAX_SCENARIO_BYTES:,} bytes"
            )
        text = utf8(line, f"line {number}")
        if not text.strip():
            return None
        result = odds_of(decode_json_line(text, number), args, progress=False)
    except SpacecombatError as exc:
        result = {"error": one_line(str(exc)), "line": number}
    return json.dumps(result) + "\n"


#: seconds of a batch answered in this process before worker processes share the rest (they
#: cost ~50 ms to start, and a short batch is over before they would help)
ALONE = 0.1
#: lines in flight per worker
IN_FLIGHT = 4


class Answers:
    """A batch's answers, written in the order of its lines: answered here at first, then, if
    the batch goes on past ``ALONE`` seconds and the machine has more than one core, by a pool
    of workers (``analysis/workers.py``), at most ``IN_FLIGHT`` lines per worker queued."""

    def __init__(self, args: argparse.Namespace) -> None:
        self.args = args
        self.started = time.perf_counter()
        self.pool: ProcessPoolExecutor | None = None
        self.queued: deque[Future[str | None]] = deque()
        self.size = cores() if workers.may_start() else 1

    def add(self, number: int, line: bytes | LineTooLong) -> None:
        if self.pool is None and self.size > 1 and time.perf_counter() - self.started > ALONE:
            self.pool = workers.pool(self.size)
            with workers.forking():
                self.queued.append(self.pool.submit(_answer, number, line, self.args))
            return
        if self.pool is None:
            _write(_answer(number, line, self.args))
            return
        self.queued.append(self.pool.submit(_answer, number, line, self.args))
        while self.queued and (self.queued[0].done() or len(self.queued) > IN_FLIGHT * self.size):
            _write(self.queued.popleft().result())

    def finish(self) -> None:
        while self.queued:
            _write(self.queued.popleft().result())
        if self.pool is not None:
            self.pool.shutdown()

    def stop(self) -> None:
        """Stop the workers at once (Ctrl-C, a closed output, a refused input)."""
        if self.pool is not None:
            workers.stop(self.pool, set(self.queued))


def _write(text: str | None) -> None:
    if text is not None:
        write(text)


class _NotJsonLines(SpacecombatError):
    def __init__(self, number: int) -> None:
        super().__init__(
            f"standard input: line {number} is not a JSON object; 'odds -' reads JSON Lines, "
            "one scenario per line (for a YAML scenario, give the file's name)"
        )


def run(args: argparse.Namespace) -> int:
    _check(args)
    fmt = _plot_format(args)
    if args.file == "-":
        return _batch(args)
    scenario = scenario_from(args.file)
    if fmt is not None and isinstance(scenario, dict) and scenario.get("ruleset") == "ec4x":
        raise ScenarioError("--plot", "draws TI battles; an EC4X battle of houses has none yet")
    show = sys.stderr is not None and sys.stderr.isatty()
    result = odds_of(scenario, args, progress=show)
    if fmt is not None:
        write_whole(Path(args.plot), plot(result, fmt))
    if (args.format or "text") == "text":
        write(render(result))
    else:
        indent = 2 if args.format == "json" else None
        write(json.dumps(result, indent=indent) + "\n")
    return 0
