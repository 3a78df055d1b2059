"""What an unfinished hand is worth to each side: the points it can expect at the end.

The search stops its playouts at the end of a deal and has to value what each side
has won so far. Counting the cards won at a fixed worth each (``base.CardWorth``)
misses that "most cards" and "most spades" are races: once a side holds more than
half, further cards of that kind are worth nothing to either side, and while the race
is close each card counts for much more than its average. Here every scoring item is
counted as the variant says (``Scorer``), and a race still open is valued by the
chance of winning it if the cards not yet won went to the two sides at random
(a binomial count): expected points, not the share of an average. An "at least"
item (five spades) is valued the same way, by each side's chance of reaching it.
"""

from __future__ import annotations

from math import comb
from typing import Final

from ..engine.movegen import popcount
from ..engine.scoring import Scorer
from ..language.rules import ScoringItem
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


#: The ways an item counts, as the outlook values them (``_NOTHING``: an item of another count that
#: scores nothing here, such as sweeps worth no points; ``_LAST_CAPTURE``: decided only at the end).
#: ``_SWEEPS``: a sweeps item, counted here as ``Scorer.item_points`` counts it (compiled, not a call for
#: every playout). (``Final``: compiled, each is a constant, not a look-up in the module's names.)
_MOST: Final = 0
_EACH: Final = 1
_AT_LEAST: Final = 2
_PRIMIERA: Final = 3
_LAST_CAPTURE: Final = 4
_OTHER: Final = 5
_NOTHING: Final = 6
_SWEEPS: Final = 7
_KINDS: Final = {"most": _MOST, "each": _EACH, "at_least": _AT_LEAST, "primiera": _PRIMIERA, "last_capture": _LAST_CAPTURE}


def _tied(item: ScoringItem) -> int:
    """What each of two sides tied in a race scores, as the item's `ties` says (split: half each,
    rounded down; nobody: nothing)."""
    return {"split": item.points // 2, "each": item.points}.get(item.ties, 0)


def _any(flags: list[bool]) -> bool:
    """``any(flags)``, compiled (no call of the built-in for every item of every playout)."""
    for f in flags:
        if f:
            return True
    return False


class Outlook:
    """Expected hand points per side of a position, from the variant's scoring items."""

    def __init__(self, scorer: Scorer) -> None:
        self.scorer = scorer
        self.items = scorer.rules.scoring.items
        self.pmf, self.above = _tail_tables(scorer.engine.n_cards)
        self._allowed: dict[tuple[tuple[int, ...], tuple[tuple[int, int], ...], bool], list[list[bool]]] = {}
        #: Each item's way of counting (``_MOST`` ... ``_NOTHING``), its cards, points and what a tie
        #: scores, read once: the search values every playout with them.
        self._kinds: list[int] = [_KINDS.get(item.count, (_SWEEPS if item.count == "sweeps" else _OTHER)
                                             if item.points or item.by_size or item.first_play_points is not None
                                             else _NOTHING)
                                  for item in self.items]
        self._masks: list[int] = [scorer.masks.get(item.name, 0) for item in self.items]
        self._points: list[int] = [item.points for item in self.items]
        self._ties: list[int] = [_tied(item) for item in self.items]
        #: For each primiera item, each card's points (``Scorer.card_points``; empty for other items), and
        #: the suits' masks: its totals worked out here, compiled, as ``Scorer.primiera_total`` does.
        self._card_points: list[list[int]] = [scorer.card_points.get(item.name, []) for item in self.items]
        self._suit_masks: list[int] = list(scorer.suit_masks)
        #: For each item, the numbers of sides it is scored with (empty: any), and for a sweeps item what
        #: its sweeps score (``Scorer.sweep_points``): a first play's points (None: as any other), the
        #: rows by size (fewest cards, most or -1 for no most, points), and the previous player's points.
        self._numbers: list[tuple[int, ...]] = [tuple(item.sides) if item.sides else () for item in self.items]
        self._first_play: list[int | None] = [item.first_play_points for item in self.items]
        self._by_size: list[list[tuple[int, int, int]]] = [
            [(row.min_cards, -1 if row.max_cards is None else row.max_cards, row.points) for row in item.by_size]
            for item in self.items]
        self._previous: list[int] = [item.previous_player_points or 0 for item in self.items]
        self._ccw: bool = scorer.engine.ccw

    def allowed(self, sides: tuple[int, ...], scores: dict[int, int], restrictions_on: bool) -> list[list[bool]]:
        """For each item, whether each side may score it (endgame restrictions), worked out once
        per set of game scores: the search asks for every playout."""
        key = (sides, tuple(scores.items()), restrictions_on)
        table = self._allowed.get(key)
        if table is None:
            table = self._allowed[key] = [
                [self.scorer.counts_for(item, scores.get(s, 0), restrictions_on, max(scores.values(), default=0))
                 for s in sides]
                for item in self.items]
        return table

    def points(self, state: HandState, scores: dict[int, int], restrictions_on: bool) -> dict[int, float]:
        """Each side's expected points for the hand (its real points once the hand is over)."""
        if state.over:
            points, _ = self.scorer.hand_points(state, scores, restrictions_on)
            return {s: float(p) for s, p in points.items()}
        sides = state.sides
        return dict(zip(sides, self._expected(state, sides, self.allowed(sides, scores, restrictions_on))))

    def lead(self, state: HandState, side: int, scores: dict[int, int], restrictions_on: bool,
             sign: float, allowed: list[list[bool]] | None = None) -> float:
        """``side``'s expected points (``points``) less the most any other side expects, each
        times ``sign`` (-1.0 in a game won by the lowest total): the search's value of a playout,
        worked out without a dict for every playout. ``allowed``: ``allowed(state.sides, scores,
        restrictions_on)``, where the caller has it already."""
        sides = state.sides
        table = allowed if allowed is not None else self.allowed(sides, scores, restrictions_on)
        values = self._final(state, sides, table) if state.over else self._expected(state, sides, table)
        own = 0.0
        others = -1.0e300
        found = False
        for s, v in zip(sides, values):
            v = sign * v
            if s == side:
                own = v
            else:
                found = True
                if v > others:
                    others = v
        return own - others if found else own

    def _final(self, state: HandState, sides: tuple[int, ...], allowed_items: list[list[bool]]) -> list[float]:
        """Each side's points for a hand that is over, in the order of ``sides``: what
        ``Scorer.hand_points`` adds up, with the endgame restrictions read from ``allowed_items``
        (worked out once per set of scores) rather than for every item and side again."""
        n = len(sides)
        points = [0] * n
        piles = [state.side_pile(s) for s in sides]
        for i, kind in enumerate(self._kinds):
            allowed = allowed_items[i]
            if not _any(allowed):
                continue
            item = self.items[i]
            if kind == _SWEEPS:
                swept = self._sweeps(i, state, sides)
                for j in range(n):
                    if allowed[j]:
                        points[j] += swept[j]
                continue
            if kind == _PRIMIERA and not (item.sides and n not in item.sides):
                # (as Scorer.item_points counts it: the highest total, -1 never scoring)
                totals = [self._primiera(i, p) for p in piles]
                best = max(totals)
                leaders = [j for j in range(n) if totals[j] == best]
                if best >= 0 and (len(leaders) == 1 or item.ties in ("split", "each")):
                    worth = self._points[i]
                    share = worth if len(leaders) == 1 or item.ties == "each" else worth // len(leaders)
                    for j in leaders:
                        if allowed[j]:
                            points[j] += share
                continue
            if (kind == _EACH or kind == _MOST) and not (item.sides and n not in item.sides):
                # (as Scorer.item_points counts them, without a dict a side)
                mask, worth = self._masks[i], self._points[i]
                counts = [popcount(p & mask) for p in piles]
                if kind == _EACH:
                    got = [c * worth for c in counts]
                else:
                    got = [0] * n
                    best = max(counts)
                    leaders = [j for j in range(n) if counts[j] == best]
                    if best > 0 and (len(leaders) == 1 or item.ties in ("split", "each")):
                        share = worth if len(leaders) == 1 or item.ties == "each" else worth // len(leaders)
                        for j in leaders:
                            got[j] = share
                for j in range(n):
                    if allowed[j]:
                        points[j] += got[j]
                continue
            by_side = self.scorer.item_points(item, state)
            for j, s in enumerate(sides):
                if allowed[j]:
                    points[j] += by_side[s]
        return [float(p) for p in points]

    def _expected(self, state: HandState, sides: tuple[int, ...], allowed_items: list[list[bool]]) -> list[float]:
        """Each side's expected points, in the order of ``sides``, of a hand not yet over."""
        scorer = self.scorer
        piles = [state.side_pile(s) for s in sides]
        won = 0
        for p in piles:
            won |= p
        out = [0.0] * len(sides)
        masks = self._masks
        for i, kind in enumerate(self._kinds):
            allowed = allowed_items[i]
            if kind == _LAST_CAPTURE or kind == _NOTHING or not _any(allowed):
                continue   # (the last capture is decided only by the hand's last capture)
            if kind == _EACH:
                mask = masks[i]
                points = self._points[i]
                for j, ok in enumerate(allowed):
                    if ok:
                        out[j] += popcount(piles[j] & mask) * points
                continue
            if kind == _SWEEPS:
                swept = self._sweeps(i, state, sides)
                for j in range(len(sides)):
                    if allowed[j]:
                        out[j] += swept[j]
                continue
            item = self.items[i]
            if kind == _MOST:
                mask = masks[i]
                left = popcount(mask & ~won)
                if len(piles) == 2:   # (the usual case, without the lists: as _race works it out)
                    first, second = popcount(piles[0] & mask), popcount(piles[1] & mask)
                    a, ahead, behind = (0, first, second) if first >= second else (1, second, first)
                    win_a, tie = self._chances(ahead, behind, left)
                    points, tied = self._points[i], self._ties[i]
                    if allowed[a]:
                        out[a] += win_a * points + tie * tied
                    if allowed[1 - a]:
                        out[1 - a] += max(0.0, 1.0 - win_a - tie) * points + tie * tied
                    continue
                counts = [popcount(p & mask) for p in piles]
                for j, expected in enumerate(self._race(counts, left, item)):
                    if allowed[j]:
                        out[j] += expected
            elif kind == _AT_LEAST:
                mask = masks[i]
                counts = [popcount(p & mask) for p in piles]
                for j, expected in enumerate(self._reach(counts, popcount(mask & ~won), item)):
                    if allowed[j]:
                        out[j] += expected
            elif kind == _PRIMIERA:
                if state.over or not item.points:
                    continue
                # Open until the hand is over: the side whose best cards stand higher now is
                # likelier to keep the lead; valued as a share of the points by the totals so far.
                totals = [max(self._primiera(i, p), 0) for p in piles]
                whole = sum(totals)
                for j in range(len(sides)):
                    if allowed[j]:
                        out[j] += item.points * (totals[j] / whole if whole else 1 / len(sides))
            else:   # (_OTHER)
                got = scorer.item_points(item, state)
                for j, s in enumerate(sides):
                    if allowed[j]:
                        out[j] += got[s]
        return out

    def _sweeps(self, i: int, state: HandState, sides: tuple[int, ...]) -> list[int]:
        """What sweeps item ``i`` scores each side (in the order of ``sides``) in ``state``, as
        ``Scorer.item_points`` counts it: each sweep that stands scores its side the sweep's points
        (``Scorer.sweep_points``), and the previous player's side the item's points for that."""
        out = [0] * len(sides)
        numbers = self._numbers[i]
        if numbers and len(sides) not in numbers:
            return out   # (scored only with other numbers of sides)
        first_play = self._first_play[i]
        rows = self._by_size[i]
        previous = self._previous[i]
        points = self._points[i]
        teams = state.teams
        players = state.players
        for w in state.sweeps:
            if w.cancelled:
                continue
            if w.first_play and first_play is not None:
                got = first_play
            else:
                got = points
                for low, high, row_points in rows:
                    if w.size >= low and (high < 0 or w.size <= high):
                        got = row_points
                        break
            out[sides.index(teams[w.seat])] += got
            if previous:
                before = (w.seat + 1) % players if self._ccw else (w.seat - 1) % players
                out[sides.index(teams[before])] += previous
        return out

    def _primiera(self, i: int, pile: int) -> int:
        """``Scorer.primiera_total`` of item ``i`` for a pile: its best counted card of each suit by the
        item's points, added up; -1 when it cannot compete (a suit missing where every suit is needed,
        or no card)."""
        points = self._card_points[i]
        mask = self._masks[i]
        every = self.items[i].all_suits
        total = 0
        found = False
        for suit in self._suit_masks:
            cards = pile & mask & suit
            if not cards:
                if every and mask & suit:
                    return -1
                continue
            found = True
            best = 0
            while cards:
                low = cards & -cards
                value = points[low.bit_length() - 1]
                if value > best:
                    best = value
                cards ^= low
            total += best
        return total if found else -1

    def _reach(self, counts: list[int], left: int, item: ScoringItem) -> list[float]:
        """Each side's expected points from an "at least" item with ``left`` cards still to be won:
        the chance that its share of them brings it to the item's number, each side on its own
        (both may score). Two sides: exact under a fair split of the rest; more sides: a side's
        share counted as Binomial(2 * left / n, 1/2), its fair part on average (an estimate, as
        :meth:`_race` makes)."""
        n = len(counts)
        r = left if n <= 2 else round(2 * left / n)
        need_total = item.at_least if item.at_least is not None else 1
        out = [0.0] * n
        for j in range(n):
            need = need_total - counts[j]      # the side scores when its share x of the r cards is >= need
            if need <= 0:
                out[j] = float(item.points)
            elif need <= r:
                out[j] = self.above[r][need - 1] * item.points
        return out

    def _chances(self, ahead: int, behind: int, r: int) -> tuple[float, float]:
        """The chances that a side with ``ahead`` cards of a race ends with more than one with
        ``behind``, and that they tie, when the ``r`` cards left go to either at random."""
        # The leader ends with ahead + x, the other with behind + r - x.
        need = behind + r - ahead          # the leader wins when 2x > need, ties when 2x == need
        if need < 0:
            return 1.0, 0.0
        if need > 2 * r:
            return 0.0, 0.0
        return self.above[r][need // 2], (self.pmf[r][need // 2] if need % 2 == 0 else 0.0)

    def _race(self, counts: list[int], left: int, item: ScoringItem) -> list[float]:
        """Each side's expected points from a "most" item with ``left`` cards still to be won, where
        there are not two sides (two: ``_expected`` works it out as this does, exact under a fair
        split of the rest). More sides: the leader against the best of the others, with the rest
        shared among all (an estimate)."""
        n = len(counts)
        if n < 2:
            return [float(item.points)] * n
        order = sorted(range(n), key=lambda j: -counts[j])
        a, b = order[0], order[1]
        r = left if n == 2 else round(2 * left / n)
        win_a, tie = self._chances(counts[a], counts[b], r)
        tied = _tied(item)
        out = [0.0] * n
        out[a] = win_a * item.points + tie * tied
        out[b] = max(0.0, 1.0 - win_a - tie) * item.points + tie * tied
        return out
