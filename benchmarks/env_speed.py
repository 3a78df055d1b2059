"""Environment speed: steps per second of the OpenSpiel game and the PettingZoo environment.

    python benchmarks/env_speed.py [--seconds 5] [--variant standard --variant royal ...]

Random play (uniform over the legal actions, chance as the game gives it), single
hands, restarting at the end. Counted for each framework:

- OpenSpiel: ``state.apply_action`` calls (player actions and chance outcomes), with
  ``legal_actions`` or ``chance_outcomes`` asked once per step, as a simple agent does;
- PettingZoo: ``env.step`` calls, each after ``env.last()`` (which builds the
  observation and action mask); chance is drawn inside ``step``.

Also the moves per second (completed Cassino moves) behind those steps, and the batched
interface (``cassino.vector.VectorEnv``, ``--batch`` games at once, 64 by default; 0 skips
it): game steps per second, each a player's action (chance drawn inside), a random legal
action a game chosen for the whole batch at once from the masks, as a policy would.
``--clock cpu`` times these by the process's CPU time rather than the wall clock (a
shared machine's other work slows the wall clock most).

``--unwrapped`` also times the PettingZoo loop on ``env().unwrapped`` (no wrappers), and
``--ceiling`` the same loop on an environment that does nothing, wrapped as ``env()`` wraps ours:
what PettingZoo's wrappers, ``last()`` and the agent's own choice cost without any game.

Then the worst case (``--worst``, on by default; ``--no-worst`` skips it): turns where
one card may take any of a huge number of sets, each given from its turn's start as
a whole position: Draw Cassino with 33 loose cards (544,349 legal moves),
Hungarian's several-card plays against 32 loose cards (547,500 legal moves) and
Krypkasino's two packs with 24 loose cards (the eight 9s, aces and 2s; 41,615 legal
moves, not counted here: listing them is what the walk avoids, and a step of a
two-pack deck that listed them took 135 s before its turn began). From
each, ``--walks`` moves are made at random action by action; printed are the turn's
set-up time, the max and mean time of one ``apply``, and the peak memory traced
(``tracemalloc``, a separate pass, since tracing slows every allocation). Prints
numbers; asserts nothing.
"""

from __future__ import annotations

import argparse
import random
import time
import tracemalloc
from typing import Any, Callable

import gymnasium
import numpy as np
import pyspiel
from pettingzoo import AECEnv
from pettingzoo.utils import wrappers

import arguments  # (benchmarks/arguments.py, beside this script)

import cassino.openspiel  # noqa: F401  (registers python_cassino)
from cassino.apps.research.stepwise import Setup, Step, Table, table_for
from cassino.engine.core import Engine, Position
from cassino.engine.state import HandState
from cassino.apps.research import pettingzoo as cassino_pettingzoo
from cassino.pettingzoo import env

#: (variant, the hand of the player to play, the ranks whose other cards all lie loose on the table,
#: whether the engine's count of the legal moves is printed: it lists them all)
WORST = (
    ("draw", "10S 9S 8S 7S", "K Q J 10 9 8 A 2 3", True),
    ("hungarian", "6S 5S 4S", "K Q J 10 9 8 A 2", True),
    ("krypkasino", "10S 8S 7S 6S", "9 A 2", False),
)


#: The clock the speeds are timed by: wall time, or with ``--clock cpu`` this process's CPU time (on a
#: shared machine other work slows the wall clock down, the CPU clock much less).
clock = time.perf_counter


def openspiel_speed(variant: str, seconds: float) -> tuple[float, float]:
    game = pyspiel.load_game("python_cassino", {"variant": variant})
    rng = random.Random(1)
    steps = moves = 0
    start = clock()
    while clock() - start < seconds:
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes = state.chance_outcomes()
                state.apply_action(outcomes[rng.randrange(len(outcomes))][0])
            else:
                state.apply_action(rng.choice(state.legal_actions()))
            steps += 1
        moves += sum(1 for entry in state.step.log if entry[0] == "move")
    elapsed = clock() - start
    return steps / elapsed, moves / elapsed


def aec_loop(e: Any, seconds: float, moves: Callable[[Any], int] = lambda e: 0) -> tuple[float, float]:
    """A user's AEC loop on ``e`` for ``seconds``, restarting at each end (seeds 0, 1, ...): steps and
    ``moves(e)`` counted at each end, both a second."""
    rng = np.random.default_rng(1)
    steps = played = 0
    seed = 0
    start = clock()
    while clock() - start < seconds:
        e.reset(seed=seed)
        seed += 1
        for agent in e.agent_iter():
            obs, _, terminated, truncated, _ = e.last()
            if terminated or truncated:
                e.step(None)
                continue
            e.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
            steps += 1
        played += moves(e)
    elapsed = clock() - start
    return steps / elapsed, played / elapsed


def pettingzoo_speed(variant: str, seconds: float, unwrapped: bool = False) -> tuple[float, float]:
    e = env(variant=variant)
    if unwrapped:   # (--unwrapped: the same loop without PettingZoo's wrappers)
        e = e.unwrapped
    return aec_loop(e, seconds, lambda e: sum(1 for entry in e.unwrapped.state_.log if entry[0] == "move"))


class Idle(AECEnv):
    """An environment that does nothing (``--ceiling``): two agents taking turns for 100 steps, the same
    observation and a 149-action mask each time, wrapped as ``env()`` wraps ours."""

    metadata = {"name": "idle_v0", "render_modes": [], "is_parallelizable": False}

    def __init__(self) -> None:
        super().__init__()
        self.possible_agents = ["player_0", "player_1"]
        # (the environment's own action space where it has one: ``contains`` is asked at every step)
        space = getattr(cassino_pettingzoo, "Actions", gymnasium.spaces.Discrete)
        self.action_spaces = {a: space(149) for a in self.possible_agents}
        mask = np.zeros(149, np.int8)
        mask[[3, 17, 40, 52]] = 1
        self.seen = {"observation": np.zeros(2000, np.float32), "action_mask": mask}

    def action_space(self, agent: str) -> gymnasium.spaces.Space:
        return self.action_spaces[agent]

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        return self.seen

    def reset(self, seed: int | None = None, options: dict | None = None) -> None:
        self.agents = self.possible_agents[:]
        self.rewards = {a: 0.0 for a in self.agents}
        self._cumulative_rewards = {a: 0.0 for a in self.agents}
        self.terminations = {a: False for a in self.agents}
        self.truncations = {a: False for a in self.agents}
        self.infos = {a: {} for a in self.agents}
        self.agent_selection = self.agents[0]
        self.steps = 0

    def step(self, action: int | None) -> None:
        agent = self.agent_selection
        if self.terminations[agent]:
            self._was_dead_step(action)
            return
        self.steps += 1
        if self.steps == 100:
            self.terminations = {a: True for a in self.agents}
        self.agent_selection = self.agents[self.steps % 2]


def ceiling_speed(seconds: float) -> float:
    """The PettingZoo loop's steps/s on :class:`Idle`, wrapped as ``env()`` wraps ours (our subclasses of
    PettingZoo's wrappers where the tree has them): what the wrappers, ``last()`` and the agent's own choice
    cost without any game."""
    wrap = getattr(cassino_pettingzoo, "OrderEnforcing", wrappers.OrderEnforcingWrapper)
    bounds = getattr(cassino_pettingzoo, "AssertOutOfBounds", wrappers.AssertOutOfBoundsWrapper)
    return aec_loop(wrap(bounds(Idle())), seconds)[0]


def vector_speed(variant: str, seconds: float, games: int) -> float:
    from cassino.vector import VectorEnv   # (here: --batch 0 runs on a tree without it, to compare)

    venv = VectorEnv(games, variant=variant, seed=0)
    _, masks, _ = venv.reset(seed=0)
    rng = np.random.default_rng(1)
    steps = 0
    start = clock()
    while clock() - start < seconds:
        batch = venv.step((rng.random(masks.shape) * masks).argmax(axis=1))
        masks = batch.masks
        steps += games
    return steps / (clock() - start)


def worst_position(variant: str, hand: str, ranks: str) -> tuple[Table, HandState]:
    """The game's table and the whole position of the worst-case turn."""
    table = table_for(Setup.from_params({"variant": variant}))
    engine = table.engine
    deck = engine.deck
    held = [deck.parse(c) for c in hand.split()]
    loose = [c for c in deck.cards if c not in held and c.rank in ranks.split()]
    other = [c for c in deck.cards if c not in held and c not in loose][:len(held)]
    state = engine.position(Position(players=2, hands={0: held, 1: other}, table=loose))
    return table, state


def _count_beyond_budget(rules: Any, state: HandState) -> int:
    """The position's legal moves, counted by an engine of its own whose listing budget is raised past them:
    the worst cases have more than ``Engine.move_budget`` moves, which every listing refuses (the step-wise
    actions above walk them lazily, as a player would)."""
    engine = Engine(rules)
    engine.move_budget = 10_000_000
    return engine.count_moves(state)


def worst_case(variant: str, hand: str, ranks: str, count: bool, walks: int) -> str:
    rng = random.Random(1)
    table, state = worst_position(variant, hand, ranks)
    t0 = time.perf_counter()
    start = Step.at(table, state)
    setup = time.perf_counter() - t0
    times: list[float] = []
    for _ in range(walks):
        step = start
        while not step.log[-1][0] == "move":
            action = rng.choice([a for a in step.legal if a != step.table.encoding.CLAIM])
            t0 = time.perf_counter()
            step = step.apply(action)
            times.append(time.perf_counter() - t0)
    # Memory: the same set-up and one walk again, traced.
    table, state = worst_position(variant, hand, ranks)
    tracemalloc.start()
    step = Step.at(table, state)
    while not step.log[-1][0] == "move":
        step = step.apply(rng.choice([a for a in step.legal if a != step.table.encoding.CLAIM]))
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    loose = bin(start.game.hand.table).count("1")
    moves = (f"{_count_beyond_budget(table.engine.rules, state):,} legal moves; the count is the engine's, "
             f"outside the times" if count else "legal moves not counted")
    return (f"worst {variant} ({loose} loose cards, {moves}): turn set-up {setup * 1000:.1f} ms, "
            f"apply max {max(times) * 1000:.1f} ms, "
            f"mean {sum(times) / len(times) * 1000:.2f} ms over {len(times)} steps; peak memory {peak / 1e6:.2f} MB")


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--seconds", type=arguments.seconds, default=5.0, help="seconds of play per framework and variant")
    p.add_argument("--variant", action="append", type=arguments.variant,
                   help="a bundled name or rule file (repeatable; default standard)")
    p.add_argument("--worst", action=argparse.BooleanOptionalAction, default=True,
                   help="also time the worst-case turns (30+ loose cards)")
    p.add_argument("--clock", choices=("wall", "cpu"), default="wall",
                   help="time the speeds by the wall clock (default) or by this process's CPU time")
    p.add_argument("--batch", type=arguments.count(0), default=64,
                   help="games stepped together by VectorEnv (0: skip the batched measurement)")
    p.add_argument("--unwrapped", action="store_true",
                   help="also time the PettingZoo loop on the environment without PettingZoo's wrappers")
    p.add_argument("--ceiling", action="store_true",
                   help="also time the PettingZoo loop on an environment that does nothing, wrapped as ours")
    p.add_argument("--walks", type=arguments.count(0), default=5, help="random moves made from each worst-case turn")
    p.add_argument("--only", action="append", metavar="VARIANT",
                   help="time only these worst cases (repeatable; e.g. --only krypkasino)")
    args = p.parse_args()
    global clock
    clock = time.process_time if args.clock == "cpu" else time.perf_counter
    if args.worst:
        for variant, hand, ranks, count in WORST:
            if not args.only or variant in args.only:
                print(worst_case(variant, hand, ranks, count, args.walks), flush=True)
    for variant in args.variant or ["standard"]:
        os_steps, os_moves = openspiel_speed(variant, args.seconds)
        pz_steps, pz_moves = pettingzoo_speed(variant, args.seconds)
        batched = ""
        if args.batch:
            batched = f"; VectorEnv ({args.batch} games) {vector_speed(variant, args.seconds, args.batch):,.0f} steps/s"
        if args.unwrapped:
            batched += f"; PettingZoo unwrapped {pettingzoo_speed(variant, args.seconds, unwrapped=True)[0]:,.0f} steps/s"
        print(f"{variant}: OpenSpiel {os_steps:,.0f} steps/s ({os_moves:,.0f} moves/s); "
              f"PettingZoo {pz_steps:,.0f} steps/s ({pz_moves:,.0f} moves/s){batched}", flush=True)
    if args.ceiling:
        print(f"PettingZoo's loop on an environment that does nothing, wrapped as ours: "
              f"{ceiling_speed(args.seconds):,.0f} steps/s", flush=True)


if __name__ == "__main__":
    main()
