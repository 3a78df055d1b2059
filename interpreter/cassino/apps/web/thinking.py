"""Where computer players think, the engine works and records are written: away from the event loop.

A search player may think for seconds, and one valid rule file can deal a table
whose legal moves are too many to list; a server with many tables must still
answer every page and a person's click at another table at once. So nothing the
engine does runs on the event loop: computer players that think long do so in a
small, fixed number of worker processes of their own (a queue forms there, and
nowhere else); everything else the engine does for a table (its legal moves to
offer, a hint, a check of a move, the quick computer players, replaying a record)
runs in a bounded pool of threads (:class:`Workers`), and every record is written
by a separate pool, so a person's move waits for its own disk write, never for
another table's work. Every thread is a daemon: stopping the server never waits
for a computation (the record is as it was after the last action); it waits a
bounded time for the writes under way, each of which is atomic.

A finished game's review (``learning.review``: a search of every move) is work of
the same kind, so it runs in the same workers, and at most ``max_reviews`` wait
there at once: asking beyond that is refused in words (``LimitReached``), so
reviews can never queue without bound in front of the computer players.
"""

from __future__ import annotations

import asyncio
import logging
import multiprocessing
import pickle
import queue
import signal
import threading
import time
from typing import Any, Callable, TypeVar

from ..game.records import Record
from ..game.session import GameSession
from .policy import LimitReached

T = TypeVar("T")
log = logging.getLogger("cassino.serve")
RECORD_WRITERS = 4
#: Threads for the engine's work at the tables (legal moves, hints, checks, quick computer players, replays);
#: one table has at most TABLE_JOBS of them at once, so a table of too many moves never takes them all.
ENGINE_THREADS = 6
#: Threads for the lobby's work (reading pasted rules and uploaded records), apart from the tables'.
LOBBY_THREADS = 2
#: The legal moves a review sends for each decision, best first (the played and best moves are named apart).
VALUES_SHOWN = 8


QUICK_DEALS = 256
"""A search of at most this many deals a move takes milliseconds, as random and greedy do."""


def long_thinker(kind: str) -> bool:
    """Whether a seat's computer player may think long (a timed search, or one of many deals): it thinks in
    the worker processes; the quick ones answer in a writer thread, never queued behind a long search."""
    base, _, arg = kind.partition(":")
    if base != "search" or not arg:
        return False
    return arg.endswith("s") or not arg.isdigit() or int(arg) > QUICK_DEALS


def _quiet_worker() -> None:
    """A worker ignores Ctrl-C: the terminal sends it to the whole process group; the server stops the workers."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)


def _choose(position: bytes) -> str:
    """In a worker: the computer player's move, exactly as ``GameSession.computer_choice`` gives it.

    ``position`` is the pickled session, made by the server itself (never bytes from a browser).
    """
    session = pickle.loads(position)
    assert isinstance(session, GameSession)
    return session.computer_choice()


def _review(record: bytes, seat: int, deals: int) -> dict[str, Any]:
    """In a worker: ``seat``'s moves in a finished game reviewed, as ``cassino review --format json`` gives them.

    ``record`` is the pickled record of a table, made by the server itself (never bytes from a browser).
    """
    from ..learning.review import review_record

    loaded = pickle.loads(record)
    assert isinstance(loaded, Record)
    review = review_record(loaded, seat=seat, deals=deals).to_json()
    for move in review["moves"]:      # a wide table has thousands of captures: the best few are what a page shows
        move["more_values"] = max(0, len(move["values"]) - VALUES_SHOWN)
        move["values"] = move["values"][:VALUES_SHOWN]
    return review


class Thinkers:
    """A fixed number of worker processes for computer players and reviews (started when first needed)."""

    def __init__(self, workers: int, max_reviews: int = 8) -> None:
        self.workers = workers
        self.max_reviews = max_reviews
        self._pool: Any = None
        self.stopped = False
        #: Moves asked for and not yet answered (tests and the log read it).
        self.busy = 0
        #: Reviews asked for and not yet answered.
        self.reviewing = 0

    def _started(self) -> Any:
        if self._pool is None:
            context = multiprocessing.get_context("spawn")    # no fork of a process with threads
            self._pool = context.Pool(self.workers, initializer=_quiet_worker)
        return self._pool

    async def _run(self, fn: Callable[..., T], *args: Any) -> T:
        """``fn(*args)`` in a worker, awaited without blocking the event loop."""
        if self.stopped:
            raise asyncio.CancelledError()
        loop = asyncio.get_running_loop()
        future: asyncio.Future[T] = loop.create_future()

        def settle(setter: Callable[[Any], None], value: Any) -> None:
            if not future.done():
                setter(value)

        self._started().apply_async(
            fn, args,
            callback=lambda value: loop.call_soon_threadsafe(settle, future.set_result, value),
            error_callback=lambda e: loop.call_soon_threadsafe(settle, future.set_exception, e))
        return await future

    async def choose(self, position: bytes) -> str:
        """The move of the computer player to move at ``position`` (a pickled GameSession); it waits
        its turn for a worker."""
        self.busy += 1
        try:
            return await self._run(_choose, position)
        finally:
            self.busy -= 1

    async def review(self, record: bytes, seat: int, deals: int) -> dict[str, Any]:
        """A finished game (a pickled Record) reviewed for ``seat``, as JSON; LimitReached when
        ``max_reviews`` reviews are already waiting for a worker."""
        if self.reviewing >= self.max_reviews:
            raise LimitReached(f"this server is reviewing {self.reviewing} games already: ask again in a minute")
        self.reviewing += 1
        try:
            return await self._run(_review, record, seat, deals)
        finally:
            self.reviewing -= 1

    def stop(self) -> None:
        """End every worker now: what they are thinking about is dropped (nothing was written yet)."""
        self.stopped = True
        if self._pool is not None:
            self._pool.terminate()
            self._pool.join()
            self._pool = None


class Workers:
    """A fixed number of daemon threads running blocking functions for the event loop.

    Daemon threads: a computation cannot be interrupted, but it never keeps the process from
    ending (SIGTERM stays fast whatever a table is working on). Work not yet started when its
    caller stops waiting (a cancelled task) is skipped.
    """

    def __init__(self, threads: int, name: str) -> None:
        self.size = threads
        self.name = name
        self._jobs: queue.SimpleQueue[Any] = queue.SimpleQueue()
        self._threads: list[threading.Thread] = []
        self._lock = threading.Lock()
        #: Jobs running now (read by ``stop`` and the tests).
        self.running = 0
        #: Jobs queued or running, by owner (a table's id): a table's share of the threads is bounded.
        self._owned: dict[str, int] = {}
        self.stopped = False

    def _start(self) -> None:
        with self._lock:
            while len(self._threads) < self.size:
                thread = threading.Thread(target=self._work, name=f"{self.name}-{len(self._threads)}", daemon=True)
                thread.start()
                self._threads.append(thread)

    def submit(self, fn: Callable[..., T], *args: Any, owner: str = "") -> "asyncio.Future[T]":
        """``fn(*args)`` queued for a thread; its result (or exception) as a future of the running loop.
        ``owner``: whose work it is (:meth:`owned_by` counts it until it has run or been skipped)."""
        if self.stopped:
            raise asyncio.CancelledError()
        self._start()
        loop = asyncio.get_running_loop()
        future: asyncio.Future[T] = loop.create_future()
        with self._lock:
            self._owned[owner] = self._owned.get(owner, 0) + 1
        self._jobs.put((loop, future, fn, args, owner))
        return future

    def owned_by(self, owner: str) -> int:
        """``owner``'s jobs queued or running now (a job whose caller stopped waiting counts until it ends)."""
        with self._lock:
            return self._owned.get(owner, 0)

    async def run(self, fn: Callable[..., T], *args: Any) -> T:
        return await self.submit(fn, *args)

    def _work(self) -> None:
        while True:
            job = self._jobs.get()
            if job is None:
                return
            loop, future, fn, args, owner = job
            if future.cancelled():                     # nobody waits for it any more
                self._done(owner)
                continue
            with self._lock:
                self.running += 1
            try:
                value, failed = fn(*args), False
            except BaseException as e:                 # handed to the caller, which says it in words
                value, failed = e, True
            finally:
                with self._lock:
                    self.running -= 1
                self._done(owner)
            try:
                loop.call_soon_threadsafe(_settle, future, value, failed)
            except RuntimeError:                       # the loop has closed: the server is stopping
                pass

    def _done(self, owner: str) -> None:
        with self._lock:
            self._owned[owner] -= 1
            if not self._owned[owner]:
                del self._owned[owner]

    def stop(self, wait: float = 0.0) -> bool:
        """No new work; wait up to ``wait`` seconds for the work running now. True when none is left."""
        self.stopped = True
        for _ in self._threads:
            self._jobs.put(None)
        deadline = time.monotonic() + wait
        for thread in self._threads:
            thread.join(max(0.0, deadline - time.monotonic()))
        return not any(t.is_alive() for t in self._threads)


def _settle(future: "asyncio.Future[Any]", value: Any, failed: bool) -> None:
    if future.done():
        return
    if failed:
        future.set_exception(value)
    else:
        future.set_result(value)


class Writers(Workers):
    """Threads that write records (an action is applied and written there), apart from the computer players
    and the engine's other work: a person's move waits for its own write, never for another table's thinking."""

    def __init__(self, threads: int = RECORD_WRITERS) -> None:
        super().__init__(threads, "cassino-records")
