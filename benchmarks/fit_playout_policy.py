"""Fit the search's playout policy to its own choices: prints numbers and weights, asserts nothing.

(How ``policy.FITTED`` was made. ``cassino train FILE`` does the same for any rule file and seating, in rounds,
and stores the weights where the search finds them: ``players/training.py``.)

    python benchmarks/fit_playout_policy.py [--hands N] [--variant standard] [--seed S]
                                            [--playouts greedy|fitted | --weights W1,...,W12] [--workers W]

N 2-player hands of self-play by the search (``players.search.SearchBot``, each seat its own seed,
the dealer alternating), its playouts ``--playouts``. At every decision of more than one legal move
where the search samples (not where it plays the exact solver's move), each legal move's
``policy.FEATURES`` and the move chosen are kept. A conditional logit (a move chosen with probability
proportional to exp(weights . features)) is fitted by Newton's method on the first half of the
decisions, and set on the second half against:

- ``greedy``: the greedy rating (``gain``), its temperature the best of a few on the first half;
- ``FITTED``: the policy's weights today (``policy.FITTED``).

Printed: each model's mean log-likelihood a decision and the share of decisions whose chosen move it
rates best, on the second half; the fitted weights, in ``FEATURES``' order. ``policy.FITTED`` was made
this way in two rounds: ``--playouts greedy --seed 5``, then the search with those weights
(``--weights`` the first round's, ``--seed 6``; docs/performance.md, "A playout policy fitted to the
search"). Each feature is read from the policy itself (its rating with that feature's weight 1 and
the others 0), so the fit is of what the policy rates.
"""

from __future__ import annotations

import argparse
import math
import sys
from concurrent.futures import ProcessPoolExecutor
from typing import Any

import arguments  # (benchmarks/arguments.py, beside this script)

from cassino.engine.core import Engine
from cassino.engine.game import Game
from cassino.engine.rng import derive
from cassino.language.variants import load_rules
from cassino.players.gain import gains
from cassino.players.policy import FEATURES, FITTED, PlayoutPolicy
from cassino.players.search import PLAYOUTS, SearchBot
from cassino.players.solver import missing_knowledge
# The fit itself is the package's (``cassino train``): one decision's rows, the conditional logit and Newton's method.
from cassino.players.training import Decision, _probabilities, fit

class WeightedSearch(SearchBot):
    """The search (``settings`` as ``SearchBot``'s), its playouts by a policy of the given weights."""

    def __init__(self, seed: int, weights: tuple[float, ...], **settings: Any) -> None:
        super().__init__(seed, weights=weights, **settings)


#: The greedy rating's temperatures tried (its scale: rating / T).
TEMPERATURES = (0.05, 0.08, 0.12, 0.2, 0.33, 0.5, 1.0)


def decisions(task: tuple[str, int, int, str, tuple[float, ...] | None]) -> list[Decision]:
    """One hand of search self-play: its sampled decisions."""
    variant, seed, dealer, playouts, weights = task
    engine = Engine(load_rules(variant))
    game = Game.new(engine, seed, 2, dealer=dealer).with_(target=None)
    bots = [SearchBot(derive(seed, s), playouts=playouts) if weights is None
            else WeightedSearch(derive(seed, s), weights) for s in range(2)]
    units = [PlayoutPolicy(engine, tuple(1.0 if j == k else 0.0 for j in range(len(FEATURES))))
             for k in range(len(FEATURES))]
    found: list[Decision] = []
    while not game.over and game.hand_no == 1:
        seat = game.hand.turn
        move = bots[seat].choose(game, seat)
        moves = game.legal_moves()
        if len(moves) > 1 and missing_knowledge(game.hand, seat) is not None:
            worth = bots[seat].worth(game)
            columns = [unit.ratings(worth, game.hand, moves) for unit in units]
            found.append(([list(row) for row in zip(*columns)], gains(worth, game.hand, moves), moves.index(move)))
        game = game.play(move)
    return found


def log_likelihood(weights: list[float] | tuple[float, ...], found: list[Decision]) -> float:
    """The mean log-likelihood a decision of the moves chosen, under ``weights``."""
    total = 0.0
    for rows, _, chosen in found:
        p = _probabilities([sum(w * x for w, x in zip(weights, row)) for row in rows])
        total += math.log(max(p[chosen], 1e-300))
    return total / len(found)


def greedy_log_likelihood(temperature: float, found: list[Decision]) -> float:
    """The same for the greedy rating at ``temperature``."""
    total = 0.0
    for _, gain, chosen in found:
        total += math.log(max(_probabilities([g / temperature for g in gain])[chosen], 1e-300))
    return total / len(found)


def top_share(ratings_of: list[list[float]], found: list[Decision]) -> float:
    """The share of decisions whose chosen move is the first best-rated."""
    hits = 0
    for ratings, (_, _, chosen) in zip(ratings_of, found):
        hits += max(range(len(ratings)), key=ratings.__getitem__) == chosen
    return hits / len(found)


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--hands", type=arguments.count(2), default=200, help="hands of self-play (2 or more)")
    p.add_argument("--variant", type=arguments.variant, default="standard")
    p.add_argument("--seed", type=int, default=5)
    policy = p.add_mutually_exclusive_group()
    policy.add_argument("--playouts", choices=PLAYOUTS, default="greedy", help="the self-playing search's playouts")
    policy.add_argument("--weights", type=arguments.numbers(len(FEATURES)),
                        help=f"the self-playing search's playouts by a policy of these {len(FEATURES)} weights, "
                             "comma-separated")
    p.add_argument("--workers", type=arguments.count(1), default=2)
    args = p.parse_args()
    rules = load_rules(args.variant)
    if not rules.seats.min_players <= 2 <= rules.seats.max_players:
        p.error(f"{args.variant} is not played by 2 players")
    weights = tuple(args.weights) if args.weights else None
    tasks = [(args.variant, derive(args.seed, k), k % 2, args.playouts, weights) for k in range(args.hands)]
    if args.workers > 1:
        with ProcessPoolExecutor(args.workers) as pool:
            found = [d for hand in pool.map(decisions, tasks, chunksize=8) for d in hand]
    else:
        found = [d for task in tasks for d in decisions(task)]
    if len(found) < 2 * len(FEATURES):
        print(f"{len(found)} decisions: too few to fit {len(FEATURES)} weights; play more hands", file=sys.stderr)
        return 1
    half = len(found) // 2
    train, test = found[:half], found[half:]
    temperature = max(TEMPERATURES, key=lambda t: greedy_log_likelihood(t, train))
    fitted = fit(train)
    played = f"playouts weighted {','.join(map(str, weights))}" if weights else f"{args.playouts} playouts"
    print(f"{args.variant}, {args.hands} hands of search self-play ({played}), seed {args.seed}: "
          f"{len(found)} decisions, fitted on {len(train)}, set on {len(test)}")
    print(f"  greedy at T = {temperature}: log-likelihood {greedy_log_likelihood(temperature, test):.4f} a decision, "
          f"best-rated chosen {top_share([g for _, g, _ in test], test):.3f}")
    for label, w in (("FITTED", FITTED), ("fitted now", fitted)):
        ratings = [[sum(wi * x for wi, x in zip(w, row)) for row in rows] for rows, _, _ in test]
        print(f"  {label}: log-likelihood {log_likelihood(w, test):.4f} a decision, "
              f"best-rated chosen {top_share(ratings, test):.3f}")
    print("  weights: " + ", ".join(f"{name} {w:+.4f}" for name, w in zip(FEATURES, fitted)))
    print("  as FITTED: (" + ", ".join(f"{w:.4f}" for w in fitted) + ")")
    return 0


if __name__ == "__main__":
    sys.exit(main())
