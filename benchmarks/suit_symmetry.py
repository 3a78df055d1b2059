"""Every variant's hands played beside their twin with the suits renamed: prints numbers, asserts nothing (the
CI slice is tests/test_suit_symmetry.py).

    python benchmarks/suit_symmetry.py [--seeds N] [--first S] [--variants NAMES] [--examples] [--generated K]

No rule makes a play legal by a card's suit but through the values a rule file gives single cards, and the
African games' capture piles, stacked in the suits' order (``tests/suit_symmetry.py``). So each hand, from the
deal of each seed, is played with random legal moves beside a twin whose cards have their suits renamed (a
renaming that keeps every specially valued card's values), every action of a turn compared: the moves
listed, the seat to play, the cards taken, the sweeps, the last capturer. Every seating of each variant
chosen (each player count, with and without partners where the variant allows both); ``--examples``: the
shipped house rules too; ``--generated K``: K house rules drawn at random as the soak draws them
(``cassino.apps.authors.generated``), two seeds of every seating each. Printed: hands, positions and moves
compared, hands left out (no renaming the rules allow, or a table too large to list), and every difference.
"""

from __future__ import annotations

import argparse
import random
import sys
import tempfile
import time
from pathlib import Path

from arguments import count  # (benchmarks/arguments.py, beside this script)

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))
import suit_symmetry  # noqa: E402  (tests/suit_symmetry.py: the comparison itself)

from cassino.apps.authors import generated  # noqa: E402
from cassino.apps.authors.matrix import seatings  # noqa: E402
from cassino.errors import CassinoError  # noqa: E402
from cassino.language.variants import bundled_names  # noqa: E402

EXAMPLES = Path(__file__).resolve().parents[1] / "examples"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seeds", type=count(1), default=20, help="how many seeds a seating (default 20)")
    parser.add_argument("--first", type=count(0), default=1, help="the first seed (default 1)")
    parser.add_argument("--variants", default=None, help="bundled variants, comma-separated (default: all)")
    parser.add_argument("--examples", action="store_true", help="the shipped house rules (examples/) too")
    parser.add_argument("--generated", type=count(0), default=0,
                        help="house rules drawn at random, two seeds of every seating each (default 0)")
    args = parser.parse_args()
    names = bundled_names() if args.variants is None else [v.strip() for v in args.variants.split(",") if v.strip()]
    unknown = [n for n in names if n not in bundled_names()]
    if unknown or not names:
        parser.error(f"--variants: no bundled variant named {', '.join(unknown) or '(none given)'}; "
                     f"give some of {', '.join(bundled_names())}")
    seeds = range(args.first, args.first + args.seeds)
    reader = suit_symmetry.Reader()
    start = time.perf_counter()
    rows: list[tuple[str, suit_symmetry.Tally]] = []
    tally = suit_symmetry.run([(s.variant, s.players, s.partners) for s in seatings(names)], seeds, reader)
    rows.append((f"bundled ({len(names)} variants)", tally))
    if args.examples:
        files = sorted(EXAMPLES.glob("*.yaml"))
        chosen = [(Path(s.variant).name, s.players, s.partners) for s in seatings([str(f) for f in files])]
        rows.append((f"examples ({len(files)} house rules)", suit_symmetry.run(chosen, seeds, reader, EXAMPLES)))
    if args.generated:
        tally = suit_symmetry.Tally()
        rnd = random.Random(args.first)
        with tempfile.TemporaryDirectory() as folder:
            base = Path(folder)
            for k in range(args.generated):
                try:
                    path, data = generated.valid(rnd, bundled_names(), base, k)
                except CassinoError as error:
                    print(f"suit_symmetry: {error}", file=sys.stderr)
                    return 2
                chosen = [(path.name, s.players, s.partners) for s in seatings([str(path)])]
                before = len(tally.found)
                suit_symmetry.run(chosen, range(args.first + 2 * k, args.first + 2 * k + 2), reader, base, tally)
                if len(tally.found) > before:   # (the file goes with the folder: its settings said here)
                    print(f"{path.name} differs: {generated.summary(data)}")
        rows.append((f"generated ({args.generated} house rules)", tally))
    took = time.perf_counter() - start
    print(f"seeds {seeds.start}-{seeds.stop - 1}")
    differences = 0
    for label, t in rows:
        print(f"{label}: {t.hands:,} hands, {t.positions:,} positions, {t.moves:,} moves compared, "
              f"{t.skipped:,} hands left out; {len(t.found)} differences")
        for d in t.found:
            print(f"  {d}")
        differences += len(t.found)
    print(f"{differences} differences in all; {took:.0f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
