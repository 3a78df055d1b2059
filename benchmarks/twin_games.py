"""Every variant's hands played beside a twin, the suits renamed or the seats moved round the table: prints
numbers, asserts nothing (the CI slice is tests/test_twin_games.py).

    python benchmarks/twin_games.py [--kind suits|seats|builds] [--seeds N] [--first S] [--variants NAMES]
                                    [--examples] [--generated K]

No rule makes a play legal by a card's suit but through the values a rule file gives single cards, and the
African games' capture piles, stacked in the suits' order; none by a seat's number but through the order
round the table (``tests/twin_games.py``). So each hand, from the deal of each seed, is played with random
legal moves beside a twin whose cards have their suits renamed (``--kind suits``, the default: a renaming
that keeps every specially valued card's values) or whose seats are all moved a random number of places on
(``--kind seats``), every action of a turn compared: the moves listed, the seat to play, the cards taken, the
sweeps, the last capturer, and with the seats moved each seat's points at the hand's end. ``--kind builds``:
every turn's start with two builds or more on the table, its builds listed in other orders (the same moves). Every seating of each variant
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
import twin_games  # noqa: E402  (tests/twin_games.py: the comparison itself)

from cassino.apps.authors import generated  # noqa: E402
from cassino.apps.authors.matrix import seatings  # noqa: E402
from cassino.errors import CassinoError  # noqa: E402
from cassino.language.variants import bundled_names  # noqa: E402

EXAMPLES = Path(__file__).resolve().parents[1] / "examples"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--kind", choices=twin_games.KINDS, default="suits",
                        help="the twin: suits renamed (default), seats moved round the table, or builds reordered")
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
    reader = twin_games.Reader()
    start = time.perf_counter()
    rows: list[tuple[str, twin_games.Tally]] = []
    tally = twin_games.run([(s.variant, s.players, s.partners) for s in seatings(names)], seeds, reader,
                           kind=args.kind)
    rows.append((f"bundled ({len(names)} variants)", tally))
    if args.examples:
        files = sorted(EXAMPLES.glob("*.yaml"))
        chosen = [(Path(s.variant).name, s.players, s.partners) for s in seatings([str(f) for f in files])]
        rows.append((f"examples ({len(files)} house rules)",
                     twin_games.run(chosen, seeds, reader, EXAMPLES, kind=args.kind)))
    if args.generated:
        tally = twin_games.Tally()
        rnd = random.Random(args.first)
        with tempfile.TemporaryDirectory() as folder:
            base = Path(folder)
            for k in range(args.generated):
                try:
                    path, data = generated.valid(rnd, bundled_names(), base, k)
                except CassinoError as error:
                    print(f"twin_games: {error}", file=sys.stderr)
                    return 2
                chosen = [(path.name, s.players, s.partners) for s in seatings([str(path)])]
                before = len(tally.found)
                twin_games.run(chosen, range(args.first + 2 * k, args.first + 2 * k + 2), reader, base, tally,
                               args.kind)
                if len(tally.found) > before:   # (the file goes with the folder: its settings said here)
                    print(f"{path.name} differs: {generated.summary(data)}")
        rows.append((f"generated ({args.generated} house rules)", tally))
    took = time.perf_counter() - start
    print(f"{args.kind}; seeds {seeds.start}-{seeds.stop - 1}")
    differences = 0
    for label, t in rows:
        print(f"{label}: {t.hands:,} hands, {t.positions:,} positions, {t.moves:,} moves compared, "
              f"{t.skipped:,} left out (no renaming the rules allow, or too large to list); {len(t.found)} differences")
        for d in t.found:
            print(f"  {d}")
        differences += len(t.found)
    print(f"{differences} differences in all; {took:.0f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
