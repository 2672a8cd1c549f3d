"""Issue 24: Monte Carlo stops its workers as soon as the stopping rule has enough
(``workers.stop``). A worker ended while it was sending a result (a large tally: EC4X's kernel
makes them) left part of a message in the results pipe; the pool's manager thread waited for
the rest for ever, and the command line hung at exit after printing its report (seen about once
in twenty runs of ``odds examples/ec4x/three-houses.yaml``, on main too). ``stop`` now closes
the parent's end of that pipe once every worker is gone, which ends the wait."""

from __future__ import annotations

import os
import struct
import sys
import threading
import time
from types import FrameType
from typing import Any

from spacecombat.analysis import workers


def _dies_sending_part_of_a_result() -> None:
    """In a worker: write the first bytes of a result message (its length says 1,000 bytes,
    three follow), then end, as a worker terminated mid-send does."""
    frame: FrameType | None = sys._getframe(1)
    while frame is not None and "result_queue" not in frame.f_locals:
        frame = frame.f_back
    assert frame is not None
    queue = frame.f_locals["result_queue"]
    queue._writer._send(struct.pack("!i", 1_000) + b"abc")
    os._exit(0)


def test_stop_ends_a_pool_whose_worker_died_sending_its_result() -> None:
    pool: Any = workers.pool(1)
    writer = pool._result_queue._writer
    with workers.forking():
        future = pool.submit(_dies_sending_part_of_a_result)
    manager = pool._executor_manager_thread
    assert isinstance(manager, threading.Thread)
    time.sleep(0.5)  # the worker has written part of a result and is gone
    workers.stop(pool, {future})
    manager.join(timeout=10)
    try:
        assert not manager.is_alive(), "the pool's manager thread still waits for the result"
    finally:
        if manager.is_alive():  # (never leave the test run hanging at exit)
            writer.close()
