"""OpenSpiel's IS-MCTS against cassino's own ``search`` bot, through ``python_cassino``.

    python benchmarks/ismcts_vs_search.py [--hands 40] [--simulations 100] [--search search]
                                          [--variant standard] [--workers 2] [--seed 1] [--whole-game]

Two players; IS-MCTS (OpenSpiel's Python ISMCTSBot, UCT c=2, random-rollout
evaluator, ``--simulations`` per decision, a new determinization for every
simulation from ``state.resample_from_infostate``) takes seat 0 in even-numbered
hands and seat 1 in odd ones, so the lead's advantage cancels. The search bot
(``cassino.players.bots.make_bot``) chooses whole moves, which are played through
the step-wise encoding with ``state.actions_for``. Chance is drawn from a seeded
generator, so a run is reproducible. A hand (or, with --whole-game, a game) is won
by the side with the higher return. Prints IS-MCTS's win rate over decided hands
with a 95% Wilson interval, the ties, and the mean point margin with a 95% interval.
Asserts nothing.
"""

from __future__ import annotations

import argparse
import math
import random
import time
from concurrent.futures import ProcessPoolExecutor

import numpy as np
import pyspiel
from open_spiel.python.algorithms import ismcts, mcts

import arguments  # (benchmarks/arguments.py, beside this script)

import cassino.openspiel  # noqa: F401  (registers python_cassino)
from cassino.apps.authors.simulate import wilson
from cassino.engine.rng import derive
from cassino.errors import CassinoError
from cassino.players.bots import make_bot


def one_hand(args: tuple[str, bool, str, int, int, int]) -> tuple[float, float]:
    """IS-MCTS's return in hand ``index``, and its seconds per decision."""
    variant, whole_game, search, simulations, seed, index = args
    game = pyspiel.load_game("python_cassino", {"variant": variant, "whole_game": whole_game})
    hand_seed = derive(seed, index)
    rs = np.random.RandomState(hand_seed % 2 ** 32)
    redeals = random.Random(derive(hand_seed, 1))
    chance = random.Random(derive(hand_seed, 2))
    bot = ismcts.ISMCTSBot(game=game, evaluator=mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=rs),
                           uct_c=2.0, max_simulations=simulations, random_state=rs)
    bot.set_resampler(lambda state, player: state.resample_from_infostate(player, redeals))
    searcher = make_bot(search, derive(hand_seed, 3))
    ismcts_seat = index % 2
    state = game.new_initial_state()
    thinking, decisions = 0.0, 0
    while not state.is_terminal():
        if state.is_chance_node():
            actions, probs = zip(*state.chance_outcomes())
            state.apply_action(chance.choices(actions, probs)[0])
        elif state.current_player() == ismcts_seat:
            start = time.perf_counter()
            action = bot.step(state)
            thinking += time.perf_counter() - start
            decisions += 1
            state.apply_action(action)
        else:
            seat = state.current_player()
            searcher.reseed(derive(hand_seed, 4, len(state.history())))
            for action in state.actions_for(searcher.choose(state.cassino_game, seat)):
                state.apply_action(action)
    return state.returns()[ismcts_seat], thinking / max(decisions, 1)


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--hands", type=arguments.count(1), default=40)
    p.add_argument("--simulations", type=arguments.count(1), default=100, help="IS-MCTS simulations per decision")
    p.add_argument("--search", default="search", help="our bot: search, search:N or search:Xs")
    p.add_argument("--variant", type=arguments.variant, default="standard")
    p.add_argument("--workers", type=arguments.count(1), default=2)
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--whole-game", action="store_true", help="whole games instead of single hands (slow)")
    args = p.parse_args()
    try:
        make_bot(args.search)   # a bad name is refused before any work
    except CassinoError as error:
        p.error(str(error))
    tasks = [(args.variant, args.whole_game, args.search, args.simulations, args.seed, k) for k in range(args.hands)]
    start = time.perf_counter()
    if args.workers > 1:
        with ProcessPoolExecutor(args.workers) as pool:
            results = list(pool.map(one_hand, tasks))
    else:
        results = [one_hand(t) for t in tasks]
    margins = [r for r, _ in results]
    wins = sum(1 for r in margins if r > 0)
    losses = sum(1 for r in margins if r < 0)
    decided = wins + losses
    low, high = wilson(wins, decided)
    mean = sum(margins) / len(margins)
    sd = math.sqrt(sum((m - mean) ** 2 for m in margins) / max(len(margins) - 1, 1))
    half = 1.96 * sd / math.sqrt(len(margins))
    unit = "game" if args.whole_game else "hand"
    print(f"IS-MCTS ({args.simulations} simulations a decision) vs {args.search}, {args.variant}, "
          f"{len(margins)} {unit}s, seats alternating, seed {args.seed}:")
    print(f"  IS-MCTS wins {wins}/{decided} decided {unit}s = {wins / max(decided, 1):.1%} "
          f"(95% CI {low:.1%}-{high:.1%}); {len(margins) - decided} tied")
    print(f"  IS-MCTS's mean margin {mean:+.2f} points a {unit} (95% CI {mean - half:+.2f} to {mean + half:+.2f})")
    print(f"  IS-MCTS seconds a decision: {sum(t for _, t in results) / len(results):.2f}; "
          f"wall time {time.perf_counter() - start:.0f} s")


if __name__ == "__main__":
    main()
