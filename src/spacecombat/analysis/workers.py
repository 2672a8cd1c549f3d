"""Worker processes, for Monte Carlo and for batches of odds: forked from this process (so
they start with its modules and rules data), leaving Ctrl-C to the parent, exiting if the
parent dies, and stopped at once, in bounded steps, when the parent stops them.

A Ctrl-C reaches the whole process group: only the parent acts on it. Workers are forked with
SIGINT blocked (``forking``), ignore it once started, and watch their parent. On
KeyboardInterrupt, or any other exception, the parent calls ``stop``: the workers are ended at
once, what is queued is cancelled, and the pool shut down, each step bounded in time."""

from __future__ import annotations

import gc
import os
import signal
import sys
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from concurrent.futures import Future, ProcessPoolExecutor

#: how often (seconds) a worker checks that its parent is still alive
WATCH = 0.5
#: the longest (seconds) each step of stopping a pool may take after Ctrl-C
STOP = 2.0
#: whether a pool's futures may be cancelled while its workers are being ended: before Python
#: 3.12 the pool's manager thread, finding the workers gone, sets an exception on every
#: pending future and fails on a cancelled one (``InvalidStateError``, printed as a traceback)
CANCEL_ON_STOP = sys.version_info >= (3, 12)


def may_start() -> bool:
    """Whether this process may start worker processes: not when it is itself a daemonic
    worker (``multiprocessing`` forbids it children), e.g. the command line run inside another
    program's pool; the work is then done in this process, with the same results."""
    import multiprocessing  # here for start-up time: only where a pool may start

    return not multiprocessing.current_process().daemon


def pool(workers: int) -> ProcessPoolExecutor:
    """A pool of ``workers`` processes, forked at their first task (submit it in
    ``forking()``)."""
    # imported here for start-up time: exact odds never need it
    from concurrent.futures import ProcessPoolExecutor

    return ProcessPoolExecutor(
        max_workers=workers, initializer=worker_started, initargs=(os.getpid(),)
    )


@contextmanager
def forking() -> Iterator[None]:
    """Around the first submission to a pool (when its workers are forked): SIGINT blocked, so
    a Ctrl-C is never a traceback in a worker; one during the forks is raised after them."""
    _mask_sigint(signal.SIG_BLOCK)
    try:
        yield
    finally:
        _mask_sigint(signal.SIG_UNBLOCK)


def stop(pool: ProcessPoolExecutor, pending: set[Future[Any]]) -> None:
    """End the workers now (SIGTERM: no traceback from them), then cancel what is queued
    (Python 3.12 on; before, the pool fails what is queued itself once it finds its workers
    gone) and shut the pool down, each step bounded in time: a pool interrupted mid-flight can
    leave its own shutdown waiting on a pipe no one reads, and Ctrl-C must never hang."""
    known: dict[int, Any] = getattr(pool, "_processes", None) or {}
    processes = list(known.values())
    # (taken now: the pool's shutdown forgets it)
    writer = getattr(getattr(pool, "_result_queue", None), "_writer", None)
    for process in processes:
        process.terminate()
    if CANCEL_ON_STOP:
        for future in pending:
            future.cancel()
    closing = threading.Thread(
        target=pool.shutdown,
        kwargs={"wait": False, "cancel_futures": CANCEL_ON_STOP},
        daemon=True,
    )
    closing.start()
    closing.join(timeout=STOP)
    for process in processes:
        process.join(timeout=STOP)
        if process.is_alive():
            process.kill()
            process.join(timeout=STOP)
    # A worker ended while sending its result (a large tally) leaves part of a message in the
    # results pipe: the pool's manager thread would wait for the rest for ever, and the
    # interpreter's exit, which joins that thread, with it. Every worker gone, this process's
    # end of the pipe's writing side is its last: closing it ends that wait (end of file), and
    # the manager thread finds the pool broken and exits.
    if writer is not None and not any(process.is_alive() for process in processes):
        writer.close()


def _mask_sigint(how: int) -> None:
    """Block or unblock SIGINT in this thread (where the platform can)."""
    if hasattr(signal, "pthread_sigmask"):
        signal.pthread_sigmask(how, {signal.SIGINT})


def worker_started(parent: int) -> None:
    """In each worker: leave Ctrl-C to the parent, and exit if the parent dies. What the
    worker holds at start (modules, rules data, what the parent learnt) is frozen out of the
    garbage collector's scans: battles are short-lived values, and scanning the rest again
    costs ~10%. Workers are forked with SIGINT blocked (``forking``), so a Ctrl-C before this
    point is never a traceback in a worker: it is ignored, then unblocked."""
    gc.freeze()
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    _mask_sigint(signal.SIG_UNBLOCK)
    threading.Thread(target=_watch_parent, args=(parent,), daemon=True).start()


def _watch_parent(parent: int) -> None:
    while os.getppid() == parent:
        time.sleep(WATCH)
    os._exit(1)
