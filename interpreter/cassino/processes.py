"""Worker processes for `simulate`, `sweep` and `train`: a pool that a Ctrl-C stops at once.

A terminal's Ctrl-C goes to every process of the foreground group, the workers too. In a plain
``ProcessPoolExecutor`` each worker then dies with its own traceback while the parent, leaving its
``with`` block, waits for the work in flight; a second Ctrl-C during that wait hung the run (an audit:
parent and workers alive 40 s later, tracebacks at a third). Here the workers ignore SIGINT, so the
parent alone is interrupted, and a pool left by an exception cancels what has not begun and ends its
workers rather than waiting for them.
"""

from __future__ import annotations

import signal
import threading
from collections.abc import Callable, Iterator
from concurrent.futures import ProcessPoolExecutor
from contextlib import contextmanager
from typing import Any

#: How long a pool that is stopped early waits for its ended workers (seconds).
STOP_WAIT = 2.0


def _start(initializer: Callable[..., None] | None, args: tuple[Any, ...]) -> None:
    signal.signal(signal.SIGINT, signal.SIG_IGN)   # (the parent is interrupted, and stops the pool)
    if initializer is not None:
        initializer(*args)


def stop(pool: ProcessPoolExecutor) -> None:
    """End ``pool`` now: nothing more begins, its workers are ended, and waited for briefly."""
    # (The executor's own table of its workers: it offers no other way to end a worker in the middle of a task.)
    table = getattr(pool, "_processes", None)
    processes = list(table.values()) if isinstance(table, dict) else []
    pool.shutdown(wait=False, cancel_futures=True)
    for process in processes:
        if process.is_alive():
            process.terminate()
    for process in processes:
        process.join(STOP_WAIT)


@contextmanager
def worker_pool(workers: int, initializer: Callable[..., None] | None = None,
                initargs: tuple[Any, ...] = ()) -> Iterator[ProcessPoolExecutor]:
    """A process pool of ``workers`` whose workers ignore Ctrl-C; left by an exception (a Ctrl-C among them), it is
    ended at once (:func:`stop`), else it is shut down as usual, its work done."""
    pool = ProcessPoolExecutor(max_workers=workers, initializer=_start, initargs=(initializer, initargs))
    try:
        yield pool
    except BaseException as e:
        # (A Ctrl-C pressed again while the pool is being ended would leave workers behind: held off until it is.)
        held = isinstance(e, KeyboardInterrupt) and threading.current_thread() is threading.main_thread()
        previous = signal.signal(signal.SIGINT, signal.SIG_IGN) if held else None
        try:
            stop(pool)
        finally:
            if held:
                signal.signal(signal.SIGINT, previous)
        raise
    pool.shutdown(wait=True)
