"""Positions beyond the engine's listing budget: prints numbers, asserts nothing.

    python benchmarks/bounded_positions.py [--rounds N]

Every listing of legal moves is bounded by ``Engine.move_budget`` (item sets, unions and
moves, counted, not timed). This prints, for the positions that once took minutes, how
long the engine takes to refuse the listing, to check one given move, to offer a sample
(what a computer player and the move list use there), and to list everything when the
budget is raised, so a change that slows any of these shows here:

1. the rule file that froze a server (three Spanish packs, 100 cards on the table);
2. standard Casino with twenty cards of A-5 on the table (316,588 legal moves);
3. the same Escoba house rule at the largest deal `validate` allows (24 table cards), the
   dealer's initial sweeps included, over 200 deals.

Times are the best of ``--rounds`` wall-clock rounds, in milliseconds, each on a fresh
engine (nothing remembered from the round before).
"""

from __future__ import annotations

import argparse
import tempfile
import time
from pathlib import Path
from typing import Any, Callable

import arguments  # (benchmarks/arguments.py, beside this script)

from cassino import Engine, Position, format_move, load_rules
from cassino.errors import PositionTooLargeError

BIG = "name: big\nextends: escoba\ndeck: {packs: 3}\nseats: {max_players: 2}\ndeal: {%s}\n"


def best_ms(rounds: int, work: Callable[[], Any]) -> float:
    best = float("inf")
    for _ in range(rounds):
        start = time.perf_counter()
        work()
        best = min(best, time.perf_counter() - start)
    return best * 1000


def escoba(folder: Path, deal: str) -> Engine:
    path = folder / f"big-{abs(hash(deal))}.yaml"
    path.write_text(BIG % deal, encoding="utf-8")
    return Engine(load_rules(path))


def hundred_card_table(folder: Path) -> tuple[Engine, Any]:
    engine = escoba(folder, "table_cards: 20, hand_size: 10")
    cards = list(engine.deck.cards)
    return engine, engine.position(Position(players=2, hands={0: cards[:10], 1: cards[10:20]}, table=cards[20:120]))


def twenty_low_cards(_: Path) -> tuple[Engine, Any]:
    engine = Engine(load_rules("standard"))
    deck = engine.deck
    table = [c for c in deck.cards if c.rank in ("A", "2", "3", "4", "5")][:20]
    hands = {0: [deck.parse("10S"), deck.parse("9H")], 1: [deck.parse("KC"), deck.parse("QC")]}
    return engine, engine.position(Position(players=2, hands=hands, table=table))


def refused(engine: Engine, state: Any) -> None:
    try:
        engine.count_moves(state)
    except PositionTooLargeError:
        return
    raise SystemExit("the position was listed: the budget no longer refuses it")


def report(name: str, make: Callable[[Path], tuple[Engine, Any]], folder: Path, rounds: int) -> None:
    print(f"\n{name}")
    sample: list[Any] = []

    def refuse() -> None:
        engine, state = make(folder)
        refused(engine, state)

    def offer() -> None:
        engine, state = make(folder)
        sample[:] = [engine.some_moves(state, 64)]

    print(f"  listing refused:           {best_ms(rounds, refuse):9.1f} ms")
    print(f"  a sample of 64 offered:    {best_ms(rounds, offer):9.1f} ms ({len(sample[0])} moves)")
    engine, state = make(folder)
    move = sample[0][0]

    def check() -> None:
        fresh, position = make(folder)
        assert fresh.is_legal(position, move)

    print(f"  one given move checked:    {best_ms(rounds, check):9.1f} ms (`{format_move(move, engine.deck)}`)")
    engine.move_budget = 10_000_000
    start = time.perf_counter()
    try:
        n = engine.count_moves(state)
        print(f"  all listed (budget 10M):   {(time.perf_counter() - start) * 1000:9.1f} ms ({n:,} moves)")
    except PositionTooLargeError:
        print(f"  all listed (budget 10M):   beyond even that ({(time.perf_counter() - start) * 1000:.0f} ms to refuse)")


def deals(folder: Path, rounds: int) -> None:
    engine = escoba(folder, "table_cards: 24, hand_size: 8, dealer_takes_total: true")

    def work() -> None:
        for seed in range(200):
            engine.start(seed=seed, players=2)

    print("\nEscoba house rule, 24 cards dealt to the table, the dealer's sweeps")
    print(f"  200 deals:                 {best_ms(rounds, work):9.1f} ms")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=arguments.count(1), default=3,
                        help="rounds of each timing, the best kept (1-50, default 3)")
    args = parser.parse_args()
    rounds = max(1, min(args.rounds, 50))
    from cassino import native

    print(f"engine: {'compiled' if native.compiled() else 'pure Python'}; budget {Engine(load_rules('standard')).move_budget:,}")
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        report("Escoba, three packs, 100 cards on the table", hundred_card_table, folder, rounds)
        report("standard, twenty cards of A-5 on the table", twenty_low_cards, folder, rounds)
        deals(folder, rounds)


if __name__ == "__main__":
    main()
