"""What a seat knows about the cards it cannot see, and deals consistent with it.

A seat sees its own hand, the table, the builds and every capture pile; the other
hands and the stock are hidden. What it can still infer from the public state: a
seat that holds a build keeps a card that captures it, and a seat that built for
its partner's card has proven it holds that value. A determinization deals the
hidden cards at random within those constraints; the search plays in many of them.
"""

from __future__ import annotations

import random

from ..engine.core import Engine
from ..engine.state import HandState
from .draws import shuffle


def seen_by(state: HandState, seat: int) -> int:
    """The cards ``seat`` can see: its hand, the table, the builds and the capture piles."""
    seen = state.hands[seat] | state.table
    for b in state.builds:
        seen |= b.cards
    for pile in state.piles:
        seen |= pile
    return seen


def determinize(engine: Engine, state: HandState, seat: int, rng: random.Random) -> HandState:
    """The hand as ``seat`` sees it, with every unseen card dealt at random.

    Seats that hold a build, or have proven a value by building for a partner,
    are first given a card of that value when one is unseen. With nothing left in
    the stock and one other hand holding cards, the result is the true position.
    """
    seen = seen_by(state, seat)
    unseen = [i for i in range(engine.n_cards) if not seen >> i & 1]
    shuffle(rng, unseen)     # as rng.shuffle(unseen), compiled
    hands = list(state.hands)
    for other in range(state.players):
        if other == seat:
            continue
        size = bin(state.hands[other]).count("1")
        hand = 0
        needed = {b.value for b in state.builds if b.holder == other}
        if state.proven:
            needed |= state.proven[other]
        for value in sorted(needed, key=str):
            if bin(hand).count("1") >= size or value in engine.captured_values(hand):
                continue
            for k, i in enumerate(unseen):
                if value in engine.captured_values(1 << i):
                    hand |= 1 << unseen.pop(k)
                    break
        while bin(hand).count("1") < size:
            hand |= 1 << unseen.pop()
        hands[other] = hand
    return state.with_(hands=tuple(hands), stock=tuple(unseen))
