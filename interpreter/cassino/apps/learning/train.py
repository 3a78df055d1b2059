"""`cassino train`: fit the search's playouts to a rule file by self-play, and store the weights where the
search finds them (``players.training`` fits; ``players.weights`` stores and finds).

The hands of self-play run in this process, in local worker processes (``--workers``), or on a Dask
cluster (``--cluster ADDRESS``, the ``cluster`` extra, as ``cassino sweep`` runs its games); they
come back in order, so the same seed and hands give the same weights wherever they ran.
"""

from __future__ import annotations

import json
import math
import os
from collections import deque
from concurrent.futures import Future
from dataclasses import dataclass
from pathlib import Path
from typing import Callable, Iterable, Iterator

from ...errors import CassinoError
from ...files import FileProblem, check_target
from ...language.rules import Rules
from ...players import weights as store
from ...players.policy import FEATURES
from ...players.training import Decision, Round, Runner, Task, play_hand, train
from ...processes import worker_pool
from ..authors.sweep import DASK_BATCH, dask_map
from .train_limits import MAX_HANDS

#: Hands a worker has submitted and not yet collected (a few, so the pool is never idle).
AHEAD = 2
#: The seconds a training may take (a week); the most hands a round may have is ``train_limits.MAX_HANDS``.
MAX_SECONDS = 7 * 24 * 3600.0
#: A seed as a weights file records it: the unsigned 64-bit number that deals the same cards.
SEED_MASK = (1 << 64) - 1


@dataclass(frozen=True)
class Trained:
    rules: Rules
    players: int
    partners: bool
    rounds: list[Round]
    entry: store.Entry
    path: Path
    stopped: str = ""   # why the training stopped before its last round (its weights the last round fitted)
    #: The entry for the same rules and seating this one replaced in the file, if there was one (an audit's
    #: 400-hand fit was replaced by a 3-hand test without a word).
    replaced: store.Entry | None = None


def process_runner(workers: int) -> Runner:
    """Hands in ``workers`` local processes, a few submitted ahead; those not yet begun are dropped once
    the caller stops taking results (a time budget that has passed)."""
    def run(tasks: Iterable[Task]) -> Iterator[list[Decision]]:
        pending: deque[Future[list[Decision]]] = deque()
        with worker_pool(workers) as pool:   # (left early, by a budget or a Ctrl-C: its workers ended at once)
            for task in tasks:
                pending.append(pool.submit(play_hand, task))
                if len(pending) >= AHEAD * workers:
                    yield pending.popleft().result()
            while pending:
                yield pending.popleft().result()
    return run


def dask_runner(address: str, connect_timeout: float = 10.0) -> Runner:
    """Hands on the Dask cluster whose scheduler is at ``address`` (tcp://host:port), a batch at a time
    (at most 64: a time budget stops between batches)."""
    return dask_map(address, play_hand, connect_timeout, batch=min(DASK_BATCH, 64))


def target(rules: Rules, out: str | None) -> Path:
    """Where the weights go: ``out``, or the user's cache file for ``rules``; checked before any hand is
    played (a folder, a device, a folder that is not there, one not writable; a damaged file there)."""
    if out is None:
        folder = store.cache_dir()
        try:
            folder.mkdir(parents=True, exist_ok=True)
        except OSError as e:
            raise FileProblem(folder, f"cannot make the folder for the trained weights ({e.strerror or e}); "
                                      f"set XDG_CACHE_HOME to a writable folder, or give --out FILE") from None
        path: str | Path = folder / f"{store.rules_hash(rules)}.json"
        if os.path.isdir(path) and not os.path.islink(path):   # (an audit was told to name a file inside it)
            raise FileProblem(path, "is a folder where the cache keeps the trained weights of these rules (the search "
                                    "looks for a file of that name): move the folder aside, or give --out FILE")
    else:
        path = out   # (as given: a trailing slash says a folder was meant)
    checked = check_target(path, replace=True, what="the playout weights", example=f"{rules.name}.playouts.json")
    try:
        store.read(checked)   # a damaged file is refused now, not after the training (nothing lost)
    except FileProblem as e:
        if "permission denied" not in e.reason:
            raise
        raise FileProblem(e.path, f"{e.reason}: let this user read and write it (chmod u+rw), or move it aside "
                                  f"and train again") from None
    return checked


def shipped_depth(rules: Rules, players: int, partners: bool) -> int | None:
    """The playout horizon shipped with cassino for these rules and seating (None: none): what a training
    plays and keeps unless told otherwise, so a user's own fit does not lose it."""
    entry = store.find(store.bundled(), store.rules_hash(rules), players, partners)
    return None if entry is None else entry.depth


def run(rules: Rules, players: int, partners: bool, *, hands: int, seconds: float | None, rounds: int, seed: int,
        deals: int, runner: Runner, out: str | None,
        progress: Callable[[int, int, int, float], None] | None = None,
        depth: int | None | str = "shipped") -> Trained:
    """Train, then store: the weights written atomically into the file at ``out`` (or the user's cache),
    with the playout horizon played (``depth``: a number of cards, None for the hands held, or "shipped"
    for the one shipped with cassino for these rules and seating, ``shipped_depth``)."""
    if not 1 <= hands <= MAX_HANDS:
        raise CassinoError(f"--hands is 1 to {MAX_HANDS:,} hands of self-play a round, not {hands}")
    if seconds is not None and not (seconds > 0 and math.isfinite(seconds) and seconds <= MAX_SECONDS):
        raise CassinoError(f"--seconds is a time budget above 0 seconds (at most {MAX_SECONDS:,.0f}), not {seconds:g}")
    horizon = shipped_depth(rules, players, partners) if depth == "shipped" else depth
    if isinstance(horizon, str):
        raise CassinoError(f"a playout depth is a number of cards, the hands held or shipped, not {horizon!r}")
    path = target(rules, out)
    why: list[str] = []
    done = train(rules, players, partners, hands=hands, seconds=seconds, rounds=rounds, seed=seed, deals=deals,
                 depth=horizon, runner=runner, progress=progress, stopped=why.append)
    last = done[-1]
    played = "" if horizon is None else f", playouts of at most {horizon} cards"
    # The seed is kept as the whole number 0 to 2**64 - 1 that deals the same cards (the shuffle reads a seed
    # modulo 2**64: ``--seed -1`` deals as 18446744073709551615 does), the form a weights file holds. (An
    # audit found ``--seed -1`` wrote `"seed": -1`, which the reader calls damaged: the fit was passed over
    # and every later training of those rules refused.)
    entry = store.Entry(store.rules_hash(rules), rules.name, players, partners, last.weights,
                        sum(r.hands for r in done), sum(r.decisions for r in done), seed & SEED_MASK,
                        f"{_rounds(len(done))} of search self-play, {deals} deals a move{played}", horizon)
    try:
        before = store.find(store.read(path), entry.rules, players, partners)
        written = store.store(path, entry)
    except CassinoError as e:
        # (Not written, the training is not lost: its weights are said, to be put in a file by hand. An audit damaged
        # the cache during a training, and the hour of self-play was gone.)
        raise CassinoError(f"{e}\nthe trained weights were not written; this is their entry, for a weights file "
                           f"(docs/training.md):\n{json.dumps(entry.as_json(), indent=1)}") from None
    return Trained(rules, players, partners, done, entry, written, why[0] if why else "", before)


def _rounds(n: int) -> str:
    return f"{n} round" if n == 1 else f"{n} rounds"


def report(t: Trained) -> str:
    """What the training did, in words: each round's numbers, the weights, where they went, and whether the
    search finds them there."""
    lines = [f"{t.rules.name}, {store.seating(t.players, t.partners)}: {_rounds(len(t.rounds))} of search self-play"]
    for r in t.rounds:
        on = (f"on the {r.held_out:,} held out" if r.held_out else
              "none held out (too few decisions), so on those it was fitted to")
        lines.append(f"  round {r.number}: {r.hands:,} hands, {r.decisions:,} decisions in {r.seconds:.0f} s; {on}, "
                     f"the move chosen rated best {r.fitted_top:.1%} (log-likelihood "
                     f"{r.fitted_log_likelihood:.3f} a decision), by the round's own playouts {r.before_top:.1%} "
                     f"({r.before_log_likelihood:.3f})")
    if t.stopped:
        lines.append(f"  stopped: {t.stopped}")
    lines.append("  weights: " + ", ".join(f"{name} {w:+.4f}" for name, w in zip(FEATURES, t.entry.weights)))
    if t.entry.depth is not None:
        lines.append(f"  playouts of at most {t.entry.depth} cards, the outlook valuing the rest (kept with the "
                     f"weights: the search plays them so)")
    lines.append(f"written to {t.path}")
    old = t.replaced
    if old is not None:
        lines.append(f"  replacing the fit that was there for {t.rules.name} at {store.seating(t.players, t.partners)}"
                     f" ({old.hands:,} hands of self-play, seed {old.seed})")
    cached = store.cache_dir() / f"{t.entry.rules}.json"
    if t.path.resolve() == cached.resolve():
        lines.append(f"the search plays these playouts in {t.rules.name} at {store.seating(t.players, t.partners)} "
                     f"(`cassino explain` says so); measure them against greedy playouts with "
                     f"benchmarks/bot_strength.py --pairings fitted-vs-greedy")
        if store.find(store.bundled(), t.entry.rules, t.players, t.partners) is not None:
            lines.append("  (they come before the measured playouts shipped with cassino for these rules and seating)")
    elif cached.exists():
        # (copying over it would lose the seatings it holds: an audit's cache held a 2-player fit)
        lines.append(f"the search looks for weights in {cached}, which holds fits of its own: add this file's entry "
                     f"to its `entries` to play them (copying the file over it would lose those)")
    else:
        lines.append(f"the search looks for weights in {store.cache_dir()}: copy the file there as "
                     f"{t.entry.rules}.json to play them")
    return "\n".join(lines) + "\n"
