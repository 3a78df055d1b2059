"""Cards and decks, built from a variant's ``deck`` settings.

A :class:`Card` is a small immutable value (rank, suit). A :class:`Deck` numbers
its cards 0..N-1 so the engine can keep sets of cards as integer bitmasks, and
precomputes each card's values in hand and on the table: move generation never
looks a value up in the rules.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from functools import cached_property

from ..errors import CassinoError
from .rules import DeckRules
from .selectors import DeckView

#: The most cards a deck may hold in all packs (the engine's bound; ``validate`` checks it).
MAX_DECK_CARDS = 128

_CARD = re.compile(r"^(10|[0-9]{1,2}|[A-Za-z])([A-Za-z])$")


class CardError(CassinoError):
    """A card name that is malformed or not in the variant's deck."""


@dataclass(frozen=True, order=True)
class Card:
    """One card: its rank as the deck writes it (``A``, ``10``, ``K``, ``7``) and its suit letter."""

    rank: str
    suit: str

    def __str__(self) -> str:
        return f"{self.rank}{self.suit}"


@dataclass(frozen=True)
class Deck:
    """The cards of one variant, numbered, with their values.

    ``hand_values[i]`` are the values card ``i`` may count when played from hand,
    ``table_values[i]`` while it lies on the table; ``()`` means it has no number
    value and pairs only by rank.
    """

    cards: tuple[Card, ...]
    ranks: tuple[str, ...]
    suits: tuple[str, ...]
    rank_names: tuple[str, ...]
    suit_names: tuple[str, ...]
    suit_symbols: tuple[str, ...]
    suit_colours: tuple[str, ...]
    hand_values: tuple[tuple[int, ...], ...]
    table_values: tuple[tuple[int, ...], ...]
    rank_index: tuple[int, ...]
    #: Identical packs shuffled together (``deck.packs``). Card ``i`` and card ``i + size``
    #: (``size`` = one pack's cards) are copies: equal :class:`Card` values, one name.
    packs: int = 1
    _index: dict[Card, int] = field(repr=False, compare=False, hash=False, default_factory=dict)

    @classmethod
    def from_rules(cls, rules: DeckRules) -> "Deck":
        cards: list[Card] = []
        hand: list[tuple[int, ...]] = []
        table: list[tuple[int, ...]] = []
        rank_idx: list[int] = []
        overrides = {c.card: c for c in rules.card_values}
        for _ in range(max(rules.packs, 1)):     # pack after pack: one pack numbers as it always did
            for suit in rules.suits:
                for ri, rank in enumerate(rules.ranks):
                    card = Card(rank.rank, suit.letter)
                    cards.append(card)
                    o = overrides.get(str(card))
                    hand.append(o.hand if o and o.hand is not None else rank.values)
                    table.append(o.table if o and o.table is not None else rank.values)
                    rank_idx.append(ri)
        deck = cls(tuple(cards), tuple(r.rank for r in rules.ranks), tuple(s.letter for s in rules.suits),
                   tuple(r.name or r.rank for r in rules.ranks), tuple(s.name for s in rules.suits),
                   tuple(s.symbol or s.letter for s in rules.suits), tuple(s.colour for s in rules.suits),
                   tuple(hand), tuple(table), tuple(rank_idx), max(rules.packs, 1))
        for i, c in enumerate(cards):
            deck._index.setdefault(c, i)       # a card's first copy
        return deck

    # ------------------------------------------------------------------ copies (deck.packs)
    @property
    def pack_size(self) -> int:
        """The cards of one pack."""
        return len(self.cards) // self.packs

    def copies(self, card: Card) -> tuple[int, ...]:
        """The deck indices of every copy of ``card``, lowest first (one index with one pack)."""
        first = self._index[card]
        return tuple(first + k * self.pack_size for k in range(self.packs))

    def allocate(self, card: Card, used: int) -> int:
        """The bit of the lowest copy of ``card`` not in ``used``; :class:`CardError` when every
        copy is already used (a card named more often than the packs hold it)."""
        for i in self.copies(card):
            if not used >> i & 1:
                return 1 << i
        times = {1: "once", 2: "twice"}.get(self.packs, f"{self.packs} times")
        raise CardError(f"{card} is placed or named more often than the deck holds it "
                        f"({times}{' with ' + str(self.packs) + ' packs' if self.packs > 1 else ''})")

    def __len__(self) -> int:
        return len(self.cards)

    def index(self, card: Card) -> int:
        return self._index[card]

    def __contains__(self, card: object) -> bool:
        return card in self._index

    def parse(self, text: str) -> Card:
        """``'10d'``, ``'TD'``, ``'as'`` -> a card of this deck; :class:`CardError` otherwise."""
        m = _CARD.match(text.strip())
        if not m:
            raise CardError(f"{text!r} is not a card: write RANK SUIT with no space, e.g. "
                            f"{self.cards[0]} or {self.cards[-1]}")
        rank, suit = m.group(1).upper(), m.group(2).upper()
        if rank == "T":
            rank = "10"
        if rank not in self.ranks:
            raise CardError(f"{text!r}: no rank {rank} in this deck (ranks: {' '.join(self.ranks)})")
        if suit not in self.suits:
            raise CardError(f"{text!r}: no suit {suit} in this deck (suits: {' '.join(self.suits)})")
        return Card(rank, suit)

    def mask(self, cards: "list[Card] | tuple[Card, ...] | set[Card] | frozenset[Card]", used: int = 0) -> int:
        """The cards as a mask. With several packs a card named twice is its two copies (the
        lowest ones not in ``used``); with one pack a repeated card is the one card, as before."""
        m = 0
        if self.packs == 1:
            for c in cards:
                m |= 1 << self._index[c]
            return m
        for c in cards:
            m |= self.allocate(c, used | m)
        return m

    def cards_of(self, mask: int) -> tuple[Card, ...]:
        """The cards in a bitmask, in deck order."""
        out = []
        while mask:
            low = mask & -mask
            out.append(self.cards[low.bit_length() - 1])
            mask ^= low
        return tuple(out)

    @cached_property
    def view(self) -> DeckView:
        """What the selector language needs to know of this deck."""
        values: dict[str, tuple[int, ...]] = {}
        for i, c in enumerate(self.cards):
            values.setdefault(c.rank, tuple(sorted(set(self.table_values[i]) | set(self.hand_values[i]))))
        return DeckView(self.ranks, self.suits, dict(zip(self.suits, self.suit_colours)), values)

    def max_value(self) -> int:
        return max((v for vs in self.hand_values for v in vs), default=0)
