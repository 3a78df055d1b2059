"""What a seat knows about the cards it cannot see, and deals consistent with it.

A seat sees its own hand, the table, the builds and every capture pile; the other
hands and the stock are hidden. What it can still infer from the public state: a
seat that holds a build keeps a card that captures it, and a seat that built for
its partner's card has proven it holds that value. A determinization deals the
hidden cards at random within those constraints; the search plays in many of them.

Optionally (``passed_up``, the search's ``infer``), what a seat did not do: a seat
that trailed or built when a card of some rank would have captured something
probably holds no such card, so the deal gives it other cards first (a preference,
not a certainty: players build instead of capturing on purpose).
"""

from __future__ import annotations

import random

from ..engine.core import Engine
from ..engine.movegen import popcount
from ..engine.moves import Move, MoveKind
from ..engine.state import HandState
from .draws import shuffle


def public_cards(state: HandState) -> int:
    """The cards every seat can see: the table, the builds and the capture piles."""
    seen = state.table
    for b in state.builds:
        seen |= b.cards
    for pile in state.piles:
        seen |= pile
    return seen


def seen_by(state: HandState, seat: int) -> int:
    """The cards ``seat`` can see: its hand, the table, the builds and the capture piles."""
    return state.hands[seat] | public_cards(state)


def passed_up(engine: Engine, position: HandState, move: Move) -> int:
    """The cards that would have captured something in ``position`` when its player made
    ``move`` without capturing (0 after a capture): what that player probably did not hold.

    Reads only the public part of ``position`` (table, builds, piles, stock size, whose
    turn): each card nobody could see there is tried as the player's only card. Cards of
    the same rank and values capture alike, so each kind is tried once.
    """
    if move.kind == MoveKind.CAPTURE:
        return 0
    seat = position.turn
    public = public_cards(position)
    others = [0] * position.players
    stock = tuple(range(len(position.stock)))       # its size only (its cards are hidden)
    kinds: dict[tuple[str, tuple[int | str, ...]], bool] = {}
    mask = 0
    for i in range(engine.n_cards):
        if public >> i & 1:
            continue
        kind = (engine.rank_str[i], tuple(sorted(engine.captured_values(1 << i), key=str)))
        takes = kinds.get(kind)
        if takes is None:
            others[seat] = 1 << i
            probe = position.with_(hands=tuple(others), stock=stock)
            takes = any(m.kind == MoveKind.CAPTURE for m in engine.playable_moves(probe))
            kinds[kind] = takes
        if takes:
            mask |= 1 << i
    return mask


def determinize(engine: Engine, state: HandState, seat: int, rng: random.Random,
                avoid: tuple[int, ...] = ()) -> HandState:
    """The hand as ``seat`` sees it, with every unseen card dealt at random.

    Seats that hold a build, or have proven a value by building for a partner,
    are first given a card of that value when one is unseen. ``avoid``: for each
    seat, cards it probably does not hold (``passed_up``); it gets other unseen cards
    first, and those only when too few others are left. With nothing left in the
    stock and one other hand holding cards, the result is the true position.
    """
    seen = seen_by(state, seat)
    unseen = [i for i in range(engine.n_cards) if not seen >> i & 1]
    shuffle(rng, unseen)     # as rng.shuffle(unseen), compiled
    hands = list(state.hands)
    for other in range(state.players):
        if other == seat:
            continue
        size = popcount(state.hands[other])
        hand = 0
        count = 0
        needed = {b.value for b in state.builds if b.holder == other}
        if state.proven:
            needed |= state.proven[other]
        for value in sorted(needed, key=str):
            if count >= size or value in engine.captured_values(hand):
                continue
            for k, i in enumerate(unseen):
                if value in engine.captured_values(1 << i):
                    hand |= 1 << unseen.pop(k)
                    count += 1
                    break
        unlikely = avoid[other] if other < len(avoid) else 0
        if unlikely:
            k = len(unseen) - 1
            while count < size and k >= 0:
                if not unlikely >> unseen[k] & 1:
                    hand |= 1 << unseen.pop(k)
                    count += 1
                k -= 1
        for _ in range(size - count):
            hand |= 1 << unseen.pop()
        hands[other] = hand
    return state.with_(hands=tuple(hands), stock=tuple(unseen))
