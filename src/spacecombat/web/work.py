"""A bounded pool of worker processes for the API's CPU-heavy work, off the event loop, each
call within a time limit and cancellable (issue 25).

The workers are forked (they start with this process's modules and rules data), all at once
when the pool starts (``start``, from the app's start-up, before the server has threads of its
own: forking a process with threads is only safe so far as the threads hold no locks), and they
are *daemonic*: a daemonic process may have no children, so Monte Carlo inside a worker plays
its trials there rather than start a pool of its own (``analysis/workers.may_start``).

At most ``capacity`` calls are in the pool at once, running or waiting, and a call is taken
only while the queue ahead of it is expected to clear within ``queue_wait`` seconds (the mean
time of the short calls, measured, on the workers not held by long ones: ``LONG``); any other
call is refused at once with ``Saturated`` (the API answers 503 with ``Retry-After``), never
queued without end or behind calls that take seconds. A pool whose worker died (killed
for memory, say) is replaced by a new one at the next call.

**Time limits and cancelling** (``Job``): each call has a deadline (a ``time.monotonic()``
reading: the clock is the machine's, the same in every process) and a place, a *slot*, in an
array of shared memory the workers inherit. While a call runs, a timer in its worker
(``SIGALRM`` every ``TICK`` seconds) reads its slot: a call cancelled by the server (its client
left, or the server stops) or past its deadline by ``GRACE`` is stopped where it is, by an
exception its code cannot catch (a ``BaseException``), and the worker is free for the next
call. A call that starts after its deadline (it waited too long) is not run. The code a call
runs may also hand the timer a deadline of its own (``give_up_at``: the exact engine's share
of the time, ``jobs.odds_report``).
"""

from __future__ import annotations

import asyncio
import itertools
import multiprocessing.context
import os
import signal
import threading
import time
import weakref
from collections.abc import Callable, Iterator
from concurrent.futures import Future, ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from contextlib import contextmanager
from dataclasses import dataclass, field
from multiprocessing.sharedctypes import RawArray
from types import FrameType
from typing import Any, ParamSpec, TypeVar

from spacecombat.analysis import workers
from spacecombat.core.limits import cores

P = ParamSpec("P")
T = TypeVar("T")

#: calls in the pool (running or waiting) per worker at most, by default: with the calls'
#: time limit it is the queue's bound; ``QUEUE_WAIT`` usually sheds before it is reached
QUEUED_PER_WORKER = 16
#: seconds the queue ahead of a new call may take to clear, at the calls' mean time
#: (``WorkPool.expected_wait``), by default: beyond it a call is refused at once (503) rather
#: than answered late (issue 25: keep the queue short, shed the rest)
QUEUE_WAIT = 0.5
#: seconds a refused client is asked to wait (``Retry-After``): the queue clears well within it
RETRY_AFTER = 1
#: seconds between two readings of a running call's slot by its worker's timer
TICK = 0.05
#: seconds past its deadline a call that has not ended by itself is stopped
GRACE = 0.5
#: weight of the newest call in the mean time of the calls (an exponential moving mean)
SMOOTHING = 0.1
#: seconds after which a running call counts as *long*: the queue's wait is reckoned on the
#: workers not held by long calls, at the mean time of the calls shorter than this, and when
#: every worker holds a long call a new one is refused at once (it would wait for one to end)
LONG = 0.25
#: how much lower the workers' scheduling priority is than the server's (``os.nice``): the
#: event loop, which answers and sheds requests, runs first when the cores are all busy
NICE = 5


class Saturated(Exception):
    """Every place in the pool is taken: ask again later (``retry_after`` seconds)."""

    def __init__(self, retry_after: int, message: str | None = None) -> None:
        super().__init__(message or f"the server is busy; retry after {retry_after} second(s)")
        self.retry_after = retry_after


class Stopped(Exception):
    """A call the pool stopped: ``why`` is ``"cancelled"`` (by the server), ``"late"`` (it
    would have started after its deadline) or ``"time"`` (it ran ``GRACE`` past its deadline).
    Picklable: its argument is its field."""

    def __init__(self, why: str) -> None:
        super().__init__(why)
        self.why = why


class _Stop(BaseException):
    """Raised in a worker by its timer: a ``BaseException``, so no ``except Exception`` in the
    engines can keep a stopped call running."""


class _DaemonProcess(multiprocessing.context.ForkProcess):
    """A forked worker that is daemonic: it may start no processes of its own."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.daemon = True


class _DaemonForkContext(multiprocessing.context.ForkContext):
    """The fork start method, with daemonic processes."""

    Process = _DaemonProcess


# ---- in a worker ------------------------------------------------------------------------------

#: the slots' arrays, inherited by the workers (``_worker_started``): each slot's call number
#: (negative: cancelled) and when its call started running (0: not yet)
_slots: Any = None
_started: Any = None
#: the call running in this worker: its number, slot and deadline (None: none running)
_running: tuple[int, int, float | None] | None = None
#: a deadline of the running call's own code (``give_up_at``): when, and what to raise
_own: tuple[float, Callable[[], BaseException]] | None = None


def _worker_started(parent: int, slots: Any, started: Any) -> None:
    """In each worker: the slots, SIGTERM's default action (a worker is forked after uvicorn
    set its own handler, which would only ask a server that is not there to stop: the worker
    would outlive ``workers.stop``), a lower priority (``NICE``), then
    ``workers.worker_started``."""
    global _slots, _started
    _slots, _started = slots, started
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    os.nice(NICE)
    import_the_engines()
    workers.worker_started(parent)


#: the packages whose every module a worker imports before its first call
ENGINE_PACKAGES = ("spacecombat.analysis", "spacecombat.rulesets")


def import_the_engines() -> None:
    """Numpy and every module of the engines imported (about 0.2 s, once): in the server
    before it forks the workers (they start with them), and again in each worker before any
    call (nothing left to import then). The timer stops a call wherever it is (``_Stop``
    raised by ``_tick``); a call stopped in the middle of a module's first import would leave
    that module half made in the worker for good: a page that abandons a request at each
    keystroke once left numpy without ``matrix``, and every later call on that worker failed.
    (Imported in the workers only, the 0.2 s, more on a loaded machine, came out of the first
    call's time limit.)"""
    import importlib
    import pkgutil

    import numpy  # noqa: F401 - imported whole here, not under a call's timer

    for name in ENGINE_PACKAGES:
        package = importlib.import_module(name)
        for module in pkgutil.walk_packages(package.__path__, f"{name}."):
            importlib.import_module(module.name)


def _tick(signum: int, frame: FrameType | None) -> None:
    global _own
    """The timer of a worker: stop the running call if the server cancelled it or it is past
    its deadline and ``GRACE``; raise the call's own error past its own deadline."""
    if _running is None:
        return
    job, slot, deadline = _running
    now = time.monotonic()
    if _slots is not None and _slots[slot] == -job:
        raise _Stop("cancelled")
    if deadline is not None and now >= deadline + GRACE:
        raise _Stop("time")
    if _own is not None and now >= _own[0]:
        error, _own = _own[1](), None  # raised once: what comes after (Monte Carlo) goes on
        raise error


@contextmanager
def give_up_at(when: float | None, error: Callable[[], BaseException]) -> Iterator[None]:
    """Within the block, ``error()`` is raised (once) in this worker's running call when
    ``time.monotonic()`` reaches ``when``; nothing outside a pool's call or with ``when``
    None."""
    global _own
    if when is None or _running is None:
        yield
        return
    kept, _own = _own, (when, error)
    try:
        yield
    finally:
        _own = kept


def run_call(
    job: int, slot: int, deadline: float | None, fn: Callable[..., T], args: Any, kwargs: Any
) -> T:
    """In a worker: ``fn(*args, **kwargs)`` under the timer (``Stopped`` if it is stopped)."""
    global _running, _own
    if _slots is not None and _slots[slot] == -job:
        raise Stopped("cancelled")
    if deadline is not None and time.monotonic() >= deadline:
        raise Stopped("late")
    if _started is not None:
        _started[slot] = time.monotonic()
    previous = signal.signal(signal.SIGALRM, _tick)
    _running, _own = (job, slot, deadline), None
    signal.setitimer(signal.ITIMER_REAL, TICK, TICK)
    try:
        try:
            return fn(*args, **kwargs)
        finally:
            _running = None  # first: no tick raises after this
            _own = None
            signal.setitimer(signal.ITIMER_REAL, 0)
            signal.signal(signal.SIGALRM, previous)
    except _Stop as exc:  # raised in the call, or in the clean-up above before its first line
        _running, _own = None, None
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)
        raise Stopped(str(exc)) from None


# ---- in the server ----------------------------------------------------------------------------


@dataclass
class Job:
    """A call in the pool: its future (``Stopped`` when the pool stopped it) and how to
    cancel it (``cancel``: at once if it waits, at the next tick of its worker if it runs)."""

    future: Future[Any]
    number: int
    slot: int
    pool: WorkPool = field(repr=False)

    def cancel(self) -> None:
        """Stop the call and free its worker (nothing if it is done)."""
        self.pool._cancel(self)


#: the live pools of this process, stopped together by ``stop_all`` (a signal to stop)
_pools: weakref.WeakSet[WorkPool] = weakref.WeakSet()


def stop_all() -> None:
    """Close every pool of this process (their calls cancelled, their workers ended), in the
    background: the server stops on a signal (``spacecombat serve``), and the calls in flight
    then end at once (their answers: 503) rather than hold the shutdown."""
    for pool in list(_pools):
        threading.Thread(target=pool.close, daemon=True).start()


class WorkPool:
    """``workers`` forked processes (default: one per core) taking at most ``capacity`` calls
    at once (default: ``QUEUED_PER_WORKER`` per worker), and a call only while the queue ahead
    is expected to clear within ``queue_wait`` seconds (default ``QUEUE_WAIT``; None: no such
    bound)."""

    def __init__(
        self,
        workers: int | None = None,
        capacity: int | None = None,
        queue_wait: float | None = QUEUE_WAIT,
    ) -> None:
        self.workers = max(1, workers or cores())
        self.capacity = max(1, capacity or QUEUED_PER_WORKER * self.workers)
        self.queue_wait = queue_wait
        # reentrant: cancelling a future runs its done-callback (``_done``) at once, in the
        # thread that cancels it, which holds the lock
        self._lock = threading.RLock()
        self._in_flight: dict[Future[Any], Job] = {}
        self._pool: ProcessPoolExecutor | None = None
        self._closed = False
        # one slot per place: a call's number while it holds it, its negative once cancelled
        self._slots: Any = RawArray("q", self.capacity)
        self._started: Any = RawArray("d", self.capacity)
        self._free = list(range(self.capacity))
        self._numbers = itertools.count(1)
        #: the mean time in seconds of the calls shorter than ``LONG`` (0 until one is done)
        self.mean_seconds = 0.0
        #: calls taken since the pool was made
        self.calls = 0
        _pools.add(self)

    def start(self) -> None:
        """Fork the workers now (they are forked at the first call otherwise)."""
        with self._lock:
            pool = self._executor()
            with workers.forking():
                pool.submit(os.getpid).result()

    def _executor(self) -> ProcessPoolExecutor:
        """The live executor (a new one if there is none). Called with the lock held."""
        if self._closed:
            raise Saturated(RETRY_AFTER, "the server is stopping")
        if self._pool is None:
            import_the_engines()  # here, so that the workers are forked with them imported
            self._pool = ProcessPoolExecutor(
                max_workers=self.workers,
                mp_context=_DaemonForkContext(),
                initializer=_worker_started,
                initargs=(os.getpid(), self._slots, self._started),
            )
        return self._pool

    def expected_wait(self) -> float:
        """Seconds a new call would wait for a worker, at the calls' mean time."""
        with self._lock:
            return self._expected_wait()

    def _expected_wait(self) -> float:
        """Called with the lock held: the calls waiting, at the mean time of short calls, on
        the workers not held by long calls (``LONG``); infinite when every worker is."""
        now = time.monotonic()
        began = [self._started[job.slot] for job in self._in_flight.values()]
        running = sum(1 for at in began if at > 0)
        long = sum(1 for at in began if at > 0 and now - at >= LONG)
        free = self.workers - long
        if free <= 0:
            return float("inf")
        waiting = len(self._in_flight) - running
        ahead = waiting + (running - long) - free + 1
        return max(0, ahead) * self.mean_seconds / free

    def submit(self, fn: Callable[P, T], /, *args: P.args, **kwargs: P.kwargs) -> Future[T]:
        """Start ``fn(*args, **kwargs)`` in a worker, with no deadline; ``Saturated`` if the
        pool is full."""
        future: Future[T] = self.job(None, fn, *args, **kwargs).future
        return future

    def job(
        self, deadline: float | None, fn: Callable[P, T], /, *args: P.args, **kwargs: P.kwargs
    ) -> Job:
        """Start ``fn(*args, **kwargs)`` in a worker, to end by ``deadline`` (a
        ``time.monotonic()`` reading; None: none); ``Saturated`` if the pool is full or its
        queue would not clear within ``queue_wait``."""
        with self._lock:
            if len(self._in_flight) >= self.capacity or (
                self.queue_wait is not None and self._expected_wait() > self.queue_wait
            ):
                raise Saturated(retry_after=RETRY_AFTER)
            pool = self._executor()
            number, slot = next(self._numbers), self._free.pop()
            self._slots[slot] = number
            self._started[slot] = 0.0
            try:
                with workers.forking():
                    future = pool.submit(run_call, number, slot, deadline, fn, args, kwargs)
            except BrokenProcessPool:
                self._replace(pool)
                pool = self._executor()
                with workers.forking():
                    future = pool.submit(run_call, number, slot, deadline, fn, args, kwargs)
            except BaseException:
                self._free.append(slot)
                raise
            job = Job(future, number, slot, self)
            self._in_flight[future] = job
            self.calls += 1
        started = time.monotonic()
        future.add_done_callback(lambda done: self._done(done, started))
        return job

    async def run(self, fn: Callable[P, T], /, *args: P.args, **kwargs: P.kwargs) -> T:
        """``fn(*args, **kwargs)`` in a worker, awaited without blocking the event loop."""
        found: T = await self.wait(self.job(None, fn, *args, **kwargs))
        return found

    async def wait(self, job: Job) -> Any:
        """The result of ``job``, awaited without blocking the event loop; a pool closed or
        broken meanwhile is ``Saturated`` (503: ask again)."""
        try:
            return await asyncio.wrap_future(job.future)
        except _Stop as exc:  # never expected (``run_call`` turns it into ``Stopped``)
            raise Stopped(str(exc)) from None
        except BrokenProcessPool:
            if self._closed:
                raise Saturated(RETRY_AFTER, "the server is stopping") from None
            with self._lock:
                if self._pool is not None:
                    self._replace(self._pool)
            raise Saturated(RETRY_AFTER, "a worker of the server stopped; retry") from None

    def _cancel(self, job: Job) -> None:
        with self._lock:
            if self._in_flight.get(job.future) is job and not job.future.cancel():
                self._slots[job.slot] = -job.number

    def _done(self, future: Future[Any], started: float) -> None:
        with self._lock:
            job = self._in_flight.pop(future, None)
            if job is not None:
                self._free.append(job.slot)
            if not future.cancelled() and job is not None:
                began = self._started[job.slot] or started
                took = time.monotonic() - began
                if took < LONG:  # the mean of the short calls: what a queue mostly holds
                    self.mean_seconds += SMOOTHING * (took - self.mean_seconds)

    def _replace(self, pool: ProcessPoolExecutor) -> None:
        """Drop a broken executor (the next call starts a new one), its workers stopped in the
        background (stopping waits on them; the caller is the event loop). Called with the
        lock held."""
        if self._pool is pool:
            self._pool = None
            threading.Thread(target=workers.stop, args=(pool, set()), daemon=True).start()

    def waiting(self, job: Job) -> bool:
        """Whether ``job`` is still waiting for a worker."""
        with self._lock:
            return self._in_flight.get(job.future) is job and not self._started[job.slot]

    @property
    def in_flight(self) -> int:
        """Calls in the pool now, running or waiting."""
        with self._lock:
            return len(self._in_flight)

    def close(self) -> None:
        """End the workers now; calls still in the pool are cancelled (bounded in time:
        ``analysis/workers.stop``)."""
        with self._lock:
            if self._closed and self._pool is None:
                return
            self._closed = True
            pool, self._pool = self._pool, None
            pending = set(self._in_flight)
        if pool is not None:
            workers.stop(pool, pending)
