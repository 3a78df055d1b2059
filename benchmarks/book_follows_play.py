"""Does the rulebook change wherever the play does? Over house rules drawn at random, each setting a rule
overrides is taken out again, and where the two rulebooks then read the same, the play must be the same too.
Prints numbers, asserts nothing (the check and its reasons are ``tests/book_follows.py``; its CI slice
``tests/test_book_follows_play.py``).

    python benchmarks/book_follows_play.py [--seeds N] [--first S] [--tries T] [--bases NAMES] [--examples K]

Printed: the settings taken out, by outcome: *said* (the books differ), *silent* (the books are the same and a
position's legal moves, or the sample hand's points, differ: a fault of the book), *idle* (neither differs: the
setting has the base's value, or cannot act under the others), *invalid* (the rule without it does not
validate), *unread, yet plays* (the rule marks the setting unread, as `explain` and `validate` say, and taking it
out changes the play: a fault of the marking), *moot in diff, yet plays* (the books differ and `cassino diff` says
the difference cannot change the game, and it does); then the faults by setting, and examples.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path

from arguments import count  # (benchmarks/arguments.py, beside this script)

from cassino.language.catalogue import bundled_names

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))
from book_follows import Silent, checks  # noqa: E402  (tests/book_follows.py: the check itself)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seeds", type=count(1), default=20, help="house rules drawn (default 20)")
    parser.add_argument("--first", type=count(0), default=1, help="the first seed (default 1)")
    parser.add_argument("--tries", type=count(1), default=60, help="positions searched a difference (default 60)")
    parser.add_argument("--bases", default=None, help="comma-separated bundled variants to draw over (default all)")
    parser.add_argument("--examples", type=count(0), default=20, help="silent settings printed (default 20)")
    args = parser.parse_args()
    bases = bundled_names() if args.bases is None else [b.strip() for b in args.bases.split(",") if b.strip()]
    unknown = [b for b in bases if b not in bundled_names()]
    if unknown or not bases:
        parser.error(f"--bases: {', '.join(unknown) or 'none given'}: name bundled variants "
                     f"({', '.join(bundled_names())})")
    tally: Counter[str] = Counter()
    silent: list[tuple[str, Silent]] = []
    start = time.perf_counter()
    with tempfile.TemporaryDirectory() as tmp:
        for seed in range(args.first, args.first + args.seeds):
            began = time.perf_counter()
            for outcome, found in checks(seed, list(bases), args.tries, Path(tmp)):
                tally[outcome] += 1
                if found is not None:
                    silent.append((outcome, found))
                    print(f"seed {seed}: {found.setting} {outcome}", file=sys.stderr, flush=True)
            if time.perf_counter() - began > 20:
                print(f"seed {seed} took {time.perf_counter() - began:.0f} s", file=sys.stderr, flush=True)
    took = time.perf_counter() - start
    print(f"{args.seeds} house rules (seeds {args.first}-{args.first + args.seeds - 1}), "
          f"{sum(tally.values())} settings taken out, {took:.0f} s")
    for outcome in ("said", "silent", "reading only", "unread, yet plays", "moot in diff, yet plays", "idle",
                    "invalid"):
        print(f"  {outcome:23} {tally[outcome]}")
    by_setting = Counter(f"{s.setting} ({outcome})" for outcome, s in silent)
    if by_setting:
        print("by setting: " + ", ".join(f"{k} {n}" for k, n in by_setting.most_common()))
    for outcome, s in silent[:args.examples]:
        print(f"  seed {s.seed}: {s.setting} ({outcome}, {s.how}) in {s.rule}\n      {s.example}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
