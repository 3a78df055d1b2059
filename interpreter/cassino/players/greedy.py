"""The greedy player: the move with the best immediate gain (``base.move_gain``)."""

from __future__ import annotations

import random

from ..engine.game import Game
from ..engine.moves import Move
from .base import Bot, move_gain


class GreedyBot(Bot):
    name = "greedy"

    def __init__(self, seed: int = 0) -> None:
        self.rng = random.Random(seed)

    def score(self, game: Game, move: Move) -> float:
        return move_gain(self.worth(game), game.hand, move)

    def choose(self, game: Game, seat: int) -> Move:
        moves = game.legal_moves()
        scored = [(self.score(game, m), self.rng.random(), m) for m in moves]
        return max(scored, key=lambda t: (t[0], t[1]))[2]
