"""How well the search's ways of valuing a last deal's start agree with its exact value: prints numbers,
asserts nothing.

    python benchmarks/last_deal_values.py [--hands N] [--variant standard] [--seed S] [--workers W]

N 2-player hands of self-play by the default search (``players.search.SearchBot``, each seat its own
seed, the dealer alternating). At each hand's last deal's start, every card's place is known to both
players, who play that deal exactly from there (the solver's move, as the search does); its exact value
for the dealer's side (``solver.Solver``) is set against:

- ``outlook``: the outlook's expected lead (what the search values a playout's end by);
- ``greedy``: the lead at the end of the hand, every seat playing greedily (the search's playouts);
- ``counter``: the same, every seat playing the counting heuristic with the other hand known
  (``counter.known_reply_move``: each move less the best reply the next hand has);
- blends of them: least squares fitted on the first half of the positions and tested on the second,
  with and without a constant (the dealer's edge, as every value is the dealer's).

Printed: each way's mean squared error against the exact value (in points squared), its mean error,
and each blend's weights. ``playout_trials.py``'s ``today:lastdeal`` plays the search with the
outlook-and-counter blend (docs/performance.md, "The last deal's start").
"""

from __future__ import annotations

import argparse
import statistics
import sys
from concurrent.futures import ProcessPoolExecutor

from playout_trials import played_out  # (benchmarks/playout_trials.py, beside this script)

from cassino.engine.core import Engine
from cassino.engine.game import Game
from cassino.engine.rng import derive
from cassino.engine.scoring import Scorer
from cassino.engine.state import HandState
from cassino.errors import CassinoError
from cassino.language.variants import load_rules
from cassino.players.gain import CardWorth
from cassino.players.outlook import Outlook
from cassino.players.search import SearchBot
from cassino.players.solver import SearchLimit, Solver

#: The most positions the exact value of one last deal's start may take (beyond: the position is left out).
MAX_POSITIONS = 200_000
#: The fewest positions the blends are fitted on (each half must outnumber the widest blend's weights).
LEAST = 10
#: The ways of valuing a last deal's start, in the order of ``values``' columns.
WAYS = ("outlook", "greedy", "counter")
#: The blends fitted (columns of ``WAYS``, and whether a constant is fitted too).
BLENDS: tuple[tuple[tuple[str, ...], bool], ...] = (
    (("outlook",), True), (("outlook", "greedy"), False), (("outlook", "counter"), False),
    (("outlook", "counter"), True), (("outlook", "greedy", "counter"), True))


def last_deal_start(variant: str, seed: int, dealer: int) -> HandState | None:
    """A hand of search self-play, played to its last deal's first move (None: it has no later deal)."""
    engine = Engine(load_rules(variant))
    game = Game.new(engine, seed, 2, dealer=dealer).with_(target=None)
    bots = [SearchBot(derive(seed, s)) for s in range(2)]
    while not game.over and game.hand_no == 1:
        if not game.hand.stock and game.hand.deal_no > 1 and game.hand.ply > 0:
            hand = game.hand
            if all(h.bit_count() == hand.hands[0].bit_count() for h in hand.hands) and hand.hands[0]:
                return hand   # (nothing left to deal, every hand full: the last deal's first move)
        seat = game.hand.turn
        game = game.play(bots[seat].choose(game, seat))
    return None


def values(task: tuple[str, int, int]) -> tuple[float, list[float]] | None:
    """One hand's last-deal start: its exact value for the dealer's side and each of ``WAYS`` (None: the
    hand has no such position, or it takes more than ``MAX_POSITIONS`` to solve)."""
    variant, seed, dealer = task
    state = last_deal_start(variant, seed, dealer)
    if state is None:
        return None
    engine = Engine(load_rules(variant))
    scorer = Scorer(engine)
    worth = CardWorth(engine, scorer)
    outlook = Outlook(scorer)
    side = state.teams[state.dealer]
    sign = -1.0 if engine.rules.game.goal == "lowest" else 1.0
    try:
        exact = Solver(engine, scorer, side, {0: 0, 1: 0}, True, worth, max_positions=MAX_POSITIONS).value(state)
    except SearchLimit:
        return None   # (a last deal too long to solve: South African, Swazi Casino)
    lead = [outlook.lead(state, side, {0: 0, 1: 0}, True, sign)]
    for counter in (False, True):
        lead.append(outlook.lead(played_out(engine, worth, state, counter), side, {0: 0, 1: 0}, True, sign))
    return float(exact), lead


def solve(a: list[list[float]], b: list[float]) -> list[float]:
    """x with a x = b, by Gaussian elimination with partial pivoting (``fit_playout_policy.py``'s Newton
    steps use it too); a singular ``a`` is refused."""
    k = len(b)
    m = [row[:] + [b[i]] for i, row in enumerate(a)]
    for col in range(k):
        pivot = max(range(col, k), key=lambda i: abs(m[i][col]))
        m[col], m[pivot] = m[pivot], m[col]
        if abs(m[col][col]) < 1e-12:
            raise ValueError("the columns are not independent: too few positions to fit")
        for i in range(k):
            if i != col:
                f = m[i][col] / m[col][col]
                m[i] = [x - f * y for x, y in zip(m[i], m[col])]
    return [m[i][k] / m[i][i] for i in range(k)]


def least_squares(rows: list[list[float]], ys: list[float]) -> list[float]:
    """The weights w minimizing the sum of (y - w . row)^2 (the normal equations, by elimination)."""
    k = len(rows[0])
    return solve([[sum(r[i] * r[j] for r in rows) for j in range(k)] for i in range(k)],
                 [sum(r[i] * y for r, y in zip(rows, ys)) for i in range(k)])


def report(found: list[tuple[float, list[float]]]) -> list[str]:
    """The lines printed for the positions ``found`` (exact value, ``WAYS``' values)."""
    ys = [y for y, _ in found]
    lines = [f"{len(found)} last-deal starts; the exact values' variance {statistics.pvariance(ys):.2f} points²"]
    for i, way in enumerate(WAYS):
        errors = [y - v[i] for y, v in found]
        lines.append(f"{way:>8}: mean squared error {statistics.fmean(e * e for e in errors):6.2f}, "
                     f"mean error {statistics.fmean(errors):+.2f}")
    half = len(found) // 2
    for columns, constant in BLENDS:
        index = [WAYS.index(c) for c in columns]
        rows = [[v[i] for i in index] + ([1.0] if constant else []) for _, v in found]
        weights = least_squares(rows[:half], ys[:half])
        tested = [y - sum(w * x for w, x in zip(weights, r)) for y, r in zip(ys[half:], rows[half:])]
        named = ", ".join(f"{w:.2f} {c}" for w, c in zip(weights, columns))
        extra = f", {weights[-1]:+.2f} constant" if constant else ""
        lines.append(f"blend {named}{extra}: mean squared error {statistics.fmean(e * e for e in tested):.2f} "
                     f"on the second half")
    return lines


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--hands", type=int, default=200, help=f"hands of search self-play ({LEAST} or more)")
    p.add_argument("--variant", default="standard")
    p.add_argument("--seed", type=int, default=11)
    p.add_argument("--workers", type=int, default=2)
    args = p.parse_args()
    if args.hands < LEAST or args.workers < 1:
        p.error(f"--hands is {LEAST} or more, --workers 1 or more")
    try:
        rules = load_rules(args.variant)
    except CassinoError as error:
        p.error(str(error))
    if not rules.seats.min_players <= 2 <= rules.seats.max_players:
        p.error(f"{args.variant} is not played by 2 players")
    tasks = [(args.variant, derive(args.seed, k), k % 2) for k in range(args.hands)]
    if args.workers > 1:
        with ProcessPoolExecutor(args.workers) as pool:
            results = list(pool.map(values, tasks, chunksize=4))
    else:
        results = [values(t) for t in tasks]
    found = [r for r in results if r is not None]
    if len(found) < LEAST:
        p.error(f"{args.variant}: only {len(found)} of {args.hands} hands had a last deal after the first "
                f"that could be solved within {MAX_POSITIONS:,} positions")
    print(f"{args.variant}, {args.hands} hands of search self-play, seed {args.seed}:")
    try:
        for line in report(found):
            print(line)
    except ValueError as error:
        p.error(str(error))
    return 0


if __name__ == "__main__":
    sys.exit(main())
