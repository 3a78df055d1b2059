"""The counting heuristic: a move's worth now, less what the next player's best reply
takes, plus what our builds keep, averaged over hands that player may hold.

This is how the best public Casino searcher (``abartnof/cassino``, its "counter")
ranks moves and plays its playouts, written over this engine so that it works in
every variant: for each move, on each of a few hands the next player may hold (dealt
from what the mover cannot see, as the search deals them), the reply that takes most
at once is found; a move is worth

    banked - exposed + KEPT * kept

``banked``: what it takes at once (the cards' worth, and a sweep); ``exposed``: what
that best reply takes, on average; ``kept``: the worth of the builds the mover holds
that the reply leaves alone, on average (a build is not won yet: discounted).
Unlike the greedy rating it sees that a trail can hand the next player a sweep, and
that a build the next player cannot take is worth most of what it will capture.
"""

from __future__ import annotations

import random

from ..engine.core import Engine
from ..engine.moves import Move, MoveKind
from ..engine.state import HandState
from .gain import CardWorth, best_index
from .knowledge import determinize

KEPT = 0.8
"""What a build that survives the reply is worth, as a share of its cards (the Rust
engine's measured discount: it may still be raised, and the card that takes it is spent)."""


def banked(worth: CardWorth, state: HandState, move: Move) -> float:
    """What ``move`` takes at once for its player: the worth of the cards it captures with
    the card played, and a sweep when it leaves nothing on the table (0 for other moves)."""
    if move.kind is not MoveKind.CAPTURE:
        return 0.0
    used = move.loose
    left_builds = False
    for b in state.builds:
        if b.cards in move.builds:
            used |= b.cards
        else:
            left_builds = True
    value = worth.of(used | move.played)
    if not left_builds and not (state.table & ~move.loose) and (move.loose & state.table or move.builds):
        value += worth.sweep_worth(state)
    return value


def best_reply(engine: Engine, worth: CardWorth, state: HandState) -> tuple[float, Move | None]:
    """The reply of the player to move in ``state`` that banks most at once, and what it banks
    (0 and None when no move banks anything)."""
    best = 0.0
    best_move: Move | None = None
    for r in engine.playable_moves(state):
        v = banked(worth, state, r)
        if v > best:
            best, best_move = v, r
    return best, best_move


def reply_hands(engine: Engine, state: HandState, seat: int, rng: random.Random, samples: int) -> list[int]:
    """``samples`` hands the player after ``seat`` may hold, dealt from what ``seat`` cannot see."""
    nxt = engine.next_seat(seat, state.players)
    if nxt == seat or not state.hands[nxt]:
        return []
    return [determinize(engine, state, seat, rng).hands[nxt] for _ in range(samples)]


def assess(engine: Engine, worth: CardWorth, state: HandState, moves: list[Move], hands: list[int]) -> list[float]:
    """Each move's counting value for the player to move (``hands``: the next player's
    possible hands, from ``reply_hands``; none: no reply is counted)."""
    seat = state.turn
    side = state.teams[seat]
    out = []
    for m in moves:
        value = banked(worth, state, m)
        after = engine.apply(state, m)
        if after.over or after.deal_no != state.deal_no:
            out.append(value)
            continue
        mine = [b for b in after.builds if after.teams[b.holder] == side]
        if not hands:
            out.append(value + KEPT * sum(worth.of(b.cards) for b in mine))
            continue
        nxt = after.turn
        same_side = after.teams[nxt] == side
        exposed = 0.0
        kept = 0.0
        for h in hands:
            hs = list(after.hands)
            hs[nxt] = h
            best, best_move = best_reply(engine, worth, after.with_(hands=tuple(hs)))
            exposed += best
            for b in mine:
                if best_move is None or b.cards not in best_move.builds:
                    kept += worth.of(b.cards)
        n = len(hands)
        exposed /= n
        kept /= n
        out.append(value + (exposed if same_side else -exposed) + KEPT * kept)
    return out


def counter_move(engine: Engine, worth: CardWorth, state: HandState, rng: random.Random, samples: int) -> Move:
    """The move the counting heuristic rates best (the first of equals), with ``samples``
    hands of the next player dealt from what the player to move cannot see."""
    moves = engine.playable_moves(state)
    if len(moves) == 1:
        return moves[0]
    return moves[best_index(assess(engine, worth, state, moves, reply_hands(engine, state, state.turn, rng, samples)))]


def known_reply_move(engine: Engine, worth: CardWorth, state: HandState, own: list[float] | None = None,
                     kept: float = KEPT) -> Move:
    """The counting heuristic's move where every hand is known (a sampled deal): each move
    less the best reply the next player's actual hand has, plus ``kept`` of our builds that
    survive it. ``own``: each move's own rating in place of what it banks (a trial's)."""
    moves = engine.playable_moves(state)
    if len(moves) == 1:
        return moves[0]
    side = state.teams[state.turn]
    values = []
    for i, m in enumerate(moves):
        value = own[i] if own is not None else banked(worth, state, m)
        after = engine.apply(state, m)
        if not after.over and after.deal_no == state.deal_no:
            top, top_move = best_reply(engine, worth, after)
            value += top if after.teams[after.turn] == side else -top
            for b in after.builds:
                if after.teams[b.holder] == side and (top_move is None or b.cards not in top_move.builds):
                    value += kept * worth.of(b.cards)
        values.append(value)
    return moves[best_index(values)]


def counter_playout(engine: Engine, worth: CardWorth, state: HandState, move: Move, whole_hand: bool) -> HandState:
    """``move`` played, then every player's ``known_reply_move`` to the end of the deal (or hand)."""
    deal = state.deal_no
    state = engine.apply(state, move)
    while not state.over and (whole_hand or state.deal_no == deal):
        state = engine.apply(state, known_reply_move(engine, worth, state))
    return state
