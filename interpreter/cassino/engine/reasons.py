"""Why a move is refused, in words a player can act on.

Kept apart from move generation: generation says *whether* a move is legal;
this module says *why not*, reading the same position and rule settings.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from .moves import Move
from .notation import cards_text, format_move
from .state import HandState

if TYPE_CHECKING:  # pragma: no cover
    from .core import Engine


def why_illegal(engine: "Engine", state: HandState, move: Move) -> str:
    """A one-line reason ``move`` is not legal in ``state``."""
    deck = engine.deck
    text = format_move(move, deck)
    hand = state.hands[state.turn]
    if state.over:
        return f"{text}: the hand is over"
    if move.played & ~hand:
        missing = " ".join(cards_text(deck, move.played & ~hand))
        return f"{text}: {missing} is not in the hand of seat {state.turn}"
    if move.loose & ~state.table:
        missing = " ".join(cards_text(deck, move.loose & ~state.table))
        return f"{text}: {missing} is not loose on the table"
    known = {b.cards for b in state.builds}
    for b in move.builds:
        if b not in known:
            return f"{text}: there is no build [{' '.join(cards_text(deck, b))}] on the table"
    if bin(move.played).count("1") > engine.rules.capture.hand_cards_max:
        return f"{text}: this variant plays one card a turn"
    return f"{text}: not allowed by the rules of {engine.rules.name} here"
