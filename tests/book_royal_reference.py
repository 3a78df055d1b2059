"""A clean-room second implementation of the legal moves of Royal Casino and its relatives (royal, tuxedo,
dominican, hungarian), written ONLY from the project's generated rulebooks (``cassino rules VARIANT``), to
test whether those rulebooks describe the games completely and correctly.

It imports nothing from ``cassino``: a position is a scenario case (docs/scenarios.md) and each move is
written in the scenario notation. Moves are listed by brute force over the loose cards (the harness
leaves out positions of more than 12 loose cards).

Every rule below cites the rulebook sentence it implements, as ``[variant] "words"``. Where a rulebook is
silent or ambiguous, the reading chosen is recorded in ``GAPS``; where the engine disagrees with a
rulebook (the rulebook wrong, incomplete or ambiguous, or the engine wrong by the book's own words), the
class is in ``DECLARED`` (the harness's format: name, reading, test of a disagreement).
"""

from __future__ import annotations

from functools import lru_cache
from itertools import combinations
from typing import Any

VARIANTS = ("royal", "tuxedo", "dominican", "hungarian")

# (variant, the rulebook's words, what is unclear, the reading chosen here)
GAPS: list[tuple[str, str, str, str]] = [
    ("royal, dominican",
     "An ace counts one value in a play, 1 or 14 as the player chooses; a loose ace is itself worth 1 or 14",
     "whether every ace of one play must count the same value, or each ace its own (the played ace as 14 "
     "with a loose ace as 1 in a sum)",
     "each ace, played or loose, counts 1 or 14 on its own (002's 'an Ace takes 8, 5 and A', 8+5+1=14, "
     "quoted in the old texts, and the book's 'A♠ capture A♥ 4♣ 10♦': loose ace as 14 beside a 14-sum); the "
     "played ace counts one value for the whole play, so it takes builds of 1 and 14 never together"),
    ("royal, dominican",
     "no play needs one ace to count both",
     "whether this also bears on the card kept for builds: can one ace held be the card kept for a build "
     "of 1 and a build of 14 at once",
     "no: a single ace could never take both builds in one play, so holding builds of 1 and 14 needs two "
     "aces in hand (a matching of held cards to the values of the builds one holds)"),
    ("royal, tuxedo, dominican",
     "You may add to a build a set worth its value (your card alone, or with loose cards), making it "
     "multiple",
     "'a set' (singular): whether the same play may also take in further loose sets worth the value, as a "
     "new build ('several sets') and a raise ('loose cards or sets worth the new value') may",
     "yes: the card's set and any number of further loose sets worth the value, as in a new multiple build "
     "(the engine agrees; the rulebook says so since session 91: 'and with it any other loose cards or sets of "
     "loose cards worth the value')"),
    ("royal, tuxedo, dominican",
     "You may add to a build a set worth its value / You may raise a single build",
     "whether one play may put together two builds already on the table (two builds of 8 joined by an 8, "
     "or a raise to 9 that takes in a build of 9)",
     "no: a play adds to or raises one build; only loose cards are taken in with it"),
    ("royal, tuxedo, dominican",
     "You may build only a value you hold: a three on a five is a build of 8 only if you keep an 8",
     "whether the card kept may be the card played",
     "no: 'keep' - the card of the value must stay in the hand after the play (for a new build, an "
     "addition and a raise alike)"),
    ("royal, tuxedo, dominican",
     "To build, play a card onto loose table cards and announce their total",
     "whether a new build may be the played card alone beside a loose set of its value (an 8 played with a "
     "loose 5 and 3 as a build of 8)",
     "yes: the book's 'a seven played on a seven and announced as 7 is a build of 7 in two sets' makes the "
     "played card a set by itself; at least one loose card is always taken in"),
    ("dominican",
     "Whenever you capture, you must also take every loose card equal to the card you play.",
     "'equal': by rank or by value (a played ace as 14 and a loose ace)",
     "by rank: every loose card of the played card's rank (every loose ace when an ace is played, whatever "
     "value it counts); builds are not loose cards and need not be taken"),
    ("dominican",
     "You may not trail a card equal to a loose card on the table",
     "'equal': by rank or by value",
     "by rank, as for the capture rule"),
    ("royal, tuxedo, dominican",
     "Whether a build is single or multiple follows from its cards and value (docs/scenarios.md); the "
     "book: 'A multiple build cannot be raised'",
     "a build whose cards add up to its value with aces counted 1 or 14",
     "single when some count of its aces (each 1 or 14) makes its cards add up to its value"),
]


# (name, reading, test): the classes of disagreement with the engine that the rulebooks explain badly or not
# at all. None found: over 3 and 30 seeds of every seating (72,706 positions) and 4,500 synthesized positions
# (builds of every kind, aces, partners), the engine lists exactly the moves read here from the rulebooks,
# each GAPS reading included.
DECLARED: list[tuple[str, str, Any]] = []

# ---------------------------------------------------------------------------------------------- cards
_COURT = {"A": 1, "J": 11, "Q": 12, "K": 13, "T": 10}


def _rank(card: str) -> str:
    return card[:-1].upper()


def _values(variant: str, card: str) -> tuple[int, ...]:
    """The values a card may count."""
    r = _rank(card)
    if variant == "tuxedo":
        # [tuxedo] "Capture values: 1 to 10 count as marked."
        return (int(r),)
    if r == "A":
        if variant == "hungarian":
            # [hungarian] "Reading: An ace counts 1 only."
            return (1,)
        # [royal, dominican] "Capture values: ace 1 or 14 (as you choose each time)"
        return (1, 14)
    # [royal, dominican, hungarian] "2 to 10 count as marked; jack 11; queen 12; king 13."
    return (_COURT[r],) if r in _COURT else (int(r),)


# ------------------------------------------------------------------------------------ sums and sets
def _sums(opts: tuple[tuple[int, ...], ...]) -> list[frozenset[int]]:
    """For each mask of the items, the totals it can make (each ace its own value: see GAPS)."""
    n = len(opts)
    out: list[frozenset[int]] = [frozenset({0})] * (1 << n)
    for mask in range(1, 1 << n):
        low = (mask & -mask).bit_length() - 1
        rest = out[mask & (mask - 1)]
        out[mask] = frozenset(s + v for s in rest for v in opts[low])
    return out


@lru_cache(maxsize=4096)
def _partitions(opts: tuple[tuple[int, ...], ...], target: int) -> frozenset[int]:
    """The masks of items that split into groups each worth ``target``, each item in one group only.

    [all] "One play may take several groups at once, each loose card in one group only"; [royal, tuxedo,
    dominican] "A build may be multiple: several sets, each worth the announced value"."""
    n = len(opts)
    sums = _sums(opts)
    by_low: dict[int, list[int]] = {}
    for g in range(1, 1 << n):
        if target in sums[g]:
            by_low.setdefault(g & -g, []).append(g)
    good = bytearray(1 << n)
    good[0] = 1
    for mask in range(1, 1 << n):
        for g in by_low.get(mask & -mask, ()):
            if g & mask == g and good[mask ^ g]:
                good[mask] = 1
                break
    return frozenset(m for m in range(1 << n) if good[m])


def _pick(items: list[str], mask: int) -> list[str]:
    return [c for i, c in enumerate(items) if mask >> i & 1]


# ------------------------------------------------------------------------------------ keeping cards
def _can_keep(variant: str, hand: list[str], values: list[int]) -> bool:
    """Whether ``hand`` keeps a card for each value of the builds one holds.

    [royal] "Until your build is captured or taken over, you must keep a card of its value in your hand."
    One card serves every build of its value; one ace counts one value only ("no play needs one ace to
    count both": see GAPS), so builds of 1 and 14 need two aces."""
    need = sorted(set(values))
    opts = [set(_values(variant, c)) for c in hand]

    def match(i: int, used: frozenset[int]) -> bool:
        if i == len(need):
            return True
        return any(need[i] in o and j not in used and match(i + 1, used | {j}) for j, o in enumerate(opts))

    return match(0, frozenset())


def _build_text(cards: list[str]) -> str:
    return "[" + " ".join(cards) + "]"


def _is_single(variant: str, build: dict[str, Any]) -> bool:
    # docs/scenarios.md: "cards adding up to the value make a single build"; aces 1 or 14 (GAPS)
    opts = tuple(_values(variant, c) for c in build["cards"])
    return build["value"] in _sums(opts)[(1 << len(opts)) - 1]


# ------------------------------------------------------------------------------------ the moves
def legal_moves(variant: str, case: dict[str, Any]) -> set[str]:
    if variant not in VARIANTS:
        raise ValueError(variant)
    me = case.get("to_play", 0)
    hand: list[str] = list(case.get("hand", []))
    table: list[str] = list(case.get("table", []))
    builds: list[dict[str, Any]] = []
    for b in case.get("builds", []) or []:
        owner = b.get("owner", me)
        builds.append({"cards": list(b["cards"]), "value": int(b["value"]), "owner": owner,
                       "holder": b.get("holder", owner)})
    if variant == "hungarian":
        return _hungarian(hand, table)

    moves: set[str] = set()
    opts = tuple(_values(variant, c) for c in table)
    n = len(table)
    full_table = (1 << n) - 1
    dominican = variant == "dominican"
    top = 10 if variant == "tuxedo" else 14
    held = [i for i, b in enumerate(builds) if b["holder"] == me]
    owns = any(b["owner"] == me for b in builds)

    for ci, card in enumerate(hand):
        rest = hand[:ci] + hand[ci + 1:]
        cvals = _values(variant, card)
        # [dominican] "Whenever you capture, you must also take every loose card equal to the card you play."
        equal = sum(1 << i for i, t in enumerate(table) if _rank(t) == _rank(card)) if dominican else 0

        # ---- trail
        # [royal] "You never have to capture: you may trail even a card that could capture."
        # [royal] "While you own a build (you were the last to add to it), you may not trail"
        # [dominican] "You may not trail a card equal to a loose card on the table"
        if not owns and not equal:
            moves.add(f"{card} trail")

        # ---- capture
        # [royal] "A card you play captures the loose table cards of its own value. ... A build is captured
        # whole by a card of its value." "A card also takes sets of loose cards whose values add up to its
        # own" "When several loose cards equal the card you play, you may take as many of them as you like."
        # [royal] "A build is taken only whole, by a card of its own value." (never part of a sum)
        for v in cvals:  # the played ace counts one value in the play (GAPS)
            bidx = [i for i, b in enumerate(builds) if b["value"] == v]
            loose_masks = _partitions(opts, v)
            for k in range(len(bidx) + 1):
                for taken in combinations(bidx, k):
                    # [royal] "Until your build is captured or taken over, you must keep a card of its value"
                    left = [builds[i]["value"] for i in held if i not in taken]
                    if not _can_keep(variant, rest, left):
                        continue
                    for m in loose_masks:
                        if not taken and not m:
                            continue
                        if m & equal != equal:
                            continue
                        words = [_build_text(builds[i]["cards"]) for i in taken] + _pick(table, m)
                        moves.add(f"{card} capture " + " ".join(words))

        # ---- build
        # [royal] "You may build only a value you hold: a three on a five is a build of 8 only if you keep
        # an 8 in your hand." (kept: the card stays in the hand after the play, GAPS)
        ext = opts + (cvals,)
        cbit = 1 << n
        for V in range(1, top + 1):
            if not any(V in _values(variant, c) for c in rest):
                continue
            with_card = [m for m in _partitions(ext, V) if m & cbit]
            # new build: [royal] "To build, play a card onto loose table cards and announce their total";
            # "A build may be multiple: several sets, each worth the announced value"
            if _can_keep(variant, rest, [builds[i]["value"] for i in held] + [V]):
                for m in with_card:
                    loose = m & full_table
                    if loose:
                        moves.add(f"{card} build {V} on " + " ".join(_pick(table, loose)))
            for bi, b in enumerate(builds):
                others = [builds[i]["value"] for i in held if i != bi]
                if not _can_keep(variant, rest, others + [V]):
                    continue
                btext = _build_text(b["cards"])
                # adding: [royal] "You may add to a build a set worth its value (your card alone, or with
                # loose cards), making it multiple; its value stays the same." (any build, anyone's)
                if b["value"] == V:
                    for m in with_card:
                        loose = m & full_table
                        moves.add(f"{card} build {V} on {btext} " + " ".join(_pick(table, loose)))
                # raising: [royal] "You may raise a single build: add a card from your hand and announce the
                # new total, if you hold a card of the new value. A multiple build cannot be raised."
                # [royal] "You may raise your own builds as well as other players'."
                # [dominican] "You may raise only other players' builds, never your own. Your partner's
                # builds count as other players': you may raise them."
                # [royal] "Only the card from your hand changes a build's value"; "As you raise, you may also
                # take into the build loose cards or sets worth the new value, making it multiple"
                if dominican and b["owner"] == me:
                    continue
                if V - b["value"] in cvals and _is_single(variant, b):
                    for m in _partitions(opts, V):
                        moves.add(f"{card} build {V} on {btext} " + " ".join(_pick(table, m)))
    return {m.strip() for m in moves}


def _hungarian(hand: list[str], table: list[str]) -> set[str]:
    """[hungarian] "You play one card a turn, except that to capture you may play up to 3 cards from your
    hand together; a trail is always one card." "Cards played together count as their total: together
    they take cards or sets worth that total." "There is no building in this game." "You never have to
    capture: you may trail even a card that could capture." """
    moves = {f"{c} trail" for c in hand}
    opts = tuple(_values("hungarian", c) for c in table)
    for k in (1, 2, 3):
        for played in combinations(hand, k):
            total = sum(_values("hungarian", c)[0] for c in played)
            for m in _partitions(opts, total):
                if m:
                    moves.add("+".join(played) + " capture " + " ".join(_pick(table, m)))
    return moves
