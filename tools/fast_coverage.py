"""Which modules of ``src/spacecombat`` the fast test loop (``pytest -m "not slow"``) leaves
unexercised.

``python -m tools.fast_coverage`` runs the fast subset under ``coverage`` (subprocesses and
worker processes measured too) and lists every module none of whose functions ran: a module
that was only imported does not count, since importing runs its ``def`` and ``class`` lines but
none of its rules. A module without functions counts once imported. Exit status 1 when a
module is left out, so that a test marked ``slow`` cannot silently take a module's last fast
test with it.

``python -m tools.fast_coverage --data FILE`` judges a coverage data file measured before
(e.g. by ``coverage run -m pytest ...``) without running the tests again. Other arguments are
passed to pytest (``-m "not slow"`` unless a ``-m`` is given).
"""

from __future__ import annotations

import argparse
import ast
import os
import subprocess
import sys
import tempfile
from pathlib import Path

from coverage import Coverage

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = ROOT / "src" / "spacecombat"

#: measured in every process the tests start: the command line's subprocesses and the
#: Monte Carlo and batch workers (``multiprocessing``), each writing its own data file
CONFIG = """\
[run]
source = {source}
branch = false
parallel = true
concurrency = thread, multiprocessing
patch = subprocess, _exit
data_file = {data}
"""


def function_lines(path: Path) -> set[int]:
    """The lines of ``path`` inside a function's body (its statements, not its ``def``)."""
    tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
    lines: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            for statement in node.body:
                end = statement.end_lineno or statement.lineno
                lines.update(range(statement.lineno, end + 1))
    return lines


def unexercised(data_file: Path) -> tuple[list[str], int]:
    """The modules of the package none of whose functions ran (a module without functions:
    not even imported), and the number of modules."""
    coverage = Coverage(data_file=str(data_file))
    coverage.load()
    data = coverage.get_data()
    executed = {
        str(Path(name).resolve()): set(data.lines(name) or ()) for name in data.measured_files()
    }
    left: list[str] = []
    paths = sorted(PACKAGE.rglob("*.py"))
    for path in paths:
        ran = executed.get(str(path.resolve()), set())
        inside = function_lines(path)
        touched = bool(ran & inside) if inside else bool(ran) or _empty(path)
        if not touched:
            left.append(str(path.relative_to(ROOT / "src")))
    return left, len(paths)


def _empty(path: Path) -> bool:
    """A module with no statement but its docstring (an ``__init__.py``) has nothing to run."""
    body = ast.parse(path.read_text(encoding="utf-8")).body
    return all(isinstance(s, ast.Expr) and isinstance(s.value, ast.Constant) for s in body)


def measure(pytest_args: list[str], workdir: Path) -> Path:
    """Run pytest with ``pytest_args`` under coverage; the combined data file."""
    data = workdir / ".coverage"
    rcfile = workdir / "coveragerc"
    rcfile.write_text(CONFIG.format(source=PACKAGE, data=data), encoding="utf-8")
    if not any(arg.startswith("-m") for arg in pytest_args):
        pytest_args = ["-m", "not slow", *pytest_args]
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(ROOT / "src"), env.get("PYTHONPATH")]))
    command = [sys.executable, "-m", "coverage", "run", f"--rcfile={rcfile}", "-m", "pytest"]
    # in this process (``-n 0``: the suite's ``-n auto`` would measure in xdist's workers)
    command += ["-q", "-p", "no:cacheprovider", "-n", "0", *pytest_args]
    subprocess.run(command, cwd=ROOT, env=env, check=False)
    subprocess.run(
        [sys.executable, "-m", "coverage", "combine", f"--rcfile={rcfile}", "-q"],
        cwd=ROOT,
        env=env,
        check=True,
    )
    return data


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tools.fast_coverage", description=__doc__)
    parser.add_argument("--data", type=Path, help="a coverage data file measured before")
    options, pytest_args = parser.parse_known_args(argv)
    if options.data is not None:
        left, total = unexercised(options.data)
    else:
        with tempfile.TemporaryDirectory(prefix="fast-coverage-") as workdir:
            left, total = unexercised(measure(pytest_args, Path(workdir)))
    for module in left:
        print(f"not exercised: {module}")
    print(f"{total - len(left)} of {total} modules exercised")
    return 1 if left else 0


if __name__ == "__main__":
    sys.exit(main())
