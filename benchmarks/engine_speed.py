"""Engine speed: prints numbers, asserts nothing (speed is measured, not tested).

    python benchmarks/engine_speed.py [--hands N] [--memory-hands M]

1. Microseconds to generate all legal moves of a 4-card hand on fixed positions,
   including a table of 20 loose cards.
2. Full random 2-player `standard` hands per second (a random legal move each
   ply, every ply's moves enumerated), and microseconds per hand.
3. Peak traced memory over a long run of hands (should stay flat).
"""

from __future__ import annotations

import argparse
import gc
import random
import statistics
import time
import tracemalloc

from cassino.engine.core import Engine, Position
from cassino.language.variants import load_rules

POSITIONS = {
    "opening (4 table cards)": (["9D", "2C", "5S", "KH"], ["9C", "4D", "5H", "KS"], []),
    "builds on the table": (["3H", "9S", "6C", "8D"], ["3S", "5C", "AH"], [(["2D", "4C"], 6, 1), (["5D", "4S"], 9, 1)]),
    "12 loose cards": (["10S", "9H", "8C", "7D"], ["AS", "2S", "3S", "4S", "5S", "6S", "AH", "2H", "3H", "4H", "5H", "6H"], []),
    "20 loose cards, mixed ranks": (["10S", "9H", "8C", "7D"],
                                    ["AS", "3S", "5S", "7S", "9S", "JS", "KS", "2H", "4H", "6H",
                                     "8H", "10H", "QH", "AD", "3D", "5D", "7D", "9D", "JC", "QC"], []),
}
# A worst case, reported on its own: 16 cards of 1 to 4, where the legal moves themselves
# number tens of thousands (every way to split a subset into sets of 10, 9, 8 or 7).
STRESS = ("16 loose cards A-4 (stress)", (["10S", "9H", "8C", "7D"],
          ["AS", "2S", "3S", "4S", "AH", "2H", "3H", "4H", "AD", "2D", "3D", "4D", "AC", "2C", "3C", "4C"], []))


def bench_positions(engine: Engine) -> None:
    deck = engine.deck
    print("legal moves of a 4-card hand (standard):")
    for name, (hand, table, builds) in [*POSITIONS.items(), STRESS]:
        state = engine.position(Position(
            players=2, hands={0: [deck.parse(c) for c in hand]}, table=[deck.parse(c) for c in table],
            builds=[([deck.parse(c) for c in cards], v, o) for cards, v, o in builds]))
        times = []
        count = 0
        for _ in range(1 if name == STRESS[0] else 5 if len(table) > 12 else 50):
            t = time.perf_counter()
            count = len(engine.legal_moves(state))
            times.append(time.perf_counter() - t)
        print(f"  {name:<26} {statistics.median(times) * 1e6:>12.0f} us  ({count} moves)")


def play_hand(engine: Engine, seed: int) -> int:
    rnd = random.Random(seed)
    state = engine.start(seed, 2)
    plies = 0
    while not state.over:
        moves = engine.legal_moves(state)
        state = engine.apply(state, rnd.choice(moves))
        plies += 1
    return plies


def bench_hands(engine: Engine, hands: int) -> None:
    t = time.perf_counter()
    plies = sum(play_hand(engine, seed) for seed in range(hands))
    dt = time.perf_counter() - t
    print(f"random 2-player standard hands: {hands / dt:.0f} hands/s, {dt / hands * 1e3:.2f} ms per hand, "
          f"{plies / hands:.0f} plies per hand")


def bench_memory(engine: Engine, hands: int) -> None:
    tracemalloc.start()
    checkpoints = []
    step = max(hands // 5, 1)
    for seed in range(hands):
        play_hand(engine, seed)
        if (seed + 1) % step == 0:
            gc.collect()  # count what is still referenced, not garbage waiting for a collection
            checkpoints.append(tracemalloc.get_traced_memory()[0] / 1024)
    peak = tracemalloc.get_traced_memory()[1] / 1024
    tracemalloc.stop()
    print(f"memory over {hands} hands: current KiB at each fifth {[round(c) for c in checkpoints]}, peak {peak:.0f} KiB")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--hands", type=int, default=2000)
    parser.add_argument("--memory-hands", type=int, default=2000)
    args = parser.parse_args()
    engine = Engine(load_rules("standard"))
    bench_positions(engine)
    bench_hands(engine, args.hands)
    bench_memory(engine, args.memory_hands)


if __name__ == "__main__":
    main()
