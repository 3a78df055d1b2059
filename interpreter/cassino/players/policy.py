"""The search's playout policy: a move rating fitted to the search's own choices.

The search values a candidate by playing its sampled deal out to the deal's end, every seat
moving by a rating. The greedy rating (``gain``) looks only at what a move takes; a real
player also weighs what it leaves. ``PlayoutPolicy`` rates a move by a weighted sum of its
``FEATURES``, each seen from the mover's seat (its own hand, the table, the builds; no hidden
card), and plays the best-rated move (the first of equals). Its weights, ``FITTED``, are those
under which the search's own choices in self-play are most likely (a conditional logit:
a move is chosen with probability proportional to exp(rating)), fitted twice:

1. to 60,351 decisions of 2,000 hands of 2-player standard self-play by the search with greedy
   playouts, then
2. to 59,738 decisions of 2,000 hands by the search playing out with the first fit's weights
   (the weights below), as expert iteration fits a policy to the search that uses it.

``benchmarks/fit_playout_policy.py`` collects such decisions and fits the weights again. What
the policy gained over greedy playouts is in docs/performance.md ("A playout policy fitted to
the search"). The features are read from the variant's own scoring items (through
``CardWorth``) and deck, so the same weights serve every 2-player variant won by the highest
total; where more play, or the lowest total wins, they lost points. Other rule files and seatings
get weights of their own from ``cassino train`` (``training``, ``weights``); where none are fitted
the search plays out greedily (``search.PLAYOUTS``).

Every feature is seen from the mover's side of the goal: a card's worth is ``CardWorth``'s, which
counts against the taker where the lowest total wins, and so do the counts of cards taken and of
clears there (``taken_cards``, ``clears``: times -1); what a move leaves on the table is left to the
next seat to move, which is an opponent in every seating the bundled variants have, but where it is
the mover's partner the ``left`` features count for the side rather than against it (times -1).

Compiled with mypyc alongside the engine, and written so that the compiled and the pure-Python
module give the same floats, bit for bit (the features added in the order of ``FEATURES``).
"""

from __future__ import annotations

import math
import time
from typing import Final

from mypy_extensions import i64

from ..engine.core import Engine
from ..engine.movegen import PLAYED_SHIFT, VALUE_BITS, VALUE_SHIFT, _ones, bits, deposit, extract, popcount
from ..engine.moves import Move, MoveKind
from ..engine.state import HandState
from ..engine.tables import BUILD, CAPTURE, TRAIL_BUILD
from ..engine.turnrules import KeyCheck
from ..errors import PositionTooLargeError
from .gain import (_COMPILED, LOCAL_MAX, WIDE, CardWorth, best_index, first_passing, held, local_cards, merged_worth,
                   word_worth)

_CAPTURE: Final = MoveKind.CAPTURE
_BUILD: Final = MoveKind.BUILD
_TRAIL_BUILD: Final = MoveKind.TRAIL_BUILD

#: (No list of cards: ``_rate_keys``' lists where none is read, made once. Never changed.)
_NO_CARDS: Final[list[int]] = []

#: What the policy rates a move by, in the order of its weights (worths are ``CardWorth``'s, in points):
#:
#: - ``taken``: a capture's cards' worth (the hand card's too); ``taken_cards``: how many table cards
#:   it takes; ``clears``: 1 for a capture that leaves the table empty (the sweep's own points, where
#:   the variant scores one, count as ``taken``); the two counts are negated where the lowest total wins;
#: - ``built``: a build's cards' worth; ``builds``: 1 for a build; ``build_value``: its value, as a
#:   share of the highest card value (1 for a build named by rank);
#: - ``trailed``: a trailed card's worth; ``trails``: 1 for a trail; ``trail_value``: its highest
#:   value as a share of the highest card value;
#: - ``left``: the worth of the loose cards the move leaves on the table; ``left_cards``: how many;
#:   ``left_one``: 1 where it leaves one loose card and no build (the next player may clear it); all
#:   three negated where the next seat to move is the mover's partner.
#: (Not ``Final``, as neither is ``FITTED``: compiled, a ``Final`` tuple read at run time was not set.)
FEATURES: tuple[str, ...] = ("taken", "taken_cards", "clears", "built", "builds", "build_value", "trailed",
                             "trails", "trail_value", "left", "left_cards", "left_one")

#: The fitted weights, in the order of ``FEATURES`` (``benchmarks/fit_playout_policy.py``, the second fit).
FITTED: tuple[float, ...] = (0.7156, 0.1964, 0.7248, 0.4900, 0.6611, -0.1338, -1.1356, -0.0260, -0.7244,
                             -0.1119, -0.9531, 0.2867)


class PlayoutPolicy:
    """A linear move rating over ``FEATURES`` (``weights`` in their order; ``FITTED`` by default) for one
    engine's deck."""

    def __init__(self, engine: Engine, weights: tuple[float, ...] | None = None) -> None:
        if weights is None:
            weights = FITTED
        if len(weights) != len(FEATURES):
            raise ValueError(f"a playout policy has {len(FEATURES)} weights ({', '.join(FEATURES)}), "
                             f"not {len(weights)}")
        given: tuple[object, ...] = weights   # (read as objects: compiled, a float is not taken on trust)
        for w in given:
            if isinstance(w, bool) or not isinstance(w, (int, float)) or not math.isfinite(w):
                raise ValueError(f"a playout policy's weights are finite numbers, not {weights!r}")
        self.weights: Final[tuple[float, ...]] = tuple(float(w) for w in weights)
        # (Each weight its own attribute too: compiled, a float attribute is a machine double, read by
        # ``_rate_keys`` on every ply of a playout without unboxing twelve floats from the tuple.)
        wt = self.weights
        self.w0: Final[float] = wt[0]
        self.w1: Final[float] = wt[1]
        self.w2: Final[float] = wt[2]
        self.w3: Final[float] = wt[3]
        self.w4: Final[float] = wt[4]
        self.w5: Final[float] = wt[5]
        self.w6: Final[float] = wt[6]
        self.w7: Final[float] = wt[7]
        self.w8: Final[float] = wt[8]
        self.w9: Final[float] = wt[9]
        self.w10: Final[float] = wt[10]
        self.w11: Final[float] = wt[11]
        top = max((max(v) for v in engine.hv if v), default=1)
        top = top if top > 0 else 1
        #: Each card's highest value from hand, as a share of the deck's highest (0 for a card of none).
        self.value_share: Final[list[float]] = [(max(v) if v else 0) / top for v in engine.hv]
        self.top: Final[int] = top
        #: -1.0 where the lowest total wins (taking cards and clearing the table cost the taker), else 1.0.
        self.goal: Final[float] = -1.0 if engine.rules.game.goal == "lowest" else 1.0
        self.ccw: Final[bool] = engine.rules.seats.direction == "counterclockwise"
        #: The first build value code that names a rank, not a number (``Tables.rank_code_base``).
        self.rank_code_base: Final[int] = engine.tables.rank_code_base

    def ratings(self, worth: CardWorth, state: HandState, moves: list[Move]) -> list[float]:
        """Each move's rating, in order (the state's builds looked at once)."""
        wt = self.weights
        table = state.table
        build_cards = {b.cards for b in state.builds}
        builds = len(build_cards)
        sweep_points = worth.sweep_worth(state)
        goal = self.goal
        turn = state.turn
        nxt = (turn - 1) % state.players if self.ccw else (turn + 1) % state.players
        ally = -1.0 if nxt != turn and state.teams[nxt] == state.teams[turn] else 1.0   # (left to a partner)
        out: list[float] = []
        for m in moves:
            kind = m.kind
            played = m.played
            used = m.loose
            taken_builds = 0
            for b in m.builds:
                if b in build_cards:
                    used |= b
                    taken_builds += 1
            if kind is _CAPTURE:
                rating = wt[0] * (worth.of(used | played)) + wt[1] * (goal * popcount(used))
                left = table & ~m.loose
                builds_left = builds - taken_builds
                if not left and not builds_left and (m.loose & table or m.builds):
                    rating += wt[2] * goal + wt[0] * sweep_points
            elif kind is _BUILD or kind is _TRAIL_BUILD:
                value = m.value
                share = value / self.top if isinstance(value, int) else 1.0
                rating = wt[3] * worth.of(used | played) + wt[4] + wt[5] * share
                left = table & ~m.loose
                builds_left = builds + 1
            else:
                card = (played & -played).bit_length() - 1
                rating = wt[6] * worth.of(played) + wt[7] + wt[8] * self.value_share[card]
                left = table | played
                builds_left = builds
            count = popcount(left)
            rating += wt[9] * (ally * worth.of(left)) + wt[10] * (ally * count)
            if count == 1 and not builds_left:
                rating += wt[11] * ally
            out.append(rating)
        return out

    def key_ratings(self, worth: CardWorth, state: HandState, keys: list[int]) -> list[float]:
        """``ratings`` of the moves of ``keys`` (the engine's move keys of ``state``, ``Engine.move_keys``),
        read from the keys themselves: no Move made or decoded, the same floats in the same order."""
        out: list[float] = []
        self._rate_keys(worth, state, keys, out)
        return out

    def best_key(self, worth: CardWorth, state: HandState, keys: list[int], engine: Engine | None = None) -> int:
        """The index of the best-rated of ``keys`` (the first of equals): ``best_index(key_ratings(...))``
        with no list of ratings made. ValueError for no keys. ``engine``: the engine that listed the keys,
        whose lists of the position's cards (``Engine.turn_cards``, two packs') are read where it has them."""
        if not keys:
            raise ValueError("best_key: no move keys to choose among")
        return self._rate_keys(worth, state, keys, None, engine)

    def best_checked_key(self, worth: CardWorth, state: HandState, keys: list[int], check: KeyCheck,
                         engine: Engine | None = None) -> int:
        """``best_key`` over the keys of ``Engine.unchecked_keys(state)`` that pass its ``check``: the index
        of the same move, -1 where no key passes (the caller lists ``move_keys`` instead)."""
        if len(keys) == 1:
            return 0 if check.passes(keys[0]) else -1
        out: list[float] = []
        self._rate_keys(worth, state, keys, out, engine)
        return first_passing(out, keys, check)

    def _rate_keys(self, worth: CardWorth, state: HandState, keys: list[int], out: list[float] | None,
                   engine: Engine | None = None) -> int:
        """Each key's rating appended to ``out`` (None: not kept); the index of the first best (-1: no keys);
        ``engine``: as ``best_key``'s."""
        w0 = self.w0
        w1 = self.w1
        w2 = self.w2
        w3 = self.w3
        w4 = self.w4
        w5 = self.w5
        w6 = self.w6
        w7 = self.w7
        w8 = self.w8
        w9 = self.w9
        w10 = self.w10
        w11 = self.w11
        table = state.table
        state_builds = state.builds
        # (The number of distinct builds, as ``ratings`` counts them: no set made for none or one.)
        builds = len(state_builds) if len(state_builds) < 2 else len({b.cards for b in state_builds})
        sweep_points = worth.sweep_worth(state)
        goal = self.goal
        top = self.top
        base = self.rank_code_base
        value_share = self.value_share
        turn = state.turn
        nxt = (turn - 1) % state.players if self.ccw else (turn + 1) % state.players
        ally = -1.0 if nxt != turn and state.teams[nxt] == state.teams[turn] else 1.0   # (left to a partner)
        # What the keys' bits name (as ``Move._decode`` reads them): the hand's cards, then the
        # loose cards in play, then the builds.
        hand = state.hands[turn]
        in_play = state.in_play()
        # A key that takes no build is rated in its own terms (``gain.merged_worth``): its hand cards and
        # loose items as machine integers, read through the lists of their deck cards, with no deck mask
        # made (the same floats: every worth added lowest card first). Others, as their deck masks.
        # (Only where a mask is wider than a machine word: one pack's masks are machine integers already,
        # and the two lists of cards cost more than they save.)
        hand_cards, item_cards, local_ok = local_cards(engine, state, hand, in_play)
        h = len(hand_cards) if local_ok else popcount(hand)   # (the keys' layout, whichever way they are rated)
        n_loose = len(item_cards) if local_ok else popcount(in_play)
        hand_bits = (1 << h) - 1
        shift = PLAYED_SHIFT + h
        loose_bits = (1 << n_loose) - 1
        cw = worth.worth
        on_table: i64 = 0   # the loose items on the table (not pile tops)
        table_count: i64
        if local_ok and not state.stacks:   # (no pile tops in play: the table is every loose item)
            on_table = loose_bits
            table_count = n_loose
        else:
            if local_ok:
                on_table = loose_bits if table == in_play else extract(table, in_play)
            table_count = popcount(table)
        # Compiled, where every mask fits a machine word (one pack), the keys that are not rated in their
        # own terms are rated as machine integers (``gain.word_worth``): the same floats, no boxed integer.
        # (The builds' cards too: with more than one pack a build may hold cards past the word while the
        # table, the pile tops and the hand do not.)
        narrow = (_COMPILED and not local_ok and in_play <= WIDE and hand <= WIDE and table <= WIDE
                  and all(b.cards <= WIDE for b in state_builds))
        table_w: i64 = table if narrow else 0
        count: i64   # (the loose cards a move leaves)
        best = -1
        high = 0.0
        i = 0
        for key in keys:
            kind = key & 3
            items = key >> shift
            chosen = items >> n_loose
            rating: float
            if local_ok and not chosen:
                picked: i64 = (key >> PLAYED_SHIFT) & hand_bits
                local: i64 = items & loose_bits
                kept: i64
                if kind == CAPTURE:
                    rating = (w0 * merged_worth(cw, item_cards, local, hand_cards, picked)
                              + w1 * (goal * float(_ones(local))))
                    kept = on_table & ~local
                    if not kept and not builds and local & on_table:
                        rating += w2 * goal + w0 * sweep_points
                    rest = merged_worth(cw, item_cards, kept, hand_cards, 0)
                    count = _ones(kept)
                    builds_left = builds
                elif kind == BUILD or kind == TRAIL_BUILD:
                    code = (key >> VALUE_SHIFT) & VALUE_BITS
                    share = code / top if code < base else 1.0
                    rating = w3 * merged_worth(cw, item_cards, local, hand_cards, picked) + w4 + w5 * share
                    kept = on_table & ~local
                    rest = merged_worth(cw, item_cards, kept, hand_cards, 0)
                    count = _ones(kept)
                    builds_left = builds + 1
                else:   # a trail (or a turn's end: no card)
                    card = hand_cards[_ones((picked & -picked) - 1)] if picked else -1
                    rating = w6 * merged_worth(cw, item_cards, 0, hand_cards, picked) + w7 + w8 * value_share[card]
                    rest = merged_worth(cw, item_cards, on_table, hand_cards, picked)
                    count = table_count + _ones(picked)
                    builds_left = builds
                rating += w9 * (ally * rest) + w10 * (ally * float(count))
            elif narrow:   # (as below, in machine integers)
                played_w: i64 = deposit((key >> PLAYED_SHIFT) & hand_bits, hand)
                items_w: i64 = items & loose_bits
                loose_w: i64 = deposit(items_w, in_play) if items_w else 0
                used_w: i64 = loose_w
                left_w: i64
                taken_builds = 0
                j = 0
                while chosen:
                    if chosen & 1:
                        used_w |= state_builds[j].cards
                        taken_builds += 1
                    chosen >>= 1
                    j += 1
                if kind == CAPTURE:
                    rating = w0 * word_worth(cw, used_w | played_w) + w1 * (goal * float(_ones(used_w)))
                    left_w = table_w & ~loose_w
                    builds_left = builds - taken_builds
                    if not left_w and not builds_left and (loose_w & table_w or taken_builds):
                        rating += w2 * goal + w0 * sweep_points
                elif kind == BUILD or kind == TRAIL_BUILD:
                    code = (key >> VALUE_SHIFT) & VALUE_BITS
                    share = code / top if code < base else 1.0
                    rating = w3 * word_worth(cw, used_w | played_w) + w4 + w5 * share
                    left_w = table_w & ~loose_w
                    builds_left = builds + 1
                else:   # a trail (or a turn's end: no card)
                    low_w: i64 = played_w & -played_w
                    card_w: i64 = _ones(low_w - 1) if low_w else -1
                    rating = w6 * word_worth(cw, played_w) + w7 + w8 * value_share[card_w]
                    left_w = table_w | played_w
                    builds_left = builds
                count = _ones(left_w)
                rating += w9 * (ally * word_worth(cw, left_w)) + w10 * (ally * float(count))
            else:
                played = deposit((key >> PLAYED_SHIFT) & hand_bits, hand)
                local_items = items & loose_bits
                loose = deposit(local_items, in_play) if local_items else 0
                used = loose
                taken_builds = 0
                j = 0
                while chosen:
                    if chosen & 1:
                        used |= state_builds[j].cards
                        taken_builds += 1
                    chosen >>= 1
                    j += 1
                if kind == CAPTURE:
                    rating = w0 * (worth.of(used | played)) + w1 * (goal * popcount(used))
                    left = table & ~loose
                    builds_left = builds - taken_builds
                    if not left and not builds_left and (loose & table or taken_builds):
                        rating += w2 * goal + w0 * sweep_points
                elif kind == BUILD or kind == TRAIL_BUILD:
                    code = (key >> VALUE_SHIFT) & VALUE_BITS
                    share = code / top if code < base else 1.0
                    rating = w3 * worth.of(used | played) + w4 + w5 * share
                    left = table & ~loose
                    builds_left = builds + 1
                else:   # a trail (or a turn's end: no card)
                    card = (played & -played).bit_length() - 1
                    rating = w6 * worth.of(played) + w7 + w8 * value_share[card]
                    left = table | played
                    builds_left = builds
                count = popcount(left)
                rating += w9 * (ally * worth.of(left)) + w10 * (ally * float(count))
            if count == 1 and not builds_left:
                rating += w11 * ally
            if out is not None:
                out.append(rating)
            if best < 0 or rating > high:   # (the first of equals, as ``best_index``)
                best = i
                high = rating
            i += 1
        return best

    def move(self, engine: Engine, worth: CardWorth, state: HandState) -> Move:
        """The best-rated legal move (the first of equals)."""
        legal = engine.playable_moves(state)
        if len(legal) == 1:
            return legal[0]
        return legal[best_index(self.ratings(worth, state, legal))]

    def playout(self, engine: Engine, worth: CardWorth, state: HandState, move: Move, whole_hand: bool,
                deadline: float = 0.0, stop: int = -1, tally: list[int] | None = None,
                close: bool = False, crowd: int = -1) -> HandState:
        """``move`` played, then every seat's best-rated move to the end of the deal (or of the hand);
        ``deadline`` (a ``time.perf_counter()`` reading; 0.0: none): stopped short once it has passed
        (looked at every 8th ply);
        ``stop`` (-1: none): stopped once the cards to be played (``gain.held``) are down to that many;
        ``tally``: its two numbers count the legal moves listed and rated and the plies played
        (``gain.greedy_playout``); ``close``, ``crowd``: as ``greedy_playout``'s."""
        deal = state.deal_no
        state = engine.apply(state, move)
        plies = 0
        listed: i64 = 0   # (the tally's two numbers counted as machine integers, added to it once at the end)
        rated: i64 = 0
        while not state.over and (whole_hand or state.deal_no == deal):
            if deadline > 0.0 and plies & 7 == 0 and time.perf_counter() > deadline:
                break   # (the clock read every 8th ply, not every one: at most 7 plies late)
            plies += 1
            if stop >= 0 and held(state) <= stop:
                break
            if crowd >= 0 and popcount(state.table) > crowd:
                break   # (a crowded table: too many moves to list at every ply, ``crowd``)
            if close and state.turn_card:   # (the turn's hand card played: its turn ended, nothing more listed)
                state = engine.close_turn(state)
                if tally is not None:
                    tally[1] += 1
                continue
            try:
                keys, check = engine.unchecked_keys(state)
            except PositionTooLargeError:   # (beyond the listing budget: a sample of moves, as Moves)
                legal = engine.playable_moves(state)
                listed += len(legal)
                rated += 1
                state = engine.apply(state, legal[0] if len(legal) == 1
                                     else legal[best_index(self.ratings(worth, state, legal))])
                continue
            listed += len(keys)
            rated += 1
            if check is not None:
                # (The whole-move rules asked only of the best-rated keys, not of every key: the same move.)
                pick = self.best_checked_key(worth, state, keys, check, engine)
                if pick >= 0:
                    state = engine.apply_key(state, keys[pick])
                    continue
                keys = engine.move_keys(state)   # (none passes: the listing's own fallback)
            # (Rated and applied by key: the moves ``playable_moves`` would list, in the same order.)
            state = engine.apply_key(state, keys[0] if len(keys) == 1
                                     else keys[self.best_key(worth, state, keys, engine)])
        if tally is not None:
            tally[0] += int(listed)
            tally[1] += int(rated)
        return state
