"""Which next choices of a move have a completion: the legal moves as a tree, walked lazily.

Why: a position's legal moves can number in the millions (a card that may take any
union of disjoint sets from 30 loose cards; Hungarian's several hand cards played
together), while a player choosing a move step by step only ever needs the next
choices that still lead to some legal move. This module answers that question from
the move generator's own structure (its groups of items adding up to a value and the
unions of disjoint groups), as feasibility searches that stop at the first completion
found, so the cost follows the choices offered, not the moves behind them.

A move is chosen as: its *head* (the hand cards played, the kind, the build value
code; :meth:`MoveChoices.heads` lists every head with at least one legal move), then
its table items one by one in *item order*: the builds first (``state.builds``
order), then the loose cards (deck order). :meth:`MoveChoices.next_items` gives the
items that may come next after the ones chosen, and :data:`END` when the items
chosen are already a whole legal move. Every answer agrees exactly with
``Engine.legal_moves`` (tests/test_stepwise_bounds.py checks it on random positions
of every variant); the generator (``movegen``) stays the one definition of the rules,
and this module mirrors each of its families of item sets.
"""

from __future__ import annotations

from dataclasses import dataclass
from itertools import combinations
from typing import Callable, Final, Iterator

from mypy_extensions import mypyc_attr

from .movegen import PLAYED_SHIFT, VALUE_SHIFT, Generator, add_values, bits, extract, popcount
from ..errors import PositionTooLargeError
from .moves import Move, MoveKind
from .state import HandState
from .tables import BUILD, CAPTURE, TRAIL, TRAIL_BUILD, Tables

__all__ = ["END", "Head", "MoveChoices"]

#: The choice that completes a move (no further item).
END: Final = -1
#: Steps after which :meth:`MoveChoices.sample` passes a position over rather than search on.
_HARD_CHECK: Final = 500


@mypyc_attr(native_class=False)   # a frozen dataclass (compiled, a plain Python class)
@dataclass(frozen=True)
class Head:
    """A move's choices before its table items: the hand cards (a deck mask), the kind
    (``tables.TRAIL`` ...), the build value code (0 for trails and captures)."""

    played: int
    kind: int
    code: int


@mypyc_attr(native_class=False)   # a frozen dataclass (compiled, a plain Python class)
@dataclass(frozen=True)
class _Clause:
    """One shape of item sets: ``fixed`` items, plus (when ``slot``) one group worth ``slot``,
    plus (when ``rep``) any number of disjoint groups worth ``rep``, all disjoint, drawn from
    ``allowed``, ``min_size`` items at least. A group is a set of sum items whose values
    can add up to its worth (one item only where sums do not count), or a single item of
    ``special`` when its worth is ``special_value``."""

    fixed: int
    slot: int
    rep: int
    allowed: int
    min_size: int = 1
    special: int = 0
    special_value: int = 0


@mypyc_attr(native_class=False)   # a frozen dataclass (compiled, a plain Python class)
@dataclass(frozen=True)
class _Family:
    """A head's item sets: the union of ``clauses`` and ``explicit`` sets, then the
    equal-card rule (``eq_mode`` 2: every item of ``eq``; 1: all or none of them) and a
    test of the builds used (``build_test``: the builds a player holding one must keep a card
    for, and the raise an owner must make). ``parts``: families pooled with this one (a card
    that counts two ways; the several values several hand cards make)."""

    clauses: tuple[_Clause, ...]
    explicit: tuple[int, ...] = ()
    eq: int = 0
    eq_mode: int = 0
    build_test: bool = False
    parts: tuple["_Family", ...] = ()


class MoveChoices:
    """One position's legal moves as a tree of choices (see the module's docstring).

    Made from the engine's tables and a state; cheap to make (no move is generated).
    """

    def __init__(self, tables: Tables, state: HandState, accept: Callable[[Move], bool] | None = None) -> None:
        self.t = tables
        self.state = state
        #: Where capture is compulsory under the whole-move rules (``Engine.walk``): whether those rules let a
        #: move be played, so that a card whose every capture they refuse is one that cannot capture.
        self.accept = accept
        g = self.g = Generator(tables, state)
        self.n_loose = g.n_loose
        self.n_builds = g.n_builds
        #: Item bits (movegen's numbering: loose j -> bit j, build j -> bit L + j) in item order.
        self.order: list[int] = [1 << (g.n_loose + j) for j in range(g.n_builds)] + \
            [1 << j for j in range(g.n_loose)]
        self.all_items = (1 << (g.n_loose + g.n_builds)) - 1
        self.build_bits = self.all_items & ~((1 << g.n_loose) - 1)
        self.sum_items = 0
        self.value_of_item: dict[int, int] = {}
        for b, vm in zip(g.sum_bits, g.sum_vals):
            self.sum_items |= b
            self.value_of_item[b] = vm
        self.limit = (2 << g.top) - 1
        held: list[int] = []
        owns = False
        for j in range(g.n_builds):
            if g.builds[j].holder == g.seat:
                held.append(j)
            if g.builds[j].owner == g.seat:
                owns = True
        self.held = held
        self.owns = owns and not g.obligation_lapsed   # (read only for the owner's obligation)
        self._families: dict[Head, _Family] = {}
        self._relevant_items: dict[int, int] = {}   # by id() of a family this object keeps
        self._heads: list[Head] | None = None
        #: Groups tried by the cover searches so far (bounded by the engine's move budget), and
        #: where the check under way gives up (0: at the budget; see ``_next_positions``).
        self.steps = 0
        self.check_limit = 0

    # ------------------------------------------------------------------ public
    def heads(self) -> list[Head]:
        """Every head with at least one legal move, in a deterministic order."""
        if self._heads is None:
            self._heads = self._find_heads()
        return self._heads

    def next_items(self, head: Head, chosen: list[int]) -> list[int]:
        """After ``head`` and the items ``chosen`` (positions in item order, increasing), the
        positions that may come next (increasing), then :data:`END` if ``chosen`` completes a
        legal move. Empty when no legal move starts so."""
        out = list(self._next_positions(head, chosen))
        if self._complete(head, chosen):
            out.append(END)
        return out

    def relevant_items(self, head: Head) -> int:
        """The items (movegen's item bits) that some legal move of ``head`` may use."""
        return self._relevant(self._family(head))

    def has_completion(self, head: Head, decided: int, included: int) -> bool:
        """Whether some legal move of ``head`` uses, among the items ``decided`` (item bits),
        exactly those of ``included``: the question :meth:`next_items` asks for each item, in
        any order a caller decides items in (the research walk of two-pack decks asks it over
        its own action order)."""
        return self._exists(self._family(head), head, decided, included)

    def _next_positions(self, head: Head, chosen: list[int], skip_hard: bool = False,
                        stop: int = 0) -> Iterator[int]:
        """The positions of :meth:`next_items` (without :data:`END`), found one at a time.
        ``skip_hard``: a position whose check takes more than :data:`_HARD_CHECK` steps is
        passed over instead of searched to the end, and none is tried once the steps pass
        ``stop`` (for :meth:`sample`, which needs some moves, not all)."""
        family = self._family(head)
        inc = self._items_of(chosen)
        last = chosen[-1] if chosen else -1
        dec = 0
        for p in range(last + 1):
            dec |= self.order[p]
        upto = dec
        relevant = self._relevant(family)
        for p in range(last + 1, len(self.order)):
            bit = self.order[p]
            if bit & relevant:
                if not skip_hard:
                    if self._exists(family, head, upto | bit, inc | bit):
                        yield p
                else:
                    if self.steps > stop:
                        return
                    self.check_limit = self.steps + _HARD_CHECK
                    try:
                        found = self._exists(family, head, upto | bit, inc | bit)
                    except PositionTooLargeError:
                        found = False
                    finally:
                        self.check_limit = 0
                    if found:
                        yield p
            upto |= bit

    def _items_of(self, chosen: list[int]) -> int:
        inc = 0
        for p in chosen:
            inc |= self.order[p]
        return inc

    def _complete(self, head: Head, chosen: list[int]) -> bool:
        """Whether the items ``chosen`` are a whole legal move of ``head`` (a search over
        those items only: cheap at any table)."""
        return self._exists(self._family(head), head, self.all_items, self._items_of(chosen))

    def _head_of(self, move: Move) -> tuple[Head, list[int]] | None:
        """``move``'s head and the positions of its items in item order; None where it names an item
        that is not here (such a move is none of this position's)."""
        from .core import kind_code   # (core imports nothing from here: no cycle at load time)

        positions = self.item_positions(move)
        if positions is None:
            return None
        code = self.t.code(move.value) if move.value is not None else 0
        return Head(move.played, kind_code(move.kind), code), positions

    def allows(self, move: Move) -> bool:
        """Whether ``move`` is legal here, checked alone (no other move is listed or walked):
        what ``Engine.is_legal`` asks at a position beyond the listing budget."""
        found = self._head_of(move)
        if found is None:
            return False
        head, positions = found
        if head not in self.heads():
            return False
        if len(set(positions)) != len(positions):
            return False
        return self._complete(head, positions)

    def has_larger(self, move: Move) -> bool:
        """Whether a legal move of ``move``'s head takes every item ``move`` takes and more: what
        ``capture.take_all`` refuses, asked at a position beyond the listing budget. One
        completion question per item the move leaves."""
        found = self._head_of(move)
        if found is None:
            return False
        head, positions = found
        family = self._family(head)
        inc = self._items_of(positions)
        for bit in self.order:
            if not inc & bit and self._exists(family, head, inc | bit, inc | bit):
                return True
        return False

    def larger_accepted(self, move: Move, accept: Callable[[Move], bool], most: int = 12) -> bool | None:
        """Whether a legal move of ``move``'s head that ``accept`` lets be played (the whole-move rules) takes
        every item ``move`` takes and more: ``has_larger`` where those rules judge the larger capture too
        (under ``capture.take_all`` the listing compares only captures they keep). Every set of the items
        some move of the head may use, beside ``move``'s, is tried, fewest first; None where there are more
        than ``most`` such items (undecided: the caller asks ``has_larger``)."""
        found = self._head_of(move)
        if found is None:
            return False
        head, positions = found
        relevant = self._relevant(self._family(head))
        inc = self._items_of(positions)
        extra = [p for p in range(len(self.order)) if self.order[p] & relevant and not inc & self.order[p]]
        if len(extra) > most:
            return None
        for size in range(1, len(extra) + 1):
            for more in combinations(extra, size):
                chosen = sorted(positions + list(more))
                if self._complete(head, chosen) and accept(self.move(head, chosen)):
                    return True
        return False

    def sample(self, limit: int, accept: Callable[[Move], bool] | None = None) -> list[Move]:
        """At most ``limit`` legal moves, a share for each head (so every hand card and way of
        playing it is there, as far as the work allows: a trail or a turn's end always), each
        found by walking the first choices that lead somewhere: the work follows the moves made,
        not the moves there are. For computer players and hints at positions beyond the listing
        budget (``Engine.some_moves``).

        ``accept``: the rules a whole move answers to beyond its cards (``turnrules``): a move it
        refuses is walked past, not counted, so the share goes to moves that are legal. A head
        with no move when the work runs out is walked again for its shortest move, with a share
        of work of its own (``_walk_short``)."""
        heads = self.heads()
        out: list[Move] = []
        if not heads or limit < 1:
            return out
        quota = max(1, limit // len(heads))
        # Each head's first move first (one walk down, a head at a time), then more of each: when
        # the work runs out, every head walked before has its move.
        stop = self.steps + self.t.move_budget // 4
        found: list[list[list[int]]] = [[] for _ in heads]
        # Heads whose move takes no item (a trail, a turn's end) are walked first: each is one step,
        # and a head of many items (a capture or build among some thirty cards in play) may spend
        # the whole work before its first move is found, leaving no move at all.
        order = sorted(range(len(heads)), key=lambda k: heads[k].kind != TRAIL)
        try:
            for room in (1, quota):
                for i in order:
                    if sum(len(f) for f in found) >= limit:
                        break
                    self._walk_moves(heads[i], [], room, found[i], stop, accept)
        except PositionTooLargeError:
            pass   # (one check of a move's items ran past the walk's whole budget: the moves found so far)
        # A head with no move yet is walked again for its shortest move first (a share of work of its own).
        if not all(found):
            stop = self.steps + self.t.move_budget // 4
            try:
                for i in order:
                    if not found[i]:
                        self._walk_short(heads[i], [], found[i], stop, accept)
            except PositionTooLargeError:
                pass
        for i, head in enumerate(heads):
            out += [self.move(head, c) for c in found[i]]
        return out[:limit]

    def _walk_short(self, head: Head, chosen: list[int], found: list[list[int]], stop: int,
                    accept: Callable[[Move], bool] | None) -> bool:
        """One move of ``head`` starting with ``chosen``, a move one item longer looked for before
        any is walked into: the first walk (``_walk_moves``) takes every item that still leads
        somewhere, and among some thirty cards in play its moves grow past a dozen items whose
        checks cost the whole work, where adding one loose ten to a build of 10 was a move. Whether
        those items alone make a move is cheap to ask at any table. True when found."""
        family = self._family(head)
        relevant = self._relevant(family)
        last = chosen[-1] if chosen else -1
        for p in range(last + 1, len(self.order)):
            if self.steps > stop:
                return False
            if self.order[p] & relevant:
                longer = chosen + [p]
                if self._complete(head, longer) and (accept is None or accept(self.move(head, longer))):
                    found.append(longer)
                    return True
        for p in self._next_positions(head, chosen, True, stop):
            if self._walk_short(head, chosen + [p], found, stop, accept):
                return True
            if self.steps > stop:
                return False
        return False

    def _walk_moves(self, head: Head, chosen: list[int], room: int, found: list[list[int]], stop: int,
                    accept: Callable[[Move], bool] | None) -> None:
        if len(found) >= room or self.steps > stop:
            return
        if self._complete(head, chosen) and chosen not in found and (accept is None or accept(self.move(head, chosen))):
            found.append(list(chosen))
        for p in self._next_positions(head, chosen, True, stop):
            self._walk_moves(head, chosen + [p], room, found, stop, accept)
            if len(found) >= room or self.steps > stop:
                return

    def move(self, head: Head, chosen: list[int]) -> Move:
        """The move of ``head`` with the items ``chosen`` (positions in item order)."""
        from .core import KINDS   # (core imports nothing from here: no cycle at load time)

        loose = 0
        builds: list[int] = []
        g = self.g
        for p in chosen:
            if p < g.n_builds:
                builds.append(g.builds[p].cards)
            else:
                loose |= 1 << g.loose_cards[p - g.n_builds]
        value = self.t.value_of(head.code) if head.kind == BUILD or head.kind == TRAIL_BUILD else None
        if head.kind == TRAIL and not head.played:
            return Move(MoveKind.END, 0)   # (the end of a turn of several actions)
        return Move(KINDS[head.kind], head.played, loose, tuple(sorted(builds)), value)

    def item_positions(self, move: Move) -> list[int] | None:
        """The item positions of ``move``'s table items, or None when one is not on the table."""
        g = self.g
        out: list[int] = []
        cards = [b.cards for b in g.builds]
        for c in move.builds:
            if c not in cards:
                return None
            out.append(cards.index(c))
        for i in bits(move.loose):
            if i not in g.loose_cards:
                return None
            out.append(g.n_builds + g.loose_cards.index(i))
        return sorted(out)

    # ------------------------------------------------------------------ heads
    def _free_heads(self) -> list[Head]:
        """``build.free_actions``: a head for each value a build of cards in play alone may have
        (no card played; ``_free_family``), where one exists."""
        t, g = self.t, self.g
        if not t.free_actions or not t.build_allowed or not (g.n_loose or g.n_builds):
            return []
        codes = g.partner_proven
        for c in g.hand_cards:
            codes |= t.cap_codes[c]
        out: list[Head] = []
        for v in bits(codes & ((2 << t.build_max) - 1) & ~1):
            head = Head(0, BUILD, v)
            if self._nonempty(head):
                out.append(head)
        return out

    def _find_heads(self) -> list[Head]:
        t, g = self.t, self.g
        if g.turn_card:
            # The hand's card is played and the turn goes on: builds of cards in play, or its end.
            return self._free_heads() + [Head(0, TRAIL, 0)]
        h = g.h
        table_items = g.n_loose or g.n_builds
        capture_heads: list[Head] = []
        if table_items:
            for k in range(h):
                head = Head(1 << g.hand_cards[k], CAPTURE, 0)
                if self._nonempty(head):
                    capture_heads.append(head)
        if t.hand_cards_max > 1:
            for played_local in self._combos():
                head = Head(self._deck_mask(played_local), CAPTURE, 0)
                if self._nonempty(head):
                    capture_heads.append(head)
        build_heads: list[Head] = []
        if t.build_allowed and table_items:
            kept_for = g.kept_codes()
            for k in range(h):
                for kind, code in self._build_codes(k, kept_for[k]):
                    head = Head(1 << g.hand_cards[k], kind, code)
                    if self._nonempty(head):
                        build_heads.append(head)
            build_heads += self._free_heads()
        if self.accept is not None and capture_heads and (t.compulsory == 2 or t.compulsory == 3):
            # (a capture the whole-move rules refuse obliges nothing: as the generator's ``kept``)
            capture_heads = [hd for hd in capture_heads if self._accepted(hd)]
        trail_heads = [Head(1 << g.hand_cards[k], TRAIL, 0) for k in range(h)
                       if self._trail_ok(k, capture_heads)]
        if self.owns and t.obligation == 1:
            trail_heads = []
        elif self.owns and t.obligation == 2:
            trail_heads = []
        if t.compulsory == 3 and capture_heads:
            out = capture_heads
        else:
            out = capture_heads + build_heads + trail_heads
        if not out and h:
            return [Head(1 << g.hand_cards[k], TRAIL, 0) for k in range(h)]
        return out

    def any_accepted(self, accept: Callable[[Move], bool]) -> bool:
        """Whether some head has a move ``accept`` (the whole-move rules) lets be played: where none has,
        the engine lets the player trail any card rather than stop the game (``Engine._listing``)."""
        return any(self._accepted(head, accept) for head in self.heads())

    def _accepted(self, head: Head, accept: Callable[[Move], bool] | None = None) -> bool:
        """Whether ``head`` has a move the whole-move rules accept (``accept``, else the walk's own), looked
        for shortest first with a quarter of the walk's work: a head whose search runs out is kept (its
        moves, if any, are then refused when played, never trails offered that the listing would not offer)."""
        judge = accept if accept is not None else self.accept
        if head.kind == TRAIL:   # (a trail or a turn's end takes no item: its one move, judged)
            return judge is None or judge(self.move(head, []))
        found: list[list[int]] = []
        stop = self.steps + self.t.move_budget // 4
        try:
            if self._walk_short(head, [], found, stop, judge):
                return True
        except PositionTooLargeError:
            return True
        return self.steps > stop

    def _trail_ok(self, k: int, capture_heads: list[Head]) -> bool:
        t, g = self.t, self.g
        card = g.hand_cards[k]
        if self.held and t.keep_capturing_card:
            key = TRAIL | (1 << (PLAYED_SHIFT + k))
            if not g.keeps_cards(key, self.held):
                return False
        if t.compulsory == 1:
            return not g.equals_loose(k)
        if t.compulsory == 2:
            return not any(hd.played >> card & 1 for hd in capture_heads)
        return True

    def _combos(self) -> list[int]:
        """Hand-local masks of the several-card plays worth trying (2 to the maximum cards)."""
        t, g = self.t, self.g
        valued = [k for k in range(g.h) if t.hvm[g.hand_cards[k]]]
        limit = min(t.hand_cards_max, len(valued))
        out: list[int] = []
        for m in range(1, 1 << len(valued)):
            n = popcount(m)
            if 2 <= n <= limit:
                local = 0
                for i in bits(m):
                    local |= 1 << valued[i]
                out.append(local)
        out.sort(key=lambda m: (popcount(m), bits(m)))
        return out

    def _build_codes(self, k: int, kept: int) -> list[tuple[int, int]]:
        """(kind, value code) pairs a build by hand card ``k`` might have."""
        t, g = self.t, self.g
        p = g.hand_cards[k]
        out: list[tuple[int, int]] = []
        if t.valueless[p]:
            if t.valueless_build:
                out.append((BUILD, t.rank_code_base + t.rank[p]))
        else:
            targets = (kept | g.partner_proven) & ((2 << t.build_max) - 1)
            for v in bits(targets):
                out.append((BUILD, v))
        if t.trail_with_build and not t.free_actions:   # (any card may be trailed beside the build)
            for v in bits((kept | g.partner_proven) & ((2 << t.build_max) - 1)):   # (as movegen's)
                out.append((TRAIL_BUILD, v))
        return out

    def _deck_mask(self, local: int) -> int:
        m = 0
        for k in bits(local):
            m |= 1 << self.g.hand_cards[k]
        return m

    def _local(self, played: int) -> int:
        m = 0
        for k, c in enumerate(self.g.hand_cards):
            if played >> c & 1:
                m |= 1 << k
        return m

    def _nonempty(self, head: Head) -> bool:
        return self._exists(self._family(head), head, 0, 0)

    # ------------------------------------------------------------------ families
    def _family(self, head: Head) -> _Family:
        fam = self._families.get(head)
        if fam is None:
            fam = self._families[head] = self._make_family(head)
        return fam

    def _make_family(self, head: Head) -> _Family:
        t, g = self.t, self.g
        local = self._local(head.played)
        if head.kind == TRAIL:
            return _Family((), explicit=(0,))
        if head.kind == CAPTURE:
            test = bool(self.held) and t.keep_capturing_card
            if popcount(local) == 1:
                k = bits(local)[0]
                p = g.hand_cards[k]
                if t.valueless[p]:
                    return _Family((), explicit=tuple(g.valueless_captures(p)), build_test=test)
                values = bits(t.hvm[p])
            else:
                values = self._multi_targets(bits(local))
            return self._captures(values, test)
        test = bool(self.held) or bool(t.valueless_build) or self._must_raise()
        if head.kind == BUILD and not head.played:
            return self._free_family(head.code, test)
        if head.kind == TRAIL_BUILD:
            loose_all = (1 << g.n_loose) - 1
            v = head.code
            if t.multiple:
                return _Family((_Clause(0, 0, v, loose_all, min_size=2),), build_test=test)
            return _Family((_Clause(0, v, 0, loose_all, min_size=2),), build_test=test)
        # BUILD
        k = bits(local)[0]
        p = g.hand_cards[k]
        if t.valueless[p]:
            out: list[int] = []
            g.valueless_builds(k, out, set())
            shift = PLAYED_SHIFT + g.h
            return _Family((), explicit=tuple(key >> shift for key in out), build_test=test)
        return self._number_builds(k, head.code, test)

    def _free_family(self, v: int, test: bool) -> _Family:
        """The shapes ``Generator.free_builds`` makes for value ``v``: layout sets worth ``v`` made
        into a new build of two cards or more, or added to a build of ``v`` (never the card played
        from the hand this turn)."""
        t, g = self.t, self.g
        loose = ((1 << g.n_loose) - 1) & ~extract(g.turn_card, g.loose_mask)
        clauses = [_Clause(0, 0, v, loose, min_size=2) if t.multiple else _Clause(0, v, 0, loose, min_size=2)]
        if t.add_sets and t.multiple:
            for j in range(g.n_builds):
                if g.b_code[j] == v and not (t.continue_as_begun and g.builds[j].pairs) \
                        and not g.hand_only(j):
                    clauses.append(_Clause(1 << (g.n_loose + j), 0, v, loose, min_size=2))
        return _Family(tuple(clauses), build_test=test)

    def _multi_targets(self, combo: list[int]) -> list[int]:
        """The values several hand cards played together capture (the generator's own arithmetic)."""
        return [v for v in bits(self.g.combo_targets(combo)) if v <= self.g.top]

    def _captures(self, values: list[int], test: bool) -> _Family:
        """The union over ``values`` of ``captures_for_value`` (each value's own equal-card rule)."""
        t, g = self.t, self.g
        fams: list[_Family] = []
        for v in values:
            if v <= 0 or v > g.top:
                continue
            extra = 0
            for b in g.build_items(v):
                if not (self.sum_items & b and self.value_of_item[b] >> v & 1):
                    extra |= b
            eq = g.equal_loose(v) if t.equal_cards or t.equal_card_first else 0
            mode = t.equal_cards if eq else 0
            if t.equal_card_first and eq:
                # Only the equal loose cards, one (or several, each a group) at a time.
                sets = [1 << b for b in bits(eq)]
                if t.several_groups:
                    sets = _submasks(eq)[1:]
                fams.append(_Family((), explicit=tuple(sets), eq=eq, eq_mode=mode, build_test=test))
            elif not t.several_groups:
                fams.append(_Family((_Clause(0, v, 0, self.all_items, special=extra, special_value=v),),
                                    eq=eq, eq_mode=mode, build_test=test))
            else:
                fams.append(_Family((_Clause(0, 0, v, self.all_items, special=extra, special_value=v),),
                                    eq=eq, eq_mode=mode, build_test=test))
        if len(fams) == 1:
            return fams[0]
        return _Family((), parts=tuple(fams))

    def _number_builds(self, k: int, big_v: int, test: bool) -> _Family:
        """Every shape ``card_builds`` makes for hand card ``k`` and build value ``big_v``."""
        t, g = self.t, self.g
        p = g.hand_cards[k]
        clauses: list[_Clause] = []
        explicit: list[int] = []
        everything = self.all_items
        for vp in bits(t.hvm[p]):
            if vp > big_v:
                continue
            rest = big_v - vp
            rep = big_v if t.multiple else 0
            if rest == 0 or rest <= g.top:
                if rest:
                    clauses.append(_Clause(0, rest, rep, everything))
                elif rep:
                    clauses.append(_Clause(0, 0, rep, everything))
            for j in range(g.n_builds):
                code = g.b_code[j]
                if code >= t.rank_code_base:
                    continue
                jbit = 1 << (g.n_loose + j)
                b = g.builds[j]
                if g.hand_only(j):
                    # (another side's build takes the hand card alone, as ``Generator.hand_card_onto`` lists it)
                    if code == big_v and rest == 0 and t.add_sets and t.multiple:
                        if not (t.continue_as_begun and b.pairs) or t.rank[p] == t.rank[bits(b.cards)[0]]:
                            explicit.append(jbit)
                    elif (code < big_v and code + vp == big_v and not b.multiple and t.raise_single
                          and (t.raise_own or b.owner != g.seat) and not (t.continue_as_begun and b.pairs)):
                        explicit.append(jbit)   # (raised alone: no join, as ``Generator.hand_card_onto``)
                    continue
                if code == big_v and t.add_sets and t.multiple:
                    if t.continue_as_begun and b.pairs:
                        first = bits(b.cards)[0]
                        if rest == 0 and t.rank[p] == t.rank[first]:
                            explicit.append(jbit)
                        continue
                    if rest == 0 or rest <= g.top:
                        clauses.append(_Clause(jbit, rest, big_v, everything))
                elif (code < big_v and not b.multiple and t.raise_single
                      and (t.raise_own or b.owner != g.seat)
                      and not (t.continue_as_begun and b.pairs)):
                    need = big_v - vp - code
                    if need < 0:
                        continue
                    # Raised alone, or (one build a value) joined with a build already worth big_v.
                    joined = [jbit] + ([jbit | 1 << (g.n_loose + i) for i in range(g.n_builds)
                                        if i != j and g.b_code[i] == big_v
                                        and not g.hand_only(i)
                                        and not (t.continue_as_begun and g.builds[i].pairs)]
                                       if t.one_per_value and t.add_sets and rep else [])
                    # What the raise takes in besides (``build.raise_takes_in``): sets worth big_v from
                    # everything; loose cards worth big_v each alone (the groups drawn from those cards
                    # only: two of them never make big_v); or nothing.
                    takes = t.raise_takes_in
                    rep_r = rep if takes else 0
                    alone = g.equal_loose(big_v) if takes == 1 and rep_r else 0
                    for fixed in joined:
                        if need == 0:
                            clauses.append(_Clause(fixed, 0, rep_r, fixed | alone if takes == 1 else everything))
                        elif t.raise_with_table_cards and need <= g.top:
                            if takes != 1:
                                clauses.append(_Clause(fixed, need, rep_r, everything))
                                continue
                            for r in g.sum_groups(need):   # (the help to the new value, then cards alone)
                                if not r & fixed:
                                    clauses.append(_Clause(fixed | r, 0, rep_r, fixed | r | alone))
        return _Family(tuple(clauses), explicit=tuple(explicit), build_test=test)

    def _relevant(self, family: _Family) -> int:
        """Items that may be in some set of ``family`` at all (a cheap first sieve: a card worth
        more than every group of the family is never asked about)."""
        key = id(family)
        got = self._relevant_items.get(key)
        if got is not None:
            return got
        m = 0
        for part in family.parts:
            m |= self._relevant(part)
        for e in family.explicit:
            m |= e
        for c in family.clauses:
            m |= c.fixed | (c.special & c.allowed)
            top = max(c.slot, c.rep)
            for b, vm in self.value_of_item.items():
                if b & c.allowed and vm & ((2 << top) - 1):
                    m |= b
        self._relevant_items[key] = m
        return m

    # ------------------------------------------------------------------ feasibility
    def _exists(self, family: _Family, head: Head, dec: int, inc: int) -> bool:
        """Whether ``family`` holds a set M with M & dec == inc."""
        if family.parts:
            return any(self._exists(f, head, dec, inc) for f in family.parts)
        if family.build_test:
            # The builds used decide the test: try each choice of the builds not decided yet.
            builds_open = self.build_bits & ~dec
            base = inc & self.build_bits
            for sub in _submasks(builds_open):
                used = base | sub
                if not self._builds_pass(head, used):
                    continue
                if self._exists_eq(family, dec | self.build_bits, inc | used):
                    return True
            return False
        return self._exists_eq(family, dec, inc)

    def _builds_pass(self, head: Head, used_items: int) -> bool:
        t, g = self.t, self.g
        local = self._local(head.played)
        key = head.kind | (head.code << VALUE_SHIFT) | (local << PLAYED_SHIFT) | (used_items << (PLAYED_SHIFT + g.h))
        if head.kind == CAPTURE:
            return not self.held or not t.keep_capturing_card or g.keeps_cards(key, self.held)
        if head.kind == TRAIL:
            return True
        keep = self.held if t.keep_capturing_card else []
        if (self.held or t.valueless_build) and not g.keeps_cards(key, keep):
            return False
        if self.owns and (t.obligation == 1 or t.obligation == 2):
            if head.kind == TRAIL_BUILD:   # (a trail beside a build is a trail: no_trail forbids it too)
                return False
        if self._must_raise():
            used = used_items >> g.n_loose
            if not any(g.b_code[j] != head.code for j in bits(used)):
                return False
        return True

    def _must_raise(self) -> bool:
        """Whether a build made now must raise one of the owner's builds (``owner_obligation:
        capture_or_raise``): the owner's play from the hand, not a build of cards in play after the hand's
        card is played (``build.free_actions``; the generator's ``free_moves`` asks no raise there)."""
        return self.owns and self.t.obligation == 2 and not self.g.turn_card

    def _exists_eq(self, family: _Family, dec: int, inc: int) -> bool:
        eq = family.eq
        if family.eq_mode == 2 and eq:
            if eq & dec & ~inc:
                return False
            return self._exists_plain(family, dec, inc, must=eq)
        if family.eq_mode == 1 and eq:
            if not eq & dec & ~inc and self._exists_plain(family, dec, inc, must=eq):
                return True
            if inc & eq:
                return False
            return self._exists_plain(family, dec | eq, inc, must=0)
        return self._exists_plain(family, dec, inc, must=0)

    def _exists_plain(self, family: _Family, dec: int, inc: int, must: int) -> bool:
        for m in family.explicit:
            if m & dec == inc and m & must == must:
                return True
        for c in family.clauses:
            if self._clause_exists(c, dec, inc, must):
                return True
        return False

    def _clause_exists(self, c: _Clause, dec: int, inc: int, must: int) -> bool:
        if c.fixed & dec & ~inc:
            return False
        required = (inc | must) & ~c.fixed
        if required & ~c.allowed:
            return False
        if must & dec & ~inc:
            return False
        avail = c.allowed & ~dec & ~c.fixed & ~required
        if not avail and required and not self._totals_fit(c, required):
            return False
        search = _Cover(self, c)
        return search.cover(required, avail, c.slot > 0, popcount(c.fixed))

    def _totals_fit(self, c: _Clause, required: int) -> bool:
        """Whether ``required`` items, with none left to add to them (a move named in full), can add up to
        what the clause's groups are worth together: the slot's worth once, and the repeated worth any
        number of times. False only where it is sure: every item a sum item of one value, none special.
        A named capture of 22 low cards adding up to 72 with a 10 is then refused at once, where the cover
        search would try every way to split them before running past its budget."""
        if required & c.special or required & ~self.sum_items:
            return True
        total = 0
        for item in bits(required):
            vm = self.value_of_item[1 << item]
            if vm & (vm - 1):
                return True   # (an item of two values: the sum is not one number)
            total += vm.bit_length() - 1
        if c.slot > 0:
            total -= c.slot
            if total < 0:
                return False
            return total % c.rep == 0 if c.rep else total == 0
        return c.rep > 0 and total % c.rep == 0


class _Cover:
    """The search behind one clause: cover the required items with disjoint groups."""

    def __init__(self, mc: MoveChoices, clause: _Clause) -> None:
        self.mc = mc
        self.c = clause
        self.sums = mc.t.sums
        self.failed: set[tuple[int, int, bool, int]] = set()
        self.budget = mc.steps + mc.t.move_budget   # (each search bounded on its own)

    def value(self, item: int) -> int:
        return self.mc.value_of_item.get(item, 0)

    def cover(self, required: int, avail: int, slot_pending: bool, size: int) -> bool:
        c = self.c
        if not required:
            return self.finish(avail, slot_pending, size)
        key = (required, avail, slot_pending, min(size, c.min_size))
        if key in self.failed:
            return False
        r = 1 << (required.bit_length() - 1)   # (the last chosen: the fewest groups can hold it)
        rest_req = required ^ r
        targets: list[tuple[int, bool]] = []
        if slot_pending:
            targets.append((c.slot, True))
        if c.rep:
            targets.append((c.rep, False))
        for worth, is_slot in targets:
            if c.special & r and worth == c.special_value:
                if self.cover(rest_req, avail, slot_pending and not is_slot, size + 1):
                    return True
            if not self.mc.sum_items & r:
                continue
            pool = (rest_req | avail) & self.mc.sum_items
            # The last group there can be (the slot, with no other groups to come) must hold
            # every required item: walked from all of them, not from one and failing for each
            # group of the table that lacks the others (millions, at a table of 100 cards).
            must = rest_req if is_slot and not c.rep else 0
            for group in self.groups(r | must, pool, worth):
                self.mc.steps += 1
                if self.mc.steps > self.budget or (self.mc.check_limit and self.mc.steps > self.mc.check_limit):
                    raise PositionTooLargeError(
                        f"this position is too large to walk (over {self.budget:,} steps); type the move")
                if self.cover(rest_req & ~group, avail & ~group, slot_pending and not is_slot,
                              size + popcount(group)):
                    return True
        self.failed.add(key)
        return False

    def finish(self, avail: int, slot_pending: bool, size: int) -> bool:
        """The required items are covered: add the mandatory group and enough items."""
        c = self.c
        need = c.min_size - size
        if slot_pending:
            # One group worth the slot (plus, if still short, more groups).
            # (No shape has both a slot and a size above one item: one group does it.)
            return self.group_exists(avail, c.slot, max(need, 1))
        if need <= 0:
            return True
        if not c.rep:
            return False
        if self.group_exists(avail, c.rep, need):
            return True
        if need == 2:
            singles = 0
            for item in bits(avail):
                bit = 1 << item
                if c.special & bit and c.rep == c.special_value:
                    singles += 1
                elif self.value(bit) >> c.rep & 1:
                    singles += 1
            return singles >= 2
        return False

    def group_exists(self, avail: int, worth: int, min_size: int) -> bool:
        """Whether ``avail`` holds a group worth ``worth`` of ``min_size`` items or more."""
        c = self.c
        if min_size <= 1 and c.special & avail and worth == c.special_value:
            return True
        pool = avail & self.mc.sum_items
        if not self.sums:
            return min_size <= 1 and any(self.value(1 << i) >> worth & 1 for i in bits(pool))
        limit = self.mc.limit
        one = 0      # sums of exactly one item
        more = 0     # sums of two items or more
        for i in bits(pool):
            vm = self.value(1 << i)
            more = (more | add_values(more, vm) | add_values(one, vm)) & limit
            one = (one | vm) & limit
        if min_size <= 1:
            return bool((one | more) >> worth & 1)
        return bool(more >> worth & 1)

    def groups(self, base: int, pool: int, worth: int) -> "_GroupWalk":
        """Groups worth ``worth`` holding the items ``base`` and other items of ``pool``, made
        one at a time: the search stops at the first that works."""
        return _GroupWalk(self, base, pool & ~base, worth)


class _GroupWalk:
    """Iterates the groups holding one item, depth first, pruned by the sums still reachable."""

    def __init__(self, cover: _Cover, base: int, pool: int, worth: int) -> None:
        self.cover = cover
        self.r = base
        self.worth = worth
        self.items = bits(pool)
        self.vals = [cover.value(1 << i) for i in self.items]
        self.sums = cover.sums
        limit = cover.mc.limit
        n = len(self.items)
        suffix = [1] * (n + 1)
        for k in range(n - 1, -1, -1):
            suffix[k] = (suffix[k + 1] | add_values(suffix[k + 1], self.vals[k])) & limit
        self.suffix = suffix

    def __iter__(self) -> Iterator[int]:
        limit = self.cover.mc.limit
        if not self.sums and self.r & (self.r - 1):
            return   # (where sums do not count a group is one item: several required together make none)
        start = 1   # the sums the base items make together (the empty set's: 0)
        for i in bits(self.r):
            start = add_values(start, self.cover.value(1 << i)) & limit
        if not start:
            return
        if start >> self.worth & 1:
            yield self.r
        if not self.sums:
            return
        yield from self._walk(0, self.r, start)

    def _walk(self, k: int, mask: int, sums: int) -> Iterator[int]:
        worth = self.worth
        limit = self.cover.mc.limit
        for i in range(k, len(self.items)):
            if not _reaches(sums, self.suffix[i], worth):
                return
            ns = add_values(sums, self.vals[i]) & limit
            if not ns:
                continue
            m2 = mask | (1 << self.items[i])
            if ns >> worth & 1:
                yield m2
            if i + 1 < len(self.items):
                yield from self._walk(i + 1, m2, ns)


def _reaches(sums: int, suffix: int, worth: int) -> bool:
    """Whether some sum in ``sums`` plus some sum in ``suffix`` is ``worth``."""
    s = sums
    while s:
        low = s & -s
        b = low.bit_length() - 1
        if b <= worth and suffix >> (worth - b) & 1:
            return True
        s ^= low
    return False


def _submasks(mask: int) -> list[int]:
    out = [0]
    for b in bits(mask):
        out += [m | (1 << b) for m in out]
    return out


def _covers(full: int, subsets: list[int]) -> bool:
    """Whether disjoint sets among ``subsets`` cover ``full`` exactly."""
    if not full:
        return True
    low = full & -full
    for s in subsets:
        if s & low and s & full == s and _covers(full & ~s, subsets):
            return True
    return False

