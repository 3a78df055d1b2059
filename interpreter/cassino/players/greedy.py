"""The greedy player: the move with the best immediate gain (``gain.move_gain``),
ties broken at random."""

from __future__ import annotations

from ..engine.game import Game
from ..engine.moves import Move
from .base import Bot
from .gain import gains, move_gain, ties_at_best


class GreedyBot(Bot):
    name = "greedy"

    def __init__(self, seed: int = 0) -> None:
        self.reseed(seed)   # the generator is made when first drawn from

    def score(self, game: Game, move: Move) -> float:
        return move_gain(self.worth(game), game.hand, move)

    def choose(self, game: Game, seat: int) -> Move:
        """The best-rated move; among equally rated ones, the one whose random draw is highest.

        One number is drawn for every legal move, in order (so a seeded game is the
        same whatever the ratings); when one move is best alone, the draws are skipped
        rather than made.
        """
        moves = game.playable_moves()
        tied = ties_at_best(gains(self.worth(game), game.hand, moves))
        if len(tied) == 1:
            self.skip_draws(len(moves))
            return moves[tied[0]]
        rng = self.rng
        draws = [rng.random() for _ in moves]
        return moves[max(tied, key=draws.__getitem__)]
