"""What every computer player shares: the ``Bot`` interface, the random player, and
what cards are worth in a variant (read from its own scoring items, so no variant
is special-cased).

``CardWorth`` and ``move_gain`` are the one value heuristic the greedy player, the
search's candidate ordering and the solver's move ordering all use.
"""

from __future__ import annotations

import random

from ..engine.core import Engine, bits
from ..engine.game import Game
from ..engine.moves import Move, MoveKind
from ..engine.scoring import Scorer
from ..engine.state import HandState


class Bot:
    name = "bot"
    rng: random.Random
    _cached: tuple[Engine, CardWorth] | None = None

    def worth(self, game: Game) -> CardWorth:
        """What each card is worth in ``game``'s variant (worked out once per engine)."""
        if self._cached is None or self._cached[0] is not game.engine:
            self._cached = (game.engine, CardWorth(game.engine, game.scorer))
        return self._cached[1]

    def reseed(self, seed: int) -> None:
        """Make the next decision depend only on ``seed`` (so a resumed game plays on identically)."""
        self.rng = random.Random(seed)

    def choose(self, game: Game, seat: int) -> Move:
        raise NotImplementedError

    def wants_to_claim(self, game: Game, seat: int) -> bool:
        """Claim exactly when the points secured reach the target (a bot never bluffs)."""
        if not game.rules.game.claiming or game.target is None:
            return False
        side = game.side_of(seat)
        return game.scores[side] + game.running_points().get(side, 0) >= game.target


class RandomBot(Bot):
    name = "random"

    def __init__(self, seed: int = 0) -> None:
        self.rng = random.Random(seed)

    def choose(self, game: Game, seat: int) -> Move:
        return self.rng.choice(game.legal_moves())


class CardWorth:
    """What each card is worth to the side that takes it, from the variant's scoring items."""

    def __init__(self, engine: Engine, scorer: Scorer) -> None:
        n = engine.n_cards
        worth = [0.02] * n  # every card counts a little towards "most cards"-like items
        sweep_points = 0.0
        for item in engine.rules.scoring.items:
            if item.count in ("each", "most"):
                mask = scorer.masks[item.name]
                members = bits(mask)
                if not members:
                    continue
                share = item.points if item.count == "each" else item.points / max(len(members) / 2, 1)
                for i in members:
                    worth[i] += share
            elif item.count == "sweeps":
                sweep_points = max([item.points] + [r.points for r in item.by_size])
        self.worth = worth
        self.sweep_points = sweep_points

    def of(self, mask: int) -> float:
        return sum(self.worth[i] for i in bits(mask))


def move_gain(w: CardWorth, state: HandState, move: Move) -> float:
    """The immediate gain of a move for the player making it, in points (roughly)."""
    build_cards = {b.cards for b in state.builds}
    used = move.loose
    for b in move.builds:
        if b in build_cards:
            used |= b
    if move.kind is MoveKind.CAPTURE:
        gain = w.of(used | move.played) + 0.05 * bin(used).count("1")
        remaining = (state.table & ~move.loose) or any(b not in move.builds for b in build_cards)
        if not remaining:
            gain += w.sweep_points + 0.3
        return gain
    if move.kind in (MoveKind.BUILD, MoveKind.TRAIL_BUILD):
        return 0.4 * w.of(used | move.played) - 0.1
    return -0.5 * w.of(move.played) - 0.2
