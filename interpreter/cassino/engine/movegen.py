"""Legal-move generation: every legal move of a position as a compact integer key.

Captures are a set-partition problem: for a played value we enumerate the *groups*
(an equal card, a set of loose cards adding up to the value, a build of that value),
then every union of disjoint groups. Builds reuse the same machinery. Everything
here works on small integers so that it compiles well (mypyc) and stays fast as
plain Python:

- *item space*: the position's loose cards are items ``0..L-1`` (lowest deck index
  first) and its builds are items ``L..L+B-1`` (in ``state.builds`` order); a set of
  items is an int. Loose cards and builds are numbered apart from the deck, so a
  table of 20 cards and 3 builds needs 23 bits, not 64 + 3.
- *move key*: ``kind | value_code << 2 | played << 9 | items << (9 + H)``, where
  ``played`` is a mask over the hand's cards (lowest deck index first, ``H`` of
  them). A key means something only together with its position; ``core.Engine``
  turns keys into :class:`~cassino.engine.moves.Move` values when asked, and applies
  keys directly in playouts.

The subset sums of the table are computed once per position for every value at
once (one depth-first pass that carries the set of sums each subset can make, so a
royal ace counts 1 or 14), and unions are cached per value.
"""

from __future__ import annotations

from typing import Callable, Final, cast

from mypy_extensions import i64, mypyc_attr

from ..errors import PositionTooLargeError
from ..language.cards import MAX_DECK_CARDS
from .state import Build, HandState
from .tables import BUILD, CAPTURE, END, TRAIL, TRAIL_BUILD, MOVE_BUDGET, Tables

VALUE_SHIFT: Final = 2
PLAYED_SHIFT: Final = 9
VALUE_BITS: Final = 127
_POP_MAX: Final = (1 << 62) - 1   # masks up to it: popcount by machine arithmetic (a C constant)

#: Shared read-only lists (never appended to), to save allocations.
_EMPTY: Final[list[int]] = []
_ZERO: Final[list[int]] = [0]
_UNSET: Final[list[int]] = []                 # "not computed yet" in a per-value cache
_NO_BUCKETS: Final[list[list[int]]] = []      # a per-value cache not made yet
_NO_SET: Final[set[int]] = set()              # (never added to)
_NO_SETS: Final[list[set[int]]] = []
#: Tables with no more sum items than this are listed without counting their sets first: at
#: most 2**18 sets, a few milliseconds, so the count would cost more than it saves.
_COUNT_FROM: Final = 18
#: Tables with no more sum items than this are walked by deck cards (``Generator._dfs_cards``: no
#: list of the items' codes made); larger ones, where the walk's steps outnumber the list's, by items.
_CARDS_PASS_UP_TO: Final = 12
#: The most items of a move whose split into sets the whole-move rules search (``turnrules``): a larger
#: move stands unless a count alone rules it out.
SPLIT_ITEMS: Final = 16
#: Hands of up to this many cards are listed from a list of the pool's (``Tables.spare_hands``).
_POOLED_HAND: Final = 16
#: The key of a trail of hand card k, made once as an object: every position lists its
#: trails, and a key made each time is a number boxed into a new object (keys pass 256).
_TRAIL_KEYS: Final[list[object]] = [TRAIL | (1 << (PLAYED_SHIFT + k)) for k in range(48)]
#: The code of an item that takes no part in sums (a loose card without value, a build that does
#: not count as a card): above every sum, so the subset-sum passes step over it.
_NO_SUM: Final = 1 << 20
#: An item's bit by its index (item k is bit k), made once: a position's loose cards and builds.
_ITEM_BITS: Final[list[int]] = [1 << k for k in range(2 * MAX_DECK_CARDS + 2)]


def _probe() -> None:
    """(Nothing: a compiled function has no ``__code__``, an interpreted one has.)"""


#: Whether this module runs compiled (mypyc) or interpreted, told once at import. The bit
#: helpers and the one-value passes below count bits by machine arithmetic (``_ones``: SWAR on an
#: ``i64``), a few instructions compiled but a dozen interpreted operations; interpreted, they are
#: replaced by plain-Python forms built on CPython's own ``int.bit_count`` and ``bit_length`` (see
#: the end of this module, and ``Generator.sum_groups``). The same results, in the same order,
#: either way (tests/test_native.py, tests/test_bit_helpers.py).
_COMPILED: Final = not hasattr(_probe, "__code__")


def bits(mask: int) -> list[int]:
    """Indexes of the set bits of ``mask``, lowest first."""
    out: list[int] = []
    # (The wide test first: compiled, a comparison of a wide integer boxes the other side, so a
    # wide mask is compared once, not three times.)
    if mask <= _POP_MAX:
        if mask < 0:
            raise ValueError(f"bits of a negative mask ({mask})")
        # (Machine integers where the mask fits, as a one-pack deck's do: a set bit's index is
        # the number of bits below it, counted by ``_ones``.)
        m: i64 = mask
        while m:
            lowest = m & -m
            out.append(_ones(lowest - 1))
            m ^= lowest
        return out
    # A wider mask (two packs: 104 cards) 62 bits at a time, each part walked as above.
    base: i64 = 0
    while mask:
        part: i64 = mask & _POP_MAX
        while part:
            first = part & -part
            out.append(int(base + _ones(first - 1)))
            part ^= first
        mask >>= 62
        base += 62
    return out


def extract(cards: int, within: int) -> int:
    """The inverse of ``deposit``: ``cards`` (a subset of ``within``) as a mask over the set bits
    of ``within`` (bit k: its k-th lowest card)."""
    if within <= _POP_MAX and within >= 0 and cards >= 0:   # (the wide test first: as ``bits``)
        # (Machine integers where ``within`` fits, as a one-pack deck's masks do: a card's place is the
        # number of ``within``'s cards below it, counted by ``_ones``; a step a card of ``cards``, not a
        # generic number's step a card of ``within``.)
        if cards > _POP_MAX:
            cards &= within   # (a wider mask, two packs': only its cards in ``within`` are asked about)
        w: i64 = within
        picked: i64 = cards
        picked &= w
        got: i64 = 0
        while picked:
            low = picked & -picked
            got |= _bit(_ones(w & (low - 1)))
            picked ^= low
        return int(got)
    out = 0
    k = 0
    while within:
        bit = within & -within   # (its own name: ``low`` is a machine integer above)
        if cards & bit:
            out |= 1 << k
        within ^= bit
        k += 1
    return out


def deposit(local: int, mask: int) -> int:
    """The set bits of ``mask`` that ``local`` picks (bit k of ``local``: the k-th lowest set
    bit of ``mask``): a key's hand-local or table-local cards as deck cards, with no list
    of the mask's bits made first."""
    if mask <= _POP_MAX and local <= _POP_MAX and mask >= 0 and local >= 0:   # (wide first: as ``bits``)
        # (Machine integers where both fit, as a one-pack deck's masks do.)
        m: i64 = mask
        picks: i64 = local
        got: i64 = 0
        while picks:
            lowest = m & -m   # (its own name: a variable is one type for the whole function)
            if not lowest:
                break
            if picks & 1:
                got |= lowest
            picks >>= 1
            m ^= lowest
        return int(got)
    if mask < 0 or local < 0:
        return _deposit_bits(local, mask)
    # A wider mask (two packs: 104 cards) 62 bits at a time: each part takes as many of
    # ``local``'s bits as it holds cards, deposited as above.
    out = 0
    shift: i64 = 0
    while local and mask:
        part: i64 = mask & _POP_MAX
        n: i64 = _ones(part)
        chosen: i64 = local & ((1 << int(n)) - 1)   # (int: ``local`` may pass 64 bits)
        placed: i64 = 0
        while chosen:
            bottom = part & -part
            if not bottom:
                break
            if chosen & 1:
                placed |= bottom
            chosen >>= 1
            part ^= bottom
        if placed:
            out |= int(placed) << int(shift)
        local >>= int(n)
        mask >>= 62
        shift += 62
    return out


def _deposit_bits(local: int, mask: int) -> int:
    """``deposit`` bit by bit (any integers)."""
    out = 0
    while local:
        low = mask & -mask
        if not low:
            break
        if local & 1:
            out |= low
        local >>= 1
        mask ^= low
    return out


def _bit(at: i64) -> i64:
    """``1 << at`` as a machine integer (``at`` 0 to 62). Compiled, ``1 << at`` shifts a C int, which wraps
    past bit 31 (a table of 33 loose cards gave wrong sets), and an i64 variable set to 1 is folded into that
    constant; ``at - at + 1`` is not."""
    return (at - at + 1) << at


def _ones(x: i64) -> i64:
    """The number of set bits of ``x`` (0 to 2**62 - 1), by machine arithmetic (SWAR)."""
    x = x - ((x >> 1) & 0x1555555555555555)
    x = (x & 0x3333333333333333) + ((x >> 2) & 0x3333333333333333)
    x = (x + (x >> 4)) & 0x0F0F0F0F0F0F0F0F
    x = x + (x >> 8)
    x = x + (x >> 16)
    x = x + (x >> 32)
    return x & 0x7F


def popcount(mask: int) -> int:
    """The number of set bits of ``mask`` (a mask of up to 62 bits by machine arithmetic, in
    a few steps whatever its count; a wider one bit by bit)."""
    if mask > _POP_MAX:   # (the wide test first: as ``bits``)
        # A wider mask (two packs: 104 cards) 62 bits at a time.
        count: i64 = 0
        while mask:
            count += _ones(mask & _POP_MAX)
            mask >>= 62
        return int(count)
    if mask >= 0:
        return int(_ones(mask))
    n = 0
    while mask:
        mask &= mask - 1
        n += 1
    return n


def unions(groups: list[int], exclude: int = 0, limit: int = MOVE_BUDGET) -> list[int]:
    """Every non-empty union of pairwise disjoint ``groups`` avoiding ``exclude``, each
    once, in a deterministic order (the order the groups are given). More than ``limit``
    unions raise :class:`PositionTooLargeError` (a group can double them: 30 disjoint
    groups make a billion)."""
    n = len(groups)
    if n <= 2 and not exclude:   # the common cases, without a set
        if n == 0:
            return []
        if n == 1:
            return [groups[0]]
        a = groups[0]
        b = groups[1]
        if a == b:
            return [a]
        if a & b:
            return [a, b]
        return [a, b, a | b]
    # Only an earlier result can repeat a union, and every earlier result lies within the
    # groups seen so far (``cover``): a group with an item outside them makes nothing but new
    # sets (each containing that item, each from a different earlier result), so the set of
    # results is consulted, and brought up to date (``synced``), only for the other groups.
    results: list[int] = []
    seen: set[int] = _NO_SET   # made when first consulted (many values never need it)
    synced = 0
    cover = 0
    for g in groups:
        if g & exclude or not g:
            continue
        n = len(results)
        if not g & ~cover:
            if seen is _NO_SET:
                seen = set()
            while synced < n:
                seen.add(results[synced])
                synced += 1
            # The group on its own comes first, then its unions with earlier sets.
            size = len(seen)
            seen.add(g)
            if len(seen) != size:
                results.append(g)
            for k in range(n):
                m = results[k]
                if not m & g:
                    u = m | g
                    size = len(seen)
                    seen.add(u)
                    if len(seen) != size:
                        results.append(u)
            synced = len(results)   # what this group added is in the set already
        else:
            results.append(g)
            for k in range(n):
                m = results[k]
                if not m & g:
                    results.append(m | g)
        cover |= g
        if len(results) > limit:
            raise PositionTooLargeError(too_large(f"more than {limit:,} unions of disjoint sets"))
    return results


def too_large(what: str) -> str:
    """The message of a position beyond the listing budget: what overflowed, and what to do."""
    return (f"this position has too many legal moves to list ({what}); choose the move step by "
            "step, or type it: a given move is still checked")


# (Compiled, the last instance freed is kept for the next one made: see values.py.)
@mypyc_attr(free_list_len=1)
class Generator:
    """One position's items and caches; made once per call of :func:`generate`."""

    kept_state: HandState   # (the position ``kept`` is asked of: set only with it)

    def __init__(self, t: Tables, state: HandState, hand_cards: list[int] = _UNSET, pruned: bool = True) -> None:
        self.t = t
        self.seat: int = state.turn
        #: The hand's cards (deck indexes, lowest first: hand card k is the k-th); ``hand_cards``,
        #: where given, holds them already (``generate`` lends a list it fills).
        self.hand_cards: list[int] = hand_cards if hand_cards is not _UNSET else bits(state.hands[self.seat])
        self.h: int = len(self.hand_cards)
        mask = state.in_play()   # the table, and the opposing pile tops where piles are in play
        #: Whether the cards in play are wider than a machine word (two packs): compared once here
        #: (compiled, comparing a wide number boxes the other side).
        self.wide: bool = mask > _POP_MAX
        #: The loose cards (item j: the j-th lowest card of the mask). The families read its bits;
        #: the list ``loose_cards`` is made only when something outside reads it.
        self.loose_mask: int = mask
        self._loose_cards: list[int] = _UNSET
        self.builds: tuple[Build, ...] = state.builds
        self.n_builds: int = len(self.builds)
        #: The card played from the hand this turn, in a turn of several actions (``build.free_actions``).
        self.turn_card: int = state.turn_card
        self.teams: tuple[int, ...] = state.teams
        #: The owner's obligation lapses in the last deal (``build.owner_obligation_in_last_deal``: false).
        self.obligation_lapsed: bool = not t.obligation_in_last_deal and not state.stock
        self.b_code: list[int] = [t.code(b.value) for b in self.builds] if self.builds else _EMPTY
        #: Each item's code in sums (item k: the k-th lowest loose card, then the builds, as
        #: ``Tables.tvc`` gives it: v, or minus the mask of several), ``_NO_SUM`` for an item outside
        #: sums (a card without value, a build that does not count as a card); ``_UNSET`` until read
        #: (``codes``) where the sum items are a deck mask (``deck_sums``).
        self.sum_codes: list[int] = _UNSET
        #: The sum items are the loose cards with a value, read from the deck's masks: a table of
        #: one pack's cards (a machine integer) whose builds take no part in sums. Then ``sum_mask``
        #: is a deck mask, and no list of codes is made unless something other than the one-value
        #: pass (``_dfs_cards``) reads it.
        self.deck_sums: bool = False
        self.n_loose: int = 0
        #: How many items take part in sums, and they as a mask (deck cards where ``deck_sums``,
        #: else item bits).
        self.n_sum: int = 0
        self.sum_mask: int = 0
        if not self.wide and mask >= 0 and not (t.single_build_as_card and self.n_builds):
            sums = mask & t.valued_mask
            self.deck_sums = True
            self.n_loose = int(_ones(mask))   # (both machine integers here: no range tests)
            self.n_sum = int(_ones(sums))
            self.sum_mask = sums
            plain = not sums & ~t.plain_mask
        else:
            codes = self.codes()
            n_sum = 0
            sum_mask = 0
            plain = True
            for k in range(len(codes)):
                vc = codes[k]
                if vc != _NO_SUM:
                    n_sum += 1
                    sum_mask |= _ITEM_BITS[k]
                    if vc < 1:
                        plain = False
            self.n_sum = n_sum
            self.sum_mask = sum_mask
        #: Every sum item has one value, at least 1: a set's sum is a number (``_dfs_totals``).
        self.plain_sums: bool = plain
        self.partner: int = -1
        teams = state.teams
        if state.players == 4 and teams[0] == teams[2] and teams[0] != teams[1]:
            self.partner = (self.seat + 2) % 4
        self.partner_proven: int = 0
        if t.for_partner and self.partner >= 0 and state.proven:
            for v in state.proven[self.partner]:
                self.partner_proven |= 1 << v
        #: How many of the builds the player holds their hand leaves without a card of their own already (-1: not
        #: yet worked out, ``deficit``): 0 but where a partner built for them a value whose card answers another
        #: of their builds (an ace kept for a build of 1 is no card for a build of 14 too).
        self._deficit: int = -1
        self._deficit_of: int = -1   # (the builds it was worked out for, as a mask of their places)
        # The highest sum worth knowing: a card's value, or what several hand cards played
        # together add up to (Hungarian Casino).
        self.top: int = t.max_value
        if t.hand_cards_max > 1:
            highs = sorted([t.hvm[c].bit_length() - 1 for c in self.hand_cards], reverse=True)
            self.top = max(self.top, sum(highs[:t.hand_cards_max]))
        # Item sets by the value they can make (``buckets[v]``, filled on first need), and
        # the unions of disjoint sets per value (``_UNSET`` until asked for).
        self.buckets: list[list[int]] = _NO_BUCKETS
        self.spare: list[list[int]] = _NO_BUCKETS   # emptied buckets to fill instead (``generate``)
        self.unions_cache: list[list[int]] = _NO_BUCKETS
        self.union_sets: list[set[int]] = _NO_SETS
        #: The values (a mask) whose sets are in ``buckets``: every one, unless the pass recorded
        #: only those the hand asks for (``_dfs_cards``); the others are found when asked for.
        self.recorded: int = -1
        #: ``capture.pile_cards: augment``: each opposing pile with two cards or more in play, as item bits.
        #: A set of a move holds at most one card of a pile (the Khasino rules, 4: a pile card augments a
        #: base, one card of a pile a set), so ``sum_groups`` keeps no set with two of one pile: every
        #: move such a set would make is refused by the whole-move rules (``turnrules``), and every legal
        #: one is made of sets that hold one card of a pile at most, so it is still generated.
        self.pile_items: list[int] = _EMPTY
        #: ``build.one_per_value``: the values built already (a mask of codes), built only onto their build
        #: (``card_builds``); 0 where the rule is off or nothing is built.
        self.built_values: int = 0
        #: The same rule's pile cards in play under another in play, as item bits, and the card above each
        #: (an item bit) by the item index of the card under it (0 for an item under none): a pile is taken
        #: from the top down, so a move taking the one takes the other (``_tops_first``).
        self.under_mask: int = 0
        self.above_of: list[int] = _EMPTY
        #: The pile cards in play, as item bits (under ``capture.pile_cards: augment``; 0 elsewhere).
        self.piled_items: int = 0
        #: The values v (bits) whose item sets (``sum_groups(v)``) ``_based_at`` has looked at, and those with
        #: a set holding an item other than a pile card.
        self.based_known: int = 0
        self.based_sets: int = 0
        #: Whether the whole-move rules would refuse every build of cards in play (``free_builds``), as
        #: ``generate`` tells by ``_ends_alone``: then none is listed.
        self.no_free_builds: bool = False
        #: Where capture is compulsory (``capture.compulsory``: when the card can capture, or whenever a
        #: capture can be made) under rules of the whole move (``turnrules``): the captures those rules
        #: keep, given the position and the generated capture keys (``generate``'s ``kept``). A capture
        #: they refuse is none the player can make, so it obliges nothing. None: the captures generated.
        self.kept: Callable[[HandState, list[int]], list[int]] | None = None
        #: Where ``piled_items`` is set: each loose item's highest number value (0 for none), by item index
        #: (``_tops``: made when first read), and whether the card played is a base for a pile card on its
        #: own (``capture.pile_base``, where the player may discard): what ``_no_base`` reads.
        self.item_tops: list[int] = _EMPTY
        self.played_base: bool = False
        # (``pruned``: whether the moves the whole-move rules refuse in any case are left out where the
        # generator can tell, ``generate``'s; ``Tables.prunes``: whether such a rule is on at all.)
        if pruned and t.prunes:
            self._prune(state, mask)

    def _prune(self, state: HandState, mask: int) -> None:
        """Set up what the generator leaves out under the whole-move rules (``built_values``,
        ``pile_items``, ``under_mask``, ``above_of``, ``piled_items``), for the cards in play ``mask``."""
        t = self.t
        if t.one_per_value:
            for code in self.b_code:
                self.built_values |= 1 << code
        if t.pile_augment and state.stacks:
            piled = mask & ~state.table
            if piled:
                self.piled_items = extract(piled, mask)
                barred = False   # (the rules' ``discard_barred``: a build owned where the obligation holds)
                if t.obligation == 1 and not self.obligation_lapsed:
                    for b in self.builds:
                        if b.owner == self.seat:
                            barred = True
                self.played_base = t.played_base and not barred
            if piled & (piled - 1):
                found: list[int] = []
                lows = 0
                above_of: list[int] = _EMPTY
                for stack in state.stacks:
                    m = 0        # (the item bits of this pile's cards in play)
                    above = -1   # (the item index of the card above)
                    for i in range(len(stack) - 1, -1, -1):
                        c = stack[i]
                        if not piled >> c & 1:
                            break
                        at = popcount(mask & ((1 << c) - 1))   # (its item index: the cards in play below it)
                        m |= 1 << at
                        if above >= 0:
                            if above_of is _EMPTY:
                                above_of = [0] * self.n_loose
                            above_of[at] = 1 << above
                            lows |= 1 << at
                        above = at
                    if m & (m - 1):
                        found.append(m)
                if found:
                    self.pile_items = found
                if lows:
                    self.under_mask = lows
                    self.above_of = above_of

    def _tops(self) -> list[int]:
        """``item_tops``, made when first read (by ``_no_base``)."""
        tops = self.item_tops
        if tops is _EMPTY:
            table_top = self.t.table_top
            tops = self.item_tops = [table_top[c] for c in self.loose_cards]
        return tops

    def codes(self) -> list[int]:
        """``sum_codes``, made when first read (one pass over the table's bits; sets ``n_loose``)."""
        codes = self.sum_codes
        if codes is not _UNSET:
            return codes
        codes = []
        tvc = self.t.tvc
        mask = self.loose_mask
        if self.wide:
            # (A wide table, two packs': its cards by ``bits``, 62 at a time, not a generic
            # number's bit at a time; kept as ``loose_cards``.)
            for card in self.loose_cards:
                vc = tvc[card]
                codes.append(vc if vc != -1 else _NO_SUM)
            self.n_loose = len(codes)
        else:
            j = 0
            while mask:
                low = mask & -mask
                vc = tvc[low.bit_length() - 1]
                codes.append(vc if vc != -1 else _NO_SUM)
                mask ^= low
                j += 1
            self.n_loose = j
        if self.t.single_build_as_card:
            for k in range(self.n_builds):
                code = self.b_code[k]
                single = not self.builds[k].multiple and code < self.t.rank_code_base
                codes.append(code if single else _NO_SUM)
        self.sum_codes = codes
        return codes

    def _item_sums(self) -> int:
        """The sum items as item bits (``sum_mask`` is deck cards where ``deck_sums``)."""
        if not self.deck_sums:
            return self.sum_mask
        codes = self.codes()
        m = 0
        for k in range(len(codes)):
            if codes[k] != _NO_SUM:
                m |= _ITEM_BITS[k]
        return m

    @property
    def sum_bits(self) -> list[int]:
        """The items that take part in sums, each as its bit."""
        codes = self.codes()
        return [1 << k for k in range(len(codes)) if codes[k] != _NO_SUM]

    @property
    def sum_vals(self) -> list[int]:
        """Each sum item's values as a mask (bit v: it counts as v), in ``sum_bits`` order."""
        return [1 << vc if vc >= 0 else -vc for vc in self.codes() if vc != _NO_SUM]

    @property
    def loose_cards(self) -> list[int]:
        """The loose cards (deck indexes, lowest first: item j is the j-th), made when first read."""
        cards = self._loose_cards
        if cards is _UNSET:
            cards = self._loose_cards = bits(self.loose_mask)
        return cards

    # ------------------------------------------------------------------ groups
    def sum_groups(self, v: int) -> list[int]:
        """Item sets worth ``v``: single items of that value and, where sums count, sets adding up to it."""
        if v <= 0 or v > self.top:
            return _EMPTY
        buckets = self.buckets
        if buckets is _NO_BUCKETS:
            spare = self.spare
            buckets = self.buckets = spare if spare is not _NO_BUCKETS else [_EMPTY] * (self.top + 1)
            if self.t.sums:
                if self.n_sum > _COUNT_FROM:
                    self._check_sets()
                if self.plain_sums and self.deck_sums and self.n_sum <= _CARDS_PASS_UP_TO and self.top < 62:
                    # (``wanted`` is a machine integer there: a mask of values up to 61; Hungarian's several
                    # hand cards played together ask for sums up to 77, recorded by the pass below)
                    wanted = self._wanted()
                    self.recorded = wanted
                    if wanted and _COMPILED:
                        self._dfs_cards(self.sum_mask, 0, 0, wanted, _high_bit(wanted))
                    elif wanted:
                        self._dfs_cards_py(self.sum_mask, 0, 0, wanted, _high_bit(wanted))
                elif (_COMPILED and self.plain_sums and not self.deck_sums and self.n_sum <= _CARDS_PASS_UP_TO
                      and self.top < 62 and self.sum_mask <= _POP_MAX):
                    # (A wide table, two packs': as the pass above, over the items' codes. Only the values
                    # the hand asks for are recorded, the others found when asked for, ``_items_worth``.)
                    wanted = self._wanted()
                    self.recorded = wanted
                    if wanted:
                        self._dfs_items(self.sum_mask, 0, 0, wanted, _high_bit(wanted))
                elif self.plain_sums and (self.deck_sums or self.sum_mask <= _POP_MAX):
                    avail = self._item_sums()
                    if _COMPILED:
                        self._dfs_small(avail, 0, 0)
                    else:
                        self._dfs_small_py(avail, 0, 0)
                elif self.plain_sums:
                    self._dfs_totals(0, 0, 0)
                else:
                    self._dfs(0, 0, 1, (2 << self.top) - 1)
            else:
                sum_codes = self.codes()
                for k in range(len(sum_codes)):
                    vc = sum_codes[k]
                    if vc == _NO_SUM:
                        continue
                    for w in bits(1 << vc if vc >= 0 else -vc):
                        if w <= self.top:
                            self._record(w, 1 << k)
            if self.pile_items:   # (``capture.pile_cards: augment``: no set with two cards of a pile)
                for b in buckets:
                    if b:
                        self._one_a_pile(b)
        if not self.recorded >> v & 1:
            # A value the pass did not record (one no hand card asks for, asked by something else):
            # its sets alone, in the pass's order.
            self.recorded |= 1 << v
            found = self._cards_worth(self.sum_mask, 0, 0, v, _EMPTY) if self.deck_sums \
                else self._items_worth(self.sum_mask, 0, 0, v, _EMPTY)
            if found:
                if self.pile_items:
                    self._one_a_pile(found)
                buckets[v] = found
            return found
        return buckets[v]

    def _from_the_top(self, out: list[int], start: int) -> None:
        """Leave out of ``out[start:]`` (in place, the order kept) the keys that take a pile card in play
        without the card above it (``under_mask``), which the whole-move rules refuse. (The commonest
        makers of keys leave them out as they make them: ``_tops_first``.)"""
        shift = PLAYED_SHIFT + self.h
        # (Kept keys moved as the objects they are, and only once one is left out: compiled, a number read
        # as an int and written back into a list is made again.)
        slots = cast(list[object], out)
        under = self.under_mask
        j = start
        for i in range(start, len(out)):
            items = out[i] >> shift
            if not items & under or self._tops_first(items):
                if j != i:
                    slots[j] = slots[i]
                j += 1
        if j < len(out):   # (a slice deleted only where a key was left out: most calls leave out none)
            del out[j:]

    def _tops_first(self, items: int) -> bool:
        """Whether the item set ``items`` takes each pile card in play that lies under another only with the
        card above it (``under_mask``, ``above_of``): where it does not, the whole-move rules refuse the move."""
        under = items & self.under_mask
        if not under:
            return True
        above_of = self.above_of
        if items <= _POP_MAX:
            # (Machine integers where the item bits fit: each such card looked up for the card above it.)
            whole: i64 = items
            taken: i64 = under
            while taken:
                low = taken & -taken
                if not whole & above_of[_ones(low - 1)]:
                    return False
                taken ^= low
            return True
        while under:   # (a wider item set, generic numbers)
            bit = under & -under
            if not items & above_of[bit.bit_length() - 1]:
                return False
            under ^= bit
        return True

    def _no_base(self, items: int, need: int, card: int) -> bool:
        """Under ``capture.pile_cards: augment`` (``piled_items`` set), whether the whole-move rules surely
        refuse a move whose item set ``items`` takes pile cards with no build: a capture (``card`` -1, ``need``
        the lowest value the played card captures), a build of value ``need`` by hand card ``card`` (a deck
        index), or a build of cards in play (``card`` -1, ``need`` its value). A pile card only augments a base
        beside it, a set of layout cards (or with the played card: ``capture.pile_base``) worth the move's
        value with no pile card in it (``turnrules.KeyCheck.passes``' quick refusals and ``_no_base``):
        refused where nothing beside the pile cards could be one, pile cards alone (the played card of a build
        no base on its own, or not worth the build alone), or layout cards (and the played card) whose values
        add up to less than the value. Not for a move of more items than the rules search the split of
        (``SPLIT_ITEMS``: there a count alone decides), except a capture or build of cards in play of pile
        cards alone, which the rules refuse at any size."""
        piled = self.piled_items
        if not items & piled or items >> self.n_loose:
            return False
        layout = items & ~piled
        t = self.t
        if not layout:
            if card < 0:
                return True
            if popcount(items) >= SPLIT_ITEMS:   # (the played card beside them: more than SPLIT_ITEMS items)
                return False
            return not self.played_base or not t.hand_values[card] >> need & 1
        if popcount(items) + (card >= 0) > SPLIT_ITEMS:
            return False
        bound = t.hand_top[card] if card >= 0 else 0
        tops = self._tops()
        if layout > _POP_MAX:
            return False   # (more loose items than a machine word's bits: not looked at)
        m: i64 = layout
        while m:
            low = m & -m
            bound += tops[_ones(low - 1)]
            m ^= low
        return bound < need

    def _based_at(self, v: int) -> bool:
        """Whether some item set worth ``v`` (``sum_groups(v)``) holds an item other than a pile card (a layout
        card or a build): where none does, every union of them is pile cards alone (``_no_base``)."""
        bit = 1 << v
        if not self.based_known & bit:
            self.based_known |= bit
            piled = self.piled_items
            for g in self.sum_groups(v):
                if g & ~piled:
                    self.based_sets |= bit
                    break
        return self.based_sets & bit != 0

    def _pile_builds_only(self, rest: int, big_v: int, card: int) -> bool:
        """Whether every new build of value ``big_v`` by hand card ``card`` (a deck index) with a set worth
        ``rest`` (``card_builds``' completions; 0: none) and further sets worth ``big_v`` takes pile cards
        alone, and the card is no base for them: so ``_no_base`` refuses every one (the split searched, no
        build of more than ``SPLIT_ITEMS`` items possible here)."""
        if self.n_loose >= SPLIT_ITEMS:
            return False
        if self.played_base and self.t.hand_values[card] >> big_v & 1:
            return False
        if rest and self._based_at(rest):
            return False
        return not (self.t.multiple and self._based_at(big_v))

    def _topped(self, sets: list[int]) -> list[int]:
        """The item sets of ``sets`` that pass ``_tops_first``, in order (``sets`` itself where all do)."""
        slots = cast(list[object], sets)   # (moved as objects: see ``_from_the_top``)
        kept: list[object] = []
        under = self.under_mask
        for i in range(len(sets)):
            if not sets[i] & under or self._tops_first(sets[i]):
                kept.append(slots[i])
        return sets if len(kept) == len(sets) else cast(list[int], kept)

    def _one_a_pile(self, groups: list[int]) -> None:
        """Leave out of ``groups`` (in place, the order kept) the sets holding two cards of one pile."""
        piles = self.pile_items
        slots = cast(list[object], groups)   # (moved as objects: see ``_from_the_top``)
        j = 0
        for i in range(len(groups)):
            g = groups[i]
            ok = True
            for p in piles:
                x = g & p
                if x & (x - 1):
                    ok = False
                    break
            if ok:
                if j != i:
                    slots[j] = slots[i]
                j += 1
        if j < len(groups):
            del groups[j:]

    def _wanted(self) -> int:
        """The values (a mask) whose item sets the hand's moves usually ask for: each hand card's
        value (its captures), a value some hand card captures or the partner is proven to hold (a
        build's), and what completes such a value from a hand card's value (a new build). Where
        several hand cards play together, every value. (A value asked for outside them, as a raise
        of a build asks, is found then: see ``sum_groups``.)"""
        t = self.t
        every = t.number_values
        if t.hand_cards_max > 1:
            return (2 << self.top) - 2
        if t.build_codes <= _POP_MAX:
            # (Machine integers, as ``sum_groups`` asks where ``top`` is below 62: the hand's values
            # are up to ``top``, and the build values' codes, ``Tables.cap_build_codes``, are masks
            # of 62 bits at most. The same mask as below.)
            hvm = t.hvm
            cap_build = t.cap_build_codes
            vals: i64 = 0
            held: i64 = self.partner_proven & t.build_codes
            for c in self.hand_cards:
                vals |= hvm[c]
                held |= cap_build[c]
            out: i64 = vals
            if t.build_allowed:
                out |= held
                rest: i64 = vals
                while rest:
                    bottom: i64 = rest & -rest
                    out |= held >> _ones(bottom - 1)
                    rest ^= bottom
            return int(out) & every
        values = 0
        codes = self.partner_proven
        for c in self.hand_cards:
            values |= t.hvm[c]
            codes |= t.cap_codes[c]
        wanted = values
        if t.build_allowed:
            codes &= t.build_codes
            wanted |= codes   # (a build's value itself: its further sets, a trail's build)
            vs = values
            while vs:
                low = vs & -vs
                wanted |= codes >> (low.bit_length() - 1)
                vs ^= low
        return wanted & every

    def _check_sets(self) -> None:
        """Refuse (:class:`PositionTooLargeError`) a table whose item sets worth at most ``top``
        are more than the budget, before any is made: counted by one pass over the items with a
        count per sum (each item at its lowest value, so every set the passes below make is
        counted), in ``items x top`` steps. The passes below visit each such set once and try
        every later item from it, so the work counted is sets times items."""
        top = self.top
        n = self.n_sum
        cap = self.t.move_budget * 8   # (counts stay small numbers)
        counts = [0] * (top + 1)
        counts[0] = 1
        for vc in self.codes():
            if vc == _NO_SUM:
                continue
            if vc >= 0:
                low = vc
            else:
                m = -vc
                low = (m & -m).bit_length() - 1
            if low == 0:
                for v in range(top + 1):
                    counts[v] = min(cap, counts[v] * 2)
            else:
                for v in range(top, low - 1, -1):
                    c = counts[v - low]
                    if c:
                        counts[v] = min(cap, counts[v] + c)
        sets = sum(counts) - 1
        if sets * (n // 8 + 1) > self.t.move_budget:
            raise PositionTooLargeError(too_large(
                f"{n} table items make {'over ' if sets >= cap else ''}{sets:,} sets worth at most {top}; "
                f"the engine lists up to {self.t.move_budget:,}"))

    def _record(self, v: int, items: int) -> None:
        b = self.buckets[v]
        if b is _EMPTY:
            b = self.buckets[v] = []
        b.append(items)

    def _dfs(self, start: int, mask: int, sums: int, limit: int) -> None:
        """Every item set from ``start`` on, extending ``mask`` (which can make the sums in
        ``sums``), recorded under each sum it can make up to ``top``."""
        sum_codes = self.codes()
        buckets = self.buckets
        n = len(sum_codes)
        for k in range(start, n):
            vc = sum_codes[k]
            if vc == _NO_SUM:
                continue
            if vc >= 0:   # one value (the usual case)
                ns = (sums << vc) & limit
            else:
                ns = add_values(sums, -vc) & limit
            if not ns:
                continue
            m2 = mask | _ITEM_BITS[k]
            s = ns
            while s:   # recorded under each sum (as _record, inlined: this is the hot loop)
                low = s & -s
                v = low.bit_length() - 1
                b = buckets[v]
                if b is _EMPTY:
                    b = []
                    buckets[v] = b
                b.append(m2)
                s ^= low
            if k + 1 < n:
                self._dfs(k + 1, m2, ns, limit)

    def _dfs_totals(self, start: i64, mask: int, total: i64) -> None:
        """:meth:`_dfs` where every item has one value of at least 1 (``plain_sums``): a set's
        sum is one number, so no mask of sums is shifted and taken apart at every node, and a
        set worth ``top`` already is not extended. The same sets, recorded in the same order."""
        sum_codes = self.codes()
        buckets = self.buckets
        top: i64 = self.top
        n: i64 = len(sum_codes)
        for k in range(start, n):   # (machine integers: indexes and sums stay small; ``_NO_SUM`` is above top)
            v: i64 = total + sum_codes[k]
            if v > top:
                continue
            m2 = mask | _ITEM_BITS[k]
            b = buckets[v]
            if b is _EMPTY:
                b = []
                buckets[v] = b
            b.append(m2)
            if v < top and k + 1 < n:
                self._dfs_totals(k + 1, m2, v)

    def _dfs_small(self, avail: i64, mask: i64, total: i64) -> None:
        """:meth:`_dfs_totals` where the items fit a machine integer (up to 62): the items still
        to try are a mask (``avail``), so those outside sums are never visited, and the sets are
        machine integers. The same sets, recorded in the same order."""
        sum_codes = self.codes()
        buckets = self.buckets
        top: i64 = self.top
        while avail:
            low: i64 = avail & -avail
            avail ^= low
            # The item's index, the bits below it counted (``_ones``, inline: this is the hot loop).
            x: i64 = low - 1
            x = x - ((x >> 1) & 0x1555555555555555)
            x = (x & 0x3333333333333333) + ((x >> 2) & 0x3333333333333333)
            x = (x + (x >> 4)) & 0x0F0F0F0F0F0F0F0F
            x = x + (x >> 8)
            x = x + (x >> 16)
            x = (x + (x >> 32)) & 0x7F
            v: i64 = total + sum_codes[x]
            if v > top:
                continue
            m2: i64 = mask | low
            b = buckets[v]
            if b is _EMPTY:
                b = []
                buckets[v] = b
            b.append(m2)
            if v < top and avail:
                self._dfs_small(avail, m2, v)

    def _dfs_small_py(self, avail: int, mask: int, total: int) -> None:
        """:meth:`_dfs_small` interpreted (``_COMPILED`` false): an item's index by ``bit_length``,
        not counted by machine arithmetic. The same sets, recorded in the same order."""
        sum_codes = self.codes()
        buckets = self.buckets
        top = self.top
        while avail:
            low = avail & -avail
            avail ^= low
            v = total + sum_codes[low.bit_length() - 1]
            if v > top:
                continue
            m2 = mask | low
            b = buckets[v]
            if b is _EMPTY:
                b = []
                buckets[v] = b
            b.append(m2)
            if v < top and avail:
                self._dfs_small_py(avail, m2, v)

    def _cards_worth(self, avail: i64, mask: i64, total: i64, v: i64, out: list[int]) -> list[int]:
        """The item sets worth ``v`` exactly (``deck_sums``: ``avail`` deck cards, as in
        :meth:`_dfs_cards`), in that pass's order, appended to ``out`` (made when the first is
        found; returned)."""
        tvc = self.t.tvc
        loose: i64 = self.loose_mask
        t = self.t
        avail &= t.plain_worth_upto[min(v - total, t.worth_top)]   # (as ``_dfs_cards``)
        while avail:
            low: i64 = avail & -avail
            avail ^= low
            t2: i64 = total + tvc[_ones(low - 1)]
            if t2 > v:
                continue
            m2: i64 = mask | _bit(_ones(loose & (low - 1)))
            if t2 == v:
                if out is _EMPTY:
                    out = []
                out.append(m2)
            elif avail:
                out = self._cards_worth(avail, m2, t2, v, out)
        return out

    def _items_worth(self, avail: i64, mask: i64, total: i64, v: i64, out: list[int]) -> list[int]:
        """:meth:`_cards_worth` over the sum items (``avail``: item bits, their codes ``sum_codes``, every
        one a single value of at least 1): the item sets worth ``v`` exactly, in :meth:`_dfs_small`'s
        order, appended to ``out`` (made when the first is found; returned)."""
        sum_codes = self.codes()
        while avail:
            low: i64 = avail & -avail
            avail ^= low
            t2: i64 = total + sum_codes[_ones(low - 1)]
            if t2 > v:
                continue
            m2: i64 = mask | low
            if t2 == v:
                if out is _EMPTY:
                    out = []
                out.append(m2)
            elif avail:
                out = self._items_worth(avail, m2, t2, v, out)
        return out

    def _dfs_items(self, avail: i64, mask: i64, total: i64, wanted: i64, limit: i64) -> None:
        """:meth:`_dfs_small` recording only the values in ``wanted`` (``recorded``) and extending no set
        past the highest (``limit``), as :meth:`_dfs_cards` does over deck cards: the same sets, in the
        same order, for those values."""
        sum_codes = self.codes()
        buckets = self.buckets
        while avail:
            low: i64 = avail & -avail
            avail ^= low
            v: i64 = total + sum_codes[_ones(low - 1)]
            if v > limit:
                continue
            m2: i64 = mask | low
            if wanted >> v & 1:
                b = buckets[v]
                if b is _EMPTY:
                    b = []
                    buckets[v] = b
                b.append(m2)
            if v < limit and avail:
                self._dfs_items(avail, m2, v, wanted, limit)

    def _dfs_cards(self, avail: i64, mask: i64, total: i64, wanted: i64, limit: i64) -> None:
        """:meth:`_dfs_small` where the sum items are the loose cards with a value (``deck_sums``):
        ``avail`` the deck cards still to try, each card's value read from the deck's table
        (``Tables.tvc``) and its item index counted by the loose cards below it, so that no list
        of the items' codes is made. Only the values in ``wanted`` are recorded (``recorded``; the
        others are found when asked for), and no set is extended past the highest (``limit``).
        The same sets (item masks), recorded in the same order."""
        tvc = self.t.tvc
        loose: i64 = self.loose_mask
        buckets = self.buckets
        # (The cards worth more than the limit allows here dropped at once, not each read and passed over:
        # the same cards are tried, in the same order.)
        avail &= self.t.plain_worth_upto[limit - total]   # (limit below 62 here: ``sum_groups``)
        while avail:
            low: i64 = avail & -avail
            avail ^= low
            # The card's index and its item's: the bits below it counted (``_ones``, inline:
            # this is the hot loop), in the deck and among the loose cards.
            x: i64 = low - 1
            y: i64 = loose & x
            x = x - ((x >> 1) & 0x1555555555555555)
            x = (x & 0x3333333333333333) + ((x >> 2) & 0x3333333333333333)
            x = (x + (x >> 4)) & 0x0F0F0F0F0F0F0F0F
            x = x + (x >> 8)
            x = x + (x >> 16)
            x = (x + (x >> 32)) & 0x7F
            v: i64 = total + tvc[x]
            if v > limit:
                continue
            y = y - ((y >> 1) & 0x1555555555555555)
            y = (y & 0x3333333333333333) + ((y >> 2) & 0x3333333333333333)
            y = (y + (y >> 4)) & 0x0F0F0F0F0F0F0F0F
            y = y + (y >> 8)
            y = y + (y >> 16)
            y = (y + (y >> 32)) & 0x7F
            m2: i64 = mask | ((y - y + 1) << y)   # (not ``1 << y``, a C int's shift: see ``_bit``)
            if wanted >> v & 1:
                b = buckets[v]
                if b is _EMPTY:
                    b = []
                    buckets[v] = b
                b.append(m2)
            if v < limit and avail:
                self._dfs_cards(avail, m2, v, wanted, limit)

    def _dfs_cards_py(self, avail: int, mask: int, total: int, wanted: int, limit: int) -> None:
        """:meth:`_dfs_cards` interpreted (``_COMPILED`` false): a card's index by ``bit_length``
        and its item's by ``int.bit_count``, not counted by machine arithmetic. The same sets,
        recorded in the same order."""
        tvc = self.t.tvc
        loose = self.loose_mask
        buckets = self.buckets
        avail &= self.t.plain_worth_upto[limit - total]   # (as ``_dfs_cards``)
        while avail:
            low = avail & -avail
            avail ^= low
            v = total + tvc[low.bit_length() - 1]
            if v > limit:
                continue
            m2 = mask | (1 << (loose & (low - 1)).bit_count())
            if wanted >> v & 1:
                b = buckets[v]
                if b is _EMPTY:
                    b = []
                    buckets[v] = b
                b.append(m2)
            if v < limit and avail:
                self._dfs_cards_py(avail, m2, v, wanted, limit)

    def group_unions(self, v: int) -> list[int]:
        if v <= 0 or v > self.top:
            return _EMPTY
        return self._unions_of(v, self.sum_groups(v))

    def _unions_of(self, v: int, groups: list[int]) -> list[int]:
        """:meth:`group_unions` of ``v`` (1 to ``top``) given its ``groups`` (``sum_groups(v)``: a
        capture has them already, and need not ask for them twice)."""
        if len(groups) <= 1:
            # No group or one (never empty): its own unions, without a copy (neither is changed),
            # and without the cache, which most positions then never make.
            return groups
        cache = self.unions_cache
        if cache is _NO_BUCKETS:
            cache = self.unions_cache = [_UNSET] * (self.top + 1)
        u = cache[v]
        if u is _UNSET:
            u = cache[v] = unions(groups, 0, self.t.move_budget)
        return u

    def equal_loose(self, v: int) -> int:
        """Loose cards (item bits) worth ``v``."""
        m = 0
        bit = 1 << v
        tvm = self.t.tvm
        cards = self.loose_mask
        j = 0
        while cards:
            low = cards & -cards
            if tvm[low.bit_length() - 1] & bit:
                m |= 1 << j
            cards ^= low
            j += 1
        return m

    def build_items(self, code: int) -> list[int]:
        if not self.n_builds:
            return _EMPTY   # (shared, never changed by callers)
        out: list[int] = []
        for j in range(self.n_builds):
            if self.b_code[j] == code:
                out.append(1 << (self.n_loose + j))
        return out

    # ------------------------------------------------------------------ captures
    def captures_for_value(self, v: int) -> list[int]:
        """Capture item sets for a played number value ``v``."""
        t = self.t
        found: list[int]
        groups = self.sum_groups(v)
        builds: list[int] = _EMPTY
        for j in range(self.n_builds):   # (build_items, without its list)
            if self.b_code[j] == v:
                b = 1 << (self.n_loose + j)
                if b not in groups:
                    if not builds:
                        builds = []
                    builds.append(b)
        # Equal loose cards matter only where the rules treat them apart.
        eq = self.equal_loose(v) if t.equal_cards or t.equal_card_first else 0
        if t.equal_card_first and eq:
            singles: list[int] = []
            for g in groups:
                if g & eq == g and g & (g - 1) == 0:
                    singles.append(g)
            found = unions(singles, 0, t.move_budget) if t.several_groups else singles
        elif not t.several_groups:
            found = groups + builds if builds else groups
        elif builds:
            found = unions(groups + builds, 0, t.move_budget)
        else:
            found = self._unions_of(v, groups)
        # The equal cards a capture must take all of are the table's, not an opposing pile's top in play, which is
        # no loose card on the table (an African house rule's audit: `equal_cards: all` had a 7 take a pile's 7H)
        eq &= ~self.piled_items
        if eq and t.equal_cards == 2:
            found = [m for m in found if m & eq == eq]
        elif eq and t.equal_cards == 1:
            found = [m for m in found if not m & eq or m & eq == eq]
        return found

    def valueless_captures(self, p: int) -> list[int]:
        """What a card without a number value takes: cards of its rank, builds of its rank."""
        t = self.t
        r = t.rank[p]
        items: list[int] = _EMPTY   # (a list made only when something is found: most calls find nothing)
        cards = self.loose_mask
        same = cards & t.valueless_rank_mask[r]
        if same and 0 <= cards <= _POP_MAX:
            # (Machine integers, as a one-pack deck's masks are: each such card's item index is
            # the number of loose cards below it; no walk over the table.)
            loose: i64 = cards
            m: i64 = same
            while m:
                lowest = m & -m
                if items is _EMPTY:
                    items = []
                # (``int``: compiled, ``1 << i64`` shifts a C int, which overflows at 31 loose cards below;
                # a 33-card table gave negative keys. ``_cards_worth`` shifts an i64 ``one`` for that.)
                items.append(1 << int(_ones(loose & (lowest - 1))))
                m ^= lowest
        elif same:
            j = 0
            while cards:
                low = cards & -cards
                if same & low:
                    if items is _EMPTY:
                        items = []
                    items.append(1 << j)
                cards ^= low
                j += 1
        if self.n_builds:
            code = t.rank_code_base + r
            for j in range(self.n_builds):   # (build_items, without its list)
                if self.b_code[j] == code:
                    if items is _EMPTY:
                        items = []
                    items.append(1 << (self.n_loose + j))
        if not items:
            return _EMPTY   # (shared, never changed by callers)
        mode = t.valueless_capture
        if mode == 0:
            return items
        total = 0
        for it in items:
            total |= it
        if mode == 1:
            return [total]
        if mode == 2:
            return unions(items, 0, self.t.move_budget)
        on_table = popcount(self._table_cards() & t.rank_mask[r])
        if on_table == 3 and total not in items:
            return items + [total]
        return items

    def _table_cards(self) -> int:
        """Deck mask of the cards on the table that count for a rank: loose cards and the
        cards of builds of that rank (as the old rule reads: three on the table)."""
        m = self.loose_mask
        for j in range(self.n_builds):
            if self.b_code[j] >= self.t.rank_code_base:
                m |= self.builds[j].cards
        return m

    def card_captures(self, k: int, out: list[int]) -> None:
        """Keys of the captures by hand card ``k`` (hand-local index), each once."""
        t = self.t
        p = self.hand_cards[k]
        head = CAPTURE | (1 << (PLAYED_SHIFT + k))
        shift = PLAYED_SHIFT + self.h
        if t.valueless[p]:
            for items in self.valueless_captures(p):
                out.append(head | (items << shift))
            return
        vm = t.hvm[p]
        # (Under ``capture.pile_cards: augment``, no key taking pile cards with nothing beside them that could
        # be a base: ``_no_base``, for the lowest value the card captures, so for every value it does.)
        based = self.piled_items
        need = (vm & -vm).bit_length() - 1
        if not vm & (vm - 1):   # one value: its captures are distinct already
            if not based:   # (no pile card in play: nothing of the below asked of each key)
                for items in self.captures_for_value(need):
                    out.append(head | (items << shift))
                return
            if not self._based_at(need) and need not in self.b_code:
                return   # (every set worth it pile cards alone, and no build of it: each capture refused)
            piled = self.under_mask   # (no key taking a pile card without the one above it: ``_tops_first``)
            for items in self.captures_for_value(need):
                if (not items & piled or self._tops_first(items)) \
                        and not (items & based and self._no_base(items, need, -1)):
                    out.append(head | (items << shift))
            return
        seen: set[int] = set()
        while vm:
            low = vm & -vm
            for items in self.captures_for_value(low.bit_length() - 1):
                if items not in seen:
                    seen.add(items)
                    if not (based and items & based and self._no_base(items, need, -1)):
                        out.append(head | (items << shift))
            vm ^= low

    def multi_captures(self, out: list[int]) -> None:
        """Several hand cards played together (each set taken worth their total, or worth
        what they make split into equal sets)."""
        t = self.t
        valued = [k for k in range(self.h) if t.hvm[self.hand_cards[k]]]
        limit = min(t.hand_cards_max, len(valued))
        shift = PLAYED_SHIFT + self.h
        for combo in _combinations(valued, limit):
            played = 0
            for k in combo:
                played |= 1 << k
            targets = self.combo_targets(combo)
            seen: set[int] = set()
            for v in bits(targets):
                if v > self.top:
                    continue
                for items in self.captures_for_value(v):
                    if items not in seen:
                        seen.add(items)
                        out.append(CAPTURE | (played << PLAYED_SHIFT) | (items << shift))

    def kept_codes(self) -> list[int]:
        """For each hand card k, the value codes the *other* hand cards capture: what a player
        building with card k keeps a card for."""
        codes = [self.t.cap_codes[c] for c in self.hand_cards]
        out: list[int] = []
        for k in range(len(codes)):
            kept = 0
            for i in range(len(codes)):
                if i != k:
                    kept |= codes[i]
            out.append(kept)
        return out

    def combo_targets(self, combo: list[int]) -> int:
        """The values (a bit mask) the hand cards ``combo`` played together capture: their total, or
        (``combine: groups``) each value they split into equal sets of."""
        t = self.t
        totals = 1
        for k in combo:
            totals = add_values(totals, t.hvm[self.hand_cards[k]])
        targets = 0
        for total in bits(totals):
            if t.combine_total:
                targets |= 1 << total
            else:
                for parts in range(1, len(combo) + 1):
                    if total % parts == 0 and self._splits(combo, total // parts):
                        targets |= 1 << (total // parts)
        return targets

    def _splits(self, combo: list[int], v: int) -> bool:
        """Whether the hand cards ``combo`` split into sets each worth ``v``."""
        t = self.t
        n = len(combo)
        subsets: list[int] = []
        for sub in range(1, 1 << n):
            sums = 1
            for i in range(n):
                if sub >> i & 1:
                    sums = add_values(sums, t.hvm[self.hand_cards[combo[i]]])
            if sums >> v & 1:
                subsets.append(sub)
        return ((1 << n) - 1) in unions(subsets, 0, self.t.move_budget)

    # ------------------------------------------------------------------ builds
    def card_builds(self, k: int, kept: int, out: list[int], seen: set[int]) -> None:
        """Builds made by playing hand card ``k``; ``kept``: the value codes the other hand
        cards capture (a build must be of a value the player keeps a card for)."""
        t = self.t
        p = self.hand_cards[k]
        if t.valueless[p]:
            if t.valueless_build:
                self.valueless_builds(k, out, seen)
            return
        targets = kept | self.partner_proven
        targets &= t.build_codes   # number values up to the build maximum
        if not targets:
            return
        head = 1 << (PLAYED_SHIFT + k)
        shift = PLAYED_SHIFT + self.h
        vm = t.hvm[p]
        # A card of one value makes the new builds of a value in one place, and no move onto a
        # build (which names the build) repeats a new build's items unless single builds are
        # items of sums themselves: then new builds need no set of keys (``new_builds``).
        single = not vm & (vm - 1) and not t.single_build_as_card
        # ``build.one_per_value``: a value built already is built only onto that build, never anew beside
        # it (the whole-move rules refuse it: "no two builds have one value"), as ``free_builds`` makes it.
        built = self.built_values
        piled = self.under_mask   # (pile cards in play under others: ``_tops_first``)
        based = self.piled_items   # (pile cards in play: no new build with nothing beside them for a base)
        while vm:
            low = vm & -vm
            vp = low.bit_length() - 1
            vm ^= low
            above = targets >> vp
            while above:
                lowest = above & -above
                above ^= lowest
                rest = lowest.bit_length() - 1
                big_v = rest + vp
                completions = _ZERO if rest == 0 else self.sum_groups(rest)
                if not completions and not self.n_builds:
                    continue   # (no set completes the value, and no build to add to or raise)
                key_head = BUILD | (big_v << VALUE_SHIFT) | head
                # A new build: the played card's set, and (multiple) further sets worth V.
                if built and built >> big_v & 1:
                    pass   # (one build a value: only onto the build of it, below)
                elif based and self._pile_builds_only(rest, big_v, p):
                    pass   # (every new build pile cards alone: refused, ``_no_base``)
                elif single:
                    self.new_builds(key_head, shift, completions, big_v, out, p)
                else:
                    for t0 in completions:
                        if t0 and (not piled or not t0 & piled or self._tops_first(t0)) \
                                and not (based and t0 & based and self._no_base(t0, big_v, p)):
                            _add(out, seen, key_head | (t0 << shift))
                        if t.multiple:
                            for u in self.group_unions(big_v):
                                if not u & t0 and (not piled or not (t0 | u) & piled or self._tops_first(t0 | u)) \
                                        and not (based and (t0 | u) & based and self._no_base(t0 | u, big_v, p)):
                                    key = key_head | ((t0 | u) << shift)
                                    size = len(seen)
                                    seen.add(key)
                                    if len(seen) != size:
                                        out.append(key)
                # Onto an existing build.
                for j in range(self.n_builds):
                    code = self.b_code[j]
                    if code >= t.rank_code_base:
                        continue
                    jbit = 1 << (self.n_loose + j)
                    if t.opponents_hand_only and self.hand_only(j):
                        self.hand_card_onto(key_head, shift, j, code, big_v, vp, p, out, seen)
                        continue
                    if code == big_v and t.add_sets and t.multiple:
                        if t.continue_as_begun and self.builds[j].pairs:
                            first = bits(self.builds[j].cards)[0]
                            if rest == 0 and t.rank[p] == t.rank[first]:
                                _add(out, seen, key_head | (jbit << shift))
                            continue
                        for t0 in completions:
                            if t0 & jbit:
                                continue
                            if not piled or not t0 & piled or self._tops_first(t0):   # (``new_builds``)
                                _add(out, seen, key_head | ((t0 | jbit) << shift))
                            for u in self.group_unions(big_v):
                                if not u & (t0 | jbit) \
                                        and (not piled or not (t0 | u) & piled or self._tops_first(t0 | u)):
                                    _add(out, seen, key_head | ((t0 | jbit | u) << shift))
                    elif (code < big_v and not self.builds[j].multiple and t.raise_single
                          and (t.raise_own or self.builds[j].owner != self.seat)
                          and not (t.continue_as_begun and self.builds[j].pairs)):
                        need = big_v - vp - code
                        if need < 0:
                            continue
                        raises: list[int]
                        if need == 0:
                            raises = [0]
                        elif t.raise_with_table_cards:
                            raises = [r for r in self.sum_groups(need) if not r & jbit]
                        else:
                            continue
                        for r in raises:
                            _add(out, seen, key_head | ((r | jbit) << shift))
                            if t.multiple:
                                for u in self.raise_intake(big_v):
                                    if not u & (r | jbit):
                                        _add(out, seen, key_head | ((r | jbit | u) << shift))
                                if t.one_per_value and t.add_sets:   # (joining adds the raised build as a set)
                                    self.raise_joins(key_head, shift, j, r | jbit, big_v, out, seen)

    def hand_only(self, j: int) -> bool:
        """Whether build ``j`` takes the hand card alone, no table card with it: another side's, under
        ``build.opponents_hand_only`` (001: "An opponent's build may be increased by cards from the hand only")."""
        return self.t.opponents_hand_only and self.teams[self.builds[j].owner] != self.teams[self.seat]

    def hand_card_onto(self, key_head: int, shift: int, j: int, code: int, big_v: int, vp: int, p: int,
                       out: list[int], seen: set[int]) -> None:
        """Under ``build.opponents_hand_only``, the hand card played onto build ``j`` of another side with
        no loose card (001: "An opponent's build may be increased by cards from the hand only"): added to
        it as a set of its value by itself, or raising it alone (never joined with another build, one build a
        value, whose cards would go into it too)."""
        t = self.t
        jbit = 1 << (self.n_loose + j)
        b = self.builds[j]
        if code == big_v and vp == big_v and t.add_sets and t.multiple:
            if not (t.continue_as_begun and b.pairs) or t.rank[p] == t.rank[bits(b.cards)[0]]:
                _add(out, seen, key_head | (jbit << shift))
        elif (code < big_v and code + vp == big_v and not b.multiple and t.raise_single
              and (t.raise_own or b.owner != self.seat) and not (t.continue_as_begun and b.pairs)):
            # (raised alone: joined with a build already worth the new value, one build a value, it would take
            # that build's cards, which are no card from the hand)
            _add(out, seen, key_head | (jbit << shift))

    def raise_intake(self, big_v: int) -> list[int]:
        """What a raise to ``big_v`` may take into the build besides the hand card (``build.raise_takes_in``):
        unions of the sets worth ``big_v``; of the loose cards worth it, each alone (000 rule 5.1: "if they
        are equal to the new capturing number"); or nothing."""
        takes_in = self.t.raise_takes_in
        if takes_in == 2:
            return self.group_unions(big_v)
        if takes_in == 0:
            return _EMPTY
        eq = self.equal_loose(big_v)
        if not eq:
            return _EMPTY
        singles: list[int] = []
        while eq:
            low = eq & -eq
            singles.append(low)
            eq ^= low
        return unions(singles, 0, self.t.move_budget)

    def raise_joins(self, key_head: int, shift: int, j: int, raised: int, big_v: int, out: list[int],
                    seen: set[int]) -> None:
        """Under ``build.one_per_value``, build ``j`` raised to ``big_v`` (its items ``raised``) joined
        with a build already worth ``big_v``, and (multiple) further sets worth it: the one build of
        that value the rule allows (whose build it may be is the whole-move rules' to say)."""
        t = self.t
        for i in range(self.n_builds):
            if i == j or self.b_code[i] != big_v or self.hand_only(i):
                continue   # (another side's build takes no cards but the hand card: ``hand_only``)
            if t.continue_as_begun and self.builds[i].pairs:
                continue   # (a build begun as a pair grows by cards of its rank alone: the raised build is none)
            both = raised | 1 << (self.n_loose + i)
            _add(out, seen, key_head | (both << shift))
            for u in self.raise_intake(big_v):
                if not u & both:
                    _add(out, seen, key_head | ((both | u) << shift))

    def new_builds(self, key_head: int, shift: int, completions: list[int], big_v: int, out: list[int],
                   card: int) -> None:
        """New builds worth ``big_v`` (``key_head``: the played card and the value): the card with
        each completing set t0, and (multiple) with further sets worth ``big_v`` (unions u).

        Each key once, without a set of keys: t0 | u, with u apart from t0, is different for
        each u, so it can only repeat a key of an earlier completion tj, as tj alone or as
        tj | u' where u' (what is left of it without tj) is one of the unions. (For a card of
        one value, where no other key has the same head and items: see ``card_builds``.)
        """
        if not completions:
            return
        us = self.group_unions(big_v) if self.t.multiple else _EMPTY
        several = len(completions) > 1
        uset = self.union_set(big_v) if several and us else _NO_SET
        # (Under ``capture.pile_cards: augment``, no key taking a pile card without the one above it: see
        # ``_tops_first``. Left out here, not made and then taken out by ``_from_the_top``.)
        # (And none of pile cards with nothing beside them for a base: ``_no_base``, for the card played,
        # ``card``. A key left out so is one the rules refuse, as any repeat of it is.)
        piled = self.under_mask
        based = self.piled_items
        for i in range(len(completions)):
            t0 = completions[i]
            if t0 and not (i and _repeats(t0, completions, i, uset)) \
                    and (not piled or not t0 & piled or self._tops_first(t0)) \
                    and not (based and t0 & based and self._no_base(t0, big_v, card)):
                out.append(key_head | (t0 << shift))
            for u in us:
                if not u & t0:
                    x = t0 | u
                    if not (i and _repeats(x, completions, i, uset)) \
                            and (not piled or not x & piled or self._tops_first(x)) \
                            and not (based and x & based and self._no_base(x, big_v, card)):
                        out.append(key_head | (x << shift))

    def union_set(self, v: int) -> set[int]:
        """The unions of item sets worth ``v`` (:meth:`group_unions`) as a set, made once."""
        sets = self.union_sets
        if sets is _NO_SETS:
            sets = self.union_sets = [_NO_SET] * (self.top + 1)
        found = sets[v]
        if found is _NO_SET:
            found = sets[v] = set(self.group_unions(v))
        return found

    def valueless_builds(self, k: int, out: list[int], seen: set[int]) -> None:
        """Court cards piled on equal court cards (a build announced as their rank)."""
        t = self.t
        p = self.hand_cards[k]
        r = t.rank[p]
        code = t.rank_code_base + r
        hand_after = 0
        for i in range(self.h):
            if i != k:
                hand_after |= 1 << self.hand_cards[i]
        loose: list[int] = []
        cards = self.loose_mask
        j = 0
        while cards:
            low = cards & -cards
            if t.rank[low.bit_length() - 1] == r:
                loose.append(1 << j)
            cards ^= low
            j += 1
        piles = [0] + self.build_items(code)
        extras = [0] + unions(loose, 0, self.t.move_budget)
        head = BUILD | (code << VALUE_SHIFT) | (1 << (PLAYED_SHIFT + k))
        shift = PLAYED_SHIFT + self.h
        others = 0   # (the piles that take the hand card alone: ``hand_only``)
        if t.opponents_hand_only:
            for j in range(self.n_builds):
                if self.hand_only(j):
                    others |= 1 << (self.n_loose + j)
        for pile in piles:
            for extra in extras:
                items = pile | extra
                if not items or (extra and pile & others):
                    continue
                in_build = (1 << p) | self.deck_loose(items)
                for j in range(self.n_builds):
                    if items >> (self.n_loose + j) & 1:
                        in_build |= self.builds[j].cards
                if t.valueless_build == 2:
                    if (in_build | hand_after) & t.rank_mask[r] != t.rank_mask[r]:
                        continue
                elif not hand_after & t.rank_mask[r]:
                    continue
                _add(out, seen, head | (items << shift))

    def trail_builds(self, k: int, kept: int, out: list[int], seen: set[int]) -> None:
        """Trail hand card ``k`` and build loose table cards for a value still held (house rule)."""
        t = self.t
        targets = kept & t.build_codes
        loose_all = (1 << self.n_loose) - 1
        shift = PLAYED_SHIFT + self.h
        for big_v in bits(targets):
            groups = [g for g in self.sum_groups(big_v) if not g & ~loose_all]
            for u in (unions(groups, 0, t.move_budget) if t.multiple else groups):
                if u & (u - 1):   # two cards or more
                    _add(out, seen, TRAIL_BUILD | (big_v << VALUE_SHIFT) | (1 << (PLAYED_SHIFT + k)) | (u << shift))

    def free_builds(self, out: list[int], seen: set[int]) -> None:
        """``build.free_actions``: builds made of cards in play alone, with no hand card (the Khasino
        rules' actions 2 and 4 "performed using only cards that are already in play"): loose sets
        worth a value a hand card captures (or the partner is proven to hold) made into a new build
        of two cards or more, or added to a build of that value. Their keys play no card. The card
        played from the hand this turn (``turn_card``) is in none of them: it was the turn's one card
        from the hand. Which of them the whole-move rules allow is theirs to say (``turnrules``)."""
        t = self.t
        codes = self.partner_proven
        for c in self.hand_cards:
            codes |= t.cap_codes[c]
        targets = codes & t.build_codes & ~1
        if not targets:
            return
        loose_all = (1 << self.n_loose) - 1
        barred = extract(self.turn_card, self.loose_mask)
        piled = self.piled_items   # (0 unless pruned: ``_prune``)
        shift = PLAYED_SHIFT + self.h
        # Generated under the rules of one build a value (``build.one_per_value``), not filtered after: a value
        # built already is only added to (a new build of it would be a second one), and not at all where that
        # build is another side's and may not be added to without capturing it (``augment_opponents``).
        built = 0
        closed = 0
        if t.one_per_value:
            side = self.teams[self.seat]
            for j in range(self.n_builds):
                code = self.b_code[j]
                built |= 1 << code
                if not t.augment_opponents and self.teams[self.builds[j].owner] != side:
                    closed |= 1 << code
        for v in bits(targets & ~closed):
            groups = [g for g in self.sum_groups(v) if not g & ~loose_all and not g & barred]
            if not groups:
                continue
            sets = unions(groups, 0, t.move_budget) if t.multiple else groups
            if self.under_mask:
                sets = self._topped(sets)
            head = BUILD | (v << VALUE_SHIFT)
            if not built >> v & 1:
                for u in sets:
                    # (a new build: two cards or more; under ``capture.pile_cards: augment`` not of pile cards
                    # alone, which have no base beside them: the whole-move rules refuse it)
                    if u & (u - 1) and u & ~piled and not (piled and self._no_base(u, v, -1)):
                        _add(out, seen, head | (u << shift))
            if t.add_sets and t.multiple:
                for j in range(self.n_builds):
                    if self.b_code[j] == v and not (t.continue_as_begun and self.builds[j].pairs) \
                            and not (t.opponents_hand_only and self.hand_only(j)):
                        jbit = 1 << (self.n_loose + j)
                        for u in sets:
                            _add(out, seen, head | ((u | jbit) << shift))

    def deck_loose(self, items: int) -> int:
        """The deck mask of the loose cards in an item set."""
        return deposit(items & ((1 << self.n_loose) - 1), self.loose_mask)

    # ------------------------------------------------------------------ restrictions
    def answers(self, hand_local: int, needed: int) -> bool:
        """Whether the cards of ``hand_local`` include a different card for each value code
        in ``needed`` (a matching: a card counting two ways answers for one value only)."""
        if not needed:
            return True
        cap_codes = self.t.cap_codes
        # The common answer first, without lists: the cards cover the codes, each card one code.
        union = 0
        several = False
        for k in range(self.h):
            if hand_local >> k & 1:
                c = cap_codes[self.hand_cards[k]] & needed
                if c:
                    union |= c
                    if c & (c - 1):
                        several = True
        if union != needed:
            return False
        if not several:
            return True
        return answers(needed, [cap_codes[self.hand_cards[k]] for k in range(self.h) if hand_local >> k & 1])

    def keeps_cards(self, key: int, held: list[int]) -> bool:
        """After the move ``key``, the player still holds a card for every build they must
        keep one for (the builds in ``held``, unless taken or built on, and the new build)."""
        kind = key & 3
        is_build = kind == BUILD or kind == TRAIL_BUILD
        if not held and not is_build:
            return True
        shift = PLAYED_SHIFT + self.h
        played = (key >> PLAYED_SHIFT) & ((1 << self.h) - 1)
        used = key >> (shift + self.n_loose)
        needed = 0
        for j in held:
            if not used >> j & 1:
                needed |= 1 << self.b_code[j]
        if is_build:
            code = (key >> VALUE_SHIFT) & VALUE_BITS
            if not self.partner_proven >> code & 1:
                needed |= 1 << code
        rest = ((1 << self.h) - 1) & ~played
        if self.answers(rest, needed):
            return True
        if is_build:
            return False   # (a build is made only keeping a card for each build: one short or not)
        # A player already short of a card for one of their builds (a partner built for them a value whose only
        # card answers another of their builds: an ace kept for a 1 and a 14) may take or trail so as to leave no
        # more of them short: no move would keep a card for each, and without this they could only trail, their
        # last ace too (the fallback below), abandoning both.
        deficit = self.deficit(held)
        return deficit > 0 and unanswered(needed, [self.t.cap_codes[self.hand_cards[k]] for k in range(self.h)
                                                   if rest >> k & 1]) <= deficit

    def deficit(self, held: list[int]) -> int:
        """How many of the values of the builds in ``held`` the whole hand leaves without a card of its own (one
        card answers for one value: ``unanswered``), worked out once a position and set of builds; 0 where none
        of them was made for the player by a partner (a player's own builds each needed a card when made, and a
        position given with one short of its card is no position play reaches: the listing stays as it was)."""
        places = 0
        for j in held:
            places |= 1 << j
        if places != self._deficit_of:
            needed = 0
            given = False   # (short only through a build a partner made for the player: their own needed a card)
            for j in held:
                needed |= 1 << self.b_code[j]
                if self.builds[j].owner != self.seat:
                    given = True
            self._deficit = unanswered(needed, [self.t.cap_codes[c] for c in self.hand_cards]) if given else 0
            self._deficit_of = places
        return self._deficit

    def equals_loose(self, k: int) -> bool:
        t = self.t
        p = self.hand_cards[k]
        piled = self.piled_items   # (a pile's top in play is no loose card on the table: not one to pair)
        j = -1
        for c in self.loose_cards:   # (rare rules only: the list, made once)
            j += 1
            if piled >> j & 1:
                continue
            if t.valueless[p]:
                if t.rank[c] == t.rank[p]:
                    return True
            elif t.hvm[p] & t.tvm[c]:
                return True
        return False

    # ------------------------------------------------------------------ all moves
    def moves(self) -> list[int]:
        """Every legal move as keys: captures, then builds, then trails (one list, filtered as
        it is filled, so that a position makes as few lists as it can)."""
        t = self.t
        h = self.h
        held: list[int] = _EMPTY
        owns = False
        for j in range(self.n_builds):
            b = self.builds[j]
            if b.holder == self.seat:
                if not held:
                    held = []
                held.append(j)
            if b.owner == self.seat:
                owns = True
        if self.obligation_lapsed:
            owns = False   # (owning a build obliges nothing here)
        keep = bool(held) and t.keep_capturing_card
        out: list[int] = []
        budget = t.move_budget
        if self.turn_card:
            # The hand's card is played and the turn goes on (``build.free_actions``): builds of cards
            # in play, or the end of the turn.
            return self.free_moves(held)
        under = self.under_mask != 0
        if self.n_loose or self.n_builds:
            for k in range(h):
                start = len(out)
                self.card_captures(k, out)
                if under:
                    self._from_the_top(out, start)
                if len(out) > budget:
                    raise PositionTooLargeError(too_large(f"more than {budget:,} captures"))
        if t.hand_cards_max > 1:
            self.multi_captures(out)
            if len(out) > budget:
                raise PositionTooLargeError(too_large(f"more than {budget:,} captures"))
        if keep:
            out = [m for m in out if self.keeps_cards(m, held)]
        if self.kept is not None and out:
            out = self.kept(self.kept_state, out)
        n_captures = len(out)
        if t.compulsory == 3 and n_captures:
            return out
        if t.build_allowed and (self.n_loose or self.n_builds):
            cap_codes = t.cap_codes
            hand_cards = self.hand_cards
            # The set of keys only where a build can be listed twice (see card_builds).
            shared = bool(self.n_builds) or t.single_build_as_card or t.valueless_build != 0 \
                or t.trail_with_build
            # What the other hand cards capture, for each card k (kept_codes, without its lists
            # and without a pass over the others for each card): a code is held by another card
            # when some card has it and k does not, or when two cards have it.
            held_any = 0
            held_twice = 0
            for k in range(h):
                c = hand_cards[k]
                vm = t.hvm[c]
                if vm & (vm - 1):
                    shared = True
                codes = cap_codes[c]
                held_twice |= held_any & codes
                held_any |= codes
            seen: set[int] = set() if shared else _NO_SET
            for k in range(h):
                codes = cap_codes[hand_cards[k]]
                kept = (held_any & ~codes) | (held_twice & codes)
                start = len(out)
                self.card_builds(k, kept, out, seen)
                if t.trail_with_build and not t.free_actions and not (owns and t.obligation == 1):
                    # (a trail beside a build of layout cards is a trail: no_trail forbids it too;
                    # a value the partner is proven to hold is built for them as a build with a hand
                    # card is: the Khasino rules' 'create a new single or compound build of this rank')
                    self.trail_builds(k, kept | self.partner_proven, out, seen)
                if under:
                    self._from_the_top(out, start)
                if len(out) > budget:
                    raise PositionTooLargeError(too_large(f"more than {budget:,} captures and builds"))
            if t.free_actions and not self.no_free_builds:
                start = len(out)
                self.free_builds(out, seen if shared else set())
                if under:
                    self._from_the_top(out, start)
                if len(out) > budget:
                    raise PositionTooLargeError(too_large(f"more than {budget:,} captures and builds"))
            raises = owns and t.obligation == 2
            # (With nothing held, a number build is always of a value the hand keeps.)
            kept_test = bool(held) or t.valueless_build != 0
            if len(out) > n_captures and (kept_test or raises):
                keep_for = held if t.keep_capturing_card else _EMPTY
                builds = [m for m in out[n_captures:] if (not kept_test or self.keeps_cards(m, keep_for))
                          and (not raises or self._raises(m))]
                del out[n_captures:]
                out += builds
        if not (owns and (t.obligation == 1 or t.obligation == 2)):
            capturing = 0
            if t.compulsory == 2:
                for i in range(n_captures):
                    capturing |= out[i] >> PLAYED_SHIFT
            listed = cast(list[object], out)   # (the same list: a trail's key put in as its object)
            for k in range(h):
                if keep and not self.keeps_cards(TRAIL | (1 << (PLAYED_SHIFT + k)), held):
                    continue
                if t.compulsory == 1 and self.equals_loose(k):
                    continue
                if t.compulsory == 2 and capturing >> k & 1:
                    continue
                if k < len(_TRAIL_KEYS):
                    listed.append(_TRAIL_KEYS[k])
                else:
                    out.append(TRAIL | (1 << (PLAYED_SHIFT + k)))
        if not out and h:
            # Rules that leave no move at all (possible only with unusual house rules):
            # let the player trail rather than stop the game.
            return [TRAIL | (1 << (PLAYED_SHIFT + k)) for k in range(h)]
        return out

    def free_moves(self, held: list[int]) -> list[int]:
        """After the hand's card, in a turn of several actions: the builds of cards in play the
        player may still make (each keeping a card for every build they must), and ``END``."""
        out: list[int] = []
        if self.t.build_allowed and (self.n_loose or self.n_builds):
            self.free_builds(out, set())
            if self.under_mask:
                self._from_the_top(out, 0)
            if self.t.keep_capturing_card:
                out = [m for m in out if self.keeps_cards(m, held)]
        out.append(END)
        return out

    def _raises(self, key: int) -> bool:
        """A build move that changes the value of a build it uses (capture_or_raise)."""
        if key & 3 != BUILD:
            return False
        code = (key >> VALUE_SHIFT) & VALUE_BITS
        used = key >> (PLAYED_SHIFT + self.h + self.n_loose)
        for j in bits(used):
            if self.b_code[j] != code:
                return True
        return False


def generate(t: Tables, state: HandState, pruned: bool = True,
             kept: Callable[[HandState, list[int]], list[int]] | None = None) -> list[int]:
    """Every legal move of the player to play, as keys (see the module's docstring), and under African
    Casino's whole-move rules some that they refuse, which the engine leaves out (``turnrules``). Where
    the generator can tell, it makes none of those (``pruned``: under ``capture.pile_cards: augment`` no set
    with two cards of one pile, no pile card taken without the card above it, and no capture or new build
    taking pile cards with nothing beside them that could be their base, ``Generator._no_base``; under
    ``build.one_per_value`` no new build beside a build of its value);
    ``pruned=False`` makes them too, all that the cards allow (the tutorial asks which rule refused one).
    ``kept``: where capture is compulsory under whole-move rules, the captures they keep (``Generator.kept``)."""
    if state.over:
        return []
    if state.turn_card and pruned and t.pile_augment and _ends_alone(t, state):
        return [END]
    # The hand's cards in a list of the pool's (``Tables.spare_hands``), filled in place, not a list
    # made by ``bits`` and freed a ply. Compiled only: interpreted, ``bits`` is one C call a card.
    hand = state.hands[state.turn]
    cards = _UNSET
    n: i64 = 0
    if _COMPILED and t.n_cards <= 62 and hand:   # (a deck of machine-integer masks: no wide comparison)
        n = _ones(hand)
        if n <= _POOLED_HAND:
            slots = t.spare_hands
            cards = slots[n]
            if len(cards) == n:
                slots[n] = _EMPTY   # (taken while in use: a call on another thread makes its own)
            else:
                cards = [0] * int(n)
            m: i64 = hand
            i: i64 = 0
            while m:
                low = m & -m
                cards[i] = int(_ones(low - 1))
                i += 1
                m ^= low
    g = Generator(t, state, cards, pruned)
    if kept is not None:
        g.kept = kept
        g.kept_state = state
    if pruned and t.pile_augment and t.free_actions and _ends_alone(t, state):
        # (Before the hand's card, the builds of cards in play the rules would refuse every one of, as after
        # it: told without listing them, ``_ends_alone``.)
        g.no_free_builds = True
    # The buckets of the last position, emptied, filled again: a position's lists of item sets
    # by value (one a value) are made and freed once per engine, not once a ply. Taken off the
    # pool while in use (``pop``: one step, so no two callers share them; a generator made
    # elsewhere, or an error half way, just makes its own).
    pool = t.spare_buckets
    try:
        spare = pool.pop()
    except IndexError:   # (threads took every one, the bottom ones too: they come back)
        spare = _NO_BUCKETS
    if len(spare) == g.top + 1:
        g.spare = spare
    elif not spare and spare is not _NO_BUCKETS:
        pool.append(spare)   # one of the pool's bottom lists, back where it was
    keys = g.moves()
    if cards is not _UNSET:
        t.spare_hands[n] = cards
    elif g.h <= 62 and (g.wide or state.hands[g.seat] > _POP_MAX):
        # (Wide masks, two packs': the hand's and the table's cards as found, kept for the rating and
        # the applying of this position's keys, ``Tables.turn_cards``; never a lent hand list, which is
        # only for decks of machine integers. A table of more than 62 loose cards is not kept: its item
        # bits are not a machine integer.)
        loose = g.loose_cards
        if len(loose) <= 62:
            t.turn_cards = (state, g.hand_cards, loose)
    used = g.buckets
    if used is not _NO_BUCKETS:
        for b in used:
            if b:
                b.clear()
        if len(pool) < 3:
            pool.append(used)
    return keys


def _ends_alone(t: Tables, state: HandState) -> bool:
    """After the turn's card from the hand (``build.free_actions``), under ``capture.pile_cards: augment``:
    whether the turn's only move the whole-move rules keep is its end, told without listing the builds of
    cards in play (``free_builds``), which here would all be refused. A build of cards in play is new or
    added to a build of its value, and the turn's own card is in none. Where no build may be added to
    (none of the mover's side; another side's grows only as it is captured, ``build.augment_opponents:
    false``), a new build needs a set of loose layout cards worth its value: its sets where it takes no
    pile card, the base beside them where it does (a pile card only augments). So none is kept where no
    set of the layout cards but the turn's own card is worth a value the mover could build (a hand card
    captures it, or a partner is proven to hold it), and the rules search every such move's split (at most
    ``SPLIT_ITEMS`` cards in play; beyond, they let a move stand that a count does not rule out). Most
    positions after a card in South African and Swazi Casino's playouts end so. Before the card (no
    ``turn_card``) the same question tells that none of the builds of cards in play listed beside the hand's
    moves would be kept (``Generator.no_free_builds``): the rules judge them the same either side of it."""
    builds = state.builds
    if builds:
        if t.augment_opponents:
            return False
        teams = state.teams
        side = teams[state.turn]
        for b in builds:
            if teams[b.owner] == side:
                return False
    layout = state.table & ~state.turn_card
    if not layout:
        return True   # (pile cards alone: no base, whatever their number)
    if popcount(layout) + (state.players - 1) * state.pile_reach > SPLIT_ITEMS \
            and popcount(state.in_play() & ~state.turn_card) > SPLIT_ITEMS:
        return False
    codes = t.cap_codes_of(state.hands[state.turn])
    for proven in state.proven:   # (a value a partner is proven to hold is built for them: any seat's, a few more)
        if proven:
            for v in proven:
                codes |= 1 << v
    targets = codes & t.build_codes & ~1
    if not targets:
        return True
    within = (2 << _high_bit(targets)) - 1   # (sums above the highest value wanted are not followed)
    reach = 1   # bit s: some set of the layout cards seen so far is worth s (the empty set 0)
    tvc = t.tvc
    for c in bits(layout):
        vc = tvc[c]
        if vc == -1:
            continue   # (a card without value is in no set worth a number)
        grown = 0
        for w in bits(1 << vc if vc >= 0 else -vc):
            grown |= reach << w
        reach = (reach | grown) & within
    return not reach & targets


def _high_bit(mask: int) -> int:
    """The index of the highest set bit of ``mask`` (at least 1)."""
    return mask.bit_length() - 1


def _played_index(key: int) -> int:
    played = key >> PLAYED_SHIFT
    return (played & -played).bit_length() - 1


def _add(out: list[int], seen: set[int], key: int) -> None:
    size = len(seen)
    seen.add(key)   # one hash look-up, not two (``in``, then ``add``)
    if len(seen) != size:
        out.append(key)


def _repeats(x: int, completions: list[int], i: int, unions_of_v: set[int]) -> bool:
    """Whether the items ``x`` of a new build were listed with an earlier completion than the
    ``i``-th: as that completion tj alone, or as tj with a union of sets (``unions_of_v``)."""
    for j in range(i):
        tj = completions[j]
        if not tj & ~x and (x == tj or (x & ~tj) in unions_of_v):
            return True
    return False


def add_values(sums: int, vm: int) -> int:
    """The sums reachable by adding one of the values in ``vm`` to one of ``sums``."""
    ns = 0
    while vm:
        low = vm & -vm
        ns |= sums << (low.bit_length() - 1)
        vm ^= low
    return ns


def answers(needed: int, cards: list[int]) -> bool:
    """Whether each value code in ``needed`` can have a card of its own among ``cards``
    (each given by the codes it captures): a bipartite matching, by augmenting paths."""
    caps: list[int] = []
    union = 0
    several = False
    for c in cards:
        c &= needed
        if c:
            caps.append(c)
            union |= c
            if c & (c - 1):
                several = True
    if union != needed:
        return False
    if not several:   # each card answers for one value only: covering them all is enough
        return True
    owner = [-1] * len(caps)
    for v in bits(needed):
        if not _assign(caps, owner, v, [False] * len(caps)):
            return False
    return True


def unanswered(needed: int, cards: list[int]) -> int:
    """How many value codes of ``needed`` are left without a card of their own among ``cards`` (each given by the
    codes it captures), one card answering for one value: those a largest matching leaves out (0: ``answers``)."""
    caps = [c & needed for c in cards]
    owner = [-1] * len(caps)
    left = 0
    for v in bits(needed):
        if not _assign(caps, owner, v, [False] * len(caps)):
            left += 1
    return left


def _assign(caps: list[int], owner: list[int], v: int, tried: list[bool]) -> bool:
    """Augmenting path: give value ``v`` a card, moving other values to other cards."""
    for k in range(len(caps)):
        if caps[k] >> v & 1 and not tried[k]:
            tried[k] = True
            if owner[k] < 0 or _assign(caps, owner, owner[k], tried):
                owner[k] = v
                return True
    return False


def _combinations(items: list[int], limit: int) -> list[list[int]]:
    """Every combination of 2 to ``limit`` items, smallest first, in index order."""
    out: list[list[int]] = []
    for size in range(2, limit + 1):
        idx = list(range(size))
        n = len(items)
        while True:
            out.append([items[i] for i in idx])
            i = size - 1
            while i >= 0 and idx[i] == i + n - size:
                i -= 1
            if i < 0:
                break
            idx[i] += 1
            for j in range(i + 1, size):
                idx[j] = idx[j - 1] + 1
    return out


# ------------------------------------------------------------------ interpreted
# The bit helpers in plain Python, used where this module is not compiled (``_COMPILED``): one
# C call of CPython's for what the compiled forms do in machine arithmetic. The same results
# for every argument (a negative mask included).

def _bits_py(mask: int) -> list[int]:
    """``bits`` interpreted: each set bit's index by ``bit_length``."""
    if mask < 0:
        raise ValueError(f"bits of a negative mask ({mask})")
    out: list[int] = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out


def _popcount_py(mask: int) -> int:
    """``popcount`` interpreted: ``int.bit_count`` (a negative mask as the compiled form takes it)."""
    if mask >= 0:
        return mask.bit_count()
    return _popcount_generic(mask)


def _popcount_generic(mask: int) -> int:
    n = 0
    while mask:
        mask &= mask - 1
        n += 1
    return n


if not _COMPILED:
    # (Rebinding the module's names: the other engine modules import them after this runs, and
    # compiled code, which never comes here, calls its own functions directly.)
    _ones = int.bit_count  # type: ignore[assignment]
    bits = _bits_py
    popcount = _popcount_py
    deposit = _deposit_bits
