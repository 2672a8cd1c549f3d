"""Reading the command line's input and writing its output, within limits and without a
traceback: a closed stream, a broken pipe, a full disk or bytes that are not UTF-8 end the run
with one line and a conventional exit status (``spacecombat.cli.status``)."""

from __future__ import annotations

import contextlib
import io
import os
import sys
import tempfile
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import BinaryIO

from spacecombat.core.errors import ScenarioError, SpacecombatError
from spacecombat.core.limits import ECHO, MAX_SCENARIO_BYTES, one_line, shown_path
from spacecombat.scenario.formats import decode


class OutputFailed(Exception):
    """The output could not be written: ``broken`` when its reader has gone (a broken pipe)."""

    def __init__(self, reason: str, *, broken: bool = False) -> None:
        super().__init__(reason)
        self.broken = broken


class InputFailed(Exception):
    """Standard input could not be read (an I/O error, not bad content)."""


def say(message: str) -> None:
    """One line on standard error, if there is one."""
    stream = sys.stderr
    if stream is None:
        return
    try:
        stream.write(f"spacecombat: {one_line(message)}\n")
        stream.flush()
    except (OSError, ValueError):
        pass


def _stdin() -> BinaryIO:
    stream = sys.stdin
    if stream is None:
        raise InputFailed("standard input is closed")
    binary = getattr(stream, "buffer", None)
    if binary is None:  # a text stream put in its place (a test, an embedding program)
        return io.BytesIO(stream.read().encode("utf-8", "surrogateescape"))
    return binary  # type: ignore[no-any-return]


def read_text(path: str, *, limit: int, field: str = "file") -> str:
    """The whole of ``path`` (``-``: standard input) as UTF-8 text, refused beyond ``limit``
    bytes."""
    name = "standard input" if path == "-" else shown_path(path)
    try:
        if path == "-":
            data = _stdin().read(limit + 1)
        else:
            with open(path, "rb") as handle:
                data = handle.read(limit + 1)
    except InputFailed:
        raise
    except OSError as exc:
        if path == "-":
            raise InputFailed(f"cannot read standard input: {exc.strerror or exc}") from exc
        raise ScenarioError(field, f"cannot read {name}: {exc.strerror or exc}") from exc
    if len(data) > limit:
        raise ScenarioError(field, f"{name} is larger than the limit of {limit:,} bytes")
    return utf8(data, f"{field}: {name}")


def utf8(data: bytes, where: str) -> str:
    """``data`` decoded as UTF-8 (a leading byte order mark is dropped)."""
    try:
        return data.decode("utf-8").removeprefix("\ufeff")
    except UnicodeDecodeError as exc:
        raise SpacecombatError(
            f"{where} is not UTF-8 text (byte {exc.object[exc.start]:#04x} at offset {exc.start})"
        ) from exc


class LineTooLong:
    """A line of standard input longer than the limit (its bytes were skipped)."""


def stdin_lines(limit: int) -> Iterator[tuple[int, bytes | LineTooLong]]:
    """Standard input line by line (numbered from 1); a line longer than ``limit`` bytes is read
    past, never held, and given as ``LineTooLong``."""
    stream = _stdin()
    number = 0
    while True:
        try:
            line = stream.readline(limit + 1)
            if not line:
                return
            number += 1
            if len(line) > limit and not line.endswith(b"\n"):
                while line and not line.endswith(b"\n"):
                    line = stream.readline(1 << 16)
                yield number, LineTooLong()
                continue
        except OSError as exc:
            raise InputFailed(f"cannot read standard input: {exc.strerror or exc}") from exc
        yield number, line


def write(text: str) -> None:
    """Write ``text`` to standard output and flush it."""
    stream = sys.stdout
    if stream is None:
        raise OutputFailed("standard output is closed")
    try:
        stream.write(text)
        stream.flush()
    except BrokenPipeError as exc:
        raise OutputFailed("the reader of the output has gone", broken=True) from exc
    except (OSError, ValueError) as exc:
        reason = exc.strerror if isinstance(exc, OSError) and exc.strerror else str(exc)
        raise OutputFailed(f"cannot write the output: {reason}") from exc


#: the mode of the files written: readable by others, as ``open`` would make them (umask 022)
FILE_MODE = 0o644


def write_whole(path: Path, data: str | bytes) -> None:
    """Write ``data`` to ``path`` whole or not at all: a temporary file beside it (mode
    ``FILE_MODE``), renamed."""
    try:
        handle, temp = tempfile.mkstemp(prefix=f".{path.name}.", dir=path.parent or Path("."))
    except OSError as exc:
        raise OutputFailed(f"cannot write {shown_path(str(path))}: {exc.strerror}") from exc
    try:
        with os.fdopen(handle, "wb") as out:
            os.fchmod(out.fileno(), FILE_MODE)  # mkstemp makes it private (0600)
            out.write(data.encode("utf-8") if isinstance(data, str) else data)
        os.replace(temp, path)
    except OSError as exc:
        Path(temp).unlink(missing_ok=True)
        raise OutputFailed(f"cannot write {shown_path(str(path))}: {exc.strerror}") from exc
    except BaseException:
        Path(temp).unlink(missing_ok=True)
        raise


def write_all(files: Mapping[Path, str | bytes]) -> None:
    """Write every file of ``files`` or none: each folder is created if missing, every file is
    first written beside its place under a temporary name (mode ``FILE_MODE``), then all are
    renamed. On an error the temporary files, the files already renamed and the folders
    created are removed, and ``OutputFailed`` names the file."""
    made: list[Path] = []
    staged: list[tuple[Path, Path]] = []
    done: list[Path] = []
    current = Path(".")
    try:
        for path in files:
            current = path
            for folder in reversed([path.parent, *path.parent.parents]):
                if not folder.exists():
                    folder.mkdir(mode=0o755)
                    made.append(folder)
        for path, data in files.items():
            current = path
            handle, name = tempfile.mkstemp(prefix=f".{path.name}.", dir=path.parent)
            staged.append((Path(name), path))
            with os.fdopen(handle, "wb") as out:
                os.fchmod(out.fileno(), FILE_MODE)
                out.write(data.encode("utf-8") if isinstance(data, str) else data)
        for temp_path, path in staged:
            current = path
            os.replace(temp_path, path)
            done.append(path)
    except BaseException as exc:
        for temp_path, _ in staged:
            temp_path.unlink(missing_ok=True)
        for path in done:
            path.unlink(missing_ok=True)
        for folder in reversed(made):
            with contextlib.suppress(OSError):
                folder.rmdir()
        if isinstance(exc, OSError):
            reason = exc.strerror or str(exc)
            raise OutputFailed(f"cannot write {shown_path(str(current))}: {reason}") from exc
        raise


def silence_stdout() -> None:
    """Point standard output at the null device, so that nothing fails when Python flushes it
    at exit (after a broken pipe or a full disk)."""
    try:
        stream = sys.stdout
        if stream is None:
            return
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, stream.fileno())
        os.close(devnull)
    except (OSError, ValueError):
        pass


def file_name(path: str) -> str:
    """A file's name as messages about its content call it (cut to a few dozen characters)."""
    if path == "-":
        return "standard input"
    name = os.path.basename(path) or path
    return name if len(name) <= ECHO else name[: ECHO - 1] + "…"


def scenario_from(path: str) -> object:
    """The decoded scenario in ``path`` (``-``: standard input), within the input limits."""
    text = read_text(path, limit=MAX_SCENARIO_BYTES)
    return decode(text, file_name(path))
