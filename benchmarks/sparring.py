"""Two sparring partners that play as the best public searchers of the family do, and a match runner.

    python benchmarks/sparring.py --a search --b sparring --pairs 200
    python benchmarks/sparring.py --a search:0.003s --b sparring --pairs 200 --variant standard
    python benchmarks/sparring.py --a search:0.0006s --b esperto --pairs 1000 --variant scopa

The sparring partner (``sparring``; ``sparring:N`` for N sampled deals) plays as
``shared/ANCHORS.md`` describes the Rust engine ``abartnof/cassino``'s searcher, over
this engine: in the 2-player last deal (every card's place known) the exact solver's
move; before it, the moves ranked by the counting heuristic (``players.counter``: what
a move takes, less what the next player's best reply would take, plus what our
builds keep, over 24 hands that player may hold), the best 8 of them each played in
the same 32 sampled deals of the unseen cards, to the end of the deal, by the counting
heuristic for every seat (4 sampled hands a step) with the same draws for every
candidate, scored by the worth each side banked on the way; the best average wins.

The Scopa partner (``esperto``; ``esperto:N`` for N sampled deals) plays 2-player Scopa as
Esperto does, the strongest computer player of the public web app "Scopa AI" by V. Vovchenko
(https://github.com/vlvovch/scopa-ai: its Scopa decision code, ``src/games/scopa/ai/expert.ts``,
and rules, ``src/games/scopa/rules.ts``, read in December 2026 and described here in our own
words; none of its code is in this project). Esperto looks ahead in a model of the deal of its
own: the two hands and the table; a card takes an equal card (one of them, the player's choice)
or else any set of two or more cards adding up to it, or is trailed; a play that empties the table
counts a sweep; nothing is dealt within the look-ahead, so it stops where the hands run out. A
move:

- one legal move: played at once;
- the last deal (the stock empty: every unseen card is in the other hand): each move, in the
  order below, searched by minimax with alpha-beta cut-offs to the end of the deal, the best
  rated end position winning (the first of equals);
- before it: 6 deals of the other hand, drawn at random from the unseen cards; in each, every
  legal move searched by alpha-beta 3 plies deep (2 where more than 8 moves are legal), counting
  the move itself; each move's values added up over the deals, the best total winning (the first
  of equals in the order below);
- a leaf of the search (depth spent) is valued by the mean of its rating and the rating after up
  to 6 plays chosen at random among all legal plays (stopping where the hands run out); a position
  whose side to move has no card is rated as it stands;
- the moves at each node in this order: a capture that sweeps first, then captures by 80 for the
  sette bello, 20 a coin, the primiera points of every card (the card played included) and 6 a
  card; trails last (stable, so equals keep the order they were listed in: the hand's cards, and
  for each its captures, in the order a walk over the table finds them);
- the rating, for the player deciding, each term its side's less the other's: 120 a sweep, 18 a
  coin taken, 4 a card taken, 8 times the primiera (best card of each suit, whatever the number of
  suits) of the cards taken, 2 times that of the cards taken and held, 120 times a sette bello
  term (taken 1, held 0.7, on the table 0.3 to the player deciding; taken or held by the other
  -1, -0.7), 9 for the last capture, 6 for each of its cards in hand that can take something from
  the table and -9 for each of the other side's, and 5 to the side to move.

How faithful it is: a rendering in Python of the same search, checked (in /tmp, not kept) against
Esperto's own code run under node v20 on 289 positions of 12 seeded hands: with the leaf playouts
left out and the same 6 sampled hands given to both, the same move in 289 of 289; with the playouts
(random, so the moves vary from run to run), this partner's move agreed with Esperto's in 78.6% of
10 x 10 pairs of runs, and Esperto with itself in 78.1%. What is not reproduced: Esperto's 50 ms
deadline (it never binds at its time a move, under a millisecond); its random source (this partner
draws from the match's seeds, so it is the same for a seed); the order cards lie in its hand and on
its table (here lowest card first; it matters only between moves rated equal); its scoring of a
finished round in its rating, which its search never reaches (its model of a play never ends the
round). The partner takes 1.0-1.4 ms of CPU a move in Python, Esperto 0.6-0.7 ms a decision with a choice in
node on this machine.

The match: N mirrored pairs of 2-player hands (each deal played twice, seats swapped,
so the cards and the lead cancel out); printed are ``a``'s points a pair minus
``b``'s with its standard error, ``a``'s win share (a hand won, lost or tied: 1, 0,
1/2), and each player's mean time a move in milliseconds, by the clock and in CPU time (a
``search:Xs`` player's budget is by the clock: on a shared machine it gets less CPU time).
Players: any name of ``bot_strength.bot`` (``search``, ``greedy``, ``search:Xs``, ``custom:...``),
``sparring[:N]``, ``esperto[:N]`` (2-player Scopa, and rules like it), and the search ideas
measured and not kept, ``trial:IDEA:N`` and ``today:IDEA`` (``playout_trials.py``). Prints numbers;
asserts nothing.
"""

from __future__ import annotations

import argparse
import math
import random
import statistics
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Callable, Hashable, Iterator

sys.path.insert(0, str(Path(__file__).resolve().parent))

from bot_strength import bot as strength_bot  # noqa: E402
from playout_trials import TodayTrialBot, TrialBot  # noqa: E402

from cassino.engine.core import Engine  # noqa: E402
from cassino.engine.game import Game  # noqa: E402
from cassino.engine.moves import Move  # noqa: E402
from cassino.engine.rng import derive  # noqa: E402
from cassino.engine.state import HandState  # noqa: E402
from cassino.errors import CassinoError, PositionTooLargeError  # noqa: E402
from cassino.language.variants import load_rules  # noqa: E402
from cassino.players.base import Bot  # noqa: E402
from cassino.players.counter import assess, banked, counter_move, reply_hands  # noqa: E402
from cassino.players.gain import CardWorth, greedy_move  # noqa: E402
from cassino.players.knowledge import determinize  # noqa: E402
from cassino.players.solver import Solver, missing_knowledge  # noqa: E402


class SparringBot(Bot):
    """The Rust searcher's way of play (module docstring), over this engine."""

    name = "sparring"

    def __init__(self, seed: int = 0, worlds: int = 32, width: int = 8, rank_samples: int = 24,
                 playout_samples: int = 4) -> None:
        self.reseed(seed)
        self.worlds = worlds
        self.width = width
        self.rank_samples = rank_samples
        self.playout_samples = playout_samples
        self._solver: tuple[Hashable, Solver] | None = None

    def solver(self, game: Game, side: int) -> Solver:
        key = (game.engine, side, game.scores, game.restrictions_on)
        if self._solver is None or self._solver[0] != key or len(self._solver[1].table) > 500_000:
            self._solver = (key, Solver(game.engine, game.scorer, side, dict(enumerate(game.scores)),
                                        game.restrictions_on, self.worth(game)))
        return self._solver[1]

    def rollout(self, engine: Engine, worth: CardWorth, world: HandState, move: Move, side: int, luck: int) -> float:
        """``move`` played in ``world``, then the counting heuristic for every seat to the end
        of the deal: what ``side`` banked less the most another side banked."""
        rng = random.Random(luck)
        deal = world.deal_no
        state = engine.apply(world, move)
        while not state.over and state.deal_no == deal:
            state = engine.apply(state, counter_move(engine, worth, state, rng, self.playout_samples))
        won = worth.won(world, state)
        others = [v for s, v in won.items() if s != side]
        return won.get(side, 0.0) - (max(others) if others else 0.0)

    def choose(self, game: Game, seat: int) -> Move:
        engine, state = game.engine, game.hand
        worth = self.worth(game)
        try:
            moves = game.legal_moves()
        except PositionTooLargeError:
            return greedy_move(engine, worth, state)
        if len(moves) == 1:
            return moves[0]
        side = state.teams[seat]
        rng = self.rng
        if missing_knowledge(state, seat) is None:
            known = determinize(engine, state, seat, rng)
            try:
                return self.solver(game, side).best_move(known)
            except PositionTooLargeError:
                pass
        values = assess(engine, worth, state, moves, reply_hands(engine, state, seat, rng, self.rank_samples))
        order = sorted(range(len(moves)), key=lambda i: -values[i])[:self.width]
        shortlist = [moves[i] for i in order]
        worlds = [(determinize(engine, state, seat, rng), rng.getrandbits(64)) for _ in range(self.worlds)]
        best, best_value = shortlist[0], -math.inf
        for m in shortlist:
            total = sum(self.rollout(engine, worth, w, m, side, luck) for w, luck in worlds)
            if total > best_value:
                best, best_value = m, total
        return best


# ---------------------------------------------------------------- Esperto's way of play (Scopa)
#: Esperto's settings, as its documentation and decision code give them: sampled deals a move, the
#: search's depth in plies (one less where more than ``WIDE`` moves are legal), random plies a leaf's
#: playout plays. Its 50 ms deadline never binds at its own 0.6 ms a move, so it is left out.
ESPERTO_DEALS = 6
ESPERTO_DEPTH = 3
ESPERTO_WIDE = 8
ESPERTO_PLAYOUT = 6
#: The primiera points of a card by its number value (seven 21, six 18, ace 16, five 15, ... courts 10).
ESPERTO_PRIMIERA = {1: 16, 2: 12, 3: 13, 4: 14, 5: 15, 6: 18, 7: 21, 8: 10, 9: 10, 10: 10}


class EspertoBot(Bot):
    """Esperto's way of play in 2-player Scopa (module docstring), over this engine's positions.

    It looks ahead in its own model of the deal, as Esperto does: the two hands and the table,
    what each side has taken, its sweeps and the last capturer; a play takes an equal card (one
    of them) or else any set of two or more adding up to it, a play that empties the table is a
    sweep (the last play's too), and nothing is dealt within the search (a deal's end is where
    the look-ahead stops). The state is from this player's side: index 0 is its own, 1 the other's.
    """

    name = "esperto"

    def __init__(self, seed: int = 0, deals: int = ESPERTO_DEALS, depth: int = ESPERTO_DEPTH,
                 playout: int = ESPERTO_PLAYOUT) -> None:
        self.reseed(seed)
        self.deals = deals
        self.depth = depth
        self.playout = playout
        self._deck: tuple[object, ...] | None = None
        self._sums: dict[tuple[int, int], tuple[int, ...]] = {}
        self._order: dict[tuple[int, int, bool], int] = {}

    # -------------------------------------------------- the cards as Esperto sees them
    def deck(self, engine: Engine) -> None:
        """Each card's number value, primiera points, and which are coins and the sette bello."""
        if self._deck is not None and self._deck[0] is engine:
            return
        deck = engine.deck
        names = [n.lower() for n in deck.suit_names]
        coin_suit = deck.suits[names.index("coins")] if "coins" in names else deck.suits[0]
        values = [vals[0] if vals else 0 for vals in deck.hand_values]
        self.values = values
        self.prime = [ESPERTO_PRIMIERA.get(v, 0) for v in values]
        self.coins = sum(1 << i for i, card in enumerate(deck.cards) if card.suit == coin_suit)
        self.sette = sum(1 << i for i, card in enumerate(deck.cards) if card.suit == coin_suit and values[i] == 7)
        self.suit_masks = [sum(1 << i for i, card in enumerate(deck.cards) if card.suit == s) for s in deck.suits]
        self.all_cards = (1 << len(deck.cards)) - 1
        self._best: list[dict[int, int]] = [{} for _ in deck.suits]
        self._sums.clear()
        self._order.clear()
        self._deck = (engine,)

    def primiera(self, mask: int) -> int:
        """The best card of each suit in ``mask``, added up (suits missing count nothing)."""
        total = 0
        for s, suit in enumerate(self.suit_masks):
            part = mask & suit
            if part:
                best = self._best[s].get(part)
                if best is None:
                    best = max(self.prime[i] for i in _bits(part))
                    self._best[s][part] = best
                total += best
        return total

    # -------------------------------------------------- moves in its own model
    def sums(self, value: int, table: int) -> tuple[int, ...]:
        """The sets of two or more table cards adding up to ``value``, in the order a depth-first walk
        over the table (lowest card first) finds them."""
        key = (value, table)
        found = self._sums.get(key)
        if found is None:
            cards = list(_bits(table))
            out: list[int] = []

            def walk(start: int, total: int, taken: int, count: int) -> None:
                if total == value and count >= 2:
                    out.append(taken)
                if total >= value:
                    return
                for j in range(start, len(cards)):
                    c = cards[j]
                    walk(j + 1, total + self.values[c], taken | (1 << c), count + 1)

            walk(0, 0, 0, 0)
            found = tuple(out)
            if len(self._sums) > 200_000:
                self._sums.clear()
            self._sums[key] = found
        return found

    def moves(self, hand: int, table: int) -> list[tuple[int, int]]:
        """(card played, cards taken) for each play of ``hand``: an equal card first (one move for each),
        else each set adding up to it, else a trail (taking nothing)."""
        out: list[tuple[int, int]] = []
        values = self.values
        for c in _bits(hand):
            v = values[c]
            equal = [t for t in _bits(table) if values[t] == v]
            if equal:
                out.extend((c, 1 << t) for t in equal)
                continue
            sets = self.sums(v, table)
            if sets:
                out.extend((c, s) for s in sets)
            else:
                out.append((c, 0))
        return out

    def ordered(self, moves: list[tuple[int, int]], table: int) -> list[tuple[int, int]]:
        """``moves`` by Esperto's ordering, best first, ties kept in order: a sweep first, then what the
        card and the cards taken are worth (sette bello, coins, primiera points, number of cards); trails last."""
        def score(move: tuple[int, int]) -> int:
            card, taken = move
            if not taken:
                return -5
            key = (card, taken, taken == table)
            s = self._order.get(key)
            if s is None:
                cards = taken | (1 << card)
                s = ((1000 if taken == table else 0) + (80 if cards & self.sette else 0)
                     + 20 * (cards & self.coins).bit_count() + sum(self.prime[i] for i in _bits(cards))
                     + 6 * cards.bit_count())
                if len(self._order) > 200_000:
                    self._order.clear()
                self._order[key] = s
            return s
        return sorted(moves, key=lambda m: -score(m))

    @staticmethod
    def apply(state: tuple[int, ...], move: tuple[int, int]) -> tuple[int, ...]:
        """``move`` played by the side to move (``state[8]``): a capture takes, a table emptied is a sweep."""
        h0, h1, table, c0, c1, s0, s1, last, turn = state
        card, taken = move
        bit = 1 << card
        if turn == 0:
            h0 &= ~bit
        else:
            h1 &= ~bit
        if taken:
            sweep = taken == table
            table &= ~taken
            if turn == 0:
                c0 |= taken | bit
                s0 += sweep
            else:
                c1 |= taken | bit
                s1 += sweep
            last = turn
        else:
            table |= bit
        return (h0, h1, table, c0, c1, s0, s1, last, 1 - turn)

    # -------------------------------------------------- its evaluation
    def can_take(self, hand: int, table: int) -> int:
        """How many cards of ``hand`` take something from ``table`` (an equal card, or a set adding up to it)."""
        reach = 1
        values = self.values
        for t in _bits(table):
            reach |= reach << values[t]
        return sum((reach >> values[c]) & 1 for c in _bits(hand))

    def evaluate(self, state: tuple[int, ...]) -> float:
        """Esperto's rating of a position for side 0: sweeps, coins, cards and primiera taken, primiera
        within reach, where the sette bello is, the last capturer, the cards that can take now, the move."""
        h0, h1, table, c0, c1, s0, s1, last, turn = state
        coins, sette = self.coins, self.sette
        if c0 & sette:
            bello = 1.0
        elif c1 & sette:
            bello = -1.0
        elif h0 & sette:
            bello = 0.7
        elif h1 & sette:
            bello = -0.7
        elif table & sette:
            bello = 0.3
        else:
            bello = 0.0
        return ((s0 - s1) * 120 + ((c0 & coins).bit_count() - (c1 & coins).bit_count()) * 18
                + (c0.bit_count() - c1.bit_count()) * 4 + (self.primiera(c0) - self.primiera(c1)) * 8
                + (self.primiera(c0 | h0) - self.primiera(c1 | h1)) * 2 + bello * 120
                + (9 if last == 0 else -9 if last == 1 else 0)
                + self.can_take(h0, table) * 6 - self.can_take(h1, table) * 9 + (5 if turn == 0 else -5))

    def leaf(self, state: tuple[int, ...]) -> float:
        """A leaf's value: its rating, averaged with the rating after up to ``playout`` random plays."""
        base = self.evaluate(state)
        if self.playout <= 0:
            return base
        rng = self.rng
        current = state
        for _ in range(self.playout):
            moves = self.moves(current[current[8]], current[2])
            if not moves:
                break
            current = self.apply(current, moves[int(rng.random() * len(moves))])
        return (base + self.evaluate(current)) / 2

    def alphabeta(self, state: tuple[int, ...], depth: int, alpha: float, beta: float) -> float:
        """Minimax with alpha-beta cut-offs to ``depth`` plies, side 0 maximizing."""
        if depth <= 0:
            return self.leaf(state)
        moves = self.moves(state[state[8]], state[2])
        if not moves:
            return self.evaluate(state)
        if state[8] == 0:
            value = -math.inf
            for m in self.ordered(moves, state[2]):
                value = max(value, self.alphabeta(self.apply(state, m), depth - 1, alpha, beta))
                alpha = max(alpha, value)
                if alpha >= beta:
                    break
            return value
        value = math.inf
        for m in self.ordered(moves, state[2]):
            value = min(value, self.alphabeta(self.apply(state, m), depth - 1, alpha, beta))
            beta = min(beta, value)
            if beta <= alpha:
                break
        return value

    # -------------------------------------------------- a decision
    def choose(self, game: Game, seat: int) -> Move:
        engine, hand = game.engine, game.hand
        legal = game.legal_moves()
        if len(legal) == 1:
            return legal[0]
        self.deck(engine)
        other = 1 - seat
        swept = [0, 0]
        for sweep in hand.sweeps:
            if not sweep.cancelled:
                swept[sweep.seat == other] += 1
        last = -1 if hand.last_capturer is None else int(hand.last_capturer != seat)
        mine = hand.hands[seat]
        unseen = self.all_cards & ~(hand.table | mine | hand.piles[0] | hand.piles[1])
        root = (mine, 0, hand.table, hand.piles[seat], hand.piles[other], swept[0], swept[1], last, 0)
        by_key = {(m.played, m.loose): m for m in legal}
        ordered = [m for m in self.ordered(self.moves(mine, hand.table), hand.table)
                   if ((1 << m[0]), m[1]) in by_key]
        if len(ordered) != len(legal):   # (rules other than its own: the engine's moves, in its order)
            ordered = [((m.played.bit_length() - 1), m.loose) for m in legal]
        depth = max(2, self.depth - 1) if len(legal) > ESPERTO_WIDE else self.depth
        if not hand.stock:
            # The last deal: every unseen card is in the other hand; looked ahead to its end.
            world = root[:1] + (unseen,) + root[2:]
            depth = max(depth, mine.bit_count() + unseen.bit_count())
            best, best_value = ordered[0], -math.inf
            for m in ordered:
                value = self.alphabeta(self.apply(world, m), depth - 1, -math.inf, math.inf)
                if value > best_value:
                    best, best_value = m, value
        else:
            cards = list(_bits(unseen))
            held = hand.hands[other].bit_count()
            totals = [0.0] * len(ordered)
            for _ in range(self.deals):
                dealt = sum(1 << c for c in self.rng.sample(cards, held))
                world = root[:1] + (dealt,) + root[2:]
                for i, m in enumerate(ordered):
                    totals[i] += self.alphabeta(self.apply(world, m), depth - 1, -math.inf, math.inf)
            best = ordered[max(range(len(ordered)), key=lambda i: (totals[i], -i))]
        return by_key[(1 << best[0], best[1])]


def _bits(mask: int) -> Iterator[int]:
    """The indices of the bits set in ``mask``, lowest first."""
    while mask:
        low = mask & -mask
        yield low.bit_length() - 1
        mask ^= low


def make(name: str, seed: int) -> Bot:
    """``sparring`` or ``sparring:N`` (N sampled deals), the trials of ``playout_trials.py``
    (``trial:IDEA:N``, ``today:IDEA``), else ``bot_strength.bot``'s players."""
    if name == "esperto" or name.startswith("esperto:"):
        deals = name.partition(":")[2] or str(ESPERTO_DEALS)
        if not deals.isdigit() or int(deals) < 1:
            raise ValueError(f"{name!r}: Esperto's way of play is esperto or esperto:N, N sampled deals (1 or more)")
        return EspertoBot(seed, deals=int(deals))
    if name == "sparring" or name.startswith("sparring:"):
        worlds = name.partition(":")[2] or "32"
        if not worlds.isdigit() or int(worlds) < 1:
            raise ValueError(f"{name!r}: the sparring partner is sparring or sparring:N, N sampled deals (1 or more)")
        return SparringBot(seed, worlds=int(worlds))
    if name.startswith("trial:"):
        parts = name.split(":")
        if len(parts) != 3 or not parts[2].isdigit() or int(parts[2]) < 1:
            raise ValueError(f"{name!r}: a trial is trial:IDEA:N, N deals a move (1 or more)")
        return TrialBot(seed, parts[1], int(parts[2]))
    if name.startswith("today:"):
        return TodayTrialBot(seed, name[len("today:"):])
    return strength_bot(name, seed)


def one_hand(variant: str, names: tuple[str, str], seed: int,
             watch: Callable[[Game], None] | None = None
             ) -> tuple[dict[int, int], list[list[float]], list[list[float]]]:
    """One 2-player hand, ``names`` by seat: each side's points and each seat's seconds a move, by the
    clock and in this process's CPU time (the same where the machine is not shared).
    ``watch``: called with the game before the first move and after each (``lead_by_deal.py``)."""
    engine = Engine(load_rules(variant))
    game = Game.new(engine, seed, 2, dealer=0).with_(target=None)
    bots = [make(names[s], derive(seed, s)) for s in range(2)]
    times: list[list[float]] = [[], []]
    cpu: list[list[float]] = [[], []]
    plies = 0
    if watch is not None:
        watch(game)
    while not game.over and game.hand_no == 1:
        seat = game.hand.turn
        bots[seat].reseed(derive(seed, seat, plies))
        start, start_cpu = time.perf_counter(), time.process_time()
        move = bots[seat].choose(game, seat)
        times[seat].append(time.perf_counter() - start)
        cpu[seat].append(time.process_time() - start_cpu)
        game = game.play(move)
        plies += 1
        if watch is not None:
            watch(game)
    sign = -1 if game.rules.game.goal == "lowest" else 1   # won by the lowest total: points count against
    points = {side: sign * sum(r.points.get(side, 0) for r in game.results) for side in (0, 1)}
    return points, times, cpu


def one_pair(task: tuple[str, str, str, int]) -> tuple[int, float, list[float], list[float], float, float]:
    """A mirrored pair: ``a``'s points lead over the two hands, its share of wins, both players' move times
    by the clock, and both players' CPU seconds in all."""
    variant, a, b, seed = task
    lead = 0
    share = 0.0
    times_a: list[float] = []
    times_b: list[float] = []
    cpu_a = cpu_b = 0.0
    for a_seat in (0, 1):
        names = (a, b) if a_seat == 0 else (b, a)
        points, times, cpu = one_hand(variant, names, seed)
        diff = points[a_seat] - points[1 - a_seat]
        lead += diff
        share += 0.5 if diff == 0 else float(diff > 0)
        times_a += times[a_seat]
        times_b += times[1 - a_seat]
        cpu_a += sum(cpu[a_seat])
        cpu_b += sum(cpu[1 - a_seat])
    return lead, share / 2, times_a, times_b, cpu_a, cpu_b


def run(variant: str, a: str, b: str, pairs: int, seed: int, workers: int, first: int = 0) -> dict[str, float]:
    """Play ``pairs`` mirrored pairs (deals ``first`` ..) and sum them up."""
    tasks = [(variant, a, b, derive(seed, j)) for j in range(first, first + pairs)]
    start = time.perf_counter()
    results: Iterator[tuple[int, float, list[float], list[float], float, float]]
    if workers > 1:
        with ProcessPoolExecutor(workers) as pool:
            results = iter(list(pool.map(one_pair, tasks, chunksize=4)))
    else:
        results = map(one_pair, tasks)
    leads: list[float] = []
    shares: list[float] = []
    ta: list[float] = []
    tb: list[float] = []
    cpu_a = cpu_b = 0.0
    for lead, share, x, y, cx, cy in results:
        leads.append(lead)
        shares.append(share)
        ta += x
        tb += y
        cpu_a += cx
        cpu_b += cy
    n = len(leads)
    se = statistics.stdev(leads) / math.sqrt(n) if n > 1 else float("nan")
    return {"pairs": n, "lead": statistics.mean(leads), "se": se, "win": statistics.mean(shares),
            "win_se": statistics.stdev(shares) / math.sqrt(n) if n > 1 else float("nan"),
            "ms_a": 1000 * statistics.mean(ta), "ms_b": 1000 * statistics.mean(tb),
            "cpu_a": 1000 * cpu_a / len(ta), "cpu_b": 1000 * cpu_b / len(tb),
            "seconds": time.perf_counter() - start}


def match_parser(description: str | None) -> argparse.ArgumentParser:
    """The arguments of a match of mirrored pairs (this script's, and ``lead_by_deal.py``'s)."""
    p = argparse.ArgumentParser(description=description, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--a", default="search", help="the first player (its lead is printed)")
    p.add_argument("--b", default="sparring", help="the second player")
    p.add_argument("--pairs", type=int, default=200, help="mirrored pairs of hands")
    p.add_argument("--first", type=int, default=0, help="the first deal's number (to play fresh deals)")
    p.add_argument("--variant", default="standard")
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--workers", type=int, default=2)
    return p


def checked_args(p: argparse.ArgumentParser) -> argparse.Namespace:
    """``p``'s arguments, a bad one refused with its reason (exit 2) before any work: too few pairs, an
    unknown player or variant, a variant not played by two."""
    args = p.parse_args()
    if args.pairs < 2 or args.first < 0 or args.workers < 1:
        p.error("--pairs is 2 or more, --first 0 or more, --workers 1 or more")
    try:
        rules = load_rules(args.variant)
        make(args.a, 0)
        make(args.b, 0)
    except (CassinoError, ValueError) as error:
        p.error(str(error))
    if not rules.seats.min_players <= 2 <= rules.seats.max_players:
        p.error(f"{args.variant} is not played by 2 players")
    if "esperto" in (args.a.partition(":")[0], args.b.partition(":")[0]):
        c = rules.capture
        if not (c.sums and c.equal_card_first and not c.several_groups and c.total is None
                and c.from_piles == "none" and not rules.build.allowed):
            p.error(f"esperto plays Scopa's captures (an equal card first, else one set adding up to the card; "
                    f"no builds): {args.variant} has others")
    return args


def main() -> int:
    args = checked_args(match_parser(__doc__))
    r = run(args.variant, args.a, args.b, args.pairs, args.seed, args.workers, args.first)
    print(f"{args.a} vs {args.b}, {args.variant}, {r['pairs']} mirrored pairs of 2-player hands, seed {args.seed}: "
          f"{r['lead']:+.2f} ± {r['se']:.2f} points a pair (± 1 standard error), win share "
          f"{r['win']:.3f} ± {r['win_se']:.3f}; ms a move {r['ms_a']:.2f} / {r['ms_b']:.2f} "
          f"(CPU {r['cpu_a']:.2f} / {r['cpu_b']:.2f}); "
          f"{r['seconds']:.0f} s", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
