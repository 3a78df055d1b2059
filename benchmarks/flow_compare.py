"""What a move does, the engine against the clean-room ``tests/flow_reference.py``, over random games of every
seating: prints numbers, asserts nothing (the CI slice is tests/test_flow_reference.py).

    python benchmarks/flow_compare.py [--variants NAMES] [--seeds N] [--first S] [--examples K]

Every seating of each variant (each player count, with and without partners where both may play) plays seeds
S .. S+N-1 of random legal moves, and after every action the engine's next position is compared field by
field with the reference's (``tests/flow_compare.py``). Printed, a line a seating: hands, actions, the rarer
things the games went through (sweeps, cancelled sweeps, the last capturer's rest, pile cards, ...) and the
differences; then K differences in full, with the moves that lead to them.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

from arguments import count  # (benchmarks/arguments.py, beside this script)

from cassino.apps.authors.matrix import seatings
from cassino.language.variants import bundled_names

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))
import flow_compare  # noqa: E402  (tests/flow_compare.py: the comparison itself)


def _names(text: str) -> tuple[str, ...]:
    names = tuple(dict.fromkeys(part.strip() for part in text.split(",") if part.strip()))
    unknown = [n for n in names if n not in bundled_names()]
    if unknown or not names:
        raise argparse.ArgumentTypeError(f"{', '.join(unknown) or text!r}: give bundled variants, "
                                         f"e.g. standard,scopa (cassino list shows them)")
    return names


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--variants", type=_names, default=None, help="comma-separated (default: every bundled one)")
    parser.add_argument("--seeds", type=count(1), default=5, help="hands a seating (default 5)")
    parser.add_argument("--first", type=count(0), default=1, help="the first seed (default 1)")
    parser.add_argument("--examples", type=count(0), default=3, help="differences printed in full (default 3)")
    args = parser.parse_args()
    seeds = range(args.first, args.first + args.seeds)
    start = time.perf_counter()
    hands = actions = 0
    differences: list[flow_compare.Difference] = []
    for s in seatings(args.variants):
        tally = flow_compare.compare(s.variant, s.players, s.partners, seeds)
        hands += tally.games
        actions += tally.actions
        differences += tally.differences
        seen = ", ".join(f"{k} {v:,}" for k, v in sorted(tally.seen.items()))
        print(f"{s.variant:<22} {s.players}p{' partners' if s.partners else '         '} {tally.games:>5} hands "
              f"{tally.actions:>8,} actions  differences {len(tally.differences)}  ({seen})", flush=True)
    print(f"\n{hands:,} hands, {actions:,} actions, {len(differences)} differences "
          f"({time.perf_counter() - start:.0f} s)")
    for d in differences[:args.examples]:
        print(f"  {d}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
