"""A clean-room second implementation of the legal moves of six Casino-family variants, written only from
the project's generated rulebooks (``cassino rules VARIANT``): two-handed, spade, dominican-soto,
hungarian-ulmann, scopone and kasino-misar.

``legal_moves(variant, case)`` lists, by brute force, every legal move of the player to move in a
scenario case's position (docs/scenarios.md), in the scenario notation. Nothing is imported from
``cassino``. Each rule is cited beside the code as "[variant] words of the book". Where a book is silent
or ambiguous the reading chosen is in ``GAPS``; where the engine and the books part, the class is in
``DECLARED`` (name, reading, test of a disagreement), the harness's format.
"""

from __future__ import annotations

from functools import lru_cache
from itertools import combinations
from typing import Any, Iterable

VARIANTS = ("two-handed", "spade", "dominican-soto", "hungarian-ulmann", "scopone", "kasino-misar")

BUILDING = ("two-handed", "spade", "dominican-soto")

# (variant, the rulebook's words, what is unclear, the reading taken here)
GAPS: list[tuple[str, str, str, str]] = [
    ("two-handed, spade, dominican-soto",
     "To build, play a card onto loose table cards and announce their total ... A build may be multiple: "
     "several sets, each worth the announced value (... a seven played on a seven and announced as 7 ...)",
     "whether the played card may form a set on its own in a new build beside loose sets (an 8 played on "
     "a loose 5 and 3, announced 8)",
     "yes: a new build is the played card and at least one loose card, all split into sets worth the "
     "announced value, the played card's set being the card alone or the card with loose cards"),
    ("two-handed, spade, dominican-soto",
     "You may add to a build a set worth its value made with your card",
     "whether one play may add to two builds of the same value at once (merging them), and whether a "
     "new build may be made of a value some build on the table already has",
     "one build at a time (the book says 'a build'); a new build of a value already built is allowed "
     "(two-handed's own example builds 2C build 5 on 3D beside a build of 5)"),
    ("two-handed, spade, dominican-soto",
     "Until your build is captured or taken over, you must keep a card of its value in your hand.",
     "whether this binds every build the player owns after any move, or only the build just played on",
     "every build the mover owns after the move (owner = the seat that last added to it; `holder` is "
     "not used: these books have no building for a partner)"),
    ("two-handed",
     "A build begun with equal cards and announced as their rank ... grows only by more cards of that rank.",
     "a position does not record how a build began",
     "a build is 'of equal cards' when every card in it is of the build's value (a build begun by "
     "addition cannot be all such cards); only cards of that value, the one played and loose ones, may "
     "be added to it"),
    ("two-handed",
     "You may not trail a card that could capture something (a loose card, a set or a build).",
     "whether a capture barred by another rule (keeping a card for one's build) still counts",
     "any capture the card could make by the capture rules counts (the question is moot: an owner may "
     "not trail at all)"),
    ("dominican-soto",
     "Capture values: ace 1 or 14 (as you choose each time) ... You may build only a value you hold",
     "whether a build of 14 (or of 1) may be made or raised to for an ace held, and whether a played or "
     "loose ace may count 14 as a set of its own in a build",
     "yes: a held ace is a card of value 1 and of value 14; in a build each ace counts 1 or 14, so a "
     "build of 14 (e.g. 10 on a loose 4, an ace held) is allowed"),
    ("dominican-soto",
     "Whenever you capture, you must also take every loose card equal to the card you play.",
     "which loose cards are 'equal' to an ace played as 14, and to a card played that takes only a build",
     "every loose card of the value the played card counts in this play (aces for an ace, whether it "
     "counts 1 or 14), whatever else the capture takes, a build alone included (the book's own example "
     "refuses 8C capture [3H 5S] with 8D loose)"),
    ("hungarian-ulmann",
     "Cards played together count as their total, or split into sets of equal worth that each make the "
     "value taken: a two, a three and a five can take a five.",
     "whether each played set must take a group of its own, and what a capture with several cards may "
     "take besides",
     "the cards played act as one card of any value W such that they split into one or more sets each "
     "worth W; that card then captures as a single card of value W would (any loose cards equal to W, "
     "any sets worth W, several groups)"),
    ("hungarian-ulmann, kasino-misar, spade",
     "A card also takes sets of loose cards whose values add up to its own",
     "how many cards a 'set' has",
     "two or more loose cards; a single card of the value is an equal card (the difference matters only "
     "where equal cards have a rule of their own)"),
    ("kasino-misar",
     "A♠, A♥, A♦ and A♣ count 14 when played from hand and 1 on the table",
     "which value an ace in the hand has for 'You may not trail a card that could capture something'",
     "14: an ace in the hand could capture (and so may not be trailed) when loose cards make 14, and a loose "
     "ace alone does not bar its trail"),
]


# ------------------------------------------------------------------ cards
def _rank(card: str) -> str:
    r = card[:-1].upper()
    return "10" if r == "T" else r


NUM = {"A": 1, **{str(n): n for n in range(2, 11)}}


def _table_values(variant: str, card: str) -> tuple[int, ...]:
    """The values a card on the table (or in a build) may count."""
    r = _rank(card)
    if variant in ("two-handed", "spade"):
        # [two-handed, spade] "ace 1; 2 to 10 count as marked; jacks, queens and kings have no number value"
        return (NUM[r],) if r in NUM else ()
    if variant == "dominican-soto":
        # [dominican-soto] "ace 1 or 14 (as you choose each time); ... jack 11; queen 12; king 13" and
        # "a loose ace is itself worth 1 or 14"
        return (1, 14) if r == "A" else (NUM[r],) if r in NUM else ({"J": 11, "Q": 12, "K": 13}[r],)
    if variant == "scopone":
        # [scopone] "ace 1; 2 to 7 count as marked; jack 8; knight 9; king 10"
        return (NUM[r],) if r in NUM else ({"J": 8, "Q": 9, "K": 10}[r],)
    # [hungarian-ulmann] "ace 1; 2 to 10 count as marked; jack 11; queen 12; king 13"; "An ace counts 1 only"
    # [kasino-misar] "jack 11; queen 12; king 13"; an ace counts "1 on the table"
    return (NUM[r],) if r in NUM else ({"J": 11, "Q": 12, "K": 13}[r],)


def _played_values(variant: str, card: str) -> tuple[int, ...]:
    """The values a card played from the hand may count (captures)."""
    if variant == "kasino-misar" and _rank(card) == "A":
        # [kasino-misar] "A♠, A♥, A♦ and A♣ count 14 when played from hand and 1 on the table"
        return (14,)
    return _table_values(variant, card)


def _held_values(variant: str, cards: Iterable[str]) -> set[int]:
    out: set[int] = set()
    for c in cards:
        out.update(_played_values(variant, c))
    return out


# ------------------------------------------------------------------ sums and partitions
def _sums(options: tuple[tuple[int, ...], ...]) -> set[int]:
    sums = {0}
    for opts in options:
        sums = {s + o for s in sums for o in opts}
    return sums


@lru_cache(maxsize=None)
def _splits(options: tuple[tuple[int, ...], ...], value: int, single_only: bool = False) -> bool:
    """Whether cards with these value options split into groups each worth ``value`` (a group: one card
    of the value, or, unless ``single_only``, two or more cards adding up to it)."""
    if not options:
        return True
    first, rest = options[0], options[1:]
    if value in first and _splits(rest, value, single_only):
        return True
    if single_only or not first:
        return False
    n = len(rest)
    for k in range(1, n + 1):
        for idx in combinations(range(n), k):
            group = (first,) + tuple(rest[i] for i in idx)
            if value in _sums(group):
                left = tuple(rest[i] for i in range(n) if i not in idx)
                if _splits(left, value, single_only):
                    return True
    return False


def _opts(variant: str, cards: Iterable[str]) -> tuple[tuple[int, ...], ...]:
    return tuple(sorted(_table_values(variant, c) for c in cards))


def _subsets(items: list[Any], min_size: int = 0) -> Iterable[tuple[Any, ...]]:
    for k in range(min_size, len(items) + 1):
        yield from combinations(items, k)


def _bracket(cards: Iterable[str]) -> str:
    return "[" + " ".join(cards) + "]"


def _text(played: str, action: str, builds: Iterable[Any] = (), loose: Iterable[str] = ()) -> str:
    parts = [played, action] + [_bracket(b["cards"]) for b in builds] + list(loose)
    return " ".join(parts)


# ------------------------------------------------------------------ captures
def _captures(variant: str, played: str, value: int | None, table: list[str], builds: list[dict[str, Any]],
              played_rank: str | None = None) -> list[tuple[tuple[dict[str, Any], ...], tuple[str, ...]]]:
    """Every capture by a card (or cards) counting ``value``: (builds taken, loose cards taken)."""
    out: list[tuple[tuple[dict[str, Any], ...], tuple[str, ...]]] = []
    if value is None:
        # court cards without a number value (two-handed, spade)
        same = [c for c in table if _rank(c) == played_rank]
        if not same:
            return out
        if variant == "two-handed":
            # [two-handed] "Jacks, queens and kings ... capture only by rank, and must take every loose card
            # of their rank at once."
            out.append(((), tuple(same)))
        else:
            # [spade] "Jacks, queens and kings ... capture only by rank, one card at a time: a king takes one
            # loose king."
            out += [((), (c,)) for c in same]
        return out
    equal = [c for c in table if value in _table_values(variant, c)]
    if variant == "scopone":
        if equal:
            # [scopone] "When several loose cards equal the card you play, you take only one of them" and
            # "When a loose card equals the card you play, you must take equal cards, not a sum."
            return [((), (c,)) for c in equal]
        # [scopone] "A card may instead take one set of loose cards whose values add up to its own";
        # "One play takes one group only"
        for s in _subsets(table, 2):
            if value in _sums(_opts(variant, s)):
                out.append(((), s))
        return out
    # [two-handed, spade, dominican-soto] "A build is captured whole by a card of its value."
    # ("A build is taken only whole, by a card of its own value.")
    takeable = [b for b in builds if b["value"] == value] if variant in BUILDING else []
    # [all] "One play may take several groups at once, each loose card in one group only"
    usable = table if variant not in ("two-handed", "spade") else [c for c in table if _table_values(variant, c)]
    for bs in _subsets(takeable):
        for s in _subsets(usable):
            if not bs and not s:
                continue
            # [two-handed, spade] "A card also takes sets of loose number cards whose values add up to its
            # own"; [dominican-soto, hungarian-ulmann, kasino-misar] "sets of loose cards"
            if not _splits(_opts(variant, s), value):
                continue
            taken_equal = [c for c in s if c in equal]
            if variant == "two-handed" and taken_equal and len(taken_equal) != len(equal):
                # [two-handed] "When you take a loose card equal to the card you play, you must take every
                # loose card of that value."
                continue
            if variant == "dominican-soto" and len(taken_equal) != len(equal):
                # [dominican-soto] "Whenever you capture, you must also take every loose card equal to the
                # card you play."
                continue
            # [spade, hungarian-ulmann, kasino-misar] "you may take as many of them as you like"
            out.append((bs, s))
    return out


# ------------------------------------------------------------------ the moves
def _single(variant: str, build: dict[str, Any]) -> bool:
    # [two-handed, spade, dominican-soto] "A build whose cards add up to its value is a single build."
    return build["value"] in _sums(_opts(variant, build["cards"]))


def _keeps(variant: str, seat: int, rest: list[str], builds_after: list[dict[str, Any]]) -> bool:
    # [two-handed, spade, dominican-soto] "Until your build is captured or taken over, you must keep a card
    # of its value in your hand."
    held = _held_values(variant, rest)
    return all(b["value"] in held for b in builds_after if b["owner"] == seat)


def legal_moves(variant: str, case: dict[str, Any]) -> set[str]:
    if variant not in VARIANTS:
        raise ValueError(f"{variant}: not a variant of this reference ({', '.join(VARIANTS)})")
    seat = case.get("to_play", 0)
    hand = list(case.get("hand", []))
    table = list(case.get("table", []))
    builds = [dict(b, owner=b.get("owner", seat)) for b in case.get("builds", [])]
    moves: set[str] = set()
    if variant == "hungarian-ulmann":
        return _hungarian(hand, table)
    owns = any(b["owner"] == seat for b in builds)
    for card in hand:
        rest = [c for c in hand if c != card]
        values = _played_values(variant, card)
        rank = _rank(card)
        could_capture = False
        # ---- captures
        for v in (values or (None,)):
            for bs, s in _captures(variant, card, v, table, builds, rank):
                could_capture = True
                after = [b for b in builds if b not in bs]
                if variant in BUILDING and not _keeps(variant, seat, rest, after):
                    continue
                moves.add(_text(card, "capture", bs, s))
        # ---- builds
        if variant in BUILDING:
            moves |= _builds(variant, seat, card, rest, table, builds)
        # ---- trail
        if variant in BUILDING and owns:
            # [two-handed, spade, dominican-soto] "While you own a build (you were the last to add to it), you
            # may not trail"
            continue
        if variant in ("two-handed", "scopone", "kasino-misar") and could_capture:
            # [two-handed] "You may not trail a card that could capture something (a loose card, a set or a
            # build)."; [scopone, kasino-misar] "You may not trail a card that could capture something."
            continue
        if variant == "dominican-soto" and any(set(values) & set(_table_values(variant, c)) for c in table):
            # [dominican-soto] "You may not trail a card equal to a loose card on the table"
            continue
        # [spade] "You never have to capture: you may trail even a card that could capture."
        moves.add(f"{card} trail")
    return moves


def _builds(variant: str, seat: int, card: str, rest: list[str], table: list[str],
            builds: list[dict[str, Any]]) -> set[str]:
    out: set[str] = set()
    pvals = _table_values(variant, card)
    if not pvals:
        # [two-handed, spade] "Jacks, queens and kings (cards without a number value) cannot be built."
        return out
    held = _held_values(variant, rest)
    usable = [c for c in table if _table_values(variant, c)]
    others = lambda b: [x for x in builds if x is not b]   # noqa: E731
    # -- a new build. [all three] "To build, play a card onto loose table cards and announce their total ...
    # You may build only a value you hold"; "A build may be multiple: several sets, each worth the announced
    # value"
    for v in held:
        for s in _subsets(usable, 1):
            if _splits(_opts(variant, (card,) + s), v):
                after = builds + [{"cards": [card, *s], "value": v, "owner": seat}]
                if _keeps(variant, seat, rest, after):
                    out.add(f"{card} build {v} on " + " ".join(s))
    for b in builds:
        v = b["value"]
        # -- adding to a build. [all three] "You may add to a build a set worth its value made with your card
        # (the card alone, or with loose cards), and with it any other loose cards or sets of loose cards
        # worth the value; the build becomes multiple and its value stays the same."
        if v in held:
            equal_build = variant == "two-handed" and all(v in _table_values(variant, c) for c in b["cards"])
            for s in _subsets(usable):
                if equal_build:
                    # [two-handed] "A build begun with equal cards and announced as their rank ... grows only by
                    # more cards of that rank."
                    ok = _splits(_opts(variant, (card,) + s), v, single_only=True)
                else:
                    ok = _splits(_opts(variant, (card,) + s), v)
                if ok:
                    after = others(b) + [{"cards": b["cards"] + [card, *s], "value": v, "owner": seat}]
                    if _keeps(variant, seat, rest, after):
                        out.add(_text(card, f"build {v} on", [b], s))
        # -- raising. [all three] "You may raise a single build: add a card from your hand and announce the new
        # total, if you hold a card of the new value. A multiple build cannot be raised."
        if not _single(variant, b):
            continue
        if variant == "dominican-soto" and b["owner"] == seat:
            # [dominican-soto] "You may raise only other players' builds, never your own. Your partner's builds
            # count as other players'"
            continue
        # [two-handed, spade] "You may raise your own builds as well as other players'."
        for p in pvals:
            new = v + p          # "Only the card from your hand changes a build's value"
            if new not in held:
                continue
            for s in _subsets(usable):
                if variant == "dominican-soto":
                    # [dominican-soto] "As you raise, you may also take into the build loose cards or sets worth
                    # the new value"
                    ok = _splits(_opts(variant, s), new)
                else:
                    # [two-handed, spade] "you may also take into the build loose cards each worth the new value
                    # ... but not a loose five and four"
                    ok = _splits(_opts(variant, s), new, single_only=True)
                if ok:
                    after = others(b) + [{"cards": b["cards"] + [card, *s], "value": new, "owner": seat}]
                    if _keeps(variant, seat, rest, after):
                        out.add(_text(card, f"build {new} on", [b], s))
    return out


def _hungarian(hand: list[str], table: list[str]) -> set[str]:
    v = "hungarian-ulmann"
    out: set[str] = set()
    # [hungarian-ulmann] "You never have to capture: you may trail even a card that could capture."; "a trail
    # is always one card"
    out |= {f"{c} trail" for c in hand}
    # [hungarian-ulmann] "to capture you may play up to 3 cards from your hand together"
    for k in range(1, min(3, len(hand)) + 1):
        for played in combinations(hand, k):
            opts = _opts(v, played)
            total = sum(o[0] for o in opts)
            # "Cards played together count as their total, or split into sets of equal worth that each make the
            # value taken"
            worths = {w for w in range(1, total + 1) if total % w == 0 and _splits(opts, w)}
            name = "+".join(played)
            for w in worths:
                for _, s in _captures(v, name, w, table, []):
                    out.add(_text(name, "capture", (), s))
    return out


# (name, the reading, a test of a disagreement (reference_positions.Disagreement)): classes where the engine
# and the books part. None found so far.
DECLARED: list[tuple[str, str, Any]] = []
