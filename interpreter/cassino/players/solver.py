"""Exact play where every card's place is known: alpha-beta to the end of the hand.

In a 2-player game the last deal is a game of perfect information (every card the
seat to move cannot see is in the other hand), and so is any position given in full,
such as a scenario case. There the best move can be computed rather than guessed.

The value of a position is the final hand points of one side (``side``) minus the
best of the other sides', under the variant's own scoring (``engine.scoring.Scorer``:
the last capturer takes what is left on the table, sweeps, endgame restrictions on
what a side may score given the game scores). With more than two sides the other
sides are assumed to play together against ``side`` (the "paranoid" assumption,
which keeps the search a two-sided one that alpha-beta can prune).

Everything goes through the engine's public API (``legal_moves``, ``apply``), so
the solver is generic over variants. It is an alpha-beta search with a
transposition table (a position reached by two orders of play is searched once; the
table keeps a lower and an upper bound and the best move) and move ordering (the
table's best move, then the moves ``gain.move_gain`` rates highest: captures that
take the most, builds, trails).
"""

from __future__ import annotations

import time

from contextlib import contextmanager
from dataclasses import dataclass
from typing import Callable, Hashable, Iterator

from mypy_extensions import mypyc_attr

from ..engine.core import Engine, bits
from ..errors import CassinoError
from ..engine.moves import Move
from ..engine.scoring import Scorer
from ..engine.state import Build, HandState
from .gain import CardWorth, gains, key_gains
from .outlook import Outlook

INF = 10 ** 9
#: The most parts of each kind whose key numbers ``Solver._plain`` keeps by object (a few positions' worth
#: along the line being searched; all of them are forgotten when it is full).
_MEMO = 4096


class SearchLimit(CassinoError):
    """The solver searched more positions than it was allowed (a position too large to solve)."""


@dataclass(frozen=True, slots=True)
class MoveValue:
    """A legal move and its exact value for the side to move (points, theirs minus the others')."""

    move: Move
    value: int


def missing_knowledge(state: HandState, seat: int | None = None) -> str | None:
    """Why the position is not known in full (``None`` when it is).

    With ``seat`` given: known to that seat, i.e. nothing is left to deal and every card
    it cannot see is in one other hand (the 2-player last deal). Without: the position
    as given is complete, i.e. nothing is left to deal (a scenario case gives every hand).
    """
    if state.stock:
        return (f"{len(state.stock)} card{'s are' if len(state.stock) != 1 else ' is'} not placed "
                f"(they would be the unseen stock, still to be dealt)")
    if seat is None:
        return None
    holders = [other for other, hand in enumerate(state.hands) if other != seat and hand]
    if len(holders) > 1:
        return f"seats {', '.join(map(str, holders))} all hold cards that seat {seat} cannot see"
    return None


@mypyc_attr(allow_interpreted_subclasses=True)   # (``apps.authors.solve.WatchedSolver``)
class Solver:
    """The exact value of positions for one side, with a transposition table kept across calls.

    ``scores`` (side -> game score before the hand) and ``restrictions_on`` decide what a
    side under an endgame restriction may score, as in ``Scorer.hand_points``.
    ``max_positions``: raise SearchLimit after searching that many positions (None: no limit).
    """

    def __init__(self, engine: Engine, scorer: Scorer, side: int, scores: dict[int, int] | None = None,
                 restrictions_on: bool = True, worth: CardWorth | None = None,
                 max_positions: int | None = None, progress: "Callable[[int], None] | None" = None,
                 every: int = 0, outlook: Outlook | None = None) -> None:
        self.engine = engine
        self.scorer = scorer
        self.side = side
        self.scores = dict(scores or {})
        self.restrictions_on = restrictions_on
        self.worth = worth or CardWorth(engine, scorer)
        #: A negative game (``game.goal: lowest``): points count against the side that scores them.
        self.penalties = engine.rules.game.goal == "lowest"
        #: Each position searched: its lower and upper bound and its best move's key (-1: none), a key of
        #: the position's listing, which is the same for every position of the same ``key`` (a listed
        #: Move would keep its position alive, and a table of them every position searched, hundreds of
        #: thousands in a long last deal, for the cyclic garbage collector to walk again and again).
        self.table: dict[Hashable, tuple[int, int, int]] = {}
        self.finals: dict[Hashable, int] = {}
        #: A number for each part of a key read so far that is not a plain number or mask (sweeps and
        #: events, builds, proven values, restricted sides, the piles' order), by value: a key holds the
        #: number, and a tuple's hash, not kept by the tuple, is worked out again at every look-up.
        self._ids: dict[Hashable, int] = {}
        #: The last sweeps and events read (``key``) and the number of what ``_won`` made of them.
        self._won_memo: tuple[object, object, object, int] = (None, None, None, -1)
        #: The builds, proven values, restricted sides and piles' order read lately (``key``), each with the
        #: number of its plain form, by the object's ``id`` (the search comes back to a position's parts as
        #: it backs up; at most ``_MEMO`` of each kind are kept).
        self._plain_memo: list[dict[int, tuple[object, int]]] = [{}, {}, {}, {}]
        #: The last of each kind read, with its number (most positions share them with the one before).
        self._plain_last: list[tuple[object, int]] = [(None, -1)] * 4
        #: What a finished hand scores, worked out in compiled code (``Outlook.lead`` of a hand that is over).
        self._outlook = outlook
        self.nodes = 0
        self.max_positions = max_positions
        #: A ``time.perf_counter()`` reading after which a search raises SearchLimit (``limited``).
        self.deadline: float | None = None
        #: ``progress(positions)`` every ``every`` positions searched (``cassino solve`` shows how far it is).
        self._progress = progress
        self._every = every
        self._next = every if progress is not None and every > 0 else 0

    @contextmanager
    def limited(self, positions: int, deadline: float | None = None) -> Iterator["Solver"]:
        """Searches made in the block raise SearchLimit once they search more than ``positions``
        positions between them, or (``deadline``, a ``time.perf_counter()`` reading) once that time
        has come, looked at every position (a position of a heavy table takes seconds to list; what they
        learnt stays in the table); no limit after it."""
        self.max_positions = self.nodes + positions
        self.deadline = deadline
        try:
            yield self
        finally:
            self.max_positions = None
            self.deadline = None

    # ---------------------------------------------------------------- values
    def final_value(self, state: HandState) -> int:
        """``side``'s hand points minus the best other side's, in a finished hand (remembered by
        what the score reads: many lines of play end with the same piles)."""
        key = (state.piles, self._won_of(state), state.last_capturer)
        value = self.finals.get(key)
        if value is None:
            if self._outlook is None:
                self._outlook = Outlook(self.scorer)
            # (a negative game: the fewer points the better; whole points, so the float is exact)
            value = self.finals[key] = int(self._outlook.lead(state, self.side, self.scores, self.restrictions_on,
                                                              -1.0 if self.penalties else 1.0))
        return value

    def value(self, state: HandState) -> int:
        """The exact value of ``state`` for ``side`` with best play by every side."""
        return self._search(state, -INF, INF)

    def move_values(self, state: HandState) -> list[MoveValue]:
        """Every legal move with its exact value for ``side``, best for the side to move first.

        Ties keep the move ordering (captures that take most first), so the first move is
        the one a player would be shown.
        """
        engine = self.engine
        maximizing = state.teams[state.turn] == self.side
        out = [MoveValue(m, self._search(engine.apply(state, m), -INF, INF))
               for m in self._ordered(state, engine.legal_moves(state))]
        out.sort(key=lambda mv: -mv.value if maximizing else mv.value)
        return out

    def best_move(self, state: HandState) -> Move:
        """A best move for the side to move (searched with a narrowing window, so cheaper
        than ``move_values``)."""
        engine = self.engine
        maximizing = state.teams[state.turn] == self.side
        moves = self._ordered(state, engine.legal_moves(state))
        if len(moves) == 1:
            return moves[0]
        best, best_value = moves[0], None
        alpha, beta = -INF, INF
        for m in moves:
            v = self._search(engine.apply(state, m), alpha, beta)
            if best_value is None or (v > best_value if maximizing else v < best_value):
                best, best_value = m, v
                if maximizing:
                    alpha = v
                else:
                    beta = v
        return best

    def principal_line(self, state: HandState) -> list[Move]:
        """The moves of best play from ``state`` to the end of the hand."""
        line = []
        while not state.over:
            target = self.value(state)
            for m in self._ordered(state, self.engine.legal_moves(state)):
                after = self.engine.apply(state, m)
                if self.value(after) == target:
                    line.append(m)
                    state = after
                    break
            else:  # pragma: no cover - a value is always reached by some move
                raise AssertionError("no move reaches the position's value")
        return line

    # ---------------------------------------------------------------- search
    def key(self, state: HandState) -> Hashable:
        """What decides the rest of the hand and its score; not the order in which it came about
        (plies, the capture log and events' plies are left out: no score item reads them once a
        hand is under way, and the restrictions' "who met it first" only decides a winner)."""
        return (state.turn, state.hands, state.table, self._plain(state.builds, 0), state.stock, state.piles,
                state.last_capturer, self._won_of(state), self._plain(state.proven, 1),
                self._plain(state.restricted, 2), state.ply == 0,
                self._plain(state.stacks, 3),   # African Casino: the piles' order decides which tops come into play
                state.turn_card)   # (a turn of several actions after its hand card: builds or its end)

    def _plain(self, part: tuple[Build, ...] | tuple[frozenset[int], ...] | frozenset[int] | tuple[tuple[int, ...], ...],
               slot: int) -> int:
        """The number (``_id``) of a part of a position's ``key`` made of builds, sets or piles (``builds``,
        ``proven``, ``restricted``, ``stacks``), by its plain form: tuples of numbers, which compare alike
        (equal builds, not the same objects, are one). A key holds numbers and tuples of them, which the
        collector stops tracking (a build or a frozenset, even an empty one, in each key of a table of hundreds
        of thousands would be walked in every full collection). Remembered by object for the objects of each
        kind read lately: a position and the next mostly share them, and the search comes back to them
        (``slot``: which of the four ``part`` is)."""
        last = self._plain_last[slot]
        if last[0] is part:
            return last[1]
        memo = self._plain_memo[slot]
        known = memo.get(id(part))
        if known is not None and known[0] is part:
            self._plain_last[slot] = known
            return known[1]
        plain: Hashable
        if slot == 3:
            plain = part   # (the piles' order: tuples of numbers already)
        elif isinstance(part, frozenset):
            plain = tuple(sorted(part))
        else:
            plain = tuple(item.values() if isinstance(item, Build) else tuple(sorted(item)) for item in part)
        number = self._id((slot, plain))
        if len(memo) >= _MEMO:
            memo.clear()
        memo[id(part)] = self._plain_last[slot] = (part, number)   # (keeping ``part`` alive: its id stays its own)
        return number

    def _id(self, plain: Hashable) -> int:
        """A number for ``plain``, the same for equal values (one table of them for every kind of part)."""
        ids = self._ids
        number = ids.get(plain)
        if number is None:
            number = ids[plain] = len(ids)
        return number

    def _won_of(self, state: HandState) -> int:
        """The number (``_id``) of ``_won(state)``, remembered from the last position read (a position and the
        next mostly share their sweeps and events: sorted once, not once a position)."""
        sweeps, events = state.sweeps, state.events
        memo = self._won_memo
        if memo[0] is sweeps and memo[1] is events and memo[2] is state.teams:
            return memo[3]
        won = self._id((-1, self._won(state)))
        self._won_memo = (sweeps, events, state.teams, won)
        return won

    @staticmethod
    def _won(state: HandState) -> Hashable:
        """Sweeps and events as the score reads them. Sweeps keep their order within each side
        (which sweep a later one cancels can depend on it) but not across sides."""
        if not state.sweeps and not state.events:
            return ()
        sweeps = tuple(sorted(((w.seat, w.size, w.first_play, w.cancelled) for w in state.sweeps),
                              key=lambda w: state.teams[w[0]]))
        return sweeps, tuple(sorted((e.seat, e.name) for e in state.events))

    def _ordered(self, state: HandState, moves: list[Move], first: int = -1) -> list[Move]:
        """``moves`` (listed for ``state``) best rated first, the one of key ``first`` (the table's best
        move, -1: none) before them all."""
        if len(moves) > 1:
            values = gains(self.worth, state, moves)
            moves = [moves[i] for i in sorted(range(len(moves)), key=lambda i: -values[i])]
        if first >= 0:
            for k, m in enumerate(moves):
                if m.key_in(state) == first:
                    if k:
                        moves.insert(0, moves.pop(k))
                    break
        return moves

    def _ordered_keys(self, state: HandState, keys: list[int], first: int = -1) -> list[int]:
        """``keys`` (``Engine.move_keys(state)``) in ``_ordered``'s order of their moves, rated from the keys
        (``gain.key_gains``: the same floats)."""
        values = key_gains(self.worth, state, keys, self.engine)
        ordered = [keys[i] for i in sorted(range(len(keys)), key=lambda i: -values[i])]
        if first >= 0 and ordered[0] != first and first in ordered:
            ordered.remove(first)
            ordered.insert(0, first)
        return ordered

    def _search(self, state: HandState, alpha: int, beta: int) -> int:
        self.nodes += 1
        if self._next and self.nodes >= self._next and self._progress is not None:
            self._next += self._every
            self._progress(self.nodes)
        if self.max_positions is not None and self.nodes > self.max_positions:
            raise SearchLimit(f"more than {self.max_positions:,} positions searched")
        if self.deadline is not None and time.perf_counter() > self.deadline:
            raise SearchLimit("out of time")
        if state.over:
            return self.final_value(state)
        key = self.key(state)
        entry = self.table.get(key)
        low, high, hint = (-INF, INF, -1) if entry is None else entry
        if low >= beta:
            return low
        if high <= alpha or low == high:
            return high
        alpha, beta = max(alpha, low), min(beta, high)
        engine = self.engine
        maximizing = state.teams[state.turn] == self.side
        keys = engine.move_keys(state)
        if len(keys) == 1:
            # (One move, most of a long last deal's positions, such as a turn's end after its card: played
            # by its key, with no Move made, no rating, no order.)
            best = self._search(engine.apply_key(state, keys[0]), alpha, beta)
            self.table[key] = (*_bounds(best, alpha, beta, low, high), keys[0])
            return best
        keys = self._ordered_keys(state, keys, hint)   # (played by key: no Move made below the root)
        best_key = keys[0]
        a, b = alpha, beta
        if maximizing:
            best = -INF
            for k in keys:
                v = self._search(engine.apply_key(state, k), a, b)
                if v > best:
                    best, best_key = v, k
                    if v > a:
                        a = v
                        if a >= b:
                            break
        else:
            best = INF
            for k in keys:
                v = self._search(engine.apply_key(state, k), a, b)
                if v < best:
                    best, best_key = v, k
                    if v < b:
                        b = v
                        if a >= b:
                            break
        self.table[key] = (*_bounds(best, alpha, beta, low, high), best_key)
        return best


def _bounds(best: int, alpha: int, beta: int, low: int, high: int) -> tuple[int, int]:
    """The bounds a search in the window (alpha, beta) that found ``best`` leaves on the position's value:
    an upper bound where it failed low, a lower where it failed high, the value itself within."""
    if best <= alpha:
        return low, min(high, best)
    if best >= beta:
        return max(low, best), high
    return best, best


def cards_left(state: HandState) -> int:
    """Cards still to be played in the hand: every hand and the stock."""
    return sum(len(bits(h)) for h in state.hands) + len(state.stock)
