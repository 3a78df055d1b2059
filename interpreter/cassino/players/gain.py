"""What a move gains at once: the one value heuristic the greedy player, the search's
candidates and playouts, and the solver's move ordering share.

``CardWorth`` reads what each card is worth from the variant's own scoring items (so
no variant is special-cased); ``move_gain`` rates one move with it and ``gains`` a
whole list of moves. Compiled with mypyc alongside the engine (every greedy decision
and every playout step rates all legal moves), and written so that the compiled and
the pure-Python module give the same floats, bit for bit: the cards' worths are added
lowest card first, as ``sum`` over the card indexes did, so a seeded game plays the
same moves either way.
"""

from __future__ import annotations

import time
from typing import Final, final

from mypy_extensions import i64

from ..engine.core import Engine
from ..engine.movegen import PLAYED_SHIFT, _ones, bits, deposit, extract, popcount
from ..engine.moves import Move, MoveKind
from ..engine.scoring import Scorer
from ..engine.state import HandState
from ..engine.tables import BUILD, CAPTURE, TRAIL_BUILD
from ..engine.turnrules import KeyCheck
from ..errors import PositionTooLargeError

_CAPTURE: Final = MoveKind.CAPTURE
_BUILD: Final = MoveKind.BUILD
_TRAIL_BUILD: Final = MoveKind.TRAIL_BUILD


class CardWorth:
    """What each card is worth to the side that takes it, from the variant's scoring items."""

    def __init__(self, engine: Engine, scorer: Scorer) -> None:
        n = engine.n_cards
        worth = [0.02] * n  # every card counts a little towards "most cards"-like items
        sweep_points = 0.0
        for item in engine.rules.scoring.items:
            if item.count in ("each", "most"):
                members = bits(scorer.masks[item.name])
                if not members:
                    continue
                share = item.points if item.count == "each" else item.points / max(len(members) / 2, 1)
                for i in members:
                    worth[i] += share
            elif item.count == "at_least":
                # Each card brings its side one nearer the number: the points shared over that many.
                members = bits(scorer.masks[item.name])
                need = item.at_least if item.at_least is not None else 1
                for i in members:
                    worth[i] += item.points / max(need, 1)
            elif item.count == "sweeps":
                sweep_points = float(max([item.points] + [r.points for r in item.by_size]))
            elif item.count == "primiera" and item.points:
                # Primiera: a card counts by how likely it is to be a suit's best. The top card of
                # each suit by the table (the 7s) shares the item's points as "most" shares its
                # own; a lower card a fraction by its points below the top (6s next, courts least).
                points = scorer.card_points[item.name]
                top = max(points) if points else 0
                if top <= 0:
                    continue
                per_suit = item.points / max(len(scorer.suit_masks), 1)
                for i in bits(scorer.masks[item.name]):
                    share = points[i] / top
                    worth[i] += per_suit * share ** 4
        if engine.rules.game.goal == "lowest":
            # A negative game (points are penalties): what a side takes counts against it.
            worth = [-w for w in worth]
            sweep_points = -sweep_points
        self.worth: Final[list[float]] = worth
        self.sweep_points: Final[float] = sweep_points
        #: Whether emptying the table once the stock is used up is a sweep (Finnish Kasino: not).
        self.last_deal_sweeps: Final[bool] = engine.rules.sweeps.in_last_deal

    def sweep_worth(self, state: HandState) -> float:
        """What a sweep made now is worth: nothing where the variant records none in the last deal."""
        return self.sweep_points if self.last_deal_sweeps or state.stock else 0.0

    def of(self, mask: int) -> float:
        """The worth of the cards in ``mask``, added lowest card first."""
        if _COMPILED and mask <= WIDE and mask >= 0:   # (wide first: as ``movegen.bits``)
            # (Compiled, a one-pack deck's masks as machine integers: no boxed integer made for
            # each card, the same floats.)
            return word_worth(self.worth, mask)
        total = 0.0
        worth = self.worth
        while mask:
            low = mask & -mask
            total += worth[low.bit_length() - 1]
            mask ^= low
        return total

    def won(self, before: HandState, after: HandState) -> dict[int, float]:
        """What each side won between two states of a hand: its new cards' worth, and
        ``sweep_points`` for each sweep it made that still stands."""
        value: dict[int, float] = {}
        new_sweeps = after.sweeps[len(before.sweeps):]
        for s in after.sides:
            won = after.side_pile(s) & ~before.side_pile(s)
            sweeps = 0
            for w in new_sweeps:
                if not w.cancelled and after.teams[w.seat] == s:
                    sweeps += 1
            value[s] = self.of(won) + self.sweep_points * sweeps
        return value


def _probe() -> None:
    """(Nothing: a compiled function has no ``__code__``, an interpreted one has.)"""


#: Whether this module runs compiled (mypyc), told once at import (as ``movegen._COMPILED``):
#: compiled, ``CardWorth.of`` walks a one-pack mask as a machine integer; interpreted, CPython's
#: own ``bit_length`` on the mask is quicker than ``_ones``' dozen operations. The same floats either way.
_COMPILED: Final = not hasattr(_probe, "__code__")


def word_worth(cw: list[float], mask: i64) -> float:
    """``CardWorth.of`` (``cw``: its ``worth``) of a mask of machine width (0 to ``WIDE``): the cards
    added lowest first, the same float."""
    total = 0.0
    while mask:
        low: i64 = mask & -mask
        total += cw[_ones(low - 1)]
        mask ^= low
    return total


#: The most hand cards and loose cards in play whose keys are rated as machine integers
#: (``best_gain_key``, ``policy.PlayoutPolicy``).
LOCAL_MAX: Final = 62
#: The widest mask of machine arithmetic (``movegen``'s bound): wider ones are two packs'.
WIDE: Final = (1 << 62) - 1
#: Above every deck index: ``merged_worth``'s "no hand card left to add".
_PAST: Final = 1 << 40


_NO_CARDS: Final[list[int]] = []


def local_cards(engine: "Engine | None", state: HandState, hand: int, in_play: int) -> tuple[list[int], list[int], bool]:
    """The mover's hand cards and the cards in play (deck indexes, lowest first) where a key may be rated in
    its own terms (``merged_worth``), and whether it may: only where a mask is wider than a machine word
    (one pack's masks are machine integers already, and the two lists cost more than they save) and both
    lists hold at most ``LOCAL_MAX`` cards. The listing's lists of a wide position (``Engine.turn_cards``)
    where it kept them, not walked out of the masks again; otherwise two empty lists and False."""
    cards = engine.turn_cards(state) if engine is not None else None
    if cards is not None:
        return cards[0], cards[1], True
    if (in_play > WIDE or hand > WIDE) and popcount(in_play) <= LOCAL_MAX and popcount(hand) <= LOCAL_MAX:
        return bits(hand), bits(in_play), True
    return _NO_CARDS, _NO_CARDS, False


def merged_worth(cw: list[float], item_cards: list[int], items: i64, hand_cards: list[int], played: i64) -> float:
    """``CardWorth.of`` (``cw``: its ``worth``) of the cards of ``items`` (bit k: deck card ``item_cards[k]``)
    and of ``played`` (bit k: deck card ``hand_cards[k]``) together: both lists lowest card first, no card
    in both. The cards are added lowest first, as ``of`` adds a deck mask's, so the float is the same bit
    for bit; but no deck mask is made, and a key's items and hand cards (machine integers) are read as
    they are, where the deck's masks are wider than a machine word (two packs)."""
    total = 0.0
    low: i64 = played & -played
    p: i64 = hand_cards[_ones(low - 1)] if played else _PAST
    k: i64 = 0
    while items:
        if items & 1:
            card: i64 = item_cards[k]
            while p < card:
                total += cw[p]
                played ^= low
                low = played & -played
                p = hand_cards[_ones(low - 1)] if played else _PAST
            total += cw[card]
        items >>= 1
        k += 1
    while played:
        total += cw[p]
        played ^= low
        low = played & -played
        p = hand_cards[_ones(low - 1)] if played else _PAST
    return total


def _gain(w: CardWorth, table: int, build_cards: set[int], move: Move, sweep_points: float) -> float:
    used = move.loose
    for b in move.builds:
        if b in build_cards:
            used |= b
    kind = move.kind
    if kind is _CAPTURE:
        gain = w.of(used | move.played) + 0.05 * popcount(used)
        remaining = (table & ~move.loose) != 0
        if not remaining:
            for b in build_cards:
                if b not in move.builds:
                    remaining = True
                    break
        if not remaining and (move.loose & table or move.builds):   # (pile tops alone sweep nothing)
            gain += sweep_points + 0.3
        return gain
    if kind is _BUILD or kind is _TRAIL_BUILD:
        return 0.4 * w.of(used | move.played) - 0.1
    return -0.5 * w.of(move.played) - 0.2


def move_gain(w: CardWorth, state: HandState, move: Move) -> float:
    """The immediate gain of a move for the player making it, in points (roughly)."""
    return _gain(w, state.table, {b.cards for b in state.builds}, move, w.sweep_worth(state))


def gains(w: CardWorth, state: HandState, moves: list[Move]) -> list[float]:
    """``move_gain`` of each move, in order (the state's builds looked at once)."""
    build_cards = {b.cards for b in state.builds}
    table = state.table
    sweep_points = w.sweep_worth(state)
    return [_gain(w, table, build_cards, m, sweep_points) for m in moves]


@final
class KeyGains:
    """``move_gain`` of the moves of one position read from their keys (``Engine.move_keys(state)``): no
    Move made or decoded, the same floats as ``gains``. ``engine``: the engine that listed the keys, whose
    lists of the position's cards (``Engine.turn_cards``, two packs') are read where it has them."""

    def __init__(self, w: CardWorth, state: HandState, engine: Engine | None = None) -> None:
        self.w = w
        self.table = state.table
        state_builds = state.builds
        self.state_builds = state_builds
        self.builds = len(state_builds) if len(state_builds) < 2 else len({b.cards for b in state_builds})
        self.sweep_points = w.sweep_worth(state)
        hand = state.hands[state.turn]
        self.hand = hand
        in_play = state.in_play()
        self.in_play = in_play
        # A key that takes no build is rated in its own terms (``merged_worth``: no deck mask made, the same
        # floats), as ``policy.PlayoutPolicy`` rates keys; others, as their deck masks.
        # (Only where a mask is wider than a machine word: one pack's masks are machine integers already,
        # and the two lists of cards cost more than they save.)
        hand_cards, item_cards, local_ok = local_cards(engine, state, hand, in_play)
        self.hand_cards = hand_cards
        self.item_cards = item_cards
        self.local_ok = local_ok
        h = len(hand_cards) if local_ok else popcount(hand)   # (the keys' layout, whichever way they are rated)
        n_loose = len(item_cards) if local_ok else popcount(in_play)
        self.n_loose = n_loose
        self.hand_bits = (1 << h) - 1
        self.shift = PLAYED_SHIFT + h
        self.loose_bits = (1 << n_loose) - 1
        self.cw = w.worth
        on_table: i64 = 0   # the loose items on the table (not pile tops)
        if local_ok:
            on_table = self.loose_bits if state.table == in_play else extract(state.table, in_play)
        self.on_table: i64 = on_table

    def gain(self, key: int) -> float:
        """The ``move_gain`` of the move ``key``."""
        kind = key & 3
        items = key >> self.shift
        chosen = items >> self.n_loose
        if self.local_ok and not chosen:
            hand_cards, item_cards, cw = self.hand_cards, self.item_cards, self.cw
            picked: i64 = (key >> PLAYED_SHIFT) & self.hand_bits
            local: i64 = items & self.loose_bits
            if kind == CAPTURE:   # (as ``_gain``)
                gain = merged_worth(cw, item_cards, local, hand_cards, picked) + 0.05 * float(_ones(local))
                on_table = self.on_table
                if not (on_table & ~local) and not self.builds and local & on_table:
                    gain += self.sweep_points + 0.3
                return gain
            if kind == BUILD or kind == TRAIL_BUILD:
                return 0.4 * merged_worth(cw, item_cards, local, hand_cards, picked) - 0.1
            return -0.5 * merged_worth(cw, item_cards, 0, hand_cards, picked) - 0.2
        w = self.w
        played = deposit((key >> PLAYED_SHIFT) & self.hand_bits, self.hand)
        local_items = items & self.loose_bits
        loose = deposit(local_items, self.in_play) if local_items else 0
        used = loose
        taken = 0
        j = 0
        state_builds = self.state_builds
        while chosen:
            if chosen & 1:
                used |= state_builds[j].cards
                taken += 1
            chosen >>= 1
            j += 1
        if kind == CAPTURE:   # (as ``_gain``)
            gain = w.of(used | played) + 0.05 * popcount(used)
            table = self.table
            if not (table & ~loose) and taken >= self.builds and (loose & table or taken):
                gain += self.sweep_points + 0.3
            return gain
        if kind == BUILD or kind == TRAIL_BUILD:
            return 0.4 * w.of(used | played) - 0.1
        return -0.5 * w.of(played) - 0.2


def key_gains(w: CardWorth, state: HandState, keys: list[int], engine: Engine | None = None) -> list[float]:
    """``gains`` of the moves of ``keys`` (``Engine.move_keys(state)``), read from the keys (``KeyGains``)."""
    rater = KeyGains(w, state, engine)
    return [rater.gain(key) for key in keys]


def best_gain_key(w: CardWorth, state: HandState, keys: list[int], engine: Engine | None = None) -> int:
    """The index of the key (``Engine.move_keys(state)``) of the best ``move_gain`` (the first of
    equals), read from the keys (``KeyGains``). ValueError for no keys."""
    if not keys:
        raise ValueError("best_gain_key: no move keys to choose among")
    rater = KeyGains(w, state, engine)
    best = -1
    high = 0.0
    i = 0
    for key in keys:
        gain = rater.gain(key)
        if best < 0 or gain > high:   # (the first of equals, as ``best_index``)
            best = i
            high = gain
        i += 1
    return best


def first_passing(values: list[float], keys: list[int], check: KeyCheck) -> int:
    """The index of the key of the largest value among the keys that pass ``check`` (the first of equals),
    -1 where none passes: ``best_index`` over the keys ``check`` keeps, asking it of as few keys as may be
    (the best first, then the next). The same index as rating only the kept keys, since the check keeps
    the keys in their order and a key's value does not depend on the others (``Engine.unchecked_keys``)."""
    n = len(values)
    if n > 62:   # (more keys than a machine word's bits: the refused ones in a list)
        for _, i in sorted([(-values[i], i) for i in range(n)]):   # (the best first, equals in order)
            if check.passes(keys[i]):
                return i
        return -1
    refused: i64 = 0   # (bit i: key i refused)
    while True:
        best = -1
        high = 0.0
        for i in range(n):
            if refused >> i & 1:
                continue
            value = values[i]
            if best < 0 or value > high:   # (the first of equals, as ``best_index``)
                best = i
                high = value
        if best < 0 or check.passes(keys[best]):
            return best
        refused |= 1 << best


def best_checked_gain_key(w: CardWorth, state: HandState, keys: list[int], check: KeyCheck,
                          engine: Engine | None = None) -> int:
    """``best_gain_key`` over the keys of ``Engine.unchecked_keys(state)`` that pass its ``check``: the
    index of the same move, -1 where no key passes (the caller lists ``move_keys`` instead)."""
    if len(keys) == 1:
        return 0 if check.passes(keys[0]) else -1
    return first_passing(key_gains(w, state, keys, engine), keys, check)


def best_index(values: list[float]) -> int:
    """The index of the first largest value (as ``max`` would choose). ValueError for no values
    (no move to rate: the caller asked a player to move where it has none)."""
    if not values:
        raise ValueError("best_index: no values to choose among (no legal move was rated)")
    best = 0
    top = values[0]
    for i in range(1, len(values)):
        if values[i] > top:
            top = values[i]
            best = i
    return best


def ties_at_best(values: list[float]) -> list[int]:
    """The indexes of every value equal to the largest, in order. ValueError for no values."""
    if not values:
        raise ValueError("ties_at_best: no values to choose among (no legal move was rated)")
    top = max(values)
    return [i for i in range(len(values)) if values[i] == top]


# ------------------------------------------------------------------ greedy play


def greedy_move(engine: Engine, worth: CardWorth, state: HandState) -> Move:
    """The legal move with the best gain (the first of equals): the search's playout policy."""
    legal = engine.playable_moves(state)
    if len(legal) == 1:
        return legal[0]
    return legal[best_index(gains(worth, state, legal))]


def held(state: HandState) -> int:
    """The cards still to be played in a hand: every hand's and the stock's."""
    count = len(state.stock)
    for h in state.hands:
        count += popcount(h)
    return count


def greedy_playout(engine: Engine, worth: CardWorth, state: HandState, move: Move, whole_hand: bool,
                   deadline: float = 0.0, stop: int = -1, tally: list[int] | None = None,
                   close: bool = False, crowd: int = -1) -> HandState:
    """``move`` played, then every player's greedy move to the end of the deal (or of the hand);
    ``deadline`` (a ``time.perf_counter()`` reading; 0.0: none): stopped short once it has passed
    (looked at every 8th ply);
    ``stop`` (-1: none): stopped once ``held`` is down to that many cards; ``tally``: its two numbers
    count the moves listed and rated (under whole-move rules, the keys rated before their check,
    ``Engine.unchecked_keys``) and the plies played (the playout's work, the same on every machine);
    ``close``: in a turn of several actions, the turn is ended as soon as its card from the hand is played
    (no build of cards in play after it, and no listing of them); ``crowd`` (-1: none): stopped where more than
    that many loose cards lie on the table (``SearchBot(crowd=...)``: the position's moves too many to list at
    every ply)."""
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
            state = engine.apply(state, legal[0] if len(legal) == 1 else legal[best_index(gains(worth, state, legal))])
            continue
        listed += len(keys)
        rated += 1
        if check is not None:
            # (The whole-move rules asked only of the best-rated keys, not of every key: the same move.)
            pick = best_checked_gain_key(worth, state, keys, check, engine)
            if pick >= 0:
                state = engine.apply_key(state, keys[pick])
                continue
            keys = engine.move_keys(state)   # (none passes: the listing's own fallback)
        # (Rated and applied by key: the moves ``playable_moves`` would list, in the same order.)
        state = engine.apply_key(state, keys[0] if len(keys) == 1 else keys[best_gain_key(worth, state, keys, engine)])
    if tally is not None:
        tally[0] += int(listed)
        tally[1] += int(rated)
    return state
