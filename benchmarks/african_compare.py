"""The engine's legal moves in African Casino against the clean-room reference, over random games: prints
numbers, asserts nothing (the CI slice is tests/test_african_reference.py).

    python benchmarks/african_compare.py [--seeds N] [--first S] [--players 2,3,4] [--variants NAMES]
                                         [--examples K] [--whole-turns [--heavy]]

Seeds S .. S+N-1 of every seating chosen (``tests/african_compare.py``'s SEATINGS: each variant at each
player count, four players with partners, and South African four also without). Printed: positions
compared (and left out as too large for the reference's brute force), disagreements by class (a reading
a variant file declares, a reference error written up for the reference's author, or unexplained), the
undeclared count (reference errors and unexplained ones), K examples of each class, and the time taken.

With ``--whole-turns``, whole turns of several actions instead (``tests/african_turns_compare.py`` against
``african_turns_reference``): every result a turn can leave, from the turn starts of random games with
discards preferred half the time, so that layouts grow, and at most 8 cards in play (layout and pile tops
in reach); ``--heavy``: the turn starts with 9 to 12 cards in play instead, discards preferred four times in five.
"""

from __future__ import annotations

import argparse
import sys
import time
from collections import Counter
from pathlib import Path

from arguments import count  # (benchmarks/arguments.py, beside this script)

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))
import african_compare  # noqa: E402  (tests/african_compare.py: the comparison itself)
import african_turns_compare  # noqa: E402  (tests/african_turns_compare.py: whole turns)

VARIANTS = tuple(dict.fromkeys(v for v, _, _ in african_compare.SEATINGS))


def _players(text: str) -> tuple[int, ...]:
    """Comma-separated player counts, each 2, 3 or 4."""
    chosen: list[int] = []
    for part in text.split(","):
        if part.strip() not in ("2", "3", "4"):
            raise argparse.ArgumentTypeError(f"{text!r}: give player counts from 2, 3, 4, comma-separated")
        chosen.append(int(part))
    return tuple(sorted(set(chosen)))


def _variants(text: str) -> tuple[str, ...]:
    """Comma-separated names of the compared variants."""
    chosen = tuple(dict.fromkeys(part.strip() for part in text.split(",")))
    for name in chosen:
        if name not in VARIANTS:
            raise argparse.ArgumentTypeError(f"{name!r} is not compared: give some of {', '.join(VARIANTS)}")
    return chosen


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seeds", type=count(1), default=10, help="how many seeds a seating (default 10)")
    parser.add_argument("--first", type=count(0), default=1, help="the first seed (default 1)")
    parser.add_argument("--players", type=_players, default=(2, 3, 4), help="player counts (default 2,3,4)")
    parser.add_argument("--variants", type=_variants, default=VARIANTS, help=f"default {','.join(VARIANTS)}")
    parser.add_argument("--examples", type=count(0), default=1, help="examples printed a class (default 1)")
    parser.add_argument("--whole-turns", action="store_true",
                        help="compare what whole turns of several actions can leave, not single actions")
    parser.add_argument("--heavy", action="store_true",
                        help="with --whole-turns: the turn starts with 9 to 12 cards in play (layout and pile tops "
                             "in reach), discards preferred four times in five, rather than those with 8 or fewer")
    args = parser.parse_args()
    seatings = tuple(s for s in african_compare.SEATINGS if s[0] in args.variants and s[1] in args.players)
    if not seatings:
        parser.error("no seating is left: South African plays 2, 3 or 4, Swazi 2, 3 or 4 (with partners)")
    if args.heavy and not args.whole_turns:
        parser.error("--heavy compares whole turns: give --whole-turns too")
    if args.whole_turns:
        return whole_turns(seatings, range(args.first, args.first + args.seeds), args.examples, args.heavy)
    start = time.perf_counter()
    tally = african_compare.run(seatings, range(args.first, args.first + args.seeds))
    took = time.perf_counter() - start
    classes = Counter(african_compare.classify(d) for d in tally.found)
    print(f"seatings: {', '.join(f'{v} {p}p' + (' partners' if q else '') for v, p, q in seatings)}")
    print(f"seeds {args.first}-{args.first + args.seeds - 1}: {tally.positions:,} positions compared, "
          f"{tally.skipped:,} left out (more than {african_compare.MAX_LOOSE} loose cards or too many moves)")
    print(f"disagreements: {len(tally.found):,}")
    for name, n in classes.most_common():
        print(f"  {n:>7,}  {name}")
        if args.examples:
            for d in [d for d in tally.found if african_compare.classify(d) == name][:args.examples]:
                print(f"           e.g. {d}")
    print(f"undeclared: {len(tally.undeclared):,} (unexplained: {classes.get('unexplained', 0):,})")
    print(f"time: {took:.1f} s ({tally.positions / took if took else 0:,.0f} positions a second)")
    return 0


def whole_turns(seatings: tuple[tuple[str, int, bool], ...], seeds: range, examples: int, heavy: bool = False) -> int:
    """The whole-turn comparison's numbers (``heavy``: the heavier tables)."""
    atc = african_turns_compare
    in_play, bias = (atc.HEAVY, atc.HEAVY_TRAIL_BIAS) if heavy else (atc.LIGHT, 0.5)
    start = time.perf_counter()
    tally = atc.run(seatings, seeds, trail_bias=bias, in_play=in_play)
    took = time.perf_counter() - start
    classes = Counter(atc.declared(d) or "unexplained" for d in tally.found)
    print(f"seatings: {', '.join(f'{v} {p}p' + (' partners' if q else '') for v, p, q in seatings)}")
    print(f"seeds {seeds.start}-{seeds.stop - 1}: {tally.positions:,} turn starts compared with "
          f"{in_play.start} to {in_play.stop - 1} cards in play, {tally.too_large:,} left "
          f"out (more than {atc.MAX_NODES:,} positions in the turn)")
    print(f"results of whole turns: {tally.results:,}; differences: {len(tally.found):,}")
    for name, n in classes.most_common():
        print(f"  {n:>7,}  {name}")
        for d in [d for d in tally.found if (african_turns_compare.declared(d) or "unexplained") == name][:examples]:
            print(f"           e.g. {d}")
    print(f"undeclared: {len(tally.undeclared):,}")
    print(f"time: {took:.1f} s ({tally.positions / took if took else 0:,.0f} turn starts a second)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
