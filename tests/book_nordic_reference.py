"""A clean-room reference of the legal moves of the Nordic Kasino games (Swedish Kasino, Finnish Kasino,
Krypkasino) and of the Scopa family (Scopa, Escoba), written only from the project's generated rulebooks
(``cassino rules VARIANT``), to test whether those rulebooks describe the moves completely and correctly.

``legal_moves(variant, case)`` lists, by brute force, every legal move of a scenario case's position for the
seat to play, in the scenario notation (docs/scenarios.md). It imports nothing from ``cassino``.

Each rule carries the rulebook's words it implements: [SW] Swedish Kasino, [FI] Finnish Kasino, [KR]
Krypkasino, [SC] Scopa, [ES] Escoba. ``GAPS`` records where a rulebook is silent or ambiguous and the reading
chosen; ``DECLARED`` the classes of disagreement with the engine that are rulebook gaps or suspected engine
errors (the harness's (name, reading, test) form).
"""

from __future__ import annotations

from itertools import combinations
from typing import Any, Iterable

VARIANTS = ("swedish-kasino", "finnish-kasino", "krypkasino", "scopa", "escoba")

NORDIC = ("swedish-kasino", "finnish-kasino", "krypkasino")
SCOPA_FAMILY = ("scopa", "escoba")

# ---------------------------------------------------------------------------------------------- card values
# [SW][FI][KR] "Capture values: ace 1 ...; 2 to 10 count as marked; jack 11; queen 12; king 13."
_NORDIC_VALUES = {"A": 1, "J": 11, "Q": 12, "K": 13, **{str(n): n for n in range(2, 11)}, "T": 10}
# [SC][ES] "Capture values: ace 1; 2 to 7 count as marked; jack 8; knight 9; king 10." ("The knight is typed Q.")
_LATIN_VALUES = {"A": 1, "J": 8, "Q": 9, "K": 10, **{str(n): n for n in range(2, 8)}}


def _rank(card: str) -> str:
    return card[:-1].upper()


def _suit(card: str) -> str:
    return card[-1].upper()


def _table_values(variant: str, card: str) -> tuple[int, ...]:
    """The values a loose table card may count, one of them in each group it is taken in."""
    r = _rank(card)
    if variant in SCOPA_FAMILY:
        return (_LATIN_VALUES[r],)
    if variant == "swedish-kasino" and r == "A":
        # [SW] "a loose ace is itself worth 1 or 14, so an ace played as 14 takes a loose ace together
        # with sets worth 14"
        return (1, 14)
    # [FI] "2♠ counts 15 when played from hand" / "10♦ counts 16 when played from hand": on the table they
    # count as marked ("a table 2 ... only in a set adding up to 15"); [FI][KR] aces 14 only from the hand.
    return (_NORDIC_VALUES[r],)


def _hand_values(variant: str, card: str) -> tuple[int, ...]:
    """The values a card played from the hand may count (one of them a play)."""
    r = _rank(card)
    if variant in SCOPA_FAMILY:
        return (_LATIN_VALUES[r],)
    if r == "A":
        if variant == "swedish-kasino":
            # [SW] "ace 1 or 14 (as you choose each time)"; "An ace counts one value in a play, 1 or 14"
            return (1, 14)
        # [FI][KR] "A♠, A♥, A♦ and A♣ count 14 when played from hand, so an ace played from the hand does
        # not take a loose ace as an equal card, only in a set adding up to 14."
        return (14,)
    if variant == "finnish-kasino":
        # [FI] "2♠ counts 15 when played from hand" ... "10♦ counts 16 when played from hand"
        if r == "2" and _suit(card) == "S":
            return (15,)
        if r in ("10", "T") and _suit(card) == "D":
            return (16,)
    return (_NORDIC_VALUES[r],)


# --------------------------------------------------------------------------------------- nordic captures
def _sums(variant: str, group: Iterable[str]) -> set[int]:
    """The totals a group of loose cards may make (a Swedish loose ace counts 1 or 14)."""
    totals = {0}
    for c in group:
        totals = {t + v for t in totals for v in _table_values(variant, c)}
    return totals


def _mask_sums(variant: str, table: list[str]) -> list[frozenset[int]]:
    """For each subset of the table (a bit mask), the totals it may make as one group."""
    values = [_table_values(variant, c) for c in table]
    sums: list[frozenset[int]] = [frozenset({0})]
    for mask in range(1, 1 << len(table)):
        low = (mask & -mask).bit_length() - 1
        sums.append(frozenset(t + v for t in sums[mask & (mask - 1)] for v in values[low]))
    return sums


def _nordic_captures(variant: str, card: str, table: list[str], sums: list[frozenset[int]]) -> set[str]:
    """[SW][FI][KR] "A card you play captures the loose table cards of its own value" and "also takes sets of
    loose cards whose values add up to its own"; "One play may take several groups at once, each loose card
    in one group only"; "When several loose cards equal the card you play, you may take as many of them as
    you like." A capture is any non-empty set of loose cards that splits wholly into such groups, not
    necessarily all the card could take (the examples list partial captures)."""
    takes: set[int] = set()
    for target in _hand_values(variant, card):
        groups = [m for m in range(1, len(sums)) if target in sums[m]]
        reached = {0}
        frontier = [0]
        while frontier:
            nxt = []
            for mask in frontier:
                for g in groups:
                    if not g & mask and (mask | g) not in reached:
                        reached.add(mask | g)
                        nxt.append(mask | g)
            frontier = nxt
        takes |= reached - {0}
    return {f"{card} capture " + " ".join(sorted(table[i] for i in range(len(table)) if m >> i & 1)) for m in takes}


# ---------------------------------------------------------------------------------------- scopa captures
def _scopa_captures(card: str, table: list[str]) -> set[str]:
    v = _LATIN_VALUES[_rank(card)]
    equal = [c for c in table if _LATIN_VALUES[_rank(c)] == v]
    if equal:
        # [SC] "When a loose card equals the card you play, you must take equal cards, not a sum." and
        # "When several loose cards equal the card you play, you take only one of them, whichever you choose."
        return {f"{card} capture {c}" for c in equal}
    moves = set()
    n = len(table)
    # [SC] "A card may instead take one set of loose cards whose values add up to its own"; "One play takes
    # one group only: a single card, or a single set adding up to the card's value."
    for k in range(2, n + 1):
        for chosen in combinations(range(n), k):
            taken = [table[i] for i in chosen]
            if sum(_LATIN_VALUES[_rank(c)] for c in taken) == v:
                moves.add(f"{card} capture " + " ".join(sorted(taken)))
    return moves


def _escoba_captures(card: str, table: list[str]) -> set[str]:
    v = _LATIN_VALUES[_rank(card)]
    moves = set()
    n = len(table)
    # [ES] "The card you play and the table cards it takes must add up to exactly 15 ... One play takes one such
    # set (one card or several). A card is never taken just for being equal to the card played."
    for k in range(1, n + 1):
        for chosen in combinations(range(n), k):
            taken = [table[i] for i in chosen]
            if v + sum(_LATIN_VALUES[_rank(c)] for c in taken) == 15:
                moves.add(f"{card} capture " + " ".join(sorted(taken)))
    return moves


# ------------------------------------------------------------------------------------------------- moves
def legal_moves(variant: str, case: dict[str, Any]) -> set[str]:
    if variant not in VARIANTS:
        raise ValueError(f"{variant}: not covered by this reference")
    hand = [str(c).upper() for c in case.get("hand", [])]
    table = [str(c).upper() for c in case.get("table", [])]
    # [SW][FI][KR][SC][ES] "There is no building in this game." A case's builds (none can arise) are left out.
    moves: set[str] = set()
    sums = _mask_sums(variant, table) if variant in NORDIC else []
    for card in dict.fromkeys(hand):     # two copies of a card (Krypkasino's two packs) play alike
        if variant in NORDIC:
            caps = _nordic_captures(variant, card, table, sums)
        elif variant == "scopa":
            caps = _scopa_captures(card, table)
        else:
            caps = _escoba_captures(card, table)
        moves |= caps
        # [SW][FI][ES] "You never have to capture: you may trail even a card that could capture."
        # [KR][SC] "You may not trail a card that could capture something."
        if variant in ("krypkasino", "scopa") and caps:
            continue
        # [all] "trail: put the card face up on the table"
        moves.add(f"{card} trail")
    return moves


# ------------------------------------------------------------------------------------- gaps and readings
GAPS: list[tuple[str, str, str, str]] = [
    ("swedish-kasino", "a loose ace is itself worth 1 or 14, so an ace played as 14 takes a loose ace together "
     "with sets worth 14",
     "whether each loose ace chooses its value independently within one play (two loose aces, one as 14 the "
     "other as 1 in A+K)",
     "each loose ace counts 1 or 14 in the group it is taken in, independently; only the played ace has one "
     "value a play"),
    ("krypkasino", "You may not trail a card that could capture something.",
     "with a hand whose every card could capture, whether a trail is ever allowed",
     "no: only cards that cannot capture may be trailed; a hand of capturing cards must capture (the Reading "
     "says the text forbids creeping with a card that can take)"),
    ("scopa", "You may not trail a card that could capture something.",
     "same question as Krypkasino's",
     "only cards that cannot capture may be trailed"),
    ("krypkasino", "The copies of a card are the same card and are written alike",
     "how two copies of one card are listed in moves",
     "moves are texts: two copies in hand give one `X trail`; taking one of two equal table copies is one move"),
    ("all", "There is no building in this game.",
     "what to do with builds in a case",
     "none can arise; builds in a case are ignored"),
    ("scopa", "A card may instead take one set of loose cards whose values add up to its own",
     "whether the set may be one card (only when equal, which the equal-card rule covers)",
     "a sum set has two or more cards; a single card is an equal-card capture"),
    ("finnish-kasino", "2♠ counts 15 when played from hand ... 10♦ counts 16 when played from hand",
     "whether a loose 2♠ / 10♦ on the table counts 2 / 10 in a sum",
     "yes: the special values hold only from the hand (the examples take 10♣ as a 10 from the table)"),
]

#: Classes of disagreement with the engine that are rulebook gaps or suspected engine errors, each
#: (name, reading, test of a reference_positions.Disagreement).
DECLARED: list[tuple[str, str, Any]] = []
