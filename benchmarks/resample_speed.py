"""Resampling speed: what ``state.resample_from_infostate`` (IS-MCTS's redeal) costs a call.

    python benchmarks/resample_speed.py [--games 2] [--every 1]

Random play of single hands (chance as the game gives it) of the African Casinos, whose
whole pack is dealt at once (20 or more hidden cards), and of standard Casino and Draw
Cassino; at every ``--every``-th decision the seat to act asks for a redeal with a fresh
generator (seeded by the call's number: a new position each time, as the first
simulation of a search finds it; later calls at the same position reuse its checks).
Printed per game: the calls, how many found no redeal (each would have been an error),
the mean and worst time of one call. Prints numbers; asserts nothing.
"""

from __future__ import annotations

import argparse
import random
import time

import pyspiel

import arguments  # (benchmarks/arguments.py, beside this script)

import cassino.openspiel  # noqa: F401  (registers python_cassino)
try:
    from cassino.apps.research.resampling import ResampleError
except ImportError:   # (a tree before issue 48's fix, for the numbers before)
    from cassino.apps.research.stepwise import ResampleError  # type: ignore[attr-defined,no-redef]

CASES = (
    {"variant": "swazi-casino", "players": 2},
    {"variant": "swazi-casino", "players": 3},
    {"variant": "swazi-casino", "players": 4, "partners": True},
    {"variant": "south-african-casino", "players": 4, "partners": True},
    {"variant": "standard"},
    {"variant": "draw"},
)


def measure(params: dict[str, object], games: int, every: int) -> tuple[int, int, float, float]:
    game = pyspiel.load_game("python_cassino", params)
    rng = random.Random(1)
    calls = failures = 0
    total = worst = 0.0
    for _ in range(games):
        state = game.new_initial_state()
        decisions = 0
        while not state.is_terminal():
            if state.is_chance_node():
                actions, probs = zip(*state.chance_outcomes())
                state.apply_action(rng.choices(actions, probs)[0])
                continue
            if decisions % every == 0:
                start = time.perf_counter()
                try:
                    state.resample_from_infostate(state.current_player(), random.Random(calls))
                except ResampleError:
                    failures += 1
                took = time.perf_counter() - start
                total += took
                worst = max(worst, took)
                calls += 1
            decisions += 1
            state.apply_action(rng.choice(state.legal_actions()))
    return calls, failures, total / max(calls, 1), worst


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--games", type=arguments.count(1), default=2, help="hands played per case")
    p.add_argument("--every", type=arguments.count(1), default=1, help="resample at every n-th decision")
    args = p.parse_args()
    for params in CASES:
        calls, failures, mean, worst = measure(params, args.games, args.every)
        name = ", ".join(f"{k}={v}" for k, v in params.items())
        print(f"{name}: {calls} calls, {failures} without a redeal, mean {mean * 1000:.0f} ms, "
              f"worst {worst * 1000:.0f} ms", flush=True)


if __name__ == "__main__":
    main()
