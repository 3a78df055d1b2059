"""A sparring partner that plays as the best public Casino searcher does, and a match runner.

    python benchmarks/sparring.py --a search --b sparring --pairs 200
    python benchmarks/sparring.py --a search:0.003s --b sparring --pairs 200 --variant standard

The sparring partner (``sparring``; ``sparring:N`` for N sampled deals) plays as
``shared/ANCHORS.md`` describes the Rust engine ``abartnof/cassino``'s searcher, over
this engine: in the 2-player last deal (every card's place known) the exact solver's
move; before it, the moves ranked by the counting heuristic (``players.counter``: what
a move takes, less what the next player's best reply would take, plus what our
builds keep, over 24 hands that player may hold), the best 8 of them each played in
the same 32 sampled deals of the unseen cards, to the end of the deal, by the counting
heuristic for every seat (4 sampled hands a step) with the same draws for every
candidate, scored by the worth each side banked on the way; the best average wins.

The match: N mirrored pairs of 2-player hands (each deal played twice, seats swapped,
so the cards and the lead cancel out); printed are ``a``'s points a pair minus
``b``'s with its standard error, ``a``'s win share (a hand won, lost or tied: 1, 0,
1/2), and each player's mean time a move in milliseconds. Players: any name of
``bot_strength.bot`` (``search``, ``greedy``, ``search:Xs``, ``custom:...``) and
``sparring[:N]``, and the search ideas measured and not kept, ``trial:IDEA:N`` and
``today:IDEA`` (``playout_trials.py``). Prints numbers; asserts nothing.
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


def make(name: str, seed: int) -> Bot:
    """``sparring`` or ``sparring:N`` (N sampled deals), the trials of ``playout_trials.py``
    (``trial:IDEA:N``, ``today:IDEA``), else ``bot_strength.bot``'s players."""
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
             watch: Callable[[Game], None] | None = None) -> tuple[dict[int, int], list[list[float]]]:
    """One 2-player hand, ``names`` by seat: each side's points and each seat's seconds a move.
    ``watch``: called with the game before the first move and after each (``lead_by_deal.py``)."""
    engine = Engine(load_rules(variant))
    game = Game.new(engine, seed, 2, dealer=0).with_(target=None)
    bots = [make(names[s], derive(seed, s)) for s in range(2)]
    times: list[list[float]] = [[], []]
    plies = 0
    if watch is not None:
        watch(game)
    while not game.over and game.hand_no == 1:
        seat = game.hand.turn
        bots[seat].reseed(derive(seed, seat, plies))
        start = time.perf_counter()
        move = bots[seat].choose(game, seat)
        times[seat].append(time.perf_counter() - start)
        game = game.play(move)
        plies += 1
        if watch is not None:
            watch(game)
    sign = -1 if game.rules.game.goal == "lowest" else 1   # won by the lowest total: points count against
    points = {side: sign * sum(r.points.get(side, 0) for r in game.results) for side in (0, 1)}
    return points, times


def one_pair(task: tuple[str, str, str, int]) -> tuple[int, float, list[float], list[float]]:
    """A mirrored pair: ``a``'s points lead over the two hands, its share of wins, both players' move times."""
    variant, a, b, seed = task
    lead = 0
    share = 0.0
    times_a: list[float] = []
    times_b: list[float] = []
    for a_seat in (0, 1):
        names = (a, b) if a_seat == 0 else (b, a)
        points, times = one_hand(variant, names, seed)
        diff = points[a_seat] - points[1 - a_seat]
        lead += diff
        share += 0.5 if diff == 0 else float(diff > 0)
        times_a += times[a_seat]
        times_b += times[1 - a_seat]
    return lead, share / 2, times_a, times_b


def run(variant: str, a: str, b: str, pairs: int, seed: int, workers: int, first: int = 0) -> dict[str, float]:
    """Play ``pairs`` mirrored pairs (deals ``first`` ..) and sum them up."""
    tasks = [(variant, a, b, derive(seed, j)) for j in range(first, first + pairs)]
    start = time.perf_counter()
    results: Iterator[tuple[int, float, list[float], list[float]]]
    if workers > 1:
        with ProcessPoolExecutor(workers) as pool:
            results = iter(list(pool.map(one_pair, tasks, chunksize=4)))
    else:
        results = map(one_pair, tasks)
    leads: list[float] = []
    shares: list[float] = []
    ta: list[float] = []
    tb: list[float] = []
    for lead, share, x, y in results:
        leads.append(lead)
        shares.append(share)
        ta += x
        tb += y
    n = len(leads)
    se = statistics.stdev(leads) / math.sqrt(n) if n > 1 else float("nan")
    return {"pairs": n, "lead": statistics.mean(leads), "se": se, "win": statistics.mean(shares),
            "win_se": statistics.stdev(shares) / math.sqrt(n) if n > 1 else float("nan"),
            "ms_a": 1000 * statistics.mean(ta), "ms_b": 1000 * statistics.mean(tb),
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
    return args


def main() -> int:
    args = checked_args(match_parser(__doc__))
    r = run(args.variant, args.a, args.b, args.pairs, args.seed, args.workers, args.first)
    print(f"{args.a} vs {args.b}, {args.variant}, {r['pairs']} mirrored pairs of 2-player hands, seed {args.seed}: "
          f"{r['lead']:+.2f} ± {r['se']:.2f} points a pair (± 1 standard error), win share "
          f"{r['win']:.3f} ± {r['win_se']:.3f}; ms a move {r['ms_a']:.2f} / {r['ms_b']:.2f}; "
          f"{r['seconds']:.0f} s", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
