"""What every computer player shares: the ``Bot`` interface, the random player, and
what cards are worth in a variant (read from its own scoring items, so no variant
is special-cased).

``CardWorth`` and ``move_gain`` (module ``gain``, compiled with the engine) are the
one value heuristic the greedy player, the search's candidate ordering and playouts,
and the solver's move ordering all use.
"""

from __future__ import annotations

import random

from ..engine.core import Engine
from ..engine.game import Game
from ..engine.moves import Move
from .gain import CardWorth, move_gain

__all__ = ["Bot", "CardWorth", "RandomBot", "move_gain"]


class Bot:
    """A computer player: ``choose`` a legal move for the seat to move.

    ``rng`` is the player's random source. ``reseed`` only notes the seed: the
    generator is made when a decision first draws from it (seeding a Mersenne Twister
    costs more than a greedy decision), and draws a decision skips without looking at
    them (``skip_draws``) are made up first, so the numbers drawn are the same as if
    the generator had been made at once and every draw taken.
    """

    name = "bot"
    _rng: random.Random | None = None
    _seed: int = 0
    _skipped: int = 0
    _cached: tuple[Engine, CardWorth] | None = None

    @property
    def rng(self) -> random.Random:
        if self._rng is None:
            rng = random.Random(self._seed)
            if self._skipped:
                rng.getrandbits(64 * self._skipped)   # exactly what that many random() calls consume
            self._rng = rng
        return self._rng

    @rng.setter
    def rng(self, value: random.Random) -> None:
        self._rng = value
        self._skipped = 0

    def skip_draws(self, n: int) -> None:
        """Move the random source on by ``n`` calls of ``random()`` whose numbers are not needed."""
        if n <= 0:
            return
        if self._rng is None:
            self._skipped += n
        else:
            self._rng.getrandbits(64 * n)

    def worth(self, game: Game) -> CardWorth:
        """What each card is worth in ``game``'s variant (worked out once per engine)."""
        if self._cached is None or self._cached[0] is not game.engine:
            self._cached = (game.engine, CardWorth(game.engine, game.scorer))
        return self._cached[1]

    def reseed(self, seed: int) -> None:
        """Make the next decision depend only on ``seed`` (so a resumed game plays on identically)."""
        self._rng = None
        self._seed = seed
        self._skipped = 0

    def choose(self, game: Game, seat: int) -> Move:
        raise NotImplementedError

    def wants_to_claim(self, game: Game, seat: int) -> bool:
        """Claim exactly when the points secured reach the target (a bot never bluffs)."""
        return claim_wins(game, seat)


def claim_wins(game: Game, seat: int) -> bool:
    """Whether a claim by ``seat`` would win now: the game has claiming and the seat's side, counting this hand's
    points so far, has reached the target (what every computer player claims on, and what a hint says)."""
    if not game.rules.game.claiming or game.target is None or game.over:
        return False
    side = game.side_of(seat)
    return game.scores[side] + game.running_points().get(side, 0) >= game.target


class RandomBot(Bot):
    name = "random"

    def __init__(self, seed: int = 0) -> None:
        self.reseed(seed)   # the generator is made when first drawn from

    def choose(self, game: Game, seat: int) -> Move:
        return self.rng.choice(game.playable_moves())
