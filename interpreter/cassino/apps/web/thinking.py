"""Where computer players think, the engine works and records are written: away from the event loop.

A search player may think for seconds, and one valid rule file can deal a table
whose legal moves are too many to list; a server with many tables must still
answer every page and a person's click at another table at once. So nothing the
engine does runs on the event loop.

Searching (a computer player that thinks long, a hint, a finished game's review)
runs in a small, fixed number of worker processes (:class:`Thinkers`), apart from
the server's own process: however many tables search at once, a person's plain
move at another table never waits for them, nor competes with them for the
interpreter's lock. The workers are shared fairly (:class:`FairQueue`): the next
search to start is the first of the table with the fewest searches running, of
those the one served longest ago, and within a table likewise its people in turn,
so a table's second request waits behind every other table's first. A hint is
bounded as a computer player's move is: its search stops dealing after
``Limits.hint_seconds`` and plays the best move found so far; a worker still busy
with it well past that is stopped (and replaced), and a hint that waited too long
for a worker is given up, either way said to the browser in words (:class:`GaveUp`).

Everything else the engine does for a table (its legal moves to offer, a check of
a move, the quick computer players, replaying a record) runs in a bounded pool of
threads (:class:`Workers`), taken in turn by table in the same fair way; a table
whose work there has taken long once (``HEAVY_SECONDS``: a position of thousands of
moves) has its listings and quick computer players done in worker processes of
their own from then on (a second :class:`Thinkers`, the heavy tables' lane), so
they never hold the server's interpreter lock while other tables wait. And
every record is written by a separate pool, so a person's move waits for its own
disk write, never for another table's work. Every thread is a daemon: stopping
the server never waits for a computation (the record is as it was after the last
action); it waits a bounded time for the writes under way, each of which is atomic.

At most ``max_reviews`` reviews wait for a worker at once: asking beyond that is
refused in words (``LimitReached``), so reviews never queue without bound in front
of the computer players.
"""

from __future__ import annotations

import asyncio
import logging
import multiprocessing
import os
import pickle
import signal
import threading
import time
from collections import deque
from dataclasses import dataclass, field
from functools import partial
from typing import Any, Callable, Generic, TypeVar

from ...engine.rng import derive
from ...errors import CassinoError
from ...players.search import SearchBot
from ..game.records import Record
from ..game.said import claim_hinted
from ..game.session import GameSession
from . import views
from .policy import LimitReached

T = TypeVar("T")
J = TypeVar("J")
log = logging.getLogger("cassino.serve")
RECORD_WRITERS = 4
#: Threads for the engine's work at the tables (legal moves, checks, quick computer players, replays);
#: one table has at most TABLE_JOBS of them at once, so a table of too many moves never takes them all.
ENGINE_THREADS = 6
#: Threads for the lobby's work (reading pasted rules and uploaded records), apart from the tables'.
LOBBY_THREADS = 2
#: Worker processes for the engine's work at heavy tables (see ``HEAVY_SECONDS``), apart from the searches'.
LANE_WORKERS = 2
#: A table one of whose engine jobs took longer than this in a thread (its own time: ``time.thread_time``) is heavy: from then on its legal moves
#: to offer, its quick computer players and its other listings run in the heavy tables' worker processes,
#: where they do not hold the server's interpreter lock (its threads share one: a thread listing thousands
#: of moves for a second slows every other table's answers).
HEAVY_SECONDS = 0.05
#: The legal moves a review sends for each decision, best first (the played and best moves are named apart).
VALUES_SHOWN = 8
#: A worker still busy with a hint this long after its search's time is stopped (unpickling the position,
#: listing its moves and the deal under way all come before the search looks at its clock again).
HINT_GRACE = 12.0
#: A hint at a position of more legal moves than this does not weigh the others' moves of the deal (the
#: search's ``infer``): doing so takes seconds there, before the search deals a sample.
HINT_READS_UP_TO = 500
#: A hint not started within this long (every worker busy for other tables) is given up.
HINT_WAIT = 60.0
#: How much less CPU priority a worker process has than the server's process (``os.nice``): on a busy
#: machine, a person's plain move goes before a search or a heavy table's listing.
WORKER_NICE = 5
#: A worker process that has not started within this long is given up (its job fails in words).
SPAWN_SECONDS = 120.0


QUICK_DEALS = 256
"""A search of at most this many deals a move takes milliseconds, as random and greedy do."""


def long_thinker(kind: str) -> bool:
    """Whether a seat's computer player may think long (a timed search, or one of many deals): it thinks in
    the worker processes; the quick ones answer in a writer thread, never queued behind a long search."""
    base, _, arg = kind.partition(":")
    if base != "search" or not arg:
        return False
    return arg.endswith("s") or not arg.isdigit() or int(arg) > QUICK_DEALS


class GaveUp(CassinoError):
    """Work a worker process did not do (waited too long for a worker, or took too long): said in words."""


# ---------------------------------------------------------------------- fair shares
class FairQueue(Generic[J]):
    """Work waiting, by owner (a table) and within an owner by person (a seat, or its computer players).

    :meth:`take` gives the first item of the owner with the fewest items being worked on now, of those
    the one served longest ago (one never served first, in the order they came), and within that owner
    the person chosen the same way. So a table's second request waits
    behind every other table's first, and one person's behind the others' at the same table. Not
    thread-safe: its user holds a lock.
    """

    #: Owners and people whose last turn is remembered while idle (beyond that, the idle are forgotten).
    REMEMBERED = 4096

    def __init__(self) -> None:
        self._lines: dict[str, dict[str, deque[J]]] = {}
        self._running: dict[str, int] = {}
        self._running_person: dict[tuple[str, str], int] = {}
        self._served: dict[str, int] = {}
        self._served_person: dict[tuple[str, str], int] = {}
        self._tick = 0
        self.waiting = 0

    def __len__(self) -> int:
        return self.waiting

    def put(self, owner: str, person: str, item: J) -> None:
        self._lines.setdefault(owner, {}).setdefault(person, deque()).append(item)
        self.waiting += 1

    def owned(self, owner: str) -> int:
        """``owner``'s items waiting or being worked on."""
        line = self._lines.get(owner, {})
        return sum(len(q) for q in line.values()) + self._running.get(owner, 0)

    def take(self) -> tuple[str, str, J] | None:
        """The next item, counted as being worked on until :meth:`done`; None when nothing waits."""
        if not self._lines:
            return None
        owner = min(self._lines, key=lambda o: (self._running.get(o, 0), self._served.get(o, -1)))
        line = self._lines[owner]
        person = min(line, key=lambda p: (self._running_person.get((owner, p), 0),
                                          self._served_person.get((owner, p), -1)))
        queue = line[person]
        item = queue.popleft()
        self.waiting -= 1
        if not queue:
            del line[person]
            if not line:
                del self._lines[owner]
        self._tick += 1
        self._served[owner] = self._served_person[(owner, person)] = self._tick
        self._running[owner] = self._running.get(owner, 0) + 1
        self._running_person[(owner, person)] = self._running_person.get((owner, person), 0) + 1
        return owner, person, item

    def done(self, owner: str, person: str) -> None:
        """An item taken has been worked on."""
        self._running[owner] -= 1
        if not self._running[owner]:
            del self._running[owner]
        self._running_person[(owner, person)] -= 1
        if not self._running_person[(owner, person)]:
            del self._running_person[(owner, person)]
        if len(self._served_person) > self.REMEMBERED:      # bounded: the idle are forgotten (served long ago)
            self._served = {o: t for o, t in self._served.items() if o in self._lines or o in self._running}
            self._served_person = {k: t for k, t in self._served_person.items()
                                   if k[1] in self._lines.get(k[0], {}) or k in self._running_person}


# ---------------------------------------------------------------------- in a worker process
def _quiet_worker() -> None:
    """A worker ignores Ctrl-C: the terminal sends it to the whole process group; the server stops the workers.
    It runs at a lower priority (``WORKER_NICE``) than the server's own process, whose answers people wait for."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    if hasattr(os, "nice"):
        try:
            os.nice(WORKER_NICE)
        except OSError:
            pass


def _worker(conn: Any) -> None:
    """A worker process: runs each ``(fn, args)`` it is sent, and sends back ``("ok", value)`` or
    ``("error", exception)``, until its pipe closes. It says ``"ready"`` first, once it has started (a job's
    time is counted from then: starting a process takes a second or more on a busy machine)."""
    _quiet_worker()
    try:
        conn.send("ready")
    except (EOFError, OSError):
        return
    while True:
        try:
            job = conn.recv()
        except (EOFError, OSError):
            return
        if job is None:
            return
        fn, args = job
        try:
            answer: tuple[str, Any] = ("ok", fn(*args))
        except BaseException as e:          # handed to the server, which says it in words
            answer = ("error", e)
        try:
            conn.send(answer)
        except (EOFError, OSError):
            return
        except Exception as e:              # a value or an error that does not pickle
            conn.send(("error", CassinoError(f"the answer could not be sent ({type(e).__name__})")))


def _choose(position: bytes) -> str:
    """In a worker: the computer player's move, exactly as ``GameSession.computer_choice`` gives it.

    ``position`` is the pickled session, made by the server itself (never bytes from a browser).
    """
    session = pickle.loads(position)
    assert isinstance(session, GameSession)
    return session.computer_choice()


class _OutOfTime(Exception):
    """A hint's search has used its time (caught by :meth:`TimedSearch.choose`)."""


class TimedSearch(SearchBot):
    """The search player of a hint, bounded in time as the computer players are in deals or seconds:
    once ``seconds`` have passed it starts no more sampled deals and plays the candidate with the most
    points over the deals played (the greedy rating's best when none was); before that it is exactly
    ``GameSession.hint``'s search. (A deal started in time is played out: at a table of thousands of
    moves that alone may take seconds, which the worker's cap bounds.)"""

    def __init__(self, seed: int, seconds: float) -> None:
        super().__init__(seed)
        self.seconds_left = seconds
        self.deadline = float("inf")
        #: Whether the time ran out before the search was done, and the deals it played.
        self.cut = False
        self.deals = 0
        self._alive: list[Any] = []
        self._sums: dict[Any, float] = {}
        self._listed = 0

    def choose(self, game: Any, seat: int) -> Any:
        self.deadline = time.monotonic() + self.seconds_left
        try:
            return super().choose(game, seat)
        except _OutOfTime:
            return max(self._alive, key=lambda m: self._sums.get(m, 0.0))     # ties: the greedy order's first

    def candidates(self, game: Any, moves: list[Any], worth: Any) -> list[Any]:
        found = super().candidates(game, moves, worth)
        self._alive, self._sums = list(found), {m: 0.0 for m in found}
        self._listed = len(moves)
        return found

    def evidence(self, game: Any, seat: int) -> Any:
        # Reading the others' moves weighs each against its alternatives: at a position of thousands of moves
        # that alone takes seconds, before any deal. There the hint reads nothing from them.
        if self._listed > HINT_READS_UP_TO:
            return None
        return super().evidence(game, seat)

    def sampled_values(self, game: Any, worth: Any, state: Any, side: int, alive: list[Any],
                       whole_hand: bool) -> list[float]:
        values = super().sampled_values(game, worth, state, side, alive, whole_hand)
        self._alive = list(alive)
        for move, value in zip(alive, values):
            self._sums[move] = self._sums.get(move, 0.0) + value
        self.deals += 1
        return values

    def determinize(self, engine: Any, state: Any, seat: int, avoid: tuple[int, ...] = ()) -> Any:
        # Each sampled deal starts here (and the exact solver's look at the position, before the candidates
        # are known: that one goes on, bounded by its own limit). Past the deadline no deal is started.
        if self._alive and time.monotonic() >= self.deadline:
            self.cut = True
            raise _OutOfTime()
        return super().determinize(engine, state, seat, avoid)


def hint_answer(snap: GameSession, seat: int, seconds: float | None = None) -> dict[str, Any]:
    """The search player's move for ``seat`` (from what it can see), as the browser shows a move, and
    whether its search was cut short: ``GameSession.hint``'s search, at most ``seconds`` (None: whole)."""
    game = snap.game
    now, after = claim_hinted(game)
    if snap.claim_hint(seat):   # (what the computer would do: claim a game it has won, ``GameSession.claim_hint``)
        return {"move": None, "cut": False, "claim": "now", "claimed": f"claim the game: {now}"}
    seed = derive(snap.record.seed, game.hand.ply)
    if seconds is None:
        move, cut = snap.hint(seat), False
    else:
        bot = TimedSearch(seed, seconds)
        move = bot.choose(game, seat)
        cut = bot.cut
    answer: dict[str, Any] = {"move": views.move_view(game.engine, game.hand, move), "cut": cut, "claim": None}
    if snap.claim_hint(seat, move):
        answer |= {"claim": "after", "claimed": f"then claim the game at once (Claim the game): {after}"}
    return answer


def _hint(position: bytes, seat: int, seconds: float) -> dict[str, Any]:
    """In a worker: :func:`hint_answer` for the pickled session ``position`` (made by the server itself)."""
    session = pickle.loads(position)
    assert isinstance(session, GameSession)
    return hint_answer(session, seat, seconds)


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


# ---------------------------------------------------------------------- the worker processes
@dataclass(eq=False)
class _Job:
    """A function for a worker process, and where its answer goes."""

    loop: asyncio.AbstractEventLoop
    future: "asyncio.Future[Any]"
    fn: Callable[..., Any]
    args: tuple[Any, ...]
    #: Seconds a worker may take over it before it is stopped (None: as long as it takes).
    cap: float | None = None
    #: When it is given up unless started (time.monotonic()), and the words then.
    expires: float | None = None
    late: str = ""
    overran: str = ""


@dataclass(eq=False)
class _Slot:
    """One worker process (started when first needed, again after it was stopped) and its pipe."""

    process: Any = None
    conn: Any = None
    #: The job it works on now (tests read it).
    job: _Job | None = None
    thread: threading.Thread | None = field(default=None, repr=False)


class Thinkers:
    """A fixed number of worker processes for searches (computer players, hints, reviews), shared fairly
    between tables and their people (:class:`FairQueue`); each started when first needed."""

    def __init__(self, workers: int, max_reviews: int = 8) -> None:
        self.workers = workers
        self.max_reviews = max_reviews
        self.stopped = False
        #: Moves asked for and not yet answered (tests and the log read it).
        self.busy = 0
        #: Reviews asked for and not yet answered.
        self.reviewing = 0
        #: Hints asked for and not yet answered.
        self.hinting = 0
        #: Workers stopped because a job took too long (tests and the log read it).
        self.stopped_workers = 0
        self._queue: FairQueue[_Job] = FairQueue()
        self._cond = threading.Condition()
        self._slots: list[_Slot] = []

    # ------------------------------------------------------------------ asking
    def submit(self, fn: Callable[..., T], *args: Any, owner: str = "", person: str = "", cap: float | None = None,
               wait: float | None = None, late: str = "", overran: str = "") -> "asyncio.Future[T]":
        """``fn(*args)`` queued for a worker (``fn`` a module-level function, ``args`` picklable): its answer
        as a future of the running loop. ``owner``, ``person``: whose work it is (the fair share). ``cap``:
        seconds a worker may spend on it before it is stopped and the future fails with GaveUp(``overran``);
        ``wait``: seconds it may wait for a worker, then GaveUp(``late``). A future cancelled before its
        job starts is skipped."""
        if self.stopped:
            raise asyncio.CancelledError()
        loop = asyncio.get_running_loop()
        future: asyncio.Future[T] = loop.create_future()
        expires = None if wait is None else time.monotonic() + wait
        job = _Job(loop, future, fn, args, cap, expires, late, overran)
        with self._cond:
            self._start()
            self._queue.put(owner, person, job)
            self._cond.notify()
        return future

    def owned_by(self, owner: str) -> int:
        """``owner``'s jobs queued or running now."""
        with self._cond:
            return self._queue.owned(owner)

    async def choose(self, position: bytes, owner: str = "") -> str:
        """The move of the computer player to move at ``position`` (a pickled GameSession); it waits
        its turn for a worker."""
        self.busy += 1
        try:
            return await self.submit(_choose, position, owner=owner, person="computer")
        finally:
            self.busy -= 1

    async def hint(self, position: bytes, seat: int, seconds: float, owner: str = "") -> dict[str, Any]:
        """A hint for ``seat`` at ``position`` (a pickled GameSession), searched ``seconds`` at most
        (:func:`hint_answer`); GaveUp when no worker was free within HINT_WAIT or it overran its time."""
        cap = seconds + HINT_GRACE
        self.hinting += 1
        try:
            return await self.submit(
                _hint, position, seat, seconds, owner=owner, person=str(seat), cap=cap, wait=HINT_WAIT,
                late=f"the hint was given up: the server's computer players were busy for {HINT_WAIT:g} s "
                     f"(ask again in a moment)",
                overran=f"the hint was given up: it took the server longer than {cap:g} s "
                        f"(this position has very many moves)")
        finally:
            self.hinting -= 1

    async def review(self, record: bytes, seat: int, deals: int, owner: str = "") -> dict[str, Any]:
        """A finished game (a pickled Record) reviewed for ``seat``, as JSON; LimitReached when
        ``max_reviews`` reviews are already waiting for a worker."""
        if self.reviewing >= self.max_reviews:
            raise LimitReached(f"this server is reviewing {self.reviewing} games already: ask again in a minute")
        self.reviewing += 1
        try:
            return await self.submit(_review, record, seat, deals, owner=owner, person=str(seat))
        finally:
            self.reviewing -= 1

    # ------------------------------------------------------------------ the workers
    def _start(self) -> None:
        """The workers' threads (called with the lock held); each starts its process with its first job."""
        while len(self._slots) < self.workers:
            slot = _Slot()
            slot.thread = threading.Thread(target=self._serve, args=(slot,), daemon=True,
                                           name=f"cassino-thinker-{len(self._slots)}")
            self._slots.append(slot)
            slot.thread.start()

    def _serve(self, slot: _Slot) -> None:
        """A worker's thread: takes the next job in fair order, hands it to its process, settles its future."""
        while True:
            with self._cond:
                while not self.stopped and not len(self._queue):
                    self._cond.wait()
                if self.stopped:
                    return
                taken = self._queue.take()
                assert taken is not None
                owner, person, job = taken
                slot.job = job
            settle: Callable[[], None] = lambda: None
            try:
                settle = self._run(slot, job)
            except BaseException as e:          # a bug here: said to the caller, and the worker goes on
                log.exception("a worker process's job")
                settle = partial(_post, job, e, True)
            finally:
                # Counted as done before its caller hears of it: the caller's next job finds the table's
                # share of the workers as it is (not this one still counted, and itself refused as busy).
                with self._cond:
                    slot.job = None
                    self._queue.done(owner, person)
                settle()

    def _run(self, slot: _Slot, job: _Job) -> Callable[[], None]:
        """``job`` done by ``slot``'s process: how its future is to be settled."""
        if job.future.cancelled():                  # nobody waits for it any more
            return lambda: None
        if job.expires is not None and time.monotonic() > job.expires:
            return partial(_post, job, GaveUp(job.late or "given up: no worker was free in time"), True)
        try:
            if slot.process is None or not slot.process.is_alive():
                self._spawn(slot)
            slot.conn.send((job.fn, job.args))
            ready = slot.conn.poll(job.cap)
            if self.stopped:
                return partial(_cancel, job)
            if not ready:
                self._end(slot)
                self.stopped_workers += 1
                log.info("a worker took longer than %s s over %s: stopped", job.cap, job.fn.__name__)
                return partial(_post, job, GaveUp(job.overran or "given up: it took too long"), True)
            status, value = slot.conn.recv()
        except (EOFError, OSError, pickle.PicklingError) as e:
            if self.stopped:
                return partial(_cancel, job)
            self._end(slot)
            return partial(_post, job, CassinoError(f"a worker process stopped ({type(e).__name__})"), True)
        return partial(_post, job, value, status != "ok")

    def _spawn(self, slot: _Slot) -> None:
        """A new worker process for ``slot``, once it says it is ready (OSError if it does not start)."""
        context = multiprocessing.get_context("spawn")          # no fork of a process with threads
        mine, theirs = context.Pipe()
        process = context.Process(target=_worker, args=(theirs,), daemon=True, name="cassino-thinker")
        process.start()
        theirs.close()
        slot.process, slot.conn = process, mine
        if not mine.poll(SPAWN_SECONDS) or mine.recv() != "ready":
            self._end(slot)
            raise OSError(f"a worker process did not start within {SPAWN_SECONDS:g} s")

    def _end(self, slot: _Slot) -> None:
        """Stop a worker's process now (what it was doing is dropped)."""
        process, conn = slot.process, slot.conn
        slot.process = slot.conn = None
        if process is not None:
            process.kill()
            process.join(5)
        if conn is not None:
            conn.close()

    def stop(self) -> None:
        """End every worker now: what they are thinking about is dropped (nothing was written yet), and
        whoever waits for it, or for work not started, is cancelled."""
        with self._cond:
            self.stopped = True
            self._cond.notify_all()
            while len(self._queue):
                taken = self._queue.take()
                assert taken is not None
                self._queue.done(taken[0], taken[1])
                _cancel(taken[2])
        for slot in self._slots:
            process = slot.process
            if process is not None:
                process.kill()
                process.join(5)


def _post(job: _Job, value: Any, failed: bool) -> None:
    try:
        job.loop.call_soon_threadsafe(_settle, job.future, value, failed)
    except RuntimeError:                       # the loop has closed: the server is stopping
        pass


def _cancel(job: _Job) -> None:
    try:
        job.loop.call_soon_threadsafe(job.future.cancel)
    except RuntimeError:
        pass


# ---------------------------------------------------------------------- the threads
class Workers:
    """A fixed number of daemon threads running blocking functions for the event loop, taken in turn
    by owner (:class:`FairQueue`).

    Daemon threads: a computation cannot be interrupted, but it never keeps the process from
    ending (SIGTERM stays fast whatever a table is working on). Work not yet started when its
    caller stops waiting (a cancelled task) is skipped.
    """

    def __init__(self, threads: int, name: str) -> None:
        self.size = threads
        self.name = name
        self._jobs: FairQueue[tuple[Any, ...]] = FairQueue()
        self._threads: list[threading.Thread] = []
        self._cond = threading.Condition()
        #: Jobs running now (read by ``stop`` and the tests).
        self.running = 0
        self.stopped = False

    def _start(self) -> None:
        while len(self._threads) < self.size:
            thread = threading.Thread(target=self._work, name=f"{self.name}-{len(self._threads)}", daemon=True)
            thread.start()
            self._threads.append(thread)

    def submit(self, fn: Callable[..., T], *args: Any, owner: str = "") -> "asyncio.Future[T]":
        """``fn(*args)`` queued for a thread; its result (or exception) as a future of the running loop.
        ``owner``: whose work it is (:meth:`owned_by` counts it until it has run or been skipped)."""
        if self.stopped:
            raise asyncio.CancelledError()
        loop = asyncio.get_running_loop()
        future: asyncio.Future[T] = loop.create_future()
        with self._cond:
            self._start()
            self._jobs.put(owner, "", (loop, future, fn, args))
            self._cond.notify()
        return future

    def owned_by(self, owner: str) -> int:
        """``owner``'s jobs queued or running now (a job whose caller stopped waiting counts until it ends)."""
        with self._cond:
            return self._jobs.owned(owner)

    async def run(self, fn: Callable[..., T], *args: Any) -> T:
        return await self.submit(fn, *args)

    def _work(self) -> None:
        while True:
            with self._cond:
                while not self.stopped and not len(self._jobs):
                    self._cond.wait()
                if not len(self._jobs):                # stopped, and the work queued before is done
                    return
                taken = self._jobs.take()
                assert taken is not None
                owner, person, (loop, future, fn, args) = taken
                if future.cancelled():                 # nobody waits for it any more
                    self._jobs.done(owner, person)
                    continue
                self.running += 1
            try:
                value, failed = fn(*args), False
            except BaseException as e:                 # handed to the caller, which says it in words
                value, failed = e, True
            finally:
                with self._cond:
                    self.running -= 1
                    self._jobs.done(owner, person)
            try:
                loop.call_soon_threadsafe(_settle, future, value, failed)
            except RuntimeError:                       # the loop has closed: the server is stopping
                pass

    def stop(self, wait: float = 0.0) -> bool:
        """No new work; wait up to ``wait`` seconds for the work running or queued now. True when none is
        left."""
        with self._cond:
            self.stopped = True
            self._cond.notify_all()
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
