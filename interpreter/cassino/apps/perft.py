"""Perft: count the move sequences of a given depth, as chess engines do.

The counts are correctness data: any change to move generation that changes
a count shows up in the tests (tests/test_perft.py keeps a few).
"""

from __future__ import annotations

from ..engine.core import Engine
from ..errors import CassinoError
from ..engine.notation import format_move
from ..engine.state import HandState


def perft(engine: Engine, state: HandState, depth: int) -> int:
    """The number of legal move sequences of ``depth`` plies (fewer where the hand ends first)."""
    if depth < 0:
        raise CassinoError(f"perft counts 0 or more moves ahead, not {depth}")
    if depth == 0 or state.over:
        return 1
    moves = engine.legal_moves(state)
    if depth == 1:
        return len(moves)
    return sum(perft(engine, engine.apply(state, m), depth - 1) for m in moves)


def divide(engine: Engine, state: HandState, depth: int) -> list[tuple[str, int]]:
    """Perft split by first move, to find where two engines disagree."""
    return sorted((format_move(m, engine.deck), perft(engine, engine.apply(state, m), depth - 1))
                  for m in engine.legal_moves(state))
