"""What an unfinished hand is worth to each side: the points it can expect at the end.

The search stops its playouts at the end of a deal and has to value what each side
has won so far. Counting the cards won at a fixed worth each (``base.CardWorth``)
misses that "most cards" and "most spades" are races: once a side holds more than
half, further cards of that kind are worth nothing to either side, and while the race
is close each card counts for much more than its average. Here every scoring item is
counted as the variant says (``Scorer``), and a race still open is valued by the
chance of winning it if the cards not yet won went to the two sides at random
(a binomial count): expected points, not the share of an average.
"""

from __future__ import annotations

from math import comb

from ..engine.scoring import Scorer
from ..engine.state import HandState


def _tail_tables(n: int) -> tuple[list[list[float]], list[list[float]]]:
    """For X ~ Binomial(r, 1/2): P(X = x) and P(X > x), for r up to ``n``."""
    pmf, above = [], []
    for r in range(n + 1):
        p = [comb(r, x) / 2 ** r for x in range(r + 1)]
        tail = [0.0] * (r + 2)
        for x in range(r - 1, -1, -1):
            tail[x] = tail[x + 1] + p[x + 1]
        pmf.append(p)
        above.append(tail)
    return pmf, above


class Outlook:
    """Expected hand points per side of a position, from the variant's scoring items."""

    def __init__(self, scorer: Scorer) -> None:
        self.scorer = scorer
        self.items = scorer.rules.scoring.items
        self.pmf, self.above = _tail_tables(scorer.engine.n_cards)

    def points(self, state: HandState, scores: dict[int, int], restrictions_on: bool) -> dict[int, float]:
        """Each side's expected points for the hand (its real points once the hand is over)."""
        scorer = self.scorer
        if state.over:
            points, _ = scorer.hand_points(state, scores, restrictions_on)
            return {s: float(p) for s, p in points.items()}
        sides = state.sides
        piles = {s: state.side_pile(s) for s in sides}
        won = 0
        for p in piles.values():
            won |= p
        out = {s: 0.0 for s in sides}
        for item in self.items:
            allowed = [s for s in sides if scorer.counts_for(item, scores.get(s, 0), restrictions_on)]
            if not allowed:
                continue
            if item.count == "most":
                mask = scorer.masks[item.name]
                counts = {s: bin(piles[s] & mask).count("1") for s in sides}
                left = bin(mask & ~won).count("1")
                for s, share in self._race(counts, left, item.ties).items():
                    if s in allowed:
                        out[s] += share * item.points
            elif item.count == "last_capture":
                continue   # decided only by the last capture of the hand
            else:
                got = scorer.item_points(item, state)
                for s in allowed:
                    out[s] += got[s]
        return out

    def _race(self, counts: dict[int, int], left: int, ties: str) -> dict[int, float]:
        """Each side's expected share of a "most" item with ``left`` cards still to be won.

        Two sides: exact under a fair split of the rest. More sides: the leader against the
        best of the others, with the rest shared among all (an estimate)."""
        sides = sorted(counts, key=lambda s: -counts[s])
        if len(sides) < 2:
            return {s: 1.0 for s in sides}
        a, b = sides[0], sides[1]
        r = left if len(sides) == 2 else round(2 * left / len(sides))
        # a ends with counts[a] + x, b with counts[b] + r - x.
        need = counts[b] + r - counts[a]          # a wins when 2x > need, ties when 2x == need
        pmf, above = self.pmf[r], self.above[r]
        if need < 0:
            win_a, tie = 1.0, 0.0
        elif need >= 2 * r + 1:
            win_a, tie = 0.0, 0.0
        else:
            win_a = above[need // 2] if need // 2 <= r else 0.0
            tie = pmf[need // 2] if need % 2 == 0 and need // 2 <= r else 0.0
        win_b = max(0.0, 1.0 - win_a - tie)
        tie_share = {"split": 0.5, "each": 1.0}.get(ties, 0.0)
        out = {s: 0.0 for s in sides}
        out[a] = win_a + tie * tie_share
        out[b] = win_b + tie * tie_share
        return out
