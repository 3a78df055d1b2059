"""A second, clean-room implementation of the legal plays of the Nordic Casino games: Swedish Kasino,
Finnish Kasino, Krypkasino (two packs) and Kasino misär (Krypkasino with one pack).

Written from the public rule pages alone (not from the project's engine), to be compared with the engine
on random positions through ``tests/reference_positions.py``. It imports nothing from ``cassino``.

Sources (public pages, read through the project's stored copies; cited by letter)
--------------------------------------------------------------------------------
[P]   pagat.com "Nordic Casino", https://www.pagat.com/fishing/nordic_casino.html (Introduction, Kasino in
      Sweden: Players and Cards, Deal).
[G]   gamerules.com "Scandinavian Casino", https://gamerules.com/rules/scandinavian-casino-card-game/.
[FS]  cardgames.fandom.com "Kasino in Sweden" (a paraphrase of [P]).
[K]   korttipelit.net "Kasino in English", http://www.korttipelit.net/kasino_in_english (The Card Values).
[FF]  cardgames.fandom.com "Kasino in Finland" (a paraphrase of pagat's Finnish section).
[I]   korttipelit.io "Kasino-korttipeli on mukavaa ajanvietettä".
[PK]  pagat.com "Krypkasino", https://www.pagat.com/fishing/krypkasino.html (Introduction, Players and Cards).
[Wsv] sv.wikipedia.org "Krypkasino".
[O]   ordkanalen.com "Sällskapsspel: krypkasino" (a house description).

Rules implemented (R-numbers are used in the code's comments)
--------------------------------------------------------------
R1  No building in any of the four. [P] Introduction: "They are usually played without building." [G]:
    "there is no building". A turn is one card from the hand: a capture or a trail ([G] "During your turn,
    you may play only one card"; "Capture a card or cards from the table" / "If it is unable to capture a
    card, it becomes a single card on the table").
R2  Capture groups. [G]: a card captures "a single card of that capture value", "a set of cards that total
    the capture value", "OR a combination between the two"; [K]: "Two queens can be taken with a queen",
    "5 + 4 + 2 can be taken by using a Jack", "Q allows you to take Q and 9 + 3". A capture is any set of
    table cards that splits into disjoint groups, each a single card of the played card's value or two or
    more cards adding up to it.
R3  Partial captures. [G] "It is not necessary to capture ALL the cards you possibly can." Any non-empty
    such set is a legal capture (every variant here; the house rule krypkasino-take-all, R8, excepted).
R4  Swedish values. [P] "The cards from 2 to 10 have a capture value equal to their face value. Jacks have a
    capture value of 11, Queens 12 and Kings 13. Aces have a capture value of 1 or 14 at the choice of the
    player." Read as: a played ace counts 1 or 14 (one value for the play, D1); a table ace is 1 in a sum
    (as 14 it could never be part of a sum of two cards or more, every total being at most 14), and alone
    it matches a played card of 1 or 14 (D1).
R5  Finnish values. [K] "Some cards have different values depending on whether they are played from hand or
    whether they are already on the table": "A 14 1", "2 of spades (Small Kasino) 15 2", "10 of diamonds
    (Big Kasino) 16 10"; "Remember that an ace can not be taken using another ace, because an ace is worth
    one point on the table but worth 14 points in hand." So a played ace is 14, 2S 15, 10D 16; on the table
    they are 1, 2, 10 (a played 2 takes a table 2S, a played 10 a table 10D).
R6  Krypkasino / Kasino misär values. [PK] "numbered cards have their usual face value. Jacks, Queens and
    Kings have capture values of 11, 12 and 13 respectively. Aces have a capture value of 14 points when
    played from a player's hand, but aces on the table have a capture value of 1 point only." Kasino misär
    is the same game with one pack ([Wsv] "I varianten avig kasino, även kallad kasino misär, används bara
    1 kortlek"); Krypkasino has two ([PK] "Krypkasino uses two standard decks of 52 cards, 104 cards in
    all"): two equal cards are one card for play, and a move is named by its cards (``5C capture 5H 5H``).
R7  Trailing. Swedish and Finnish: a card may always be trailed, even one that could capture ([G] "It is not
    necessary to capture ALL the cards you possibly can"; [I] "Pöydältä ei myöskään ole pakko ottaa mitään
    korttia": nobody has to take anything from the table). Krypkasino / misär: [Wsv] "Man får bara krypa
    med kort som det inte går att ta med." (one may only creep, i.e. trail, with cards that cannot take):
    a card that can capture may not be trailed (D2).
R8  House rule examples/krypkasino-take-all.yaml: "a capture takes all the card can" ([O] "Det omfattar alla
    likadana möjliga delsummor på bordet"): only the captures of a card that no larger capture of the same
    card contains (D3). examples/krypkasino-threes.yaml (six in two teams of three) changes no play.

Readings where a text is ambiguous
---------------------------------
D1  Swedish ace: [P] gives "1 or 14 at the choice of the player" without saying hand or table. Read as
    everywhere, and one value for a whole play: a played ace as 1 takes table aces; as 14 it takes table
    aces (an ace is 14 too) and sets worth 14 with aces in them as 1. The variant file takes the same
    reading (deck.ranks: "a loose ace is itself worth 1 or 14, so an ace played as 14 takes a loose ace
    together with sets worth 14, and no play needs one ace to count both").
D2  Krypkasino's creeping: "only creep with cards that cannot take" is read per card (another card of the
    hand that cannot capture may be trailed although some card could capture), as the variant files'
    capture.compulsory reading says. The other reading (no trail while any card can capture) is not taken.
D3  Take-all: when the card's possible captures do not all fit together, "all the card can" is read as
    every capture that no larger capture of the same card contains (inclusion-maximal).
D4  Finnish "If a player can not capture a card, he must trail" ([K]) is read as saying when one trails,
    not forbidding a trail to one who can capture ([I] above); the variant file reads it so too.

Comparison with the engine
--------------------------
``python benchmarks/reference_compare.py --reference nordic_reference --seeds 100`` (seeds 1-100, all 22
seatings): 437,903 positions compared, 225 left out as too large, 0 lossy, 0 disagreements. The house rules
(``reference_positions.run`` on ``examples/krypkasino-take-all.yaml`` and ``krypkasino-threes.yaml``, every
seating, seeds 1-20): 45,001 positions, 0 disagreements. So DECLARED and ENGINE_ERRORS are empty.
"""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path
from typing import Any, Callable, Iterable

VARIANTS = ("swedish-kasino", "finnish-kasino", "krypkasino", "kasino-misar")

#: House rules that extend a covered variant (examples/*.yaml), by file stem: (base variant, take all).
HOUSE_RULES = {"krypkasino-take-all": ("krypkasino", True), "krypkasino-threes": ("krypkasino", False)}

_RANKS = {"A": 1, "2": 2, "3": 3, "4": 4, "5": 5, "6": 6, "7": 7, "8": 8, "9": 9, "10": 10, "T": 10,
          "J": 11, "Q": 12, "K": 13}


def _game(variant: str) -> tuple[str, bool]:
    """(the covered game, whether a capture must take all the card can) for a variant name or path."""
    stem = Path(variant).stem if variant.endswith((".yaml", ".yml")) else variant
    if stem in HOUSE_RULES:
        return HOUSE_RULES[stem]
    if stem not in VARIANTS:
        raise ValueError(f"{variant!r}: not a Nordic variant this reference covers")
    return stem, False


def _rank_suit(card: str) -> tuple[int, str]:
    card = str(card).upper()
    return _RANKS[card[:-1]], card[-1]


def _hand_values(game: str, card: str) -> tuple[int, ...]:
    """The values a card played from the hand may count (one of them for a play)."""
    rank, suit = _rank_suit(card)
    if game == "swedish-kasino":
        return (1, 14) if rank == 1 else (rank,)                        # R4, D1
    if game == "finnish-kasino":
        if rank == 1:
            return (14,)                                                # R5 "A 14 1"
        if rank == 2 and suit == "S":
            return (15,)                                                # R5 "2 of spades ... 15 2"
        if rank == 10 and suit == "D":
            return (16,)                                                # R5 "10 of diamonds ... 16 10"
        return (rank,)
    return (14,) if rank == 1 else (rank,)                              # R6 krypkasino, kasino-misar


def _table_single(game: str, card: str) -> tuple[int, ...]:
    """The values a table card matches when taken alone (R2's single card of the capture value)."""
    rank, _ = _rank_suit(card)
    if game == "swedish-kasino" and rank == 1:
        return (1, 14)                                                  # R4, D1: a loose ace is 1 or 14
    return (rank,)                                                      # R5/R6: table A 1, 2S 2, 10D 10


def _table_sum(card: str) -> int:
    """A table card's value inside a set of two or more (R2): aces 1 (R4-R6), 2S 2, 10D 10."""
    return _rank_suit(card)[0]


def _captures(game: str, value: int, table: list[str]) -> set[int]:
    """Every non-empty set of table indices (as bit masks) that splits into disjoint groups worth ``value``
    (R2): a single card matching it, or two or more cards adding up to it."""
    n = len(table)
    groups: list[int] = []
    for mask in range(1, 1 << n):
        idx = [i for i in range(n) if mask >> i & 1]
        if len(idx) == 1:
            if value in _table_single(game, table[idx[0]]):
                groups.append(mask)
        elif sum(_table_sum(table[i]) for i in idx) == value:
            groups.append(mask)
    by_low: dict[int, list[int]] = {}
    for g in groups:
        by_low.setdefault(g & -g, []).append(g)
    good = {0}
    for mask in range(1, 1 << n):
        low = mask & -mask
        if any(g & mask == g and (mask ^ g) in good for g in by_low.get(low, ())):
            good.add(mask)
    good.discard(0)
    return good


def _names(table: list[str], mask: int) -> tuple[str, ...]:
    return tuple(sorted(table[i].upper() for i in range(len(table)) if mask >> i & 1))


def legal_moves(variant: str, case: dict[str, Any]) -> set[str]:
    """Every legal play of the scenario case's position for the seat ``to_play`` (scenario notation)."""
    game, take_all = _game(variant)
    if case.get("builds"):
        raise ValueError("a build in a Nordic game, which has no building (R1)")
    hand = [str(c).upper() for c in case.get("hand") or []]
    table = [str(c).upper() for c in case.get("table") or []]
    moves: set[str] = set()
    for card in dict.fromkeys(hand):                                    # R6: equal cards are one card for play
        masks: set[int] = set()
        for value in _hand_values(game, card):                          # D1: one value for the whole play
            masks |= _captures(game, value, table)
        if take_all:                                                    # R8, D3
            masks = {m for m in masks if not any(o != m and o & m == m for o in masks)}
        for names in {_names(table, m) for m in masks}:
            moves.add(f"{card} capture {' '.join(names)}")
        if not masks or game in ("swedish-kasino", "finnish-kasino"):   # R7, D2, D4
            moves.add(f"{card} trail")
    return moves


# Differences that are a reading the variant file chose knowingly: none (the engine follows D1-D4 as the
# variant files declare them, and the comparison found no disagreement).
DECLARED: tuple[tuple[str, str, Callable[[Any], bool]], ...] = ()

# Where the texts decide against the engine (the CI slice skips these and says so).
ENGINE_ERRORS: tuple[tuple[str, str, Callable[[Any], bool]], ...] = ()
