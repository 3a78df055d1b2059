"""Environment speed: steps per second of the OpenSpiel game and the PettingZoo environment.

    python benchmarks/env_speed.py [--seconds 5] [--variant standard --variant royal ...]

Random play (uniform over the legal actions, chance as the game gives it), single
hands, restarting at the end. Counted for each framework:

- OpenSpiel: ``state.apply_action`` calls (player actions and chance outcomes), with
  ``legal_actions`` or ``chance_outcomes`` asked once per step, as a simple agent does;
- PettingZoo: ``env.step`` calls, each after ``env.last()`` (which builds the
  observation and action mask); chance is drawn inside ``step``.

Also the moves per second (completed Cassino moves) behind those steps. Prints
numbers; asserts nothing.
"""

from __future__ import annotations

import argparse
import random
import time

import numpy as np
import pyspiel

import cassino.openspiel  # noqa: F401  (registers python_cassino)
from cassino.pettingzoo import env


def openspiel_speed(variant: str, seconds: float) -> tuple[float, float]:
    game = pyspiel.load_game("python_cassino", {"variant": variant})
    rng = random.Random(1)
    steps = moves = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes = state.chance_outcomes()
                state.apply_action(outcomes[rng.randrange(len(outcomes))][0])
            else:
                state.apply_action(rng.choice(state.legal_actions()))
            steps += 1
        moves += sum(1 for entry in state.step.log if entry[0] == "move")
    elapsed = time.perf_counter() - start
    return steps / elapsed, moves / elapsed


def pettingzoo_speed(variant: str, seconds: float) -> tuple[float, float]:
    e = env(variant=variant)
    rng = np.random.default_rng(1)
    steps = moves = 0
    seed = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        e.reset(seed=seed)
        seed += 1
        for agent in e.agent_iter():
            obs, _, terminated, truncated, _ = e.last()
            if terminated or truncated:
                e.step(None)
                continue
            e.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
            steps += 1
        moves += sum(1 for entry in e.unwrapped.state_.log if entry[0] == "move")
    elapsed = time.perf_counter() - start
    return steps / elapsed, moves / elapsed


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--seconds", type=float, default=5.0, help="seconds of play per framework and variant")
    p.add_argument("--variant", action="append", help="a bundled name or rule file (repeatable; default standard)")
    args = p.parse_args()
    for variant in args.variant or ["standard"]:
        os_steps, os_moves = openspiel_speed(variant, args.seconds)
        pz_steps, pz_moves = pettingzoo_speed(variant, args.seconds)
        print(f"{variant}: OpenSpiel {os_steps:,.0f} steps/s ({os_moves:,.0f} moves/s); "
              f"PettingZoo {pz_steps:,.0f} steps/s ({pz_moves:,.0f} moves/s)")


if __name__ == "__main__":
    main()
