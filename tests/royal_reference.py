"""A second, clean-room implementation of the legal plays of Royal Casino and its relatives.

Written from the rule texts alone (not from the project's engine, whose source was not read), to be
compared with the engine on random positions (``tests/reference_positions.py``,
``benchmarks/reference_compare.py``). It imports nothing from ``cassino``.

Variants: ``royal``, ``dominican``, ``dominican-soto`` (play is the same as ``dominican``: Soto changes only
the endgame scoring), ``tuxedo``, ``hungarian``, ``hungarian-ulmann``.

Sources
-------
000  John McLeod, "Casino" (pagat.com): the Anglo-American game that 002 says Royal Casino differs from
     "only in the use of the picture cards and Aces" ("The Play" rules 1-6).
001  R. F. Foster, Foster's Complete Hoyle (1897), "Cassino" and "ROYAL CASSINO".
002  John McLeod, "Royal Casino" (pagat.com): "Casino in the Dominican Republic" (restrictions 1-6),
     "Royal Casino in North America" (differences 1-5), "Tuxedo", "Hungarian Casino" (Kirchner; Ulmann 1-4).

Rules (R-numbers are cited in the code)
---------------------------------------
R1  Values. 002 N. America: "Jacks have a capture value of 11, Queens 12, Kings 13 and Aces 1 or 14 at the
    discretion of the player"; 001 ROYAL CASSINO "the three court cards, K Q J, have a pip value, and may be
    used in combining and building". Tuxedo: "numeral cards running from 1 to 10". Hungarian: the example
    "J, Q, A ... 11+12+1=24" (ace 1; the variant file reads it as 1 only).
R2  Capture. 000 rule 2: a card "can capture any numeral cards on the table which are of the same rank as
    the card played, and any sets of numeral cards which add up to the rank of the card played"; "each
    captured card can only be counted as belonging to one such set". 000 rule 4 "A build can be captured by
    playing a numeral card of the rank which was announced"; "While capturing a build, you can also capture
    any loose cards on the table that add up to the same number". 002 Dominican Capture: "It can capture
    individual cards of equal value ... and sets of cards whose values add up ... It can also capture
    complete builds whose value is equal". Any non-empty choice of disjoint such groups is a capture.
R3  Aces. 002 Dominican: "an Ace can capture other Aces as well as any build and/or group(s) of loose cards
    that equal 14 ... For example: An Ace can capture an 8, 5, and A on the layout"; N. America "an Ace can
    capture a King and an Ace, counting the capturing Ace as 14 and the captured Ace as 1". The played ace
    counts one value (1 or 14) in a play; a loose ace alone matches an ace; inside a set an ace counts 1.
R4  Trailing (royal, tuxedo). 000 rule 6 "You are allowed to trail a card even if that card could have made
    a capture"; "The only case in which trailing is not allowed is when there is a build on the table which
    you were the last player to add to"; 002 N. America 2 "the owner of a build is not allowed to trail";
    002 Dominican restriction 2 "The owner of a build is not allowed to trail."
R5  Dominican compulsory equal capture. 002 restriction 3: "It is not possible to trail when playing a card
    that has a capture value equal to any loose card on the table. If the played card matches any card on
    the table that is not part of a build, then the player either capture all loose cards that match the
    loose card or use the played card to create or extend a build. However it is not compulsory to capture
    sets of cards that add up to the value of the played card." Example 3.3: "both tens must be captured";
    3.1: with K on the table and a King played "the player could capture just the King". So in Dominican
    a capture by a card of value v takes every loose card of value v.
R6  Holding the build's card. 000 rule 3 "must hold a numeral card which can later make the capture";
    002 restriction 1 "A player who creates or adds to a build must hold a card in hand that is equal to the
    capture value of the build ... you cannot create or add to a build for your partner". After the play the
    hand keeps a card of the new build's value.
R7  Keeping it. 000 rule 4 "If there is a build on the table, and you were the last player to add a card to
    this build, you are not allowed to play so as to leave yourself with no card equal to the value of this
    build"; 002 restriction 1 "keep it until either the build is captured or another player takes it over".
    After any play, each build the mover owns that is still on the table and still his needs a card of its
    value in his hand.
R8  New build. 000 rule 3: "A build can be made out of any collection of numeral cards which can be
    captured by a single numeral card"; single build (cards adding to the value) or multiple build ("two
    or more cards or sets of cards, each of which equates to the capture value"); "it must include the card
    you just played". So the played card with one or more loose cards, split into groups worth the value.
R9  Adding to a build. 000 rule 5.2: "You may add to any build, single or multiple, by playing a card from
    your hand which, either alone or combined with other cards on the table which are not yet in builds,
    matches the existing capture number of the build"; Example: the 6 with the 3 onto a 9-build; 002
    restriction 6 "You can add further cards to a multiple build ... at least one of the added cards must
    be the card you played". Further loose groups worth the value may go in with it (D2).
R10 Raising. 000 rule 5.1: "You may add a card from your hand to a single build, increasing the capturing
    number ... At the same time you may incorporate additional cards from the table into the build, if
    they are equal to the new capturing number ... You can never use a card from the table to change the
    value of a single build"; "The capturing number of a multiple build can never be changed." Own builds:
    000 Example A and 001 ("there is no reason why a player should be denied a privilege which is freely
    granted to his adversary") allow it in royal and tuxedo; 002 restriction 5 forbids it in Dominican:
    "you are not allowed to increase the value of your own build in this way (though it is legal to
    increase the value of your partner's build in a partnership game)".
R11 Hungarian. 002: "a player may play number of cards in hand to take any card(s) or combination(s) of
    cards appearing on the table such that the total of the cards played is equal to the total value of
    each card or combination taken"; "a player who cannot or does not wish to capture can play a single
    card to the table"; "There is no building." Ulmann 1: "it is possible to play more than one card or
    disjoint set of cards from hand adding up to this value" (J, 7, 4 take a Jack).

Readings where the texts are silent or unclear (D-numbers)
----------------------------------------------------------
D1  A single build is one whose cards' values (aces 1) add up to its value; any other build is multiple
    (docs/scenarios.md says the same). Only single builds may be raised (R10).
D2  Adding to or raising a build may take in further loose groups worth the (new) value, single cards or
    sets (000 5.1 says "cards ... equal to the new capturing number", 5.2's example adds a set with the
    played card; the variant files' build.add_sets: true).
D3  A new build beside a build of the same value already on the table is listed as a separate build (the
    texts do not say it must be merged); one card of a value is enough to hold several builds of it.
D4  R5 allows any build move by a card that matches a loose card (the build need not take the equal card):
    "or use the played card to create or extend a build" (Example 3.4 is one such build).
D5  Dominican R5 and aces: an ace matches a loose ace whatever value it is played as.
D6  Hungarian trails one card at a time; several cards are played together only to capture. Kirchner's
    rule groups the played cards as one total; Ulmann's lets them form several sets each worth the value
    (the variant files: hand_cards combine total / groups).
D7  One card holds every build of mine it can take, one build at a time: one ace is enough for a build of 1
    and a build of 14 (000 rule 3 "must hold a numeral card which can later make the capture"; R7 is
    checked build by build). The engine reads it otherwise, as royal.yaml's deck.ranks reading declares ("no
    play needs one ace to count both"): see DECLARED. The other readings D1-D6 agree with the engine on every
    position compared.
D8  Royal with four in partnership: no building for a partner's card. 001's "In the four-handed game,
    partners may ... make builds which can be won by the card declared in the partner's hand" is 001's
    ordinary Cassino, which its ROYAL CASSINO changes "only" in the court cards' values; but 002 N. America
    ("differs from the ordinary game of Casino only in the use of the picture cards and Aces") and 000 rule 3
    ("must hold a numeral card which can later make the capture") are followed, as royal.yaml does
    (build.for_partner false, inherited from standard.yaml, whose comment says 001 differs).

Comparison (benchmarks/reference_compare.py --reference royal_reference --seeds 150): 462,615 positions of
every seating, 3,113 too large, 0 lossy, 19 disagreements, all D7. benchmarks/royal_synthetic.py
--positions 50000: 50,000 synthetic positions (builds of every owner, more aces), 5,673 disagreements, all D7.
"""

from __future__ import annotations

from itertools import combinations
from typing import Any

__all__ = ["VARIANTS", "DECLARED", "ENGINE_ERRORS", "legal_moves"]

VARIANTS = ("royal", "dominican", "dominican-soto", "tuxedo", "hungarian", "hungarian-ulmann")

_FRENCH = {"A": (1, 14), **{str(n): (n,) for n in range(2, 11)}, "J": (11,), "Q": (12,), "K": (13,)}
_FRENCH_ACE_ONE = {**_FRENCH, "A": (1,)}
_ROOK = {str(n): (n,) for n in range(1, 11)}

# variant -> (values, suits, compulsory equal capture (R5), raise own build (R10), hungarian mode)
_RULES: dict[str, tuple[dict[str, tuple[int, ...]], str, bool, bool, str | None]] = {
    "royal": (_FRENCH, "SHDC", False, True, None),
    "dominican": (_FRENCH, "SHDC", True, False, None),
    "dominican-soto": (_FRENCH, "SHDC", True, False, None),
    "tuxedo": (_ROOK, "BRGY", False, True, None),
    "hungarian": (_FRENCH_ACE_ONE, "SHDC", False, True, "total"),
    "hungarian-ulmann": (_FRENCH_ACE_ONE, "SHDC", False, True, "groups"),
}


class _Position:
    def __init__(self, variant: str, case: dict[str, Any]) -> None:
        if variant not in _RULES:
            raise ValueError(f"{variant!r} is not covered: {', '.join(VARIANTS)}")
        self.values, suits, self.compulsory, self.raise_own, self.hungarian = _RULES[variant]
        self.suits = suits
        self.seat = int(case.get("to_play", 0))
        self.hand: list[str] = [self.card(c) for c in case.get("hand", [])]
        self.loose: list[str] = [self.card(c) for c in case.get("table", [])]
        self.builds: list[tuple[tuple[str, ...], int, int]] = []
        for b in case.get("builds", []):
            cards = tuple(self.card(c) for c in b["cards"])
            self.builds.append((cards, int(b["value"]), int(b.get("owner", self.seat))))
        self.n = len(self.loose)
        self.max_value = max(max(v) for v in self.values.values())
        # sums of loose subsets, aces (and every card) at their low value inside a set (R3)
        self.sums = [0] * (1 << self.n)
        for m in range(1, 1 << self.n):
            low = m & -m
            self.sums[m] = self.sums[m ^ low] + self.low(self.loose[low.bit_length() - 1])
        self._parts: dict[int, list[int]] = {}
        self.moves: set[str] = set()

    # ---- cards
    def card(self, name: str) -> str:
        rank, suit = name[:-1].upper(), name[-1].upper()
        rank = "10" if rank == "T" else rank
        if rank not in self.values or suit not in self.suits:
            raise ValueError(f"{name!r} is not a card of this deck")
        return rank + suit

    def vals(self, c: str) -> tuple[int, ...]:
        return self.values[c[:-1]]

    def low(self, c: str) -> int:
        return self.values[c[:-1]][0]

    def has_value(self, cards: list[str], v: int) -> bool:
        return any(v in self.vals(c) for c in cards)

    def names(self, mask: int) -> list[str]:
        return [self.loose[i] for i in range(self.n) if mask >> i & 1]

    # ---- loose groups
    def groups(self, v: int) -> list[int]:
        """Loose groups worth v: a single card of value v, or two or more cards adding up to v (R2, R3)."""
        out = [1 << i for i, c in enumerate(self.loose) if v in self.vals(c)]
        out += [m for m in range(1, 1 << self.n) if m & (m - 1) and self.sums[m] == v]
        return out

    def parts(self, v: int) -> list[int]:
        """Every loose mask (0 included) that splits into disjoint groups worth v."""
        if v in self._parts:
            return self._parts[v]
        by_low: dict[int, list[int]] = {}
        for g in self.groups(v):
            by_low.setdefault(g & -g, []).append(g)
        ok = bytearray(1 << self.n)
        ok[0] = 1
        for m in range(1, 1 << self.n):
            for g in by_low.get(m & -m, ()):
                if g & m == g and ok[m ^ g]:
                    ok[m] = 1
                    break
        res = [m for m in range(1 << self.n) if ok[m]]
        self._parts[v] = res
        return res

    def sets_with(self, v: int, h: str) -> list[int]:
        """Loose masks S such that the played card h with S makes one group worth v (h alone: S = 0)."""
        out = [0] if v in self.vals(h) else []
        rest = v - self.low(h)
        if rest > 0:
            out += [m for m in range(1, 1 << self.n) if self.sums[m] == rest]
        return out

    # ---- obligations
    def mine(self) -> list[tuple[tuple[str, ...], int, int]]:
        return [b for b in self.builds if b[2] == self.seat]

    def keeps(self, after: list[str], left_mine: list[int]) -> bool:
        """R7: every build of mine still mine after the play has a card of its value in `after`."""
        return all(self.has_value(after, v) for v in left_mine)

    @staticmethod
    def btext(b: tuple[tuple[str, ...], int, int]) -> str:
        return "[" + " ".join(sorted(b[0])) + "]"

    # ---- plays
    def play(self) -> set[str]:
        if self.hungarian:
            self.hungarian_plays()
            return self.moves
        for i, h in enumerate(self.hand):
            after = self.hand[:i] + self.hand[i + 1:]
            self.captures(h, after)
            self.build_moves(h, after)
            self.trail(h)
        return self.moves

    def equal_mask(self, v: int) -> int:
        return sum(1 << i for i, c in enumerate(self.loose) if v in self.vals(c))

    def captures(self, h: str, after: list[str]) -> None:
        mine = self.mine()
        for v in self.vals(h):  # R3: the played ace counts 1 or 14
            eq = self.equal_mask(v) if self.compulsory else 0  # R5
            same = [b for b in self.builds if b[1] == v]
            for k in range(len(same) + 1):
                for taken in combinations(same, k):
                    left = [b[1] for b in mine if b not in taken]
                    if not self.keeps(after, left):  # R7
                        continue
                    bt = [self.btext(b) for b in taken]
                    for m in self.parts(v):
                        if m & eq != eq or (not m and not taken):
                            continue
                        self.moves.add(f"{h} capture " + " ".join(bt + self.names(m)))

    def build_moves(self, h: str, after: list[str]) -> None:
        mine = self.mine()
        for v in range(1, self.max_value + 1):
            if not self.has_value(after, v):  # R6
                continue
            with_h = self.sets_with(v, h)
            extra = self.parts(v)
            # R8: a new build, the played card with one or more loose cards
            left = [b[1] for b in mine]
            if self.keeps(after, left):  # R7
                found = set()
                for s in with_h:
                    for r in extra:
                        if not s & r and s | r:
                            found.add(s | r)
                for m in found:
                    self.moves.add(f"{h} build {v} on " + " ".join(self.names(m)))
            for b in self.builds:
                left = [x[1] for x in mine if x is not b]
                if not self.keeps(after, left):  # R7
                    continue
                single = sum(self.low(c) for c in b[0]) == b[1]  # D1
                masks: set[int] = set()
                if b[1] == v:
                    # R9: add the played card (alone or with a loose set) and loose groups (D2)
                    for s in with_h:
                        for r in extra:
                            if not s & r:
                                masks.add(s | r)
                elif single and b[1] + self.low(h) == v and (self.raise_own or b[2] != self.seat):
                    # R10: the played card alone changes a single build's value; loose groups of v (D2)
                    masks.update(extra)
                for m in masks:
                    self.moves.add(f"{h} build {v} on " + " ".join([self.btext(b)] + self.names(m)))

    def trail(self, h: str) -> None:
        if self.mine():  # R4
            return
        if self.compulsory and any(self.equal_mask(v) for v in self.vals(h)):  # R5, D5
            return
        self.moves.add(f"{h} trail")

    def hungarian_plays(self) -> None:
        hand = self.hand
        for h in hand:  # R11, D6: a single card trailed
            self.moves.add(f"{h} trail")
        for k in range(1, min(3, len(hand)) + 1):
            for played in combinations(hand, k):
                total = sum(self.low(c) for c in played)
                targets = [total]
                if self.hungarian == "groups":
                    targets = [v for v in range(1, total + 1) if total % v == 0 and self.split(list(played), v)]
                head = "+".join(played) + " capture "
                for v in targets:
                    for m in self.parts(v):
                        if m:
                            self.moves.add(head + " ".join(self.names(m)))

    def split(self, cards: list[str], v: int) -> bool:
        """Whether the played cards split into disjoint sets each worth v (Ulmann 1)."""
        if not cards:
            return True
        first, rest = cards[0], cards[1:]
        for k in range(len(rest) + 1):
            for comp in combinations(range(len(rest)), k):
                if self.low(first) + sum(self.low(rest[i]) for i in comp) == v:
                    if self.split([c for i, c in enumerate(rest) if i not in comp], v):
                        return True
        return False


def legal_moves(variant: str, case: dict[str, Any]) -> set[str]:
    """Every legal play of the case's position for the seat ``to_play``, in the scenario notation."""
    return _Position(variant, case).play()


def _one_ace_for_1_and_14(d: Any) -> bool:
    """The reference lists a play after which the mover would own builds of 1 and of 14 with one ace left to
    hold them (D7); the engine refuses it."""
    if d.engine_says or d.variant not in ("royal", "dominican", "dominican-soto"):
        return False
    pos = _Position(d.variant, d.case)
    words = d.move.replace("[", " [ ").replace("]", " ] ").split()
    played = words[0].upper()
    after = list(pos.hand)
    if played not in after:
        return False
    after.remove(played)
    named = set(w.upper() for w in words[2:])
    kept = [b[1] for b in pos.mine() if not set(b[0]) & named]
    if words[1] == "build":
        kept.append(int(words[2]))
    aces = sum(1 for c in after if c[:-1] == "A")
    return {1, 14} <= set(kept) and aces < 2


#: Differences that are a reading a variant file declares knowingly: (name, the reading, a test).
DECLARED: tuple = (
    ("one ace holds no builds of 1 and 14 together",
     "royal.yaml readings, deck.ranks: 'An ace counts one value in a play, 1 or 14 as the player chooses; ... "
     "and no play needs one ace to count both.' The engine refuses a play that leaves its mover owning a build "
     "of 1 and a build of 14 with a single ace to take them; the reference (D7) reads 000 rule 3 'must hold a "
     "numeral card which can later make the capture' build by build, and one ace can later take either.",
     _one_ace_for_1_and_14),
)

#: Differences where the texts decide against the engine (none found): same shape as DECLARED.
ENGINE_ERRORS: tuple = ()
