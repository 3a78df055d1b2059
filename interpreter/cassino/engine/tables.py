"""Per-rules lookup tables, built once per engine, so move generation never reads Rules.

Everything is a list of small integers indexed by card (the deck's numbering), or a
plain flag: the shape mypyc compiles to C arrays and machine integers.

Values are kept as bitmasks: bit ``v`` set means "counts as v". A card without a
number value (a court card in standard Casino) has mask 0 and pairs by rank only.
Build values are *codes*: a number value is its own code; a rank announced as a
build's value (a build of court cards) is ``rank_code_base + rank index``.
"""

from __future__ import annotations

from typing import Final

from ..language.cards import Deck
from ..language.rules import Rules

#: Move kinds, as stored in the two low bits of a move key.
TRAIL: Final = 0
CAPTURE: Final = 1
BUILD: Final = 2
TRAIL_BUILD: Final = 3
#: The key that ends a turn of several actions (``build.free_actions``): a trail of no card.
END: Final = 0

#: How much one listing of a position's legal moves may make, by default: item sets worth a
#: value (counted before any is made), unions of them, and moves. Counted, not timed, so
#: that a position is listed or refused the same way on every machine (determinism); a
#: position beyond it raises ``PositionTooLargeError`` (see ``Engine.move_budget``).
MOVE_BUDGET: Final = 100_000

#: Owner obligations and compulsory-capture settings, as small integers.
OBLIGATION = {"none": 0, "no_trail": 1, "capture_or_raise": 2}
COMPULSORY = {"never": 0, "equal_loose_card": 1, "when_card_can_capture": 2, "whenever_possible": 3}
EQUAL_CARDS = {"any": 0, "all_when_pairing": 1, "all": 2}
VALUELESS_CAPTURE = {"one": 0, "all": 1, "any": 2, "one_or_three_by_fourth": 3}
VALUELESS_BUILD = {"never": 0, "always": 1, "when_all_four": 2}
RAISE_TAKES_IN = {"none": 0, "cards": 1, "sets": 2}


def value_mask(values: tuple[int, ...]) -> int:
    m = 0
    for v in values:
        m |= 1 << v
    return m


def value_code(values: tuple[int, ...]) -> int:
    """See ``Tables.tvc``."""
    m = value_mask(values)
    if not m:
        return -1
    if not m & (m - 1):
        return m.bit_length() - 1
    return -m


class Tables:
    """The numbers move generation needs, from a variant's rules and deck."""

    def __init__(self, rules: Rules, deck: Deck) -> None:
        n = len(deck)
        self.n_cards: int = n
        self.tvm: list[int] = [value_mask(deck.table_values[i]) for i in range(n)]
        self.hvm: list[int] = [value_mask(deck.hand_values[i]) for i in range(n)]
        #: Each card's own number values as a mask (``hvm`` before a capture total changes it), and its
        #: highest number value in the hand and on the table (0 for none): what the whole-move rules
        #: count a card as in a set (``Generator._no_base``).
        self.hand_values: list[int] = list(self.hvm)
        self.hand_top: list[int] = [max(deck.hand_values[i], default=0) for i in range(n)]
        self.table_top: list[int] = [max(deck.table_values[i], default=0) for i in range(n)]
        #: A table card's value as the subset-sum pass reads it: the value itself where there is
        #: one (no mask to take apart, and a small number, kept in a list without allocating),
        #: minus the mask where there are several (at least -3), -1 for a card without value.
        self.tvc: list[int] = [value_code(deck.table_values[i]) for i in range(n)]
        #: The cards that take part in sums (a value), and those of one value of at least 1 (deck masks).
        self.valued_mask: int = 0
        self.plain_mask: int = 0
        for i in range(n):
            if self.tvc[i] != -1:
                self.valued_mask |= 1 << i
            if self.tvc[i] >= 1:
                self.plain_mask |= 1 << i
        #: The cards of one value of at least 1 that is at most w (``plain_worth_upto[w]``, w 0 to the highest), as
        #: deck masks of the deck's first 62 cards (the masks the one-value passes walk as machine integers):
        #: a pass drops from the cards still to try, at once, those that would take a set past its limit.
        #: Entries 0 to 61 at least (the passes that read it at once only run where every value asked is below
        #: 62), and to the deck's highest value, where every such card is in it: past the end, a reader asks
        #: for ``worth_top`` (a house rule's values go up to 99, and sums of several hand cards past 61).
        top = max([v for v in self.tvc[:min(n, 62)] if v >= 1] + [61])
        self.plain_worth_upto: list[int] = [0] * (top + 1)
        for i in range(min(n, 62)):
            if self.tvc[i] >= 1:
                for w in range(self.tvc[i], top + 1):
                    self.plain_worth_upto[w] |= 1 << i
        self.worth_top: int = top
        self.rank: list[int] = list(deck.rank_index)
        self.valueless: list[bool] = [not deck.hand_values[i] for i in range(n)]
        self.rank_mask: list[int] = [0] * len(deck.ranks)
        for i in range(n):
            self.rank_mask[self.rank[i]] |= 1 << i
        #: The cards without value of each rank (a deck mask by rank): what such a card takes.
        self.valueless_rank_mask: list[int] = [0] * len(deck.ranks)
        for i in range(n):
            if self.valueless[i]:
                self.valueless_rank_mask[self.rank[i]] |= 1 << i
        top = 0
        for i in range(n):
            for v in deck.hand_values[i] + deck.table_values[i]:
                top = max(top, v)
        if rules.build.max_value is not None:
            top = max(top, rules.build.max_value)
        # Captures by a fixed total (Escoba): a hand card takes sets worth the total less its
        # own value, so its capture mask holds those remainders (the table keeps its values).
        total = rules.capture.total
        if total is not None:
            for i in range(n):
                m = 0
                for v in deck.hand_values[i]:
                    if 0 < total - v:
                        m |= 1 << (total - v)
                        top = max(top, total - v)
                self.hvm[i] = m
        #: The highest number value a card (or a build) can have.
        self.max_value: int = top
        self.rank_code_base: int = top + 1
        if self.rank_code_base + len(deck.ranks) > 127:
            raise ValueError("card values above 100 are more than the engine's move encoding holds")
        #: What each card captures when played from hand, as a mask of value codes.
        self.cap_codes: list[int] = [
            self.hvm[i] if self.hvm[i] else 1 << (self.rank_code_base + self.rank[i]) for i in range(n)]
        self.rank_names: list[str] = list(deck.ranks)
        #: The subset-sum buckets of the last position generated, emptied, for the next one
        #: (``movegen.generate`` pops a set and appends it back: single steps under the GIL, so
        #: that two threads sharing an engine never fill the same lists). The two empty lists
        #: at the bottom stay (put back when popped): the pool never shrinks to nothing, which
        #: would free and make its storage again on every call.
        self.spare_buckets: list[list[list[int]]] = [[], []]
        #: A list for each hand size up to 16 (``spare_hands[n]``, n entries), lent to the generator
        #: of one call at a time for the hand's cards (``movegen.generate``), filled in place: a list
        #: made and freed a ply otherwise. Taken off its slot while in use (an empty list there).
        self.spare_hands: list[list[int]] = [[0] * n for n in range(17)]
        #: The cards of the last position listed whose hand or cards in play are wider than a machine
        #: word (two packs): the position, its mover's hand cards and its cards in play (deck indexes,
        #: lowest first, as ``movegen.bits`` gives them), which ``movegen.generate`` found anyway. A
        #: playout ply lists, rates and applies one position: its rating and ``Engine.apply_key`` read
        #: the cards from these lists rather than walking the wide masks again (``Engine.turn_cards``).
        #: One tuple, replaced whole (threads sharing an engine see one position's or another's).
        self.turn_cards: tuple[object, list[int], list[int]] = (None, [], [])
        #: See :data:`MOVE_BUDGET` (``Engine.move_budget`` sets it per engine).
        self.move_budget: int = MOVE_BUDGET

        c, b = rules.capture, rules.build
        self.sums: bool = c.sums
        self.several_groups: bool = c.several_groups
        self.equal_cards: int = EQUAL_CARDS[c.equal_cards]
        self.valueless_capture: int = VALUELESS_CAPTURE[c.valueless_cards]
        self.equal_card_first: bool = c.equal_card_first
        self.compulsory: int = COMPULSORY[c.compulsory]
        self.hand_cards_max: int = c.hand_cards_max
        self.combine_total: bool = c.hand_cards_combine == "total"

        self.build_allowed: bool = b.allowed
        self.multiple: bool = b.multiple
        self.raise_single: bool = b.raise_single
        self.raise_own: bool = b.raise_own
        self.raise_with_table_cards: bool = b.raise_with_table_cards
        #: What a raise takes in besides the hand card (``build.raise_takes_in``): 0 nothing, 1 loose cards
        #: each worth the new value, 2 loose cards or sets worth it.
        self.raise_takes_in: int = RAISE_TAKES_IN[b.raise_takes_in]
        self.add_sets: bool = b.add_sets
        #: No two builds of one value (``build.one_per_value``): a build raised to the value of another
        #: joins it in the same move ([Kh] "you must then combine them into a single augmented build").
        self.one_per_value: bool = b.one_per_value
        #: Another side's build added to only as it is captured (``build.augment_opponents: false``).
        self.augment_opponents: bool = b.augment_opponents
        #: Another side's build grows by the hand card alone, no loose card with it (``build.opponents_hand_only``).
        self.opponents_hand_only: bool = b.opponents_hand_only
        #: A card of an opposing pile only augments (``capture.pile_cards: augment``): a set of a move holds
        #: at most one card of a pile, so the generator keeps no set with two (``Generator.sum_groups``).
        self.pile_augment: bool = c.from_piles == "opponents_top" and c.pile_cards == "augment"
        #: Whether the card played is a base for a pile card on its own (``capture.pile_base``).
        self.played_base: bool = c.pile_base == "layout_or_played"
        #: Whether the generator leaves out some moves the whole-move rules refuse (``movegen.generate``).
        self.prunes: bool = self.pile_augment or b.one_per_value
        self.single_build_as_card: bool = b.single_build_as_card
        self.for_partner: bool = b.for_partner
        self.continue_as_begun: bool = b.continue_as_begun
        self.valueless_build: int = VALUELESS_BUILD[b.valueless]
        self.build_max: int = b.max_value if b.max_value is not None else top
        #: The value codes a build may have (number values up to ``build_max``), and every number
        #: value but 0 (up to ``max_value``), as masks.
        self.build_codes: int = (2 << self.build_max) - 1
        self.number_values: int = (2 << top) - 2
        #: What each card captures (``cap_codes``) among the build values' codes (``build_codes``).
        self.cap_build_codes: list[int] = [cc & self.build_codes for cc in self.cap_codes]
        self.obligation: int = OBLIGATION[b.owner_obligation]
        self.obligation_in_last_deal: bool = b.owner_obligation_in_last_deal
        self.keep_capturing_card: bool = b.keep_capturing_card
        self.trail_with_build: bool = rules.trail.with_build
        #: Turns of several actions (``build.free_actions``): builds of cards in play alone, listed
        #: beside the hand's moves and after them until the player ends the turn.
        self.free_actions: bool = b.free_actions

    def cap_codes_of(self, cards: int) -> int:
        """Value codes the cards of ``cards`` (a deck mask) capture together."""
        m = 0
        while cards:
            low = cards & -cards
            m |= self.cap_codes[low.bit_length() - 1]
            cards ^= low
        return m

    def code(self, value: int | str) -> int:
        """The value code of a build value (a number, or a rank for a build of court cards)."""
        if isinstance(value, int):
            return value
        return self.rank_code_base + self.rank_names.index(value)

    def value_of(self, code: int) -> int | str:
        """The build value a value code stands for."""
        if code < self.rank_code_base:
            return code
        return self.rank_names[code - self.rank_code_base]
