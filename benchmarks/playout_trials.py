"""Ideas for the search that were measured and not kept: each a ``SearchBot`` whose
sampled deals are valued another way (``SearchBot.sampled_values``), so a result can be
reproduced with ``benchmarks/sparring.py``:

    python benchmarks/sparring.py --a trial:counter:64 --b search --pairs 200

Names: ``trial:IDEA:N``, N deals a move; IDEA one of

- ``counter``: playouts by the counting heuristic (each move less the next hand's best
  reply, plus 0.8 of our builds that survive it), the reply read from the sampled deal;
- ``guarded``: playouts by the greedy rating less the next hand's best reply;
- ``nobuild``: greedy playouts that never build unless they must (the Rust engine's greedy);
- ``builder``: greedy playouts that rate builds at 0.7 of their cards' worth, not 0.4;
- ``beyond``: greedy playouts carried two plies into the next deal (what the table left is worth);
- ``dealexact``: with at most 4 cards in the hands, best play by every seat to the end of
  the deal in each sampled deal (alpha-beta, valued as a playout is), not a playout;
- ``softmax``: playouts that choose each move at random, weighted by exp(gain / 0.3) (the
  greedy rating, softened: a deterministic playout repeats one line's bias in every deal),
  with the same draws for every candidate of a deal (common random numbers kept);
- ``tablelead``: a playout that ends with cards on the table credits the first player of the
  next deal with ``2 * FIRST_SHOT - 1`` of their worth (that player went on to win 57% of them
  over 100 hands of search self-play, 58% over 300 of greedy self-play: at each deal's start,
  which side ended the hand with each card on the table);
- ``oracle``: not a player but a yardstick: the search dealing every other hand as it really is
  (only the stock's order drawn), what reading the others' moves could at best give;
- ``resampled``: the others' moves read as the review reads them: each deal drawn from 8 in
  proportion to its weight (``inference.weighted_deal``), the deals then counted alike, where the
  search weighs its deals (importance weighting); level with it, and slower.

What they scored, 200 mirrored pairs of 2-player standard hands against the search of their day
(64 deals, its deals not weighed by the others' moves: ``plain:64``; each trial deals as it does),
seed 1, compiled engine: ``SEARCH_TRIALS`` below. None was better; more deals were not either
(``search:256`` against ``search``, then: +0.05 ± 0.28). What was: the deals weighed by the others'
moves (``players.inference``), now the search's default.

Ideas tried later on the search of their day (its defaults: deals weighed by the others' moves, more
deals for a close choice; its playouts greedy, as before the fitted playout policy), ``today:IDEA``,
IDEA one of

- ``lastdeal``: a playout that ends where the hand's last deal starts (whose hands the sampled
  deal has dealt) is valued by 0.44 of the outlook and 0.56 of that deal played out by the
  counting heuristic, its replies read from those hands (``LAST_DEAL_BLEND``: the weights that
  best predicted the exact value of last-deal starts of search self-play,
  ``benchmarks/last_deal_values.py``);
- ``lastgreedy``: such a playout carried on greedily to the end of the hand instead;
- ``resampled``: each deal drawn from 8 in proportion to its weight, as ``resampled`` above.

What they scored against that search: ``TODAY_TRIALS`` below.
"""

from __future__ import annotations

import math
import random

from cassino.engine.core import Engine
from cassino.engine.game import Game
from cassino.engine.moves import Move, MoveKind
from cassino.engine.state import HandState
from cassino.players.counter import known_reply_move
from cassino.players.gain import CardWorth, gains, greedy_move, greedy_playout
from cassino.players.draws import shuffle
from cassino.players.inference import Evidence, weighted_deal
from cassino.players.search import SearchBot

SEARCH_TRIALS = {
    # idea: (points a pair against plain:64 ± standard error, ms a move trial / search, under load)
    "counter:24": ("-0.84 ± 0.37", "9.6 / 7.0"),
    "counter:64": ("-0.47 ± 0.36", "12.4 / 4.9"),
    "guarded:64": ("-0.38 ± 0.32", "20.5 / 8.4"),
    "nobuild:64": ("-1.11 ± 0.36", "8.2 / 6.6 (pure-Python playouts)"),
    "builder:64": ("-0.03 ± 0.18", "9.6 / 7.4 (pure-Python playouts)"),
    "beyond:64": ("-0.45 ± 0.33", "11.8 / 7.9"),
    "dealexact:64": ("-0.14 ± 0.13", "10.8 / 8.9"),
    "softmax:64": ("-0.30 ± 0.32", "19.2 / 16.6 (two workers on two cores)"),
    "tablelead:64": ("-0.14 ± 0.13", "4.0 / 3.8 (beside another benchmark)"),
    "oracle:64": ("+4.78 ± 0.28 (400 pairs)", "1.3 / 1.9"),
    "resampled:64": ("+0.36 ± 0.14 (1,000 pairs, --first 3000; search: +0.46 ± 0.12)", "2.9 / 1.8"),
}


#: Ideas tried on the search of their day, against it (``today:IDEA``; ``python benchmarks/sparring.py --a
#: today:IDEA --b search --pairs 2000 --first 20000``, compiled engine, two workers; that search is
#: ``custom:64:playouts=greedy`` since the fitted playout policy).
TODAY_TRIALS = {
    # idea: (points a pair ± standard error, ms a move trial / search)
    "lastdeal": ("-0.01 ± 0.04 (2,000 pairs)", "8.00 / 2.48"),
    "lastgreedy": ("-0.09 ± 0.04 (3,000 pairs)", "4.43 / 2.74 (a package install ran beside it for a minute)"),
    "resampled": ("-0.17 ± 0.08 (2,000 pairs)", "5.72 / 3.37"),
}

#: ``today:lastdeal``'s weight of the last deal played out, against the outlook's value of its start.
LAST_DEAL_BLEND = 0.56


def guarded_move(engine: Engine, worth: CardWorth, state: HandState, guarded: bool) -> Move:
    """The move rated best less the best reply the next hand (known in a sampled deal) has:
    rated by what it takes at once plus surviving builds (the counter), or by the greedy rating
    with no builds counted (``guarded``)."""
    if not guarded:
        return known_reply_move(engine, worth, state)
    moves = engine.playable_moves(state)
    own = gains(worth, state, moves) if len(moves) > 1 else None
    return known_reply_move(engine, worth, state, own, kept=0.0)


def rated_move(engine: Engine, worth: CardWorth, state: HandState, build_bonus: float | None) -> Move:
    """The greedy move with builds rated otherwise: never (``None``, unless nothing else is
    legal) or ``build_bonus`` times their cards' worth more."""
    moves = engine.playable_moves(state)
    values = gains(worth, state, moves)
    best_i, best_v = 0, -math.inf
    for i, m in enumerate(moves):
        v = values[i]
        if m.kind is MoveKind.BUILD or m.kind is MoveKind.TRAIL_BUILD:
            v += -100.0 if build_bonus is None else build_bonus * worth.of(m.loose | m.played)
        if v > best_v:
            best_i, best_v = i, v
    return moves[best_i]


def softmax_move(engine: Engine, worth: CardWorth, state: HandState, draws: random.Random,
                 temperature: float = 0.3) -> Move:
    """A move drawn at random, weighted by exp(gain / temperature) (the greedy rating softened)."""
    moves = engine.playable_moves(state)
    if len(moves) == 1:
        return moves[0]
    values = gains(worth, state, moves)
    top = max(values)
    weights = [math.exp((v - top) / temperature) for v in values]
    return draws.choices(moves, weights)[0]


#: The share of the cards left on the table at a deal's end that the first player of the next deal
#: goes on to win (standard, 2 players, greedy self-play: 0.58; search self-play: 0.57).
FIRST_SHOT = 0.57


class TrialBot(SearchBot):
    """The search of their day with its sampled deals valued as ``idea`` says (module docstring)."""

    def __init__(self, seed: int, idea: str, iterations: int) -> None:
        if idea not in ("counter", "guarded", "nobuild", "builder", "beyond", "dealexact", "softmax", "tablelead",
                        "oracle", "resampled"):
            raise ValueError(f"no trial named {idea!r}")
        # as they were measured: plain deals, greedy playouts
        super().__init__(seed, iterations=iterations, infer="off", close=0, playouts="greedy")
        self.idea = idea
        self._draws = seed * 1_000_003     # the softmax playouts' draws: one seed a sampled deal
        self._seen: Evidence | None = None

    def choose(self, game: Game, seat: int) -> Move:
        self._seen = self.evidence(game, seat) if self.idea == "resampled" else None
        return super().choose(game, seat)

    def determinize(self, engine: Engine, state: HandState, seat: int, avoid: tuple[int, ...] = ()) -> HandState:
        if self.idea == "resampled":
            return weighted_deal(engine, state, seat, self.rng, self._seen, avoid)
        if self.idea != "oracle":
            return super().determinize(engine, state, seat, avoid)
        stock = list(state.stock)
        shuffle(self.rng, stock)
        return state.with_(stock=tuple(stock))

    def _lead(self, game: Game, worth: CardWorth, before: HandState, after: HandState, side: int) -> float:
        lead = super()._lead(game, worth, before, after, side)
        if self.idea != "tablelead" or after.over or len(after.sides) != 2:
            return lead
        table = after.table
        for b in after.builds:
            table |= b.cards
        edge = (2 * FIRST_SHOT - 1) * worth.of(table)
        return lead + (edge if after.teams[after.turn] == side else -edge)

    def _play_out(self, engine: Engine, worth: CardWorth, state: HandState, move: Move) -> HandState:
        idea = self.idea
        if idea == "beyond":
            after = greedy_playout(engine, worth, state, move, False)
            for _ in range(2):
                if not after.over:
                    after = engine.apply(after, greedy_move(engine, worth, after))
            return after
        deal = state.deal_no
        state = engine.apply(state, move)
        draws = random.Random(self._draws) if idea == "softmax" else None
        while not state.over and state.deal_no == deal:
            if draws is not None:
                m = softmax_move(engine, worth, state, draws)
            elif idea in ("counter", "guarded"):
                m = guarded_move(engine, worth, state, idea == "guarded")
            else:
                m = rated_move(engine, worth, state, None if idea == "nobuild" else 0.3)
            state = engine.apply(state, m)
        return state

    def _deal_value(self, game: Game, worth: CardWorth, root: HandState, state: HandState, side: int,
                    alpha: float, beta: float) -> float:
        """Best play by every seat to the end of ``root``'s deal, valued as a playout is."""
        if state.over or state.deal_no != root.deal_no:
            return self._lead(game, worth, root, state, side)
        engine = game.engine
        moves = engine.playable_moves(state)
        if len(moves) > 1:
            values = gains(worth, state, moves)
            moves = [moves[i] for i in sorted(range(len(moves)), key=lambda i: -values[i])]
        maximizing = state.teams[state.turn] == side
        best = -math.inf if maximizing else math.inf
        for m in moves:
            v = self._deal_value(game, worth, root, engine.apply(state, m), side, alpha, beta)
            if maximizing and v > best:
                best, alpha = v, max(alpha, v)
            elif not maximizing and v < best:
                best, beta = v, min(beta, v)
            if alpha >= beta:
                break
        return best

    def sampled_values(self, game: Game, worth: CardWorth, state: HandState, side: int, alive: list[Move],
                       whole_hand: bool) -> list[float]:
        engine = game.engine
        if self.idea == "tablelead":   # greedy playouts, each valued by this class's _lead (not the compiled values)
            return [self._lead(game, worth, state, greedy_playout(engine, worth, state, m, whole_hand), side)
                    for m in alive]
        if self.idea in ("oracle", "resampled"):   # greedy playouts, as the search's
            return super().sampled_values(game, worth, state, side, alive, whole_hand)
        if self.idea == "dealexact" and sum(h.bit_count() for h in state.hands) <= 4:
            return [self._deal_value(game, worth, state, engine.apply(state, m), side, -math.inf, math.inf)
                    for m in alive]
        if self.idea == "dealexact":
            return super().sampled_values(game, worth, state, side, alive, whole_hand)
        self._draws += 1      # a new sampled deal: new draws, the same for each of its candidates
        return [self._lead(game, worth, state, self._play_out(engine, worth, state, m), side) for m in alive]


class TodayTrialBot(SearchBot):
    """The search of their day (every default kept, its playouts greedy: ``playouts="greedy"``, as
    before the fitted playout policy) with one idea of ``TODAY_TRIALS`` (module docstring)."""

    IDEAS = ("lastdeal", "lastgreedy", "resampled")

    def __init__(self, seed: int, idea: str) -> None:
        if idea not in self.IDEAS:
            raise ValueError(f"no trial on today's search named {idea!r} (one of {', '.join(self.IDEAS)})")
        super().__init__(seed, playouts="greedy")
        self.idea = idea
        self._seen: Evidence | None = None

    def choose(self, game: Game, seat: int) -> Move:
        # resampled: the others' moves are read once here, to draw the deals by; the search itself
        # then weighs nothing (``evidence`` below).
        self._seen = super().evidence(game, seat) if self.idea == "resampled" else None
        return super().choose(game, seat)

    def evidence(self, game: Game, seat: int) -> Evidence | None:
        return None if self.idea == "resampled" else super().evidence(game, seat)

    def determinize(self, engine: Engine, state: HandState, seat: int, avoid: tuple[int, ...] = ()) -> HandState:
        if self.idea == "resampled":
            return weighted_deal(engine, state, seat, self.rng, self._seen, avoid)
        return super().determinize(engine, state, seat, avoid)

    def sampled_values(self, game: Game, worth: CardWorth, state: HandState, side: int, alive: list[Move],
                       whole_hand: bool) -> list[float]:
        if self.idea == "resampled":
            return super().sampled_values(game, worth, state, side, alive, whole_hand)
        engine = game.engine
        outlook = self.outlook(game)
        scores = dict(enumerate(game.scores))
        sign = -1.0 if game.rules.game.goal == "lowest" else 1.0
        blend, counter = (LAST_DEAL_BLEND, True) if self.idea == "lastdeal" else (1.0, False)
        values = []
        for m in alive:
            end = greedy_playout(engine, worth, state, m, whole_hand)
            value = outlook.lead(end, side, scores, game.restrictions_on, sign)
            if not end.over and not end.stock and end.deal_no != state.deal_no:   # the last deal's start
                last = played_out(engine, worth, end, counter)
                value = (1.0 - blend) * value + blend * outlook.lead(last, side, scores, game.restrictions_on, sign)
            values.append(value)
        return values


def played_out(engine: Engine, worth: CardWorth, state: HandState, counter: bool) -> HandState:
    """``state`` played to the end of the hand by every seat's greedy move, or counting move
    (``counter.known_reply_move``: each move less the best reply the next hand, known, has)."""
    while not state.over:
        state = engine.apply(state, known_reply_move(engine, worth, state) if counter
                             else greedy_move(engine, worth, state))
    return state
