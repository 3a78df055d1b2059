"""Where computer players think and records are written, away from the event loop and from each other.

A search player may think for seconds; a server with many tables must still
answer a person's click at once. So computer players think in a small, fixed
number of worker processes of their own (a queue forms there, and nowhere else;
players that answer in milliseconds, such as greedy, answer in a thread instead,
never queued behind a long search), and every record is written by a separate
pool of threads: a person's move waits
for its own disk write, never for another table's computer player. Stopping the
server terminates the workers (a move being thought about is simply not made:
the record is as it was after the last action) and waits for the writes.

A finished game's review (``learning.review``: a search of every move) is work of
the same kind, so it runs in the same workers, and at most ``max_reviews`` wait
there at once: asking beyond that is refused in words (``LimitReached``), so
reviews can never queue without bound in front of the computer players.
"""

from __future__ import annotations

import asyncio
import multiprocessing
import pickle
import signal
from concurrent.futures import ThreadPoolExecutor
from typing import Any, Callable, TypeVar

from ..game.records import Record
from ..game.session import GameSession
from .policy import LimitReached

T = TypeVar("T")
RECORD_WRITERS = 4
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


class Writers:
    """Threads that write records (and do a person's other short work), apart from the computer players."""

    def __init__(self, threads: int = RECORD_WRITERS) -> None:
        self._pool = ThreadPoolExecutor(threads, thread_name_prefix="cassino-records")

    async def run(self, fn: Callable[..., T], *args: Any) -> T:
        return await asyncio.get_running_loop().run_in_executor(self._pool, fn, *args)

    def stop(self) -> None:
        """Wait for the writes under way (each is atomic: a record is whole before or after)."""
        self._pool.shutdown(wait=True, cancel_futures=False)
