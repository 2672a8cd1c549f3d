"""The suite runs on every core (pytest-xdist, ``-n auto`` in pyproject.toml's ``addopts``).

A test marked ``alone`` runs with no other test of the run going at the same time: it judges
wall-clock time against the server's time limits or floods a server whose workers want the
machine's cores (``tests/web/test_server_limits.py``, ``test_shedding.py``), which a test
running beside it on another core would slow past what the test allows. The workers share a
readers-writer lock (``flock`` on two files in a folder made for the run): every test holds
it shared from its setup to its teardown; an ``alone`` test holds it exclusively, and first
the turnstile, so that the other workers start no new test while it waits for the running
ones to end (it is never starved). With ``-n 0`` (one process) the lock is not used.
"""

from __future__ import annotations

import fcntl
import os
import shutil
import tempfile
from collections.abc import Generator, Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

#: the environment variable naming the folder of the run's lock files (set by the controller
#: of an xdist run, inherited by its workers)
LOCKS = "SPACECOMBAT_TEST_LOCKS"


def pytest_configure(config: pytest.Config) -> None:
    """The controller of a run (not a worker) makes the folder of the lock files."""
    if not hasattr(config, "workerinput") and LOCKS not in os.environ:
        os.environ[LOCKS] = tempfile.mkdtemp(prefix="spacecombat-test-locks-")
        config.stash[_made] = os.environ[LOCKS]


def pytest_unconfigure(config: pytest.Config) -> None:
    made = config.stash.get(_made, None)
    if made is not None:
        shutil.rmtree(made, ignore_errors=True)
        os.environ.pop(LOCKS, None)


_made = pytest.StashKey[str]()


@contextmanager
def _locked(path: Path, how: int) -> Iterator[None]:
    with open(path, "a+b") as handle:
        fcntl.flock(handle, how)
        try:
            yield
        finally:
            fcntl.flock(handle, fcntl.LOCK_UN)


@contextmanager
def _turn(folder: Path, alone: bool) -> Iterator[None]:
    """The shared (``alone``: exclusive) hold of the run's lock, taken through the turnstile."""
    turnstile, main = folder / "turnstile", folder / "main"
    if alone:
        with _locked(turnstile, fcntl.LOCK_EX), _locked(main, fcntl.LOCK_EX):
            yield
        return
    with _locked(turnstile, fcntl.LOCK_EX):
        pass  # past the turnstile: an alone test waiting holds it, and no test starts now
    with _locked(main, fcntl.LOCK_SH):
        yield


@pytest.hookimpl(wrapper=True)
def pytest_runtest_protocol(item: pytest.Item, nextitem: pytest.Item | None) -> Generator[None]:
    """Each test, setup to teardown, under the run's lock when it has workers."""
    folder = os.environ.get(LOCKS)
    if folder is None or not hasattr(item.config, "workerinput"):
        return (yield)
    with _turn(Path(folder), item.get_closest_marker("alone") is not None):
        return (yield)
