"""A second, clean-room implementation of African Casino's legal turns.

Written from the rule texts alone (not from the project's engine), to be compared with the engine on
random positions. It imports nothing from ``cassino``.

Sources
-------
[Kh]  the Khasino rules document v1.1 (A. Hlongwane, 2023), "Khasino.Rules.en (1).pdf" in
      github.com/Simon-Mufara/sa_casino. Its play section (actions 1-5, "A base is", "Special rules for
      partnership play") is pagat's Swazi Casino text, with South African additions ("The rule for taking
      other people's cards", "Important Exception", the 2-player round-1 discard ban, one build a player).
[P]   pagat.com "African Casino": only its introduction and "Players, Cards and Deal" could be read here
      ("pip cards from 2 to 10 have their face values, jacks count as 11, queens 12, kings 13 and aces 1
      or 14"; "the top card from your pile of captures can be taken by your opponents to add to their
      builds"). Everything about play is cited from [Kh].
[V]   a reading of the variant files variants/swazi-casino.yaml / south-african-casino.yaml, followed where
      the texts are silent; each use says so.

Position
--------
See ``legal_moves``. ``game`` is "swazi" (52 cards, A 1 or 14, J 11, Q 12, K 13) or "south-african"
(40 cards A-10, A is 1). A build is ``{"cards", "value", "owner", "compound"}``; a pile is
``{"seats", "cards": [bottom, ..., top]}``.

What is listed
--------------
Turns of exactly one action with a hand card -- a capture (``9C capture [5D 4S] 6H``), a build, new,
augmented or changed (``3H build 8 on 5S``), a discard (``KD trail``) -- and a discard beside ONE build of
cards already in play (``6D trail build 14 on 2S QH``, ``AC trail build 8 on 4S 4C 8D``, ``9S trail build 6
on 6S 6D`` with 6D an opponent's pile top). A build or capture "action" here includes the
augmentations without a hand card that make up the one build it builds or takes (that is how a pile card
ever reaches a capture, [Kh] 1 "indirectly by first using them to augment a build").

Rules implemented (R-numbers are used in the code's comments)
--------------------------------------------------------------
R1  Values. [P] "pip cards from 2 to 10 have their face values, jacks count as 11, queens 12, kings 13 and
    aces 1 or 14"; [Kh] "a 40 card pack, obtained by removing all the pictures" (A-10, A is 1 in South African
    Casino). A set of two or more cards is worth the sum with aces as 1 (an ace as 14 plus any card is past
    every value); a card alone is worth any of its values.
R2  Capture. [Kh] 1 "A capture can only be made by playing a card from your hand"; "If the card you play
    matches the sum of several single cards in the layout, you capture that set of cards"; "If the card you
    play matches the value of a build, you capture that build (no matter who owns it)"; "If you play a card
    that matches several separate cards, sets or builds you can capture them all"; "you can only capture a
    build by matching its value - you cannot add the value of another build or card to create a match".
    Any non-empty choice of such groups is listed: "fail to take all the cards you are entitled to capture,
    any opponent can insist" -- insisting is left to the players ([V] trail.with_build reading).
R3  Pile cards only augment. [Kh] 1 "you cannot capture cards directly from the top of an opponent's capture
    pile (though you may be able to do so indirectly by first using them to augment a build)"; "the top card
    of an opponent's capture pile can only be used to augment a card or build. So before you can make use
    of the card, you must already have a "base" in the layout"; 4 "You are not allowed to use a card from
    the top of your own (or partner's) capture pile". So every pile card sits in a set worth the build's
    value that is added to a base; the base itself holds no pile card ([Kh] 2 "You are not allowed to use
    cards from any capture pile when creating a single build").
R4  A base. [Kh] "A base is a build that belongs to you or your partner, or a single card in the layout which
    does not match the value of any existing build, and which either you could capture by matching it from
    your hand, or you can prove your partner can capture it"; 4 "It is possible to form a build and then
    augment it in the same turn" and "You can take cards from your opponents when you are building or about
    to chow your build ... You must combine the cards on the floor such that they add up to 10 or use the
    card on the floor, add yours so they can add up to 10": a base is a set of layout cards (with or without
    the played card) worth the value, or a build of that value being augmented (an opponent's only when it
    is captured in the same turn, [Kh] 4 "any augmentation of an opponent's build has to be done using cards
    from the layout or from the top of your opponents' capture pile(s)"). In a capture the base is a set of
    layout cards or a captured build ([V] swazi capture.pile_cards reading "a capture's base is a set of the
    layout alone"); a new base of layout cards may not stand beside another build of its value (R9).
R5  Pile order and depth. [Kh] 4 "Only the card on top of your opponents' capture pile at any time is
    available to augment a build. After it has been taken the card underneath it becomes available for use"
    and its example (9 and 2 in the layout, pile 5 over 2: the 5 and 2 may not go with the table 2; with 9,
    7, 4 in the layout, 4+5 then 7+2 is legal); "If there is another 10 beneath the one you took you can
    take it as well". Reading (the [V] south-african capture.pile_cards reading says the same): sets are
    added one after another; a set may hold at most one card of each pile, that pile's current top; the card
    under it is free for a later set. A turn may go as deep as such sets reach. A set may hold cards of
    several piles ([Kh] "the opponent had a 3 on top and another opponent has a 7 on top ... start with the
    big card(7) then move to the small card(3)"); the rest of that "Important Exception" ("you can't go back
    to where you just took the 3, you must start elsewhere first", "pick the big card first") is read as the
    order of laying the cards, which changes no legal turn.
R6  New build. [Kh] 2 "A single build can be formed from single cards already in the layout, with or without
    adding a card from your hand"; "You are only allowed to form a build if you have a card in your hand
    which can later capture that build"; 4 "If there is a single card in the layout which you can match with
    a card from your hand, you can make this card into an augmented build by adding further cards to it,
    from the layout, from your hand or from the top of the opponents' capture pile(s)". The played card goes
    into one set worth the value (alone, or with layout and pile cards); more sets of layout and pile cards
    may be added.
R7  Augmenting. [Kh] 4 "You can augment a build that is owned by yourself or your partner by adding further
    single cards or sets of cards of the same value. When augmenting a build you can use single cards from
    the layout, one card from your hand, and the top card of the opponents' capture pile(s)"; "You can
    augment a build owned by your opponent only if you also capture that build in the same turn" (so no
    build move touches an opponent's build of the build's value).
R8  Changing a value (raise). [Kh] 3 "You can change the value of a single build only if ... the build is
    currently owned by an opponent; you change the value by adding a single card from your hand; you have a
    card in your hand that matches the new value of the build"; "You would not be allowed to do this if the
    9-build had been formed by yourself or your partner"; "It is not possible to change the value of an
    augmented build (i.e a compound build)". The raised build is then yours and may be augmented further in
    the turn ([Kh] "As long as no card from your hand is involved, you can perform as many of actions 2 and
    4 as you wish in any order, before or after playing from your hand").
R9  One build a value. [Kh] "There cannot be two builds of the same capture value on the table at the same
    time. That means that if your opponent has (for example) a build of 9, you are not allowed to make a
    9-build of your own alongside it. You can make a second build of a value which your side already owns,
    but you must then combine them into a single augmented build." A build move of value V therefore takes
    in every build of V your side owns and is impossible while an opponent owns one.
R10 No combining or breaking. [Kh] 5 "It is never possible to break up builds, nor to combine two builds to
    form a build of higher value." Builds are taken whole, and a build of another value joins a build move
    only as the raised build of R8.
R11 Discard. [Kh] 5 "You are always free, for the play from your hand, to play a card that does not capture
    anything"; "There is no obligation (as in standard Anglo-American Casino) to make a capture when you own
    a build. The only time the Discard move is prohibited is when you are playing a 2 hands game and you
    have built a card and it is the first round" (action 5: "you can't do this if you have built a card and
    you haven't captured it when it's a 2 player game round 1").
R12 Abandoning. [Kh] 5 "You may not, however, abandon a build that you own by using up all of the cards that
    you could have captured it with for other purposes." After any turn, each build you still own that a
    card of your hand could capture before the turn must still have such a card in your hand. This holds
    for EVERY build whose ``owner`` is the mover, whatever ``partner_declared`` holds: the partner's proof
    (R14) is given for creating a build "which will be owned by your partner", not for giving up the holding
    of one's own, and a build of the mover's that he adds to stays his (so ``7C trail`` with the last 7 of
    an own 7-build is refused even when the partner declared 7).
R13 Discard beside a layout build. [Kh] "Actions 2 and 4 can involve playing a card from your hand, or can be
    performed using only cards that are already in play. As long as no card from your hand is involved, you
    can perform as many of actions 2 and 4 as you wish in any order, before or after playing from your hand";
    2 "there is a 5, a 3 and a 2 in the layout and you have a 10 in your hand; you can combine the 5, 3 and 2
    into a build of 10"; 4 "If there is a single card in the layout which you can match with a card from
    your hand, you can make this card into an augmented build by adding further cards to it, from the
    layout, from your hand or from the top of the opponents' capture pile(s)"; 4 "It is possible to form a
    build and then augment it in the same turn". ONE build of cards already in play is listed beside a
    discard ([V] trail.with_build reading "one build of cards already in play ... a layout card or set of
    layout cards you could take with a card of your hand, to which further layout sets and opponents' pile
    tops of its value may be added"): a base of layout cards (a single card of the value, or sets worth
    it), then further sets of layout cards and sets holding opponents' pile tops, laid by R3 and R5 (a
    pile card only augments, one card of a pile a set, the card beneath in a later set), two cards or more
    in all (D11). It obeys R6's holding rule (a card of the value kept in hand, or R14), R9 (no build of
    its value may be on the table: an own one would have to be combined, and the reading adds to no build
    already on the table beside a discard), R11, R12 and R15. The played card never joins it (a build with the
    played card is a build turn: R6, D3).
R14 Partnerships. [Kh] "If your partner owns a build whose value is then changed by an opponent, or which is
    captured by someone other than your partner ... As long as your partner does not play a card of this
    rank, you are allowed to create a new single or compound build of this rank, which will be owned by
    your partner." The values in ``partner_declared`` may be built without a card of them in hand (a new
    build, which is the partner's, or an augmentation of the partner's build): such a build needs no card
    of yours under R6. The proof waives nothing for a build the mover owns: R12 holds for it, also when
    the turn adds to it ([Kh] 5 "You may not, however, abandon a build that you own").
R15 South African one build a player. [Kh] 2 "to form a new build of your own; that is if you don't have
    another one already"; "this is the only circumstance where a player can have two builds" (Shiya). In
    South African Casino a player who owns a build may not form a new build of another value nor take one
    over by raising ([V] one_per_player reading: "may neither start nor take over (by raising) a build of
    another value").
R16 South African maximum. [Kh] "a single build of 10 (which is a maximum that can be built)"; with cards
    A-10 no build above 10 can be held.

Readings chosen where the texts are silent or unclear
-----------------------------------------------------
D1  Pile depth: as deep as R5's sets reach, one card of a pile per set, each set after the set that took
    the card above it.
D2  One ace does not serve a build of 1 and a build of 14 at once: a player must hold a card for each of his
    builds "which can later capture that build", and capturing one with the only ace would "abandon" the
    other (R12); the ace counts one value in a play ([V] royal deck.ranks reading). So making (or keeping,
    R12) both needs two aces. Two aces in the layout (or an ace and the played ace) may make a build of 1 or
    of 14, a single ace being worth either.
D3  The played card alone as a base (``9C build 9 on 5H(pile) 4S``): no, in both games. "The card must be
    built on the floor first before you can start going to other people's cards ... combine the cards on
    the floor ... or use the card on the floor, add yours" needs a floor card in the base, and "before you
    can make use of the card, you must already have a 'base' in the layout". (This reference first read
    Swazi yes, as a discard, action 5, then augmented, action 4; but a card discarded is in no later build
    of its turn, the Swazi file's build.free_actions reading, and a second reading of [Kh] by an audit
    found the two files reading one document two ways: the Swazi file now reads it as South African.)
D4  An opponent's build may not be raised with a pile card while the hand card forms another set: a value is
    changed only "by adding a single card from your hand" (R8) and a pile card "can only be used to augment"
    (R3).
D5  Raising an opponent's single build to a value your side already owns is allowed and merges the two
    (R9 "You can make a second build of a value which your side already owns, but you must then combine
    them"; [Kh]'s garbled example right after it, "you own a 9-build and an opponent has created a single
    build of 6 (3+3). You can argument his card"). In South African Casino it is allowed too (you still own
    one build).
D6  A 2-player build owner in the first round may not discard, plainly or beside a layout build (R11: "The
    only time the Discard move is prohibited ..."; a discard beside a build is still a discard). "You have
    built a card" is read as owning a build when the turn starts, so a player who owns none may discard
    beside a new layout build. ``stock`` is not used: the ban follows ``first_round``.
D7  A raise needs the new value's card in your own hand even when your partner declared it ("you have a card
    in your hand that matches the new value of the build"); R14 covers creating and augmenting only.
D8  Augmenting a build your partner owns needs no card of its value in your hand: [Kh] 4 allows it without
    that condition and the partner, its owner, is bound to hold one (R12). The values of the partner's builds
    are therefore treated like ``partner_declared`` values.
D9  R15 counts builds you own: augmenting a build of your partner's, or building for your partner's declared
    value (a build "which will be owned by your partner"), is allowed while you own another build. A build
    formed only for the moment of a capture (a base augmented and taken in the same turn) does not count.
D10 A capture with pile cards whose base is a layout set needs no build of the capture's value on the table
    except captured ones (R9: the base would otherwise be a second build of that value).
D11 A build needs at least one card besides the played card; a build beside a discard uses two or more
    cards in play (a single card is no build), at least one of them in the layout (its base, R3/R4): a
    layout card with another of its value, a layout set, or a layout card with an opponent's pile top.

Compared with the variant files' readings
-----------------------------------------
Agree: capture.pile_cards (both: a base of layout cards, one card of a pile a set -- D1, D3); trail.with_build (one build of
cards in play beside a discard, its base in the layout, pile tops added, insisting left to the players --
R2, R13); one_per_player (R15); the royal
deck.ranks reading (an ace counts one value in a play -- R1, D2); the 2-player round-1 discard ban, which
the Swazi file carries over from [Kh] 5 ([P]'s own 2-player text was not readable here either -- D6).
May differ:
* build.for_partner: the file makes the builder the owner of a build made for the partner's value ("the
  engine makes you its owner"); [Kh] says it "will be owned by your partner". This file follows [Kh] where
  it matters: in South African Casino such a build is allowed while you own another build (D9). The file
  also lets a proven value be "added to without a card of it in your hand; such a build is your partner's to
  take". This file allows that for the partner's build (D8) and for a new one, but not for a build the mover
  owns: adding his last card of its value to it gives up a build he owns (R12, [Kh] 5 "You may not, however,
  abandon a build that you own by using up all of the cards that you could have captured it with for other
  purposes"), and [Kh] gives the partner's proof only to "create a new single or compound build".
* raise_with_table_cards (false, inherited from standard.yaml): [Kh] 3 changes a value by "a single card
  from your hand", which this file follows, but once raised the build is yours and may be augmented in the
  same turn with layout and pile sets of the new value (R8, "before or after playing from your hand"), so
  ``3H build 9 on [3C 3D] 5S 4D`` is listed. If the engine refuses it, the difference is that reading.
* Raising to a value your side owns (D5), augmenting a partner's build without its card (D8), and a raise
  needing the card in your own hand even for a partner-declared value (D7) are not in the files' readings.
"""

from __future__ import annotations

from dataclasses import dataclass
from itertools import combinations
from typing import Any

__all__ = ["legal_moves"]

_SUITS = frozenset("SHDC")
_PIPS: dict[str, int] = {str(n): n for n in range(2, 11)}


@dataclass(frozen=True)
class _Rules:
    """What differs between the two games."""

    values: dict[str, tuple[int, ...]]
    max_value: int
    ace_values: frozenset[int]
    one_per_player: bool  # R15
    played_card_base: bool  # D3


# R1 [P] "pip cards from 2 to 10 have their face values, jacks count as 11, queens 12, kings 13 and aces 1 or 14"
_SWAZI = _Rules(
    values={"A": (1, 14), **{r: (v,) for r, v in _PIPS.items()}, "J": (11,), "Q": (12,), "K": (13,)},
    max_value=14,
    ace_values=frozenset({1, 14}),
    one_per_player=False,
    played_card_base=False,   # D3 (True until the Swazi file's capture.pile_base reading changed)
)
# R1 [Kh] "a 40 card pack, obtained by removing all the pictures"; R16 "a single build of 10 (which is a maximum)"
_SOUTH_AFRICAN = _Rules(
    values={"A": (1,), **{r: (v,) for r, v in _PIPS.items()}},
    max_value=10,
    ace_values=frozenset({1}),
    one_per_player=True,
    played_card_base=False,
)
_GAMES = {"swazi": _SWAZI, "south-african": _SOUTH_AFRICAN}


@dataclass(frozen=True)
class _Build:
    cards: tuple[str, ...]
    value: int
    owner: int
    compound: bool

    def text(self) -> str:
        return "[" + " ".join(sorted(self.cards)) + "]"


# A pile state: (loose cards used in pile sets as a bit mask, cards taken from each pile, played card used)
_State = tuple[int, tuple[int, ...], bool]


class _Turn:
    """One position, with the caches its enumeration shares between hand cards."""

    def __init__(self, position: dict[str, Any]) -> None:
        game = position.get("game")
        if game not in _GAMES:
            raise ValueError(f"position 'game': {game!r} is not one of {sorted(_GAMES)}")
        self.rules = _GAMES[game]
        self.players = _int(position, "players", 2, 4)
        self.partners = bool(position.get("partners", False))
        if self.partners and self.players != 4:
            raise ValueError("position 'partners': only four players play as partners")
        self.seat = _int(position, "seat", 0, self.players - 1)
        self.partner = (self.seat + 2) % 4 if self.partners else None
        self._values: dict[str, tuple[int, ...]] = {}
        self.hand = [self._card(c, "hand") for c in _list(position, "hand")]
        self.loose = [self._card(c, "table") for c in _list(position, "table")]
        self.builds: list[_Build] = []
        for i, b in enumerate(_list(position, "builds")):
            if not isinstance(b, dict):
                raise ValueError(f"position 'builds[{i}]': expected a mapping, got {b!r}")
            cards = tuple(self._card(c, f"builds[{i}]") for c in _list(b, "cards"))
            owner = _int(b, "owner", 0, self.players - 1)
            value = _int(b, "value", 1, self.rules.max_value)
            self.builds.append(_Build(cards, value, owner, bool(b.get("compound", False))))
        # R3 [Kh] 4 "You are not allowed to use a card from the top of your own (or partner's) capture pile"
        self.piles: list[list[str]] = []  # opponents' piles, top first
        for i, p in enumerate(_list(position, "piles")):
            if not isinstance(p, dict):
                raise ValueError(f"position 'piles[{i}]': expected a mapping, got {p!r}")
            seats = _list(p, "seats")
            cards = [self._card(c, f"piles[{i}]") for c in _list(p, "cards")]
            if self.seat not in seats and (self.partner is None or self.partner not in seats) and cards:
                self.piles.append(cards[::-1])
        self.first_round = bool(position.get("first_round", False))
        declared = _list(position, "partner_declared") if self.partners else []
        self.declared = frozenset(int(v) for v in declared)
        # R14 and D8: values the partner is proven to hold
        self.partner_known = self.declared | frozenset(
            b.value for b in self.builds if self.partner is not None and b.owner == self.partner
        )
        self.mine = [b for b in self.builds if b.owner == self.seat]
        # R11 / D6 [Kh] 5 "The only time the Discard move is prohibited is when you are playing a 2 hands game
        # and you have built a card and it is the first round"
        self.discard_allowed = not (self.players == 2 and self.first_round and self.mine)
        self.moves: set[str] = set()
        self._loose_tables()
        self._plists: dict[int, list[int]] = {}
        self._pile_cache: dict[tuple[int, int | None], set[_State]] = {}
        self._trail_cache: dict[int, list[str]] = {}

    # ---- cards -------------------------------------------------------------------------------------

    def _card(self, name: Any, where: str) -> str:
        if not isinstance(name, str) or len(name) < 2 or name[-1].upper() not in _SUITS:
            raise ValueError(f"position '{where}': {name!r} is not a card such as '10D' or 'AS'")
        rank = name[:-1].upper()
        rank = "10" if rank == "T" else rank
        if rank not in self.rules.values:
            raise ValueError(f"position '{where}': {name!r}: no rank {rank!r} in this game's deck")
        self._values[name] = self.rules.values[rank]
        return name

    def vals(self, card: str) -> tuple[int, ...]:
        return self._values[card]

    def low(self, card: str) -> int:
        return self._values[card][0]

    def is_ace(self, card: str) -> bool:
        return self._values[card][0] == 1

    def mine_side(self, owner: int) -> bool:
        return owner == self.seat or owner == self.partner

    # ---- layout sets ---------------------------------------------------------------------------------

    def _loose_tables(self) -> None:
        n = len(self.loose)
        self.n = n
        sums = [0] * (1 << n)
        by_sum: dict[int, list[int]] = {}
        for mask in range(1, 1 << n):
            low = mask & -mask
            sums[mask] = sums[mask ^ low] + self.low(self.loose[low.bit_length() - 1])
            if sums[mask] <= self.rules.max_value:
                by_sum.setdefault(sums[mask], []).append(mask)
        self.sums = sums
        self.by_sum = by_sum  # R1: a set's worth by low values (any size, used with other cards)

    def _ok_sets(self, value: int) -> list[int]:
        """Sets of layout cards alone worth `value` (R1)."""
        out = [1 << i for i, c in enumerate(self.loose) if value in self.vals(c)]
        out += [m for m in self.by_sum.get(value, ()) if m.bit_count() >= 2]
        return out

    def plist(self, value: int) -> list[int]:
        """Every mask of layout cards that splits into sets worth `value` (0 included)."""
        cached = self._plists.get(value)
        if cached is not None:
            return cached
        by_low: dict[int, list[int]] = {}
        for t in self._ok_sets(value):
            by_low.setdefault(t & -t, []).append(t)
        ok = bytearray(1 << self.n)
        ok[0] = 1
        for mask in range(1, 1 << self.n):
            for t in by_low.get(mask & -mask, ()):
                if t & mask == t and ok[mask ^ t]:
                    ok[mask] = 1
                    break
        result = [m for m in range(1 << self.n) if ok[m]]
        self._plists[value] = result
        return result

    def with_played(self, value: int, h: str) -> set[int]:
        """Layout masks that split into sets worth `value` with `h` in exactly one of them (R6, R7)."""
        h_sets = [0] if value in self.vals(h) else []
        h_sets += self.by_sum.get(value - self.low(h), []) if value > self.low(h) else []
        out: set[int] = set()
        for t in h_sets:
            for q in self.plist(value):
                if not t & q:
                    out.add(t | q)
        return out

    # ---- pile sets (R3, R5) ----------------------------------------------------------------------------

    def pile_states(self, value: int, h: str | None) -> set[_State]:
        """States reachable by adding, one after another, sets worth `value` that hold pile cards.

        Each set holds the current top of one or more opponents' piles (at most one card a pile), any
        layout cards not yet used, and (when `h` is given, once) the played card.
        """
        key = (value, None if h is None else self.low(h))
        cached = self._pile_cache.get(key)
        if cached is not None:
            return cached
        k = len(self.piles)
        start: _State = (0, (0,) * k, False)
        seen = {start}
        stack = [start]
        while stack:
            mask, depths, used = stack.pop()
            open_piles = [p for p in range(k) if depths[p] < len(self.piles[p])]
            for r in range(1, len(open_piles) + 1):
                for combo in combinations(open_piles, r):
                    tops = [self.piles[p][depths[p]] for p in combo]
                    total = 0
                    for c in tops:
                        total += self._values[c][0]
                    options = [(False, total, r)]
                    if h is not None and not used:
                        options.append((True, total + self.low(h), r + 1))
                    for use_h, s, count in options:
                        extras: list[int] = []
                        if (count == 1 and value in self.vals(tops[0])) or (count >= 2 and s == value):
                            extras.append(0)
                        if value > s:
                            extras.extend(t for t in self.by_sum.get(value - s, ()) if not t & mask)
                        if not extras:
                            continue
                        nd = list(depths)
                        for p in combo:
                            nd[p] += 1
                        ndt = tuple(nd)
                        for t in extras:
                            st = (mask | t, ndt, used or use_h)
                            if st not in seen:
                                seen.add(st)
                                stack.append(st)
        self._pile_cache[key] = seen
        return seen

    def pile_cards(self, depths: tuple[int, ...]) -> list[str]:
        return [c for p, d in enumerate(depths) for c in self.piles[p][:d]]

    def loose_cards(self, mask: int) -> list[str]:
        return [c for i, c in enumerate(self.loose) if mask >> i & 1]

    # ---- holding (R6, R8, R12, R14, D2) ---------------------------------------------------------------

    def hand_ok(
        self, after: list[str], kept: list[int], new_value: int | None, strict: bool = False, own_new: bool = False
    ) -> bool:
        """Whether `after` (the hand after the turn) still answers for the builds the mover owns.

        `kept`: values of the mover's builds left on the table besides the one the turn builds;
        `new_value`: the value of the build the turn builds (None if none); `strict`: a raise, whose new
        value must be in the mover's own hand (R8, D7); `own_new`: the turn adds to a build the mover owns,
        which stays his (R12 holds for it whatever the partner is proven to hold).
        """
        aces_before = sum(1 for c in self.hand if self.is_ace(c))
        aces_after = sum(1 for c in after if self.is_ace(c))
        # R14, D8: the partner's proof waives the holding rule for the build the turn builds
        waived = False
        if new_value is not None and not strict and new_value in self.partner_known:
            waived = True
            if own_new:
                kept = kept + [new_value]  # R12: it stays the mover's build, not the partner's
        ace_builds = 0
        for w in kept:
            # R12 for every build the mover owns: the partner's proof (R14) does not let him abandon his own
            if w in self.rules.ace_values:
                ace_builds += 1
            elif self._holds(self.hand, w) and not self._holds(after, w):
                return False  # R12 "abandon a build that you own by using up all of the cards"
        # D2: one ace answers for one build of 1 or 14
        need = min(aces_before, ace_builds)
        if new_value is not None and not waived:
            # R6 "You are only allowed to form a build if you have a card in your hand which can later capture"
            if new_value in self.rules.ace_values:
                need += 1
            elif not self._holds(after, new_value):
                return False
        return aces_after >= need

    def _holds(self, cards: list[str], value: int) -> bool:
        return any(not self.is_ace(c) and self.low(c) == value for c in cards)

    # ---- moves ----------------------------------------------------------------------------------------

    def emit(self, text: str) -> None:
        self.moves.add(text)

    def play(self) -> set[str]:
        for i, h in enumerate(self.hand):
            after = self.hand[:i] + self.hand[i + 1 :]
            self.captures(h, after)
            self.build_moves(h, after)
            self.discards(h, after)
        return self.moves

    def captures(self, h: str, after: list[str]) -> None:
        for v in self.vals(h):  # R1: an ace is played as 1 or as 14
            same = [b for b in self.builds if b.value == v]  # R2 "matches the value of a build"
            states = self.pile_states(v, None) if self.piles else {(0, (), False)}
            plist = self.plist(v)
            for r in range(len(same) + 1):
                for taken in combinations(same, r):
                    kept = [b.value for b in self.mine if b not in taken]
                    if not self.hand_ok(after, kept, None):
                        continue  # R12
                    found: set[tuple[int, tuple[int, ...]]] = set()
                    for pl, depths, _ in states:
                        from_piles = any(depths)
                        # R3/R4: pile sets need a base: a captured build, or a set of layout cards (D10:
                        # with no build of the value left beside it)
                        for f in plist:
                            if f & pl:
                                continue
                            if from_piles and not taken and (f == 0 or same):
                                continue
                            if not (taken or f or from_piles):
                                continue
                            found.add((f | pl, depths))
                    head = [b.text() for b in taken]
                    for mask, depths in found:
                        items = head + self.loose_cards(mask) + self.pile_cards(depths)
                        self.emit(f"{h} capture " + " ".join(sorted(items)))

    def build_moves(self, h: str, after: list[str]) -> None:
        rules = self.rules
        for value in range(1, rules.max_value + 1):
            # R7, R9: no build while an opponent owns a build of this value
            if any(b.value == value and not self.mine_side(b.owner) for b in self.builds):
                continue
            own = [b for b in self.builds if b.value == value]  # R9: all of the side's, combined
            others = [b.value for b in self.mine if b.value != value]
            # R15 / D9 (South African): no new build, no take-over, beside another build of your own
            lone = rules.one_per_player and bool(others)
            # R12: a build the mover owns stays his when added to; the partner's proof (R14) waives the holding
            # rule only for a build that is the partner's (a new one for a declared value, or the partner's own)
            own_new = any(b.owner == self.seat for b in own)
            new_ok = self.hand_ok(after, others, value, own_new=own_new) and not (
                lone and not own and value not in self.declared
            )
            # R8: raise an opponent's single build with the played card alone
            raises = [
                b
                for b in self.builds
                if not self.mine_side(b.owner) and not b.compound and b.value + self.low(h) == value
            ]
            raise_ok = bool(raises) and not lone and self.hand_ok(after, others, value, strict=True)
            if not new_ok and not raise_ok:
                continue
            states = self.pile_states(value, h) if self.piles else {(0, (), False)}
            plist = self.plist(value)
            head = f"{h} build {value} on "
            own_items = [b.text() for b in own]
            found: set[tuple[int, tuple[int, ...], _Build | None]] = set()
            if new_ok:
                # D3: the played card alone as the only base of pile sets
                alone_base = rules.played_card_base and self.discard_allowed
                with_h = self.with_played(value, h)
                for pl, depths, used in states:
                    from_piles = any(depths)
                    for f in plist if used else with_h:
                        if f & pl:
                            continue
                        if from_piles and not own and f == 0 and (used or not alone_base):
                            continue  # R3/R4: no base for the pile cards
                        if not (f or from_piles or own):
                            continue  # D11
                        found.add((f | pl, depths, None))
            if raise_ok:
                for b in raises:
                    for pl, depths, used in states:
                        if used:
                            continue  # D4: the played card raises alone
                        for f in plist:
                            if f & pl:
                                continue
                            found.add((f | pl, depths, b))
            for mask, depths, raised in found:
                items = own_items + ([raised.text()] if raised else []) + self.loose_cards(mask)
                items += self.pile_cards(depths)
                self.emit(head + " ".join(sorted(items)))

    def discards(self, h: str, after: list[str]) -> None:
        if not self.discard_allowed:  # R11, D6
            return
        kept = [b.value for b in self.mine]
        if self.hand_ok(after, kept, None):  # R12
            self.emit(f"{h} trail")
        # R13: beside ONE build of cards in play only (D11)
        for value in range(1, self.rules.max_value + 1):
            if any(b.value == value for b in self.builds):
                continue  # R9 (an own build would have to be combined)
            if self.rules.one_per_player and self.mine and value not in self.declared:
                continue  # R15 / D9
            if not self.hand_ok(after, kept, value):
                continue  # R6, R12
            for cards in self.trail_builds(value):
                self.emit(f"{h} trail build {value} on {cards}")

    def trail_builds(self, value: int) -> list[str]:
        """The cards of every build of `value` made of cards in play only (R13, D11), sorted and joined.

        A base of layout cards (a single card of the value or sets worth it, R4), then further sets of
        layout cards and sets holding opponents' pile tops (R3, R5), two cards or more in all.
        """
        cached = self._trail_cache.get(value)
        if cached is not None:
            return cached
        found: set[str] = set()
        plist = self.plist(value)
        for pl, depths, _ in self.pile_states(value, None):
            n_pile = sum(depths)
            for f in plist:
                if not f or f & pl:
                    continue  # R3/R4: the pile sets need a base of layout cards, which no pile set uses
                mask = f | pl
                if mask.bit_count() + n_pile < 2:
                    continue  # D11: a single card is no build
                found.add(" ".join(sorted(self.loose_cards(mask) + self.pile_cards(depths))))
        result = sorted(found)
        self._trail_cache[value] = result
        return result


def _list(data: dict[str, Any], key: str) -> list[Any]:
    value = data.get(key, [])
    if not isinstance(value, list):
        raise ValueError(f"position {key!r}: expected a list, got {value!r}")
    return value


def _int(data: dict[str, Any], key: str, lo: int, hi: int) -> int:
    value = data.get(key)
    if isinstance(value, bool) or not isinstance(value, int) or not lo <= value <= hi:
        raise ValueError(f"position {key!r}: expected a whole number from {lo} to {hi}, got {value!r}")
    return value


def legal_moves(position: dict[str, Any]) -> set[str]:
    """Every legal turn for the player to move, in the project's move notation."""
    if not isinstance(position, dict):
        raise ValueError(f"position: expected a mapping, got {type(position).__name__}")
    return _Turn(position).play()
