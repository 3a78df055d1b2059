"""Perft: count the move sequences of a given depth, as chess engines do.

The counts are correctness data: any change to move generation that changes
a count shows up in the tests (tests/test_perft_and_notation.py keeps a few).

The count grows about tenfold a move, so a deep one can run for longer than anyone
waits. Two guards: a depth above the moves left in the hand is refused (every move
plays at least one card, so no sequence is longer than the cards in the hands and
the stock, and counting deeper counts nothing more), and :func:`estimate` guesses
the count and the work beforehand by Knuth's method (the product of the branching
factors along random paths, averaged), so the command can say on a terminal how
big the count will be and show its progress first move by first move.
"""

from __future__ import annotations

import random
import time
from dataclasses import dataclass
from typing import Callable

from ...engine.core import Engine
from ...engine.notation import format_move
from ...engine.state import HandState
from ...errors import CassinoError


def moves_left(state: HandState) -> int:
    """The most moves the hand can still last: the cards in the hands and the stock (each move plays one or more)."""
    return sum(bin(h).count("1") for h in state.hands) + len(state.stock)


def check_depth(state: HandState, depth: int) -> None:
    """Refuse a depth below 0 or above :func:`moves_left`, saying why and what to use instead."""
    if depth < 0:
        raise CassinoError(f"perft counts 0 or more moves ahead, not {depth}")
    most = moves_left(state)
    if depth > most:
        held = sum(bin(h).count("1") for h in state.hands)
        raise CassinoError(f"--depth {depth} is more than the {most} moves left in this hand (each move plays a card: "
                           f"{held} in the hands, {len(state.stock)} in the stock); use --depth {most} or less")


def perft(engine: Engine, state: HandState, depth: int,
          progress: Callable[[int, int], None] | None = None) -> int:
    """The number of legal move sequences of ``depth`` plies (fewer where the hand ends first).

    ``progress(done, total)`` is called after each first move is counted.
    """
    if depth < 0:
        raise CassinoError(f"perft counts 0 or more moves ahead, not {depth}")
    if depth == 0 or state.over:
        return 1
    moves = engine.legal_moves(state)
    if depth == 1:
        if progress is not None:
            progress(len(moves), len(moves))
        return len(moves)
    total = 0
    for k, m in enumerate(moves, 1):
        total += perft(engine, engine.apply(state, m), depth - 1)
        if progress is not None:
            progress(k, len(moves))
    return total


def divide(engine: Engine, state: HandState, depth: int) -> list[tuple[str, int]]:
    """Perft split by first move, to find where two engines disagree."""
    return sorted((format_move(m, engine.deck), perft(engine, engine.apply(state, m), depth - 1))
                  for m in engine.legal_moves(state))


@dataclass(frozen=True)
class Estimate:
    """A guess at a perft count before making it: the sequences, the positions whose moves are
    generated on the way, and the seconds that would take at the speed measured while guessing."""

    sequences: float
    positions: float
    seconds: float


def estimate(engine: Engine, state: HandState, depth: int, probes: int = 64, seed: int = 1) -> Estimate:
    """Knuth's estimate of ``perft(engine, state, depth)``: the mean, over random paths, of the product
    of the branching factors met (exact at depth 1; unbiased, but spread out, deeper)."""
    rnd = random.Random(seed)
    sequences = positions = 0.0
    calls = 0
    started = time.perf_counter()
    for _ in range(probes):
        s, width, walked = state, 1.0, 0.0
        for _ply in range(depth):
            if s.over:
                break
            walked += width              # the positions at this ply, as this path sees them
            moves = engine.legal_moves(s)
            calls += 1
            width *= len(moves)
            s = engine.apply(s, rnd.choice(moves))
        sequences += width
        positions += walked
    spent = time.perf_counter() - started
    per_call = spent / calls if calls else 0.0
    return Estimate(sequences / probes, positions / probes, positions / probes * per_call)


def duration(seconds: float) -> str:
    """``3 seconds``, ``4 minutes``, ``2.5 hours``, ``12 days``, ``3e+08 years``: a rough length in words."""
    for unit, size in (("years", 365.25 * 86400), ("days", 86400), ("hours", 3600), ("minutes", 60)):
        if seconds >= size:
            n = seconds / size
            return f"{n:.2g} {unit}" if n < 1000 else f"{n:.1e} {unit}"
    return f"{max(seconds, 0.0):.2g} seconds"
