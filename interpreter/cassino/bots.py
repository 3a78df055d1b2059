"""Computer players, generic through the engine's API: they read the variant's scoring
items to know what cards are worth, and never look at hidden cards.

- ``random``: a uniformly random legal move.
- ``greedy``: the best immediate gain in points and cards.
- ``search``: single-observer information-set Monte Carlo tree search: each iteration
  deals the cards this seat cannot see at random (a determinization), walks a tree of
  moves shared by all determinizations (UCB1 over the moves available in that deal),
  plays the hand out at random, and backs up the point difference. The move visited
  most is played. Budget: iterations, or seconds.
"""

from __future__ import annotations

import math
import random
import time
from dataclasses import dataclass, field

from .engine import Engine, bits
from .game import Game
from .moves import Move, MoveKind
from .scoring import Scorer
from .state import HandState


class Bot:
    name = "bot"
    rng: random.Random

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


class GreedyBot(Bot):
    name = "greedy"

    def __init__(self, seed: int = 0) -> None:
        self.rng = random.Random(seed)
        self._worth: dict[int, CardWorth] = {}

    def worth(self, game: Game) -> CardWorth:
        key = id(game.engine)
        if key not in self._worth:
            self._worth[key] = CardWorth(game.engine, game.scorer)
        return self._worth[key]

    def score(self, game: Game, move: Move) -> float:
        return move_gain(self.worth(game), game.hand, move)

    def choose(self, game: Game, seat: int) -> Move:
        moves = game.legal_moves()
        scored = [(self.score(game, m), self.rng.random(), m) for m in moves]
        return max(scored, key=lambda t: (t[0], t[1]))[2]


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


@dataclass
class _Node:
    visits: int = 0
    reward: float = 0.0
    available: int = 0
    bias: float = 0.0       # the greedy gain of the move into this node, scaled
    children: dict[Move, "_Node"] = field(default_factory=dict)


class SearchBot(Bot):
    name = "search"

    def __init__(self, seed: int = 0, iterations: int = 300, seconds: float | None = None,
                 exploration: float = 0.7) -> None:
        self.rng = random.Random(seed)
        self.iterations = iterations
        self.seconds = seconds
        self.c = exploration
        self._cached: tuple[Engine, CardWorth] | None = None

    def determinize(self, engine: Engine, state: HandState, seat: int) -> HandState:
        """The hand as ``seat`` sees it, with every unseen card dealt at random."""
        seen = state.hands[seat] | state.table
        for b in state.builds:
            seen |= b.cards
        for pile in state.piles:
            seen |= pile
        unseen = [i for i in range(engine.n_cards) if not seen >> i & 1]
        self.rng.shuffle(unseen)
        hands = list(state.hands)
        k = 0
        for other in range(state.players):
            if other == seat:
                continue
            size = bin(state.hands[other]).count("1")
            hands[other] = sum(1 << i for i in unseen[k:k + size])
            k += size
        return state.with_(hands=tuple(hands), stock=tuple(unseen[k:]))

    def _reward(self, game: Game, end: HandState) -> dict[int, float]:
        """Each side's lead at the end of the playout: half the points the rules give, half
        the expected worth of the cards taken (smoother, so fewer playouts tell moves apart)."""
        points, _ = game.scorer.hand_points(end, dict(enumerate(game.scores)), game.restrictions_on)
        worth = self._worth(game)
        value = {s: 0.5 * points[s] + 0.5 * (worth.of(end.side_pile(s)) + worth.sweep_points * sum(
                 1 for w in end.sweeps if not w.cancelled and end.teams[w.seat] == s)) for s in points}
        scale = max(sum(value.values()), 1.0)
        return {s: (value[s] - max(value[o] for o in value if o != s)) / scale if len(value) > 1 else 0.0
                for s in value}

    def choose(self, game: Game, seat: int) -> Move:
        engine = game.engine
        moves = game.legal_moves()
        if len(moves) == 1:
            return moves[0]
        root = _Node()
        deadline = time.perf_counter() + self.seconds if self.seconds else None
        it = 0
        while (it < self.iterations) if deadline is None else (time.perf_counter() < deadline):
            it += 1
            state = self.determinize(engine, game.hand, seat)
            node, path = root, []
            while not state.over:
                legal = engine.legal_moves(state)
                for m in legal:
                    child = node.children.get(m)
                    if child is not None:
                        child.available += 1
                untried = [m for m in legal if m not in node.children]
                mover = state.teams[state.turn]
                if untried:
                    worth = self._worth(game)
                    m = max(untried, key=lambda mv: move_gain(worth, state, mv) + 0.01 * self.rng.random())
                    child = node.children[m] = _Node(available=1, bias=move_gain(worth, state, m) / 4)
                    state = engine.apply(state, m)
                    path.append((child, mover))
                    break
                m = max(legal, key=lambda mv: self._ucb(node.children[mv]))
                node = node.children[m]
                state = engine.apply(state, m)
                path.append((node, mover))
            worth = self._worth(game)
            while not state.over:
                legal = engine.legal_moves(state)
                if self.rng.random() < 0.15:
                    m = self.rng.choice(legal)
                else:
                    m = max(legal, key=lambda mv: move_gain(worth, state, mv) + 0.01 * self.rng.random())
                state = engine.apply(state, m)
            reward = self._reward(game, state)
            for child, side in path:
                child.visits += 1
                child.reward += reward.get(side, 0.0)
        return max(moves, key=lambda m: (root.children[m].visits if m in root.children else -1))

    def _worth(self, game: Game) -> CardWorth:
        if self._cached is None or self._cached[0] is not game.engine:
            self._cached = (game.engine, CardWorth(game.engine, game.scorer))
        return self._cached[1]

    def _ucb(self, node: _Node) -> float:
        if node.visits == 0:
            return math.inf
        return (node.reward / node.visits + node.bias / (node.visits + 1)
                + self.c * math.sqrt(math.log(max(node.available, 1)) / node.visits))


BOTS = {"random": RandomBot, "greedy": GreedyBot, "search": SearchBot}


def make_bot(name: str, seed: int = 0) -> Bot:
    """``random``, ``greedy``, ``search`` or ``search:ITERATIONS``."""
    base, _, arg = name.partition(":")
    if base not in BOTS:
        from .errors import CassinoError

        raise CassinoError(f"no computer player named {name!r}; choose from {', '.join(BOTS)} (search:N sets iterations)")
    if base == "search" and arg:
        return SearchBot(seed, iterations=int(arg))
    return BOTS[base](seed)
