"""The search player: determinized Monte Carlo search (a rollout search).

The unseen cards are dealt at random many times, consistent with what the seat
knows; each candidate move is played out in every such deal, and the move whose
side gains most on average is played. Budget: iterations, or seconds.
"""

from __future__ import annotations

import math
import random
import time

from ..engine.core import Engine
from ..engine.game import Game
from ..engine.moves import Move
from ..engine.state import HandState
from .base import Bot, CardWorth, move_gain


class SearchBot(Bot):
    """Determinized Monte Carlo search with greedy playouts (a rollout search).

    Each iteration deals the cards this seat cannot see at random, consistent with
    what it knows (a build's holder keeps a card that captures it), and then plays
    every candidate move in that same deal, continuing with the greedy policy for
    every player to the end of the current deal (or of the hand). A candidate's
    score is the lead its side gains over that stretch, in points: the scoring
    items' worth of the cards and sweeps won, or the real points when the hand
    ends inside the playout. The same deals are used for every candidate, so the
    comparison is between moves, not between lucky and unlucky deals. Budget:
    ``iterations`` deals, or ``seconds`` per decision.
    """

    name = "search"

    def __init__(self, seed: int = 0, iterations: int = 64, seconds: float | None = None,
                 width: int = 10, horizon: str = "deal") -> None:
        self.rng = random.Random(seed)
        self.iterations = iterations
        self.seconds = seconds
        self.width = width
        self.horizon = horizon

    # ---------------------------------------------------------------- knowledge
    def determinize(self, engine: Engine, state: HandState, seat: int) -> HandState:
        """The hand as ``seat`` sees it, with every unseen card dealt at random.

        Seats that hold a build, or have proven a value by building for a partner,
        are first given a card of that value when one is unseen.
        """
        seen = state.hands[seat] | state.table
        for b in state.builds:
            seen |= b.cards
        for pile in state.piles:
            seen |= pile
        unseen = [i for i in range(engine.n_cards) if not seen >> i & 1]
        self.rng.shuffle(unseen)
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

    # ---------------------------------------------------------------- playouts
    def _greedy(self, engine: Engine, worth: CardWorth, state: HandState) -> Move:
        legal = engine.legal_moves(state)
        if len(legal) == 1:
            return legal[0]
        return max(legal, key=lambda mv: move_gain(worth, state, mv))

    def _lead(self, game: Game, worth: CardWorth, before: HandState, after: HandState, side: int) -> float:
        """What ``side`` gained over the other sides between two states, in points."""
        if after.over:
            points, _ = game.scorer.hand_points(after, dict(enumerate(game.scores)), game.restrictions_on)
            value = {s: float(points[s]) for s in points}
        else:
            value = {}
            for s in after.sides:
                won = after.side_pile(s) & ~before.side_pile(s)
                sweeps = sum(1 for w in after.sweeps[len(before.sweeps):]
                             if not w.cancelled and after.teams[w.seat] == s)
                value[s] = worth.of(won) + worth.sweep_points * sweeps
        others = [value[o] for o in value if o != side]
        return value.get(side, 0.0) - (max(others) if others else 0.0)

    def _playout(self, game: Game, worth: CardWorth, state: HandState, move: Move) -> HandState:
        engine = game.engine
        deal = state.deal_no
        state = engine.apply(state, move)
        while not state.over and (self.horizon == "hand" or state.deal_no == deal):
            state = engine.apply(state, self._greedy(engine, worth, state))
        return state

    def candidates(self, game: Game, moves: list[Move]) -> list[Move]:
        """The ``width`` moves the greedy player rates best (the rest are rarely better)."""
        worth = self.worth(game)
        ranked = sorted(moves, key=lambda m: -move_gain(worth, game.hand, m))
        return ranked[:self.width]

    def choose(self, game: Game, seat: int) -> Move:
        moves = game.legal_moves()
        if len(moves) == 1:
            return moves[0]
        worth = self.worth(game)
        side = game.hand.teams[seat]
        alive = self.candidates(game, moves)
        rewards: dict[Move, list[float]] = {m: [] for m in alive}
        deadline = time.perf_counter() + self.seconds if self.seconds else None
        done = 0
        while len(alive) > 1 and ((done < self.iterations) if deadline is None
                                  else (done < 1 or time.perf_counter() < deadline)):
            state = self.determinize(game.engine, game.hand, seat)
            for m in alive:
                rewards[m].append(self._lead(game, worth, state, self._playout(game, worth, state, m), side))
            done += 1
            if done >= 8 and done & (done - 1) == 0:   # at 8, 16, 32, ... deals
                alive = _survivors(alive, rewards)
        return max(alive, key=lambda m: sum(rewards[m]))


def _survivors(alive: list[Move], rewards: dict[Move, list[float]], z: float = 2.5) -> list[Move]:
    """The candidates not clearly worse than the best so far.

    All candidates were played out in the same deals, so each is compared with the
    best by the per-deal differences: dropped when the mean difference is below zero
    by more than ``z`` standard errors. Order is kept (the greedy order breaks ties).
    """
    best = max(alive, key=lambda m: sum(rewards[m]))
    keep = []
    for m in alive:
        diffs = [a - b for a, b in zip(rewards[m], rewards[best])]
        n = len(diffs)
        mean = sum(diffs) / n
        var = sum((d - mean) ** 2 for d in diffs) / (n - 1)
        if m is best or mean >= 0 or (var > 0 and mean + z * math.sqrt(var / n) >= 0):
            keep.append(m)
    return keep
