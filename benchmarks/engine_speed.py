"""Engine speed: prints numbers, asserts nothing (speed is measured, not tested).

    python benchmarks/engine_speed.py [--hands N] [--games G] [--memory-hands M] [--engine both|compiled|pure]

The compiled engine (mypyc, what `pip install .` builds where a C compiler is) and
the pure-Python engine (the same source; `CASSINO_PURE_PYTHON=1`) are timed side by
side in one process, each against the figures measured before the engine was
rewritten (commit 0b9beda, this script's predecessor, the same 2-core machine):

1. Legal moves of a 4-card hand on fixed positions, as integer keys (`move_keys`) and
   as Move objects (`legal_moves`), including tables of 12 and 20 loose cards.
2. Random 2-player `standard` hands, every ply's legal moves enumerated (as keys, and
   as Move objects), shuffle and deal included: microseconds per hand, and the ratio to
   the Rust engine's hand (abartnof/cassino, timed on the same machine). Each ply's move is
   chosen by a random number drawn before the hand is timed (`--choice drawn`), so that the
   time is the engine's and not Python's `randrange` (`--choice randrange`, as before). Then the same
   for Royal Casino, Scopa and Krypkasino (two packs), each as a ratio to `standard`.
3. `cassino simulate standard` (greedy players) and the search player's sampled deals per
   second, configured as it was before (`old:64`) and as it plays now.
4. Memory over a long run of hands (should stay flat).

Times are CPU seconds of this process (`time.process_time`), the best of three rounds,
so other work on the machine disturbs them less than wall-clock times would.
"""

from __future__ import annotations

import argparse
import gc
import random
import statistics
import time
import tracemalloc
from types import ModuleType
from typing import Any, Callable

import arguments  # (benchmarks/arguments.py, beside this script)

from cassino import native

POSITIONS = {
    "opening (4 table cards)": (["9D", "2C", "5S", "KH"], ["9C", "4D", "5H", "KS"], []),
    "builds on the table": (["3H", "9S", "6C", "8D"], ["3S", "5C", "AH"], [(["2D", "4C"], 6, 1), (["5D", "4S"], 9, 1)]),
    "12 loose cards": (["10S", "9H", "8C", "7D"], ["AS", "2S", "3S", "4S", "5S", "6S", "AH", "2H", "3H", "4H", "5H", "6H"], []),
    # (Its table named the 7D, also in the hand, until a Position placing a card twice was refused (session 94):
    # the 7C since. Its figures on docs/performance.md before then are of the table with the 7D.)
    "20 loose cards, mixed ranks": (["10S", "9H", "8C", "7D"],
                                    ["AS", "3S", "5S", "7S", "9S", "JS", "KS", "2H", "4H", "6H",
                                     "8H", "10H", "QH", "AD", "3D", "5D", "7C", "9D", "JC", "QC"], []),
    # A worst case: 16 cards of 1 to 4, where the legal moves themselves number tens of
    # thousands (every way to split a subset into sets of 10, 9, 8 or 7).
    "16 loose cards A-4 (stress)": (["10S", "9H", "8C", "7D"],
                                    ["AS", "2S", "3S", "4S", "AH", "2H", "3H", "4H", "AD", "2D", "3D", "4D",
                                     "AC", "2C", "3C", "4C"], []),
}

#: Measured before the rewrite (commit 0b9beda: `python benchmarks/engine_speed.py --hands 300`,
#: 2 cores, at the start of the session that rewrote the engine; Move objects were all it had).
#: Issue 10 measured 4.15 ms a hand on a busier run, ANCHORS.md 1.90 ms on a quiet one.
BEFORE_US = {
    "opening (4 table cards)": 89, "builds on the table": 137, "12 loose cards": 12154,
    "20 loose cards, mixed ranks": 18901, "16 loose cards A-4 (stress)": 1079019,
    "hand": 2480, "simulate game": 18000, "search deals per second": 1850,
}
# The search deals/s "before" is that commit's search player on its own engine, timed on
# 2026-11-23 by this script's count (deals as they are dealt); the figure first recorded,
# 2960, counted 64 deals for every decision, also those where candidates dropped out early.
#: A random 2-player standard hand in the Rust engine abartnof/cassino (u64 card bitsets), timed on
#: this machine beside ours: 0.033-0.042 ms (docs/performance.md); issue 52's goal is twice it.
RUST_HAND_MS = 0.036
#: Numbers drawn for a hand's choices (``--choice drawn``): more than a 2-player hand's plies in any of the
#: variants timed (Krypkasino's two packs, 104 cards); a longer hand would reuse them from the start.
DRAWS = 128
#: Other variants timed the same way, each against `standard` (a quarter of --hands each).
OTHER_VARIANTS = ("royal", "scopa", "krypkasino")
#: The search as it was before (benchmarks/bot_strength.py calls it old:64).
OLD_SEARCH = {"exact": False, "exact_cards": 0, "evaluation": "worth"}


def engine_modules(which: str) -> dict[str, ModuleType]:
    """The modules of the compiled (installed) package or of its pure-Python copy."""
    from importlib import import_module

    names = ["engine.core", "language.variants", "apps.authors.simulate", "players.bots", "engine.game"]
    if which == "pure":
        return {n: native.pure_copy(n) for n in names}
    return {n: import_module(f"cassino.{n}") for n in names}


def best_of(rounds: int, work: Callable[[], Any]) -> float:
    best = float("inf")
    for _ in range(rounds):
        start = time.process_time()
        work()
        best = min(best, time.process_time() - start)
    return best


def fresh_copies_timed(state: Any, reps: int, work: Callable[[Any], Any]) -> float:
    """CPU seconds of ``work`` on a position, best of three rounds of ``reps`` calls, each call
    on a fresh copy: the engine remembers the last position's moves (so that play() after
    legal_moves() does not work them out twice), which must not be what is timed."""
    best = float("inf")
    for _ in range(3):
        copies = [state.with_() for _ in range(reps)]
        start = time.process_time()
        for c in copies:
            work(c)
        best = min(best, time.process_time() - start)
    return best / reps


class Bench:
    def __init__(self, which: str, choice: str = "drawn") -> None:
        self.which = which
        self.choice = choice
        self._draws: dict[int, list[float]] = {}
        self.mods = engine_modules(which)
        core, variants = self.mods["engine.core"], self.mods["language.variants"]
        self.engine = core.Engine(variants.load_rules("standard"))
        self.core = core
        self.engines = {"standard": self.engine}

    def engine_for(self, variant: str) -> Any:
        if variant not in self.engines:
            self.engines[variant] = self.core.Engine(self.mods["language.variants"].load_rules(variant))
        return self.engines[variant]

    def position(self, name: str) -> Any:
        hand, table, builds = POSITIONS[name]
        deck = self.engine.deck
        return self.engine.position(self.core.Position(
            players=2, hands={0: [deck.parse(c) for c in hand]}, table=[deck.parse(c) for c in table],
            builds=[([deck.parse(c) for c in cards], v, o) for cards, v, o in builds]))

    def positions(self) -> dict[str, tuple[float, float, int]]:
        out = {}
        for name in POSITIONS:
            state = self.position(name)
            reps = 1 if "stress" in name else (3 if len(POSITIONS[name][1]) > 12 else 30)
            keys = fresh_copies_timed(state, reps, self.engine.move_keys)
            moves = fresh_copies_timed(state, reps, self.engine.legal_moves)
            out[name] = (keys * 1e6, moves * 1e6, self.engine.count_moves(state))
        return out

    def draws(self, seed: int) -> list[float]:
        """The random numbers that choose a hand's moves, drawn before it is timed (``--choice drawn``)."""
        if seed not in self._draws:
            rnd = random.Random(seed)
            self._draws[seed] = [rnd.random() for _ in range(DRAWS)]
        return self._draws[seed]

    def hand(self, seed: int, as_keys: bool = True, variant: str = "standard") -> int:
        """One random hand, every ply's moves enumerated (as keys, or as Move objects); each ply's move chosen
        by a number drawn before the hand (``choice`` "drawn") or by ``randrange`` during it ("randrange")."""
        e = self.engine_for(variant)
        legal, apply = (e.move_keys, e.apply_key) if as_keys else (e.legal_moves, e.apply)
        state = e.start(seed, 2)
        plies = 0
        if self.choice == "drawn":
            draws = self.draws(seed)
            while not state.over:
                moves = legal(state)
                state = apply(state, moves[int(draws[plies % DRAWS] * len(moves))])
                plies += 1
            return plies
        rnd = random.Random(seed)
        while not state.over:
            moves = legal(state)
            state = apply(state, moves[rnd.randrange(len(moves))])
            plies += 1
        return plies

    def game_hand(self, seed: int) -> int:
        """One random 2-player standard hand as a front end plays it: through ``Game`` (a new game, each
        move checked by ``Game.play``, the hand scored at its end), the moves chosen as ``hand``'s."""
        game = self.mods["engine.game"].Game.new(self.engine, seed, 2).with_(target=None)
        draws, plies = self.draws(seed), 0
        while not game.over:
            moves = game.legal_moves()
            game = game.play(moves[int(draws[plies % DRAWS] * len(moves))])
            plies += 1
        return plies

    def game_hands(self, n: int) -> float:
        return best_of(3, lambda: [self.game_hand(s) for s in range(n)]) / n * 1e6

    def hands(self, n: int, variant: str = "standard") -> tuple[float, float, float]:
        keys = best_of(3, lambda: [self.hand(s, True, variant) for s in range(n)]) / n
        moves = best_of(3, lambda: [self.hand(s, False, variant) for s in range(n)]) / n
        plies = statistics.mean(self.hand(s, True, variant) for s in range(min(n, 200)))
        return keys * 1e6, moves * 1e6, plies

    def simulate(self, games: int) -> tuple[float, dict[str, Any]]:
        run = self.mods["apps.authors.simulate"].run
        summary: dict[str, Any] = {}

        def work() -> None:
            summary.update(run("standard", games, 1, None, False, ("greedy",), 1))
        seconds = best_of(3, work)
        return seconds / games * 1e6, summary

    def search_deals_per_second(self, **settings: Any) -> float:
        """Sampled deals the search player plays out per second of its own time: the first 12
        decisions of a 2-player standard game, 64 deals a move (fewer where candidates drop out
        early, more where the choice is close), every deal counted as it is dealt."""
        bots, game_mod = self.mods["players.bots"], self.mods["engine.game"]
        game = game_mod.Game.new(self.engine, 3, 2)
        bot = bots.SearchBot(1, iterations=64, **settings)
        dealt = 0
        determinize = bot.determinize

        def counted(*args: Any) -> Any:
            nonlocal dealt
            dealt += 1
            return determinize(*args)
        bot.determinize = counted
        start = time.process_time()
        for _ in range(12):
            if game.over:
                break
            bot.rng = random.Random(7)
            game = game.play(bot.choose(game, game.hand.turn))
        return dealt / (time.process_time() - start)


def memory(bench: Bench, hands: int) -> str:
    tracemalloc.start()
    checkpoints = []
    step = max(hands // 5, 1)
    for seed in range(hands):
        bench.hand(seed)
        bench._draws.pop(seed, None)   # the harness's numbers for the hand, not the engine's memory
        if (seed + 1) % step == 0:
            gc.collect()  # count what is still referenced, not garbage waiting for a collection
            checkpoints.append(tracemalloc.get_traced_memory()[0] / 1024)
    peak = tracemalloc.get_traced_memory()[1] / 1024
    tracemalloc.stop()
    return f"current KiB at each fifth {[round(c) for c in checkpoints]}, peak {peak:.0f} KiB"


def ratio(before: float, now: float) -> str:
    return f"{before / now:6.1f}x" if now else "     -"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--hands", type=arguments.count(1), default=2000, help="random hands per round (default 2000)")
    parser.add_argument("--games", type=arguments.count(1), default=200, help="simulated games (default 200)")
    parser.add_argument("--memory-hands", type=arguments.count(1), default=20000,
                        help="hands of the memory run (default 20000; 100000 for the full check)")
    parser.add_argument("--engine", choices=["both", "compiled", "pure"], default="both")
    parser.add_argument("--choice", choices=["drawn", "randrange"], default="drawn",
                        help="how a random hand chooses each move: by numbers drawn before it is timed (default), "
                             "or by random.randrange as it goes, as this script did until issue 52's fourth round "
                             "(about a fifth of a keyed hand's instructions)")
    args = parser.parse_args()
    which = ["compiled", "pure"] if args.engine == "both" else [args.engine]
    if "compiled" in which and not native.compiled():
        print("(the installed engine is not compiled: `pip install .` with a C compiler builds it; "
              "showing the pure-Python engine only)")
        which = ["pure"]
    benches = {w: Bench(w, args.choice) for w in which}
    cols = "".join(f"{w + ' keys':>15}{w + ' Moves':>15}{'x before':>10}" for w in which)
    print(f"legal moves of a 4-card hand (standard), microseconds:\n  {'position':<30}{'moves':>7}{'before':>10}{cols}")
    results = {w: b.positions() for w, b in benches.items()}
    for name in POSITIONS:
        count = results[which[0]][name][2]
        line = f"  {name:<30}{count:>7}{BEFORE_US[name]:>10}"
        for w in which:
            keys, moves, _ = results[w][name]
            line += f"{keys:>15.0f}{moves:>15.0f}{ratio(BEFORE_US[name], moves):>10}"
        print(line)

    print(f"\nrandom 2-player standard hands, every ply's moves enumerated, shuffle and deal included, "
          f"moves chosen {'by numbers drawn before' if args.choice == 'drawn' else 'by randrange'} "
          f"(best of 3 rounds of {args.hands}; before: {BEFORE_US['hand'] / 1000:.2f} ms):")
    standard: dict[str, tuple[float, float]] = {}
    for w in reversed(which):   # the compiled engine's line last (scripts read the last line)
        keys, moves, plies = benches[w].hands(args.hands)
        standard[w] = (keys, moves)
        print(f"  {w:<9} Move objects {moves / 1000:.3f} ms ({ratio(BEFORE_US['hand'], moves).strip()} before, "
              f"{moves / 1000 / RUST_HAND_MS:.2f}x Rust's {RUST_HAND_MS} ms);   "
              f"keys {keys / 1000:.3f} ms per hand ({ratio(BEFORE_US['hand'], keys).strip()} before, "
              f"{keys / 1000 / RUST_HAND_MS:.2f}x Rust's), {plies:.0f} plies")
    print("the same hands played through Game (a new game, every move checked, the hand scored), as front ends do:")
    for w in reversed(which):
        whole = benches[w].game_hands(args.hands)
        print(f"  {w:<9} {whole / 1000:.3f} ms a hand ({whole / standard[w][1]:.2f}x the engine's Move objects)")

    other = max(args.hands // 4, 1)
    print(f"\nrandom 2-player hands of other variants, the same way (best of 3 rounds of {other}), "
          f"and their time against standard's:")
    for variant in OTHER_VARIANTS:
        for w in reversed(which):
            keys, moves, plies = benches[w].hands(other, variant)
            print(f"  {variant:<11}{w:<9} Move objects {moves / 1000:.3f} ms ({moves / standard[w][1]:.2f}x standard);   "
                  f"keys {keys / 1000:.3f} ms ({keys / standard[w][0]:.2f}x standard), {plies:.0f} plies")

    print(f"\nsimulate standard, greedy players, {args.games} games (before: {BEFORE_US['simulate game']} us a game); "
          f"the search player's sampled deals per second, as it was before (rollouts valued by card worth, "
          f"no solver; before: {BEFORE_US['search deals per second']} deals/s) and as it is now (the outlook, "
          f"the solver in the last cards):")
    summaries = []
    for w, b in benches.items():
        per_game, summary = b.simulate(args.games)
        summaries.append(summary)
        old = max(b.search_deals_per_second(**OLD_SEARCH) for _ in range(3))
        new = max(b.search_deals_per_second() for _ in range(3))
        print(f"  {w:<9} {per_game:8.0f} us a game ({ratio(BEFORE_US['simulate game'], per_game).strip()} before)   "
              f"search as before {old:7.0f} deals/s ({old / BEFORE_US['search deals per second']:.1f}x before), "
              f"as now {new:7.0f} deals/s")
    if len(summaries) == 2:
        print(f"  same results from both engines for the same seed: {summaries[0] == summaries[1]}")

    if args.memory_hands:
        bench = benches[which[0]]
        print(f"\nmemory over {args.memory_hands} hands ({which[0]}): {memory(bench, args.memory_hands)}")


if __name__ == "__main__":
    main()
