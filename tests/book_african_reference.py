"""A clean-room reference of the legal moves of African Casino (south-african-casino, swazi-casino), written
from the project's generated rulebooks alone (`cassino rules south-african-casino`, `cassino rules
swazi-casino`), by brute force, to test whether those rulebooks describe the game completely.

``legal_moves(variant, case)`` lists every action the player to move may take next at a scenario case's
position (docs/scenarios.md), in the scenario notation. Positions are a turn's start, or a turn whose
builds of cards in play were made but whose card from the hand is not yet played (the case cannot say a
hand card was played, so ``end`` is never listed: "Once that card is played, you end the turn (`end`)").

Imports nothing from ``cassino``. Quotes are from the rulebooks: [SA] south-african-casino, [SW]
swazi-casino, [both] the two books' shared text.
"""

from __future__ import annotations

import re
from typing import Any, Callable, Iterable

VARIANTS = ("south-african-casino", "swazi-casino")

RANKS = {"A": 1, "J": 11, "Q": 12, "K": 13, "T": 10}

# [SA] "A move uses at most four cards of one pile, from the top down." [both] "one move may use up to
# four cards of a pile, from the top down".
PILE_DEPTH = 4

# Where a rulebook is ambiguous or silent: (variant, the rulebook's words, what is unclear, the reading taken)
GAPS: list[tuple[str, str, str, str]] = [
    ("both", "It joins a set worth the value you capture or build, beside a base",
     "whether a pile card alone worth the value is such a set, and whether one set may hold pile cards of "
     "two piles and no loose card",
     "a set is any group worth the value holding at most one card of each opponent pile, loose cards "
     "optional; a pile card alone worth the value is a set (beside a base)"),
    ("both", "You may add to a build a set worth its value made with your card (the card alone, or with "
     "loose cards)",
     "whether an opponent's pile top may join the set of the card from the hand",
     "yes: a pile top joins any set of the move, the hand card's set included, beside a base (the card "
     "alone, or with pile cards only, is no base)"),
    ("both", "a build made for your partner's proven value is your partner's, not yours / While you own a "
     "build (you were the last to add to it), you may not trail",
     "'own' is the last to add (case `owner`) for trailing, but the keeper of the card (case `holder`) for "
     "one build a player and keeping a card",
     "trail: `owner`; one build a player, keeping a card, take-over: `holder`"),
    ("both", "You may also build, or add to a build, for a value your partner is known to hold",
     "who holds a new build or an addition when you also keep a card of its value; whether a raise may be "
     "for a partner's value",
     "you hold it when you can keep a card of its value (\"Whoever adds to a build keeping a card of its "
     "value takes it over\"), else your partner when the value is theirs; a raise was read as a build, so "
     "for your partner's value too, until the books said 'Not a raise' (session 91)"),
    ("both", "one they announced in an earlier build, if they have played no card of that value since",
     "a scenario case carries no history",
     "a partner's proven values are those of the builds the partner holds (`holder`) in the case"),
    ("swazi-casino", "ace 1 or 14 (as you choose each time)",
     "whether each ace of a move (the one played, the loose ones) chooses alone",
     "each ace counts 1 or 14 on its own, in sums too; build values stop at 14 (a card must take it)"),
    ("swazi-casino", "so long as no more of your builds are left without a card, and you build nothing until "
     "each has one",
     "how to count builds 'without a card' when one ace answers for 1 and 14",
     "the builds you hold less a largest matching of them to your hand's cards; an action may not raise "
     "that count, and a build action must leave it 0"),
    ("both", "Raising another side's build to the value of your own joins it to yours",
     "whether a raise may join a build of the new value that another side owns",
     "no: that would add a set to another side's build and leave it on the table"),
    ("both", "loose cards are no base while a build of that value stays on the table",
     "said of pile cards only: whether a capture may still take loose cards alone, leaving that build",
     "yes, without pile cards (a capture needs no base); with pile cards it must take the build as base"),
    ("both", "The cards a case does not place anywhere are the stock (docs/scenarios.md)",
     "not the rulebook, the case format: a case without `stock` is before the last deal",
     "a case without `stock` and without a `rest` pile has a stock: the owner of a build may not trail"),
]

def _raise_for_partner(d: Any) -> bool:
    """A reference-only raise of another side's build joining a build the partner holds, by a player who
    keeps no card of the new value."""
    if d.engine_says:
        return False
    words = d.move.replace("[", " [ ").replace("]", " ] ").split()
    if len(words) < 4 or words[1] != "build" or d.move.count("[") != 2:
        return False
    me = d.case["to_play"]
    partner = (me + 2) % 4 if d.case.get("partners") else None
    value = int(words[2])
    builds = {tuple(sorted(b["cards"])): b for b in d.case["builds"]}
    named = [tuple(sorted(g.split())) for g in re.findall(r"\[([^]]*)\]", d.move)]
    kinds = [builds.get(g) for g in named]
    if any(b is None for b in kinds):
        return False
    raised = [b for b in kinds if b["owner"] % 2 != me % 2]
    joined = [b for b in kinds if b["value"] == value and b["holder"] == partner]
    rest = [c for c in d.case["hand"] if c != words[0]]
    holds = any(value in _values(d.variant, c) for c in rest)
    return bool(raised and joined and not holds)


# Disagreements with the engine, triaged: (name, reading, test of a Disagreement). The one class found, a raise to
# the partner's value, was the books' gap and is said there now (``_raise_for_partner`` keeps its test).
DECLARED: list[tuple[str, str, Callable[[Any], bool]]] = []


# ------------------------------------------------------------------ cards
def _rank(card: str) -> str:
    return card[:-1].upper()


def _values(variant: str, card: str) -> tuple[int, ...]:
    """[SA] "Capture values: ace 1; 2 to 10 count as marked." [SW] "ace 1 or 14 (as you choose each
    time); 2 to 10 count as marked; jack 11; queen 12; king 13." """
    r = _rank(card)
    if r == "A":
        return (1, 14) if variant == "swazi-casino" else (1,)
    if r in RANKS:
        return (RANKS[r],)
    return (int(r),)


def _deck(variant: str) -> list[str]:
    # [SA] "A pack of 40 cards: 10 ranks in each of four suits"; [SW] "A pack of 52 cards"
    ranks = ["A"] + [str(n) for n in range(2, 11)] + (["J", "Q", "K"] if variant == "swazi-casino" else [])
    return [r + s for r in ranks for s in "SHDC"]


def _max_value(variant: str) -> int:
    # A build must be taken by a card of its value ("on a later turn the whole build is captured by a card
    # of that value" [both]): at most 10 [SA], 14 (an ace) [SW].
    return 14 if variant == "swazi-casino" else 10


# ------------------------------------------------------------------ position
class Pos:
    def __init__(self, variant: str, case: dict[str, Any]) -> None:
        self.variant = variant
        self.players = int(case.get("players", 2))
        self.partners = bool(case.get("partners", False)) and self.players == 4
        if variant == "swazi-casino" and self.players == 4:
            # [SW] "Four players always play as two partnerships"
            self.partners = True
        self.me = int(case.get("to_play", 0))
        self.hand: list[str] = [c.upper() for c in case.get("hand", [])]
        self.table: list[str] = [c.upper() for c in case.get("table", [])]
        self.builds = []
        for b in case.get("builds", []) or []:
            owner = int(b.get("owner", self.me))
            holder = int(b.get("holder", owner) if b.get("holder") is not None else owner)
            self.builds.append({"cards": [c.upper() for c in b["cards"]], "value": int(b["value"]),
                                "owner": owner, "holder": holder})
        captured = case.get("captured", {}) or {}
        if "stock" in case:
            self.stock = list(case.get("stock") or [])
        else:
            # docs/scenarios.md: "The cards a case does not place anywhere are the stock" (`rest` places them)
            placed = set(self.hand) | set(self.table) | {c.upper() for b in self.builds for c in b["cards"]}
            placed |= {c.upper() for cards in (case.get("hands") or {}).values() for c in cards}
            placed |= {c.upper() for cards in captured.values() if isinstance(cards, list) for c in cards}
            full = any(v == "rest" for v in captured.values())
            self.stock = [] if full else sorted(set(_deck(variant)) - placed)
        self.piles_by_seat = {int(s): [c.upper() for c in v] for s, v in captured.items() if isinstance(v, list)}

    def side(self, seat: int) -> int:
        # [both] "partners sitting opposite each other (seats 0 and 2 against seats 1 and 3)"
        return seat % 2 if self.partners else seat

    @property
    def partner(self) -> int | None:
        return (self.me + 2) % 4 if self.partners else None

    def opponent_piles(self) -> list[list[str]]:
        """Top first, at most PILE_DEPTH cards. [both] "The top card of each opponent's pile is in play for
        you; your own side's pile is not." Partners keep one pile ([SA] "Partners keep one pile"; the
        scenario format: "partners' lists make their side's one pile, the lower seat's list first")."""
        sides: dict[int, list[str]] = {}
        for seat in sorted(self.piles_by_seat):
            if seat >= self.players or self.side(seat) == self.side(self.me):
                continue
            sides.setdefault(self.side(seat), []).extend(self.piles_by_seat[seat])
        return [list(reversed(p))[:PILE_DEPTH] for _, p in sorted(sides.items()) if p]


# ------------------------------------------------------------------ sets (captures and builds alike)
def _subset_sums(variant: str, cards: list[str], cap: int) -> list[frozenset[int]]:
    sums: list[frozenset[int]] = [frozenset({0})]
    for mask in range(1, 1 << len(cards)):
        low = (mask & -mask).bit_length() - 1
        prev = sums[mask & (mask - 1)]
        sums.append(frozenset(s + x for s in prev for x in _values(variant, cards[low]) if s + x <= cap))
    return sums


def _sets(variant: str, target: int, loose: list[str], piles: list[list[str]], *, must: int | None,
          base0: bool, loose_base: bool) -> set[tuple[int, tuple[int, ...]]]:
    """Every (mask of ``loose`` taken, cards taken from each pile's top) that groups of cards worth
    ``target`` can take.

    [both] "A card also takes sets of loose cards whose values add up to its own" and "One play may take
    several groups at once, each loose card in one group only". Pile cards: [both] "It joins a set worth
    the value you capture or build, beside a base worth that value with no pile card in it: loose cards or
    a build ... Each set takes at most one card of a pile; once a pile's top is taken, the card under it is
    in play for a later set of the same move". ``must``: the index in ``loose`` of the card played from
    the hand, which must be in a set and is "never a base on its own". ``base0``: a build of the value is
    in the move (a base). ``loose_base``: loose sets may be a base ("loose cards are no base while a build
    of that value stays on the table")."""
    n = len(loose)
    sums = _subset_sums(variant, loose, target)
    by_sum: dict[int, list[int]] = {}
    for mask in range(1, 1 << n):
        for s in sums[mask]:
            by_sum.setdefault(s, []).append(mask)
    by_sum.setdefault(0, []).append(0)
    npiles = len(piles)
    out: set[tuple[int, tuple[int, ...]]] = set()
    seen: set[tuple[int, tuple[int, ...], bool]] = set()
    stack = [(0, (0,) * npiles, base0)]
    while stack:
        state = stack.pop()
        if state in seen:
            continue
        seen.add(state)
        taken, depths, based = state
        if (taken or any(depths)) and (based or not any(depths)) and (must is None or taken >> must & 1):
            out.add((taken, depths))
        for choice in range(1 << npiles):
            idx = [i for i in range(npiles) if choice >> i & 1]
            if any(depths[i] >= len(piles[i]) for i in idx):
                continue
            pile_sums = {0}
            for i in idx:
                pile_sums = {s + x for s in pile_sums for x in _values(variant, piles[i][depths[i]])}
            new_depths = tuple(d + (1 if choice >> i & 1 else 0) for i, d in enumerate(depths))
            for ps in pile_sums:
                if ps > target:
                    continue
                for g in by_sum.get(target - ps, ()):
                    if g & taken or (g == 0 and not idx):
                        continue
                    base = based
                    if not idx and loose_base and g and not (must is not None and g == 1 << must):
                        base = True
                    stack.append((taken | g, new_depths, base))
    return out


def _names(loose: list[str], piles: list[list[str]], mask: int, depths: tuple[int, ...],
           skip: int | None = None) -> list[str]:
    names = [c for i, c in enumerate(loose) if mask >> i & 1 and i != skip]
    for p, d in zip(piles, depths):
        names += p[:d]
    return names


def _bracket(build: dict[str, Any]) -> str:
    return "[" + " ".join(build["cards"]) + "]"


# ------------------------------------------------------------------ keeping cards for builds
def _deficit(variant: str, hand: list[str], values: Iterable[int]) -> int:
    """Builds held without a card of their value in ``hand``: [both] "Until your build is captured or
    taken over, you must keep a card of its value in your hand." [SW] "One card in hand answers for one
    build value. An ace kept for a build of 1 does not also answer for a build of 14" (a matching)."""
    values = sorted(set(values))
    missing = 0
    aces = sum(1 for c in hand if _rank(c) == "A")
    ace_values = 0
    for v in values:
        if any(v in _values(variant, c) and _rank(c) != "A" for c in hand):
            continue
        if v in (1, 14) and any(_rank(c) == "A" for c in hand):
            ace_values += 1
            continue
        missing += 1
    return missing + max(0, ace_values - aces)


# ------------------------------------------------------------------ the moves
def legal_moves(variant: str, case: dict[str, Any]) -> set[str]:
    if variant not in VARIANTS:
        raise ValueError(f"{variant}: not an African Casino variant")
    pos = Pos(variant, case)
    me, partner = pos.me, pos.partner
    hand = pos.hand
    vmax = _max_value(variant)
    piles = pos.opponent_piles()
    my_side = pos.side(me)
    mine = [b for b in pos.builds if b["holder"] == me]
    d0 = _deficit(variant, hand, [b["value"] for b in mine])
    partner_values = {b["value"] for b in pos.builds if partner is not None and b["holder"] == partner}
    by_value = {b["value"]: b for b in pos.builds}
    moves: set[str] = set()

    def holder_after(value: int, hand_after: list[str], joined: list[dict[str, Any]]) -> int | None:
        """Who holds a build of ``value`` made or added to now, or None when it may not be built.

        [both] "You may build only a value you hold"; "You may also build, or add to a build, for a value
        your partner is known to hold"; "Whoever adds to a build keeping a card of its value takes it
        over"; [SW] "you build nothing until each has one"; [SA] "A player owns one build at a time"."""
        others = [b for b in mine if all(b is not j for j in joined)]
        other_values = [b["value"] for b in others]
        if _deficit(variant, hand_after, other_values + [value]) == 0:
            who = me
        elif value in partner_values and _deficit(variant, hand_after, other_values) == 0:
            who = partner
        else:
            return None
        if variant == "south-african-casino":
            if who == me and others:
                # [SA] "while you own a build you may add to it or capture it, but not make another build
                # or take one over from another player"; "While you own a build you may add to your
                # partner's only keeping no card of its value"
                return None
            if who == partner and any(b["holder"] == partner and all(b is not j for j in joined)
                                      for b in pos.builds):
                # [SA] "Nor do you build your partner's proven value for them while your partner owns a
                # build of another value"
                return None
        return who

    loose = pos.table

    # ---- builds of cards in play alone, before the card from the hand
    # [both] "A turn may hold, beside its one card from your hand, any number of builds made of cards
    # already in play, before or after that card: two cards or more that you could take with a card of
    # your hand (loose cards, and opponents' pile tops where they are in play) made into a new build, one
    # card alone being no build; or loose sets (and such pile tops) added to your side's build of their
    # value."
    for value in range(1, vmax + 1):
        existing = by_value.get(value)
        if existing is not None and pos.side(existing["owner"]) != my_side:
            continue   # [SA] "A build of cards in play onto another side's build, as an action of its own, is refused"
        joined = [existing] if existing is not None else []
        if holder_after(value, hand, joined) is None:
            continue
        for mask, depths in _sets(variant, value, loose, piles, must=None, base0=existing is not None,
                                  loose_base=True):
            names = _names(loose, piles, mask, depths)
            if existing is None and len(names) < 2:
                continue   # "one card alone being no build"
            moves.add(" ".join(["build", str(value), "on"] + [_bracket(b) for b in joined] + names))

    owner_of_build = any(b["owner"] == me for b in pos.builds)
    for ci, card in enumerate(hand):
        rest = hand[:ci] + hand[ci + 1:]

        # ---- trail: [both] "You never have to capture: you may trail even a card that could capture."
        # "While you own a build (you were the last to add to it), you may not trail"; "That obligation
        # ends with the stock: in the last deal of the hand ... the owner of a build may trail".
        if not (owner_of_build and pos.stock):
            if _deficit(variant, rest, [b["value"] for b in mine]) <= d0:
                moves.add(f"{card} trail")

        # ---- captures: [both] "A card you play captures the loose table cards of its own value ... A build
        # is captured whole by a card of its value."
        for v in set(_values(variant, card)):
            build = by_value.get(v)
            options = [None] if build is None else [None, build]
            for taken_build in options:
                left = [b for b in mine if b is not taken_build]
                if _deficit(variant, rest, [b["value"] for b in left]) > d0:
                    continue   # "Until your build is captured or taken over, you must keep a card of its value"
                for mask, depths in _sets(variant, v, loose, piles, must=None, base0=taken_build is not None,
                                          loose_base=build is None):
                    moves.add(" ".join([card, "capture"] + _names(loose, piles, mask, depths)
                                       + ([_bracket(taken_build)] if taken_build else [])))
                if taken_build is not None:
                    moves.add(f"{card} capture {_bracket(taken_build)}")

        # ---- builds with the card from the hand
        with_card = loose + [card]
        must = len(loose)
        for value in range(1, vmax + 1):
            existing = by_value.get(value)
            if existing is not None and pos.side(existing["owner"]) != my_side:
                # [both] "You may add a set to a build another side owns only with the card that captures it"
                continue
            joined = [existing] if existing is not None else []
            # "a new build of a value already built must be made as part of that build, adding to it"
            if holder_after(value, rest, joined) is None:
                continue
            for mask, depths in _sets(variant, value, with_card, piles, must=must, base0=existing is not None,
                                      loose_base=True):
                names = _names(with_card, piles, mask, depths, skip=must)
                if existing is None and not names:
                    continue   # a build of the card alone is a trail
                moves.add(" ".join([card, "build", str(value), "on"] + [_bracket(b) for b in joined] + names))

        # ---- raising: [both] "You may raise a single build: add a card from your hand and announce the new
        # total, if you hold a card of the new value. A multiple build cannot be raised." "You may raise
        # only other players' builds, never your own." "You may not raise a build your partner owns."
        for target in pos.builds:
            if pos.side(target["owner"]) == my_side:
                continue
            if sum(_values("south-african-casino", c)[0] for c in target["cards"]) != target["value"]:
                continue   # "A build whose cards add up to its value is a single build."
            for cv in set(_values(variant, card)):
                value = target["value"] + cv
                if value > vmax:
                    continue
                existing = by_value.get(value)
                if existing is not None and pos.side(existing["owner"]) != my_side:
                    continue
                joined = [target] + ([existing] if existing is not None else [])
                # [both] "You may also build, or add to a build, for a value your partner is known to hold ...
                # You raise a build only to a value you hold a card of yourself." (The
                # books said only the first sentence before session 91: this reference, written from them,
                # let a raise be for the partner's value, and the engine refused it.)
                if holder_after(value, rest, joined) != me:
                    continue
                # "As you raise, you may also take into the build loose cards or sets worth the new value"
                for mask, depths in _sets(variant, value, loose, piles, must=None, base0=True, loose_base=True):
                    moves.add(" ".join([card, "build", str(value), "on"] + [_bracket(b) for b in joined]
                                       + _names(loose, piles, mask, depths)))
                moves.add(" ".join([card, "build", str(value), "on"] + [_bracket(b) for b in joined]))
    return moves
