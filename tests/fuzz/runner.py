"""Running one fuzz case in-process through ``spacecombat.cli.main`` and judging the result.

A ``Case`` is a command line plus what it reads: a file (its bytes; ``{file}`` in the command
line is replaced by its path) and standard input (bytes, possibly not UTF-8; or a closed
stream). ``run_case`` runs it with standard input, output and error replaced by in-memory
streams and measures its time and its peak memory; ``problems`` lists every property the run
broke (issue 8):

- the exit status is one the command may end with (``resolve``/``odds``: 0 or 2; ``replay``:
  0, 1, 2 or 3; 74 only when a stream was closed); never 70 (an internal error is a bug);
- no traceback anywhere;
- refused (status 2): exactly one line on standard error, ``spacecombat: `` and a message of at
  most ``MESSAGE`` characters, and nothing on standard output;
- at most ``SECONDS`` CPU seconds (``odds -``: each line's result) and ``MEGABYTES`` megabytes;
  a run over ``SECONDS`` is judged against the limit stretched by how much slower than the
  project's machine this one runs Python code just then (``stretched_limit``: a loaded
  machine's CPU seconds are longer), at most ``MOST_STRETCH`` times;
- a narrower expectation when the case carries one (e.g. a duplicate key must be refused);
- ``odds -``: one JSON line per scenario line, in order, a bad line answered with
  ``{"error": ..., "line": N}``.
"""

from __future__ import annotations

import contextlib
import io
import itertools
import json
import re
import resource
import signal
import statistics
import sys
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from types import FrameType
from typing import Any

from spacecombat.cli import main

#: where a case's file goes in its command line
FILE = "{file}"
#: issue 8: every input ends within 5 s and 500 MB
SECONDS = 5.0
MEGABYTES = 500.0
#: CPU seconds of ``calibration_work()`` on the project's machine (2-core Intel Xeon, CPython
#: 3.11) with little else running: the fastest of many runs (docs/benchmarks.md, "Test suite
#: time"); a machine that takes longer runs Python code slower (or is loaded: its CPU seconds
#: are longer, the caches and cores shared), and its limit is stretched in proportion
REFERENCE_SECONDS = 0.06
#: the most ``SECONDS`` is stretched on a slow or loaded machine (``stretched_limit``): a case
#: that takes more than ``MOST_STRETCH * SECONDS`` is a finding however slow the machine is, so
#: a battle that blows up or a loop that runs away still fails
MOST_STRETCH = 2.0
#: runs of ``calibration_work()`` whose median measures the machine (about 0.06 s each)
CALIBRATION_RUNS = 5
#: a run that has spent this many CPU seconds is stopped and reported (so that a runaway
#: loop fails, not hangs)
HARD_SECONDS = 60.0
#: a run still going after this long on the wall clock is stopped and reported: only a run
#: that waits without computing (a deadlock) gets there, however loaded the machine
HANG_SECONDS = 900.0
#: characters of a refusal message (after ``spacecombat: ``): one line, whose echoed values
#: are cut to 40 characters, but which lists what is allowed (every TI4 technology: ~600)
MESSAGE = 1000
PREFIX = "spacecombat: "
#: bytes of one line of ``odds -`` (core/limits.py MAX_SCENARIO_BYTES)
LINE_LIMIT = 1_000_000

_STATUSES = {
    "resolve": frozenset({0, 2}),
    "odds": frozenset({0, 2}),
    "replay": frozenset({0, 1, 2, 3}),
}


@dataclass(frozen=True)
class Case:
    """One run of the command line and its input."""

    #: scenario, log, batch or flags: which strategy made it
    family: str
    argv: tuple[str, ...]
    #: standard input; None: closed
    stdin: bytes | None = b""
    #: the file's bytes (``{file}`` in ``argv``), or None for no file
    file: bytes | None = None
    suffix: str = ".yaml"
    #: True: standard output is closed
    stdout_closed: bool = False
    #: the statuses this case must end with, when the documentation says (else any allowed)
    expect: frozenset[int] | None = None
    #: what was done to a valid input to make this one
    why: str = ""

    @property
    def command(self) -> str:
        """``resolve``, ``odds``, ``replay``, or ``other`` (no command, ``--help``...)."""
        return self.argv[0] if self.argv and self.argv[0] in _STATUSES else "other"

    def allowed(self) -> frozenset[int]:
        statuses = _STATUSES.get(self.command, frozenset({0, 2}))
        if self.stdin is None or self.stdout_closed:
            statuses |= {74}
        return statuses

    def describe(self, width: int = 600) -> str:
        """The case as text a person can rerun (long inputs cut to ``width`` characters)."""
        parts = [f"[{self.family}] spacecombat {' '.join(_quote(a) for a in self.argv)}"]
        if self.why:
            parts.append(f"  why: {self.why}")
        if self.file is not None:
            parts.append(
                f"  file ({self.suffix}, {len(self.file)} bytes): {_cut(self.file, width)}"
            )
        if self.stdin is None:
            parts.append("  stdin: closed")
        elif self.stdin:
            parts.append(f"  stdin ({len(self.stdin)} bytes): {_cut(self.stdin, width)}")
        if self.stdout_closed:
            parts.append("  stdout: closed")
        return "\n".join(parts)


def _quote(arg: str) -> str:
    if arg and re.fullmatch(r"[\w./{}:=+,-]+", arg):
        return arg if len(arg) <= 80 else arg[:77] + "..."
    return repr(arg if len(arg) <= 80 else arg[:77] + "...")


def _cut(data: bytes, width: int) -> str:
    text = repr(data)[2:-1]
    return text if len(text) <= width else text[:width] + f"... ({len(text) - width} more)"


@dataclass
class Outcome:
    """How a case ended: its exit status (or ``timeout``/``raised ...``), what it wrote, its
    time and its peak memory above what the process held before it."""

    status: int | str
    stdout: str
    stderr: str
    seconds: float
    megabytes: float
    extra: dict[str, Any] = field(default_factory=dict)


class CaseTimeout(BaseException):
    """Raised into a run that has spent ``HARD_SECONDS`` of CPU time or ``HANG_SECONDS`` on
    the wall clock (not an ``Exception``, so that the command line's own handlers do not take
    it for a bug of theirs)."""


def _on_alarm(signum: int, frame: FrameType | None) -> None:
    seconds = next(seconds for _, number, seconds in _TIMERS if number == signum)
    what = "CPU seconds" if signum == signal.SIGPROF else "s without ending"
    raise CaseTimeout(f"{seconds:g} {what}")


class _Memory:
    """Peak resident memory of this process during a run: Linux's high-water mark, reset
    before the run (/proc/self/clear_refs), else the growth of ``ru_maxrss``."""

    def __init__(self) -> None:
        self.proc = self._reset()
        self.before = self._status("VmRSS") if self.proc else _maxrss()

    @staticmethod
    def _reset() -> bool:
        try:
            with open("/proc/self/clear_refs", "w") as handle:
                handle.write("5")
            return True
        except OSError:
            return False

    @staticmethod
    def _status(key: str) -> float:
        with open("/proc/self/status") as handle:
            for line in handle:
                if line.startswith(key + ":"):
                    return int(line.split()[1]) / 1024
        return 0.0

    def used(self) -> float:
        """Megabytes above the resident memory at the start of the run."""
        peak = self._status("VmHWM") if self.proc else _maxrss()
        return max(0.0, peak - self.before)


def _maxrss() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def _clock() -> float:
    """This process's CPU seconds: the machine is shared and noisy, so a wall clock would
    count other processes' work against a case (a case that waits without computing is
    caught by the ``HANG_SECONDS`` alarm instead)."""
    return time.process_time()


class _Clocked(io.StringIO):
    """Standard output that notes when each write happens (``odds -`` writes one result per
    scenario line, so each line's time is the gap between two writes)."""

    def __init__(self) -> None:
        super().__init__()
        self.times: list[float] = []

    def write(self, text: str) -> int:
        self.times.append(_clock())
        return super().write(text)


@contextlib.contextmanager
def _streams(case: Case) -> Iterator[tuple[_Clocked, io.StringIO]]:
    saved = sys.stdin, sys.stdout, sys.stderr
    out, err = _Clocked(), io.StringIO()
    stdin = None if case.stdin is None else io.TextIOWrapper(io.BytesIO(case.stdin), "utf-8")
    sys.stdin = stdin
    sys.stdout = None if case.stdout_closed else out
    sys.stderr = err
    try:
        yield out, err
    finally:
        sys.stdin, sys.stdout, sys.stderr = saved


#: the two alarms of a run: CPU time (the process's, all its threads) and the wall clock
_TIMERS = (
    (signal.ITIMER_PROF, signal.SIGPROF, HARD_SECONDS),
    (signal.ITIMER_REAL, signal.SIGALRM, HANG_SECONDS),
)


@contextlib.contextmanager
def _alarms() -> Iterator[None]:
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    previous = [signal.signal(number, _on_alarm) for _, number, _ in _TIMERS]
    for timer, _, seconds in _TIMERS:
        signal.setitimer(timer, seconds)
    try:
        yield
    finally:
        for (timer, number, _), handler in zip(_TIMERS, previous, strict=True):
            signal.setitimer(timer, 0)
            signal.signal(number, handler)


def run_case(case: Case, workdir: Path) -> Outcome:
    """Run ``case`` through ``main`` with its input, in ``workdir``."""
    argv = list(case.argv)
    if case.file is not None:
        path = workdir / f"case{case.suffix}"
        path.write_bytes(case.file)
        argv = [str(path) if arg == FILE else arg for arg in argv]
    memory = _Memory()
    start = _clock()
    status: int | str
    with _streams(case) as (out, err):
        try:
            with _alarms():
                status = main(argv)
        except CaseTimeout as exc:
            status = f"timeout: still running after {exc}"
        except BaseException as exc:  # anything main lets out is a finding
            status = f"raised {type(exc).__name__}: {str(exc)[:200]}"
    end = _clock()
    marks = [start, *out.times, end]
    slowest_write = max(after - before for before, after in itertools.pairwise(marks))
    outcome = Outcome(status, out.getvalue(), err.getvalue(), end - start, memory.used())
    outcome.extra["slowest_line"] = slowest_write
    return outcome


def calibration_work() -> int:
    """A fixed piece of pure-Python work of the kind the engines do most (tuples built and
    hashed, dictionary look-ups and stores, small integer arithmetic), independent of the
    project's code, so that a slower engine is never taken for a slower machine."""
    seen: dict[tuple[int, int, int], int] = {}
    for number in range(200_000):
        key = (number % 97, number % 89, number & 7)
        seen[key] = seen.get(key, 0) + 1
    return len(seen)


def slowness() -> float:
    """How many times longer than on the project's machine (``REFERENCE_SECONDS``) this
    process takes, now, to run ``calibration_work()``: the median CPU seconds of
    ``CALIBRATION_RUNS`` runs."""
    spent = []
    for _ in range(CALIBRATION_RUNS):
        start = _clock()
        calibration_work()
        spent.append(_clock() - start)
    return statistics.median(spent) / REFERENCE_SECONDS


def stretched_limit() -> float:
    """The CPU seconds a case may take on this machine now: ``SECONDS``, times its
    ``slowness()`` when that is over 1, at most ``MOST_STRETCH`` times. Measured only for a case
    that took longer than ``SECONDS``, right after it (the load it ran under is the load then),
    so the cases within the limit cost nothing more."""
    return SECONDS * min(MOST_STRETCH, max(1.0, slowness()))


def problems(case: Case, outcome: Outcome) -> list[str]:
    """Every property of issue 8 that ``outcome`` breaks (empty: the case passed)."""
    found: list[str] = []
    status = outcome.status
    if not isinstance(status, int):
        found.append(status)
    elif status == 70:
        found.append("status 70 (internal error)")
    elif status not in case.allowed():
        found.append(f"status {status} (allowed: {sorted(case.allowed())})")
    elif case.expect is not None and status not in case.expect:
        found.append(f"status {status} (expected: {sorted(case.expect)})")
    if "Traceback" in outcome.stderr or "Traceback" in outcome.stdout:
        found.append("a traceback")
    # a batch is one input per line: each line's result within the limit
    seconds = outcome.extra.get("slowest_line", 0.0) if case.family == "batch" else outcome.seconds
    if seconds > SECONDS and seconds > (limit := stretched_limit()):
        what = "one line took" if case.family == "batch" else "took"
        found.append(
            f"{what} {seconds:.1f} s (limit {SECONDS:.0f} s, {limit:.1f} s on this machine now)"
        )
    if outcome.megabytes > MEGABYTES:
        found.append(f"used {outcome.megabytes:.0f} MB (limit {MEGABYTES:.0f} MB)")
    if status == 2:
        found.extend(_refusal_problems(case, outcome))
    if status == 0 and case.family == "batch" and case.stdin is not None:
        found.extend(_batch_problems(case.stdin, outcome.stdout))
    return found


def _refusal_problems(case: Case, outcome: Outcome) -> list[str]:
    found: list[str] = []
    lines = outcome.stderr.splitlines()
    # ``--ask`` shows the battle and its questions on standard error before a refusal
    asks = any(arg == "--ask" or arg.startswith("--ask=") for arg in case.argv)
    if not lines:
        found.append("refused with nothing on standard error")
    elif len(lines) != 1 and not asks:
        found.append(f"refused with {len(lines)} lines on standard error")
    last = lines[-1] if lines else ""
    # after a question the refusal follows its prompt ("> ") on the same line
    if not (last.startswith(PREFIX) or (asks and PREFIX in last)):
        found.append("the refusal does not start with 'spacecombat: '")
    message = last.partition(PREFIX)[2]
    if len(message) > MESSAGE:
        found.append(f"a refusal of {len(message)} characters (limit {MESSAGE})")
    if outcome.stdout:
        found.append("refused, yet wrote to standard output")
    return found


def batch_lines(data: bytes) -> list[tuple[int, bytes]]:
    """The lines of an ``odds -`` batch that get an answer: (line number, bytes), blank lines
    left out (a line that is not UTF-8 is not blank)."""
    pieces = data.split(b"\n")
    if pieces and pieces[-1] == b"":
        pieces.pop()
    answered: list[tuple[int, bytes]] = []
    for number, line in enumerate(pieces, 1):
        if len(line) <= LINE_LIMIT:
            try:
                if not line.decode("utf-8").removeprefix("\ufeff").strip():
                    continue
            except UnicodeDecodeError:
                pass
        answered.append((number, line))
    return answered


def _batch_problems(data: bytes, stdout: str) -> list[str]:
    found: list[str] = []
    answered = batch_lines(data)
    results = stdout.splitlines()
    if len(results) != len(answered):
        found.append(f"{len(answered)} scenario lines, {len(results)} results")
    for (number, _), text in zip(answered, results, strict=False):
        try:
            result = json.loads(text)
        except json.JSONDecodeError:
            found.append(f"the result for line {number} is not JSON")
            continue
        if not isinstance(result, dict):
            found.append(f"the result for line {number} is not a JSON object")
        elif "error" in result:
            if result.get("line") != number:
                found.append(f"the error for line {number} names line {result.get('line')}")
            error = result["error"]
            if not isinstance(error, str):
                found.append(f"the error for line {number} is not text")
            elif len(error) > MESSAGE:
                found.append(f"the error for line {number} has {len(error)} characters")
            elif "\n" in error:
                found.append(f"the error for line {number} has a line break")
            if "Traceback" in str(error) or "internal error" in str(error):
                found.append(f"line {number}: {str(error)[:120]}")
        elif "attacker_win" not in result and "houses" not in result:
            found.append(
                f"the result for line {number} has neither error nor attacker_win nor houses"
            )
    return found


def _batch_errors(stdout: str) -> list[str]:
    """The errors in a batch's results that are too long or more than one line."""
    errors = []
    for text in stdout.splitlines():
        try:
            result = json.loads(text)
        except json.JSONDecodeError:
            continue
        error = result.get("error") if isinstance(result, dict) else None
        if isinstance(error, str) and (len(error) > MESSAGE or "\n" in error):
            errors.append(error.replace("\n", "\\n"))
    return errors


def first_line(text: str) -> str:
    """The first line of ``text`` (for reports)."""
    return text.splitlines()[0] if text.strip() else ""


def signature(case: Case, outcome: Outcome, found: list[str]) -> str:
    """What makes two failures the same one: the command, the kind of problem and the message
    with its particulars (numbers, quoted values) taken out."""
    message = first_line(outcome.stderr) or first_line(outcome.stdout)
    if case.family == "batch":  # the first error answered to a line that broke a property
        message = next(iter(_batch_errors(outcome.stdout)), "")
    message = re.sub(r"(.)\1{9,}", "…", message)  # a long run of one character
    message = re.sub(r"'[^']*'?|\"[^\"]*\"?", "'…'", message)
    message = re.sub(r"\d+", "N", message)
    message = re.sub(r"(unrecognized arguments:).*", r"\1 …", message)
    message = message.split("; allowed:")[0][:70]
    kinds = sorted({re.sub(r"\d+(\.\d+)?", "N", problem)[:60] for problem in found})
    return f"{case.command} | {'; '.join(kinds)} | {message}"


@contextlib.contextmanager
def memory_cap(headroom: int = 1_500_000_000) -> Iterator[None]:
    """Cap this process's address space at its current size plus ``headroom`` bytes while the
    fuzz runs, so that a runaway case ends in a MemoryError (status 70: reported) rather than
    taking the machine down."""
    soft, hard = resource.getrlimit(resource.RLIMIT_AS)
    try:
        with open("/proc/self/status") as handle:
            size = next(int(line.split()[1]) * 1024 for line in handle if line.startswith("VmSize"))
    except (OSError, StopIteration):
        yield
        return
    cap = size + headroom
    if hard != resource.RLIM_INFINITY:
        cap = min(cap, hard)
    if soft != resource.RLIM_INFINITY:
        cap = min(cap, soft)
    resource.setrlimit(resource.RLIMIT_AS, (cap, hard))
    try:
        yield
    finally:
        resource.setrlimit(resource.RLIMIT_AS, (soft, hard))
