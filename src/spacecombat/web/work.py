"""A bounded pool of worker processes for the API's CPU-heavy work, off the event loop.

The workers are forked (they start with this process's modules and rules data), all at once
when the pool starts (``start``, from the app's start-up, before the server has threads of its
own: forking a process with threads is only safe so far as the threads hold no locks), and they
are *daemonic*: a daemonic process may have no children, so Monte Carlo inside a worker plays
its trials there rather than start a pool of its own (``analysis/workers.may_start``).

At most ``capacity`` calls are in the pool at once, running or waiting; one more is refused at
once with ``Saturated`` (the API answers 503 with ``Retry-After``), never queued without end. A
pool whose worker died (killed for memory, say) is replaced by a new one at the next call.
"""

from __future__ import annotations

import asyncio
import multiprocessing.context
import os
import threading
from collections.abc import Callable
from concurrent.futures import Future, ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from typing import Any, ParamSpec, TypeVar

from spacecombat.analysis import workers
from spacecombat.core.limits import cores

P = ParamSpec("P")
T = TypeVar("T")

#: calls in the pool (running or waiting) per worker, by default: the API's calls are short
#: (a battle of 12 units a side is answered in tens of milliseconds, benchmarks/load.py), so a
#: full queue still clears in well under a second
QUEUED_PER_WORKER = 16
#: seconds a refused client is asked to wait (``Retry-After``): the queue clears well within it
RETRY_AFTER = 1


class Saturated(Exception):
    """Every place in the pool is taken: ask again later (``retry_after`` seconds)."""

    def __init__(self, retry_after: int) -> None:
        super().__init__(f"the server is busy; retry after {retry_after} second(s)")
        self.retry_after = retry_after


class _DaemonProcess(multiprocessing.context.ForkProcess):
    """A forked worker that is daemonic: it may start no processes of its own."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.daemon = True


class _DaemonForkContext(multiprocessing.context.ForkContext):
    """The fork start method, with daemonic processes."""

    Process = _DaemonProcess


class WorkPool:
    """``workers`` forked processes (default: one per core) taking at most ``capacity`` calls
    at once (default: ``QUEUED_PER_WORKER`` per worker)."""

    def __init__(self, workers: int | None = None, capacity: int | None = None) -> None:
        self.workers = max(1, workers or cores())
        self.capacity = max(1, capacity or QUEUED_PER_WORKER * self.workers)
        self._lock = threading.Lock()
        self._in_flight: set[Future[Any]] = set()
        self._pool: ProcessPoolExecutor | None = None
        self._closed = False

    def start(self) -> None:
        """Fork the workers now (they are forked at the first call otherwise)."""
        with self._lock:
            pool = self._executor()
            with workers.forking():
                pool.submit(os.getpid).result()

    def _executor(self) -> ProcessPoolExecutor:
        """The live executor (a new one if there is none). Called with the lock held."""
        if self._closed:
            raise RuntimeError("the work pool is closed")
        if self._pool is None:
            self._pool = ProcessPoolExecutor(
                max_workers=self.workers,
                mp_context=_DaemonForkContext(),
                initializer=workers.worker_started,
                initargs=(os.getpid(),),
            )
        return self._pool

    def submit(self, fn: Callable[P, T], /, *args: P.args, **kwargs: P.kwargs) -> Future[T]:
        """Start ``fn(*args, **kwargs)`` in a worker; ``Saturated`` if the pool is full."""
        with self._lock:
            if len(self._in_flight) >= self.capacity:
                raise Saturated(retry_after=RETRY_AFTER)
            pool = self._executor()
            try:
                with workers.forking():
                    future = pool.submit(fn, *args, **kwargs)
            except BrokenProcessPool:
                self._replace(pool)
                pool = self._executor()
                with workers.forking():
                    future = pool.submit(fn, *args, **kwargs)
            self._in_flight.add(future)
        future.add_done_callback(self._done)
        return future

    async def run(self, fn: Callable[P, T], /, *args: P.args, **kwargs: P.kwargs) -> T:
        """``fn(*args, **kwargs)`` in a worker, awaited without blocking the event loop."""
        future = self.submit(fn, *args, **kwargs)
        try:
            return await asyncio.wrap_future(future)
        except BrokenProcessPool:
            with self._lock:
                if self._pool is not None:
                    self._replace(self._pool)
            raise

    def _done(self, future: Future[Any]) -> None:
        with self._lock:
            self._in_flight.discard(future)

    def _replace(self, pool: ProcessPoolExecutor) -> None:
        """Drop a broken executor (the next call starts a new one), its workers stopped in the
        background (stopping waits on them; the caller is the event loop). Called with the
        lock held."""
        if self._pool is pool:
            self._pool = None
            threading.Thread(target=workers.stop, args=(pool, set()), daemon=True).start()

    @property
    def in_flight(self) -> int:
        """Calls in the pool now, running or waiting."""
        with self._lock:
            return len(self._in_flight)

    def close(self) -> None:
        """End the workers now; calls still in the pool are cancelled (bounded in time:
        ``analysis/workers.stop``)."""
        with self._lock:
            self._closed = True
            pool, self._pool = self._pool, None
            pending = set(self._in_flight)
        if pool is not None:
            workers.stop(pool, pending)
