"""Computer players' strength: head-to-head win rates with 95% confidence intervals.

    python benchmarks/bot_strength.py [--games 1000] [--workers 2] [--variant standard]
                                      [--search-iterations 64] [--one-hand]

Pairs: greedy vs random, search vs greedy. Seats alternate game by game, so the
lead's advantage cancels. A game is a whole game to the variant's target, or,
with --one-hand, a single hand (much faster; the side with more points wins).
Prints numbers; asserts nothing.
"""

from __future__ import annotations

import argparse
import time
from concurrent.futures import ProcessPoolExecutor

from cassino.players.bots import make_bot
from cassino.engine.core import Engine
from cassino.engine.game import Game
from cassino.engine.rng import derive
from cassino.apps.simulate import wilson
from cassino.language.variants import load_rules


def one_game(args: tuple[str, str, str, int, int, bool]) -> tuple[int | None, list[float]]:
    """1 if bot `a` wins, 0 if `b` wins, None for no winner; and `a`'s seconds for each move."""
    variant, a, b, index, seed, one_hand = args
    engine = Engine(load_rules(variant))
    game_seed = derive(seed, index)
    game = Game.new(engine, game_seed, 2, dealer=index % 2)
    if one_hand:
        game = game.with_(target=None)
    names = (a, b) if index % 2 == 0 else (b, a)
    bots = [make_bot(names[s], derive(game_seed, s)) for s in range(2)]
    a_seat = 0 if index % 2 == 0 else 1
    times = []
    plies = 0
    while not game.over:
        seat = game.hand.turn
        bots[seat].reseed(derive(game_seed, seat, plies))
        start = time.perf_counter()
        move = bots[seat].choose(game, seat)
        if seat == a_seat:
            times.append(time.perf_counter() - start)
        game = game.play(move)
        plies += 1
    if game.winner is None:
        return None, times
    return (1 if game.winner == a_seat else 0), times


def match(variant: str, a: str, b: str, games: int, workers: int, seed: int, one_hand: bool) -> None:
    start = time.perf_counter()
    tasks = [(variant, a, b, k, seed, one_hand) for k in range(games)]
    if workers > 1:
        with ProcessPoolExecutor(workers) as pool:
            results = list(pool.map(one_game, tasks, chunksize=max(1, games // (workers * 8))))
    else:
        results = [one_game(t) for t in tasks]
    decided = [r for r, _ in results if r is not None]
    times = sorted(t for _, ts in results for t in ts)
    wins = sum(decided)
    low, high = wilson(wins, len(decided))
    rate = wins / len(decided) if decided else 0.0
    print(f"{a:>10} vs {b:<10} {variant}{' (one hand a game)' if one_hand else ''}: "
          f"{a} wins {wins}/{len(decided)} = {rate:.1%} (95% CI {low:.1%}-{high:.1%}), "
          f"{games - len(decided)} without a winner, {time.perf_counter() - start:.0f} s")
    if times:
        print(f"{'':>10} {a} seconds a move: mean {sum(times) / len(times):.3f}, "
              f"95th percentile {times[int(0.95 * (len(times) - 1))]:.3f}, max {times[-1]:.3f}")


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--games", type=int, default=1000)
    p.add_argument("--workers", type=int, default=2)
    p.add_argument("--variant", default="standard")
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--search-iterations", type=int, default=64)
    p.add_argument("--one-hand", action="store_true")
    args = p.parse_args()
    match(args.variant, "greedy", "random", args.games, args.workers, args.seed, args.one_hand)
    match(args.variant, f"search:{args.search_iterations}", "greedy", args.games, args.workers, args.seed,
          args.one_hand)


if __name__ == "__main__":
    main()
