"""Where a match's lead comes from, deal by deal: prints numbers, asserts nothing.

    python benchmarks/lead_by_deal.py --a search --b sparring --pairs 300

The mirrored pairs of ``sparring.py`` (2-player hands, each deal played twice with the seats
swapped, the same seeds, so the first N pairs are the same games as its match), and for each deal
of the hand the change in ``a``'s expected lead over ``b`` during that deal: at each deal's start
each side's expected points for the hand (``players.outlook.Outlook``: what it has won, the races
still open valued by the chance of winning them), at the end its real points. The changes add up
to the points a pair the match prints, so a deal whose change is below zero is where ``a`` gave
points back, or where the positions it steered to were worth less than the outlook said (in the
2-player last deal both sides play exactly, so what is lost there was lost before it). Any
``sparring.py`` player names, any variant of 2 players.
"""

from __future__ import annotations

import math
import statistics
import sys
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from sparring import checked_args, match_parser, one_hand  # noqa: E402

from cassino.engine.core import Engine  # noqa: E402
from cassino.engine.game import Game  # noqa: E402
from cassino.engine.rng import derive  # noqa: E402
from cassino.engine.scoring import Scorer  # noqa: E402
from cassino.language.variants import load_rules  # noqa: E402
from cassino.players.outlook import Outlook  # noqa: E402


def marks(variant: str, names: tuple[str, str], seed: int) -> list[dict[int, float]]:
    """One hand as ``sparring.one_hand`` plays it: each side's expected points at each deal's
    start, then its points at the end (negated where the lowest total wins)."""
    engine = Engine(load_rules(variant))
    outlook = Outlook(Scorer(engine))
    sign = -1.0 if engine.rules.game.goal == "lowest" else 1.0
    out: list[dict[int, float]] = []
    deals: list[int] = []

    def watch(game: Game) -> None:
        if game.over:
            out.append({side: float(sum(r.points.get(side, 0) for r in game.results)) for side in (0, 1)})
        elif not deals or game.hand.deal_no != deals[-1]:
            out.append(outlook.points(game.hand, {}, True))
            deals.append(game.hand.deal_no)

    one_hand(variant, names, seed, watch)
    return [{side: sign * value for side, value in m.items()} for m in out]


def one_pair(task: tuple[str, str, str, int]) -> list[float]:
    """A mirrored pair: the change in ``a``'s expected lead in each deal, both hands added."""
    variant, a, b, seed = task
    changes: list[float] = []
    for a_seat in (0, 1):
        names = (a, b) if a_seat == 0 else (b, a)
        leads = [m[a_seat] - m[1 - a_seat] for m in marks(variant, names, seed)]
        for d in range(len(leads) - 1):
            if d == len(changes):
                changes.append(0.0)
            changes[d] += leads[d + 1] - leads[d]
    return changes


def main() -> int:
    args = checked_args(match_parser(__doc__))
    tasks = [(args.variant, args.a, args.b, derive(args.seed, j)) for j in range(args.first, args.first + args.pairs)]
    if args.workers > 1:
        with ProcessPoolExecutor(args.workers) as pool:
            pairs = list(pool.map(one_pair, tasks, chunksize=4))
    else:
        pairs = [one_pair(t) for t in tasks]
    deals = max(len(c) for c in pairs)
    print(f"{args.a} vs {args.b}, {args.variant}, {len(pairs)} mirrored pairs, seed {args.seed}: "
          f"the change in {args.a}'s expected lead in each deal, points a pair ± 1 standard error")
    for d in range(deals):
        xs = [c[d] if d < len(c) else 0.0 for c in pairs]
        print(f"deal {d + 1}: {statistics.mean(xs):+.2f} ± {statistics.stdev(xs) / math.sqrt(len(xs)):.2f}")
    totals = [sum(c) for c in pairs]
    print(f"the hand: {statistics.mean(totals):+.2f} ± {statistics.stdev(totals) / math.sqrt(len(totals)):.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
