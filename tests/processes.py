"""Watching worker processes from a test (Linux ``/proc``): a process's children, whether one
still runs, and starting a child as a terminal would, so that Ctrl-C reaches it."""

from __future__ import annotations

import signal
import time
from pathlib import Path

#: whether this machine has what these helpers read
HAS_PROC = Path("/proc/self/task").exists()


def children(pid: int) -> list[int]:
    found: list[int] = []
    for task in Path(f"/proc/{pid}/task").iterdir():
        found += [int(c) for c in (task / "children").read_text().split()]
    return found


def running(pid: int) -> bool:
    """Whether ``pid`` is a live process (a zombie waiting to be reaped is not)."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return False
    return stat.rsplit(")", 1)[1].split()[0] != "Z"


def gone(workers: list[int], within: float = 10.0) -> bool:
    """Whether every one of ``workers`` has stopped within ``within`` seconds."""
    deadline = time.monotonic() + within
    while time.monotonic() < deadline:
        if not any(running(w) for w in workers):
            return True
        time.sleep(0.1)
    return False


def default_sigint() -> None:
    """For ``preexec_fn``: Ctrl-C as a terminal delivers it, even when the tests run as a
    background job (started with SIGINT ignored, which Python would keep)."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)
