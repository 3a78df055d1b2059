"""A second, clean-room implementation of the legal plays of the Scopa family: Scopa, Scopone and Escoba.

Written from public rule pages alone (not from the project's engine), to be compared with the engine on
random positions (``tests/reference_positions.py``). It imports nothing from ``cassino``. The pages are
the ones the variant files cite (``variants/scopa.yaml``, ``scopone.yaml``, ``escoba.yaml``, and
``docs/sources.md``), read through the stored-pages search; quotations are short.

Sources
-------
[Lw]  linnetwoods.com "Scopa" (http://www.linnetwoods.com/fun_with_freeware_1/games/scopa.html)
[Mg]  marieganslandt.se "scopa-cards" (fragments of pagat.com's Scopa / Scopone text)
[Sw]  siciliansintheworld.com "Scopa (Scupa)" (the Wikipedia "Rules" section; also at zalansite.site)
[Bb]  blackjack-baccarat.net "Scopa in due"
[Ga]  gameaccount.com "Scopa" instructions
[E2]  everything2.com "Scopone"; [Ld] ludopoli.us "Scopone scientifico Rules"; [Ts] totalshareware.com notes
[Mj]  magnojuegos.com "Scopone scientifico - reglas"
[Nc]  naipes-casino.com.ar "Escoba de 15 - Reglas generales"; [Mo] magnojuegos.com "Escoba del 15 - reglas"
[Aj]  aprenderjuegoscartas.blogspot.com "La Escoba"; [Yo] yogonet.com "Escoba de 15"
[V]   the variant files' own settings and readings, followed where the pages are silent; each use says so.

Position
--------
A scenario case (docs/scenarios.md): ``hand`` (the cards of ``to_play``), ``table`` (loose cards). Cards are
RANK+SUIT with ranks A 2 3 4 5 6 7 J Q K (the 40-card Italian / Spanish pack written with French suit
letters, [V]). No building exists in the family, so ``builds`` is always empty; hands of other seats,
piles, partnerships, the dealer and the stock change no legal play (R7).

Rules implemented
-----------------
R1  Values. [Lw] "Each Re/King counts 10, each Cavallo/Knight 9, each Fante/Page 8, each Asso/Ace. 1, and
    each other card its numerical value"; [Nc] (Escoba) "asignando a las sotas el valor de 8, a los
    caballos 9 y a los reyes 10. Las demás cartas tienen el valor que expresa su número".
R2  A turn is one card. [Lw] "A turn consists of playing one card face up to the table, which may capture
    one or more table cards ... If there is no capture the played card remains face up on the table."
R3  Scopa: equal card. [Lw] "If the numerical value of the card played matches that of a table card, the
    table card is captured; If the card played matches more than one table card, then just one of the
    matching table cards is captured - the player of the capturing card chooses which". Listed: ``c capture
    t`` for each table card t of c's value.
R4  Scopa: a set only when no card is equal. [Lw] "If the card played does not match any table card, but
    its numerical value is equal to the sum of the values of two or more table cards, then that set of
    table cards is captured - if there are several possible sets ..." (the player chooses one); [Sw] "by
    matching a card ... to a card of the same value on the table, or if that is not possible, by matching
    ... to the sum of the values of two or more cards"; [Mg] "Playing a Fante jack captures the one on the
    table - the player is not allowed to take the 5 and the 3 instead"; [Ga] "the player is generally free
    to choose which cards to capture, if there are several value combinations available ... either the 5
    and 4 or the 7 and 2". Listed: every set of two or more table cards adding up to c's value, one set a
    capture (several_groups: false in [V]), and only when no table card equals c.
R5  Scopa: a card that can capture must. [Sw] "Note that it is not legal to place a card on the table that
    has the ability to" capture; [Bb] "La carta giocata ha diritto e dovere di prendere" (the card played has
    the right and the duty to take). Read card by card (D1): ``c trail`` is listed only for a card c that
    captures nothing; another card of the hand may still be trailed while c could capture.
R6  Escoba: fifteen. [Nc] "El juego consiste en formar la cantidad 15 contando el valor de algunas de las
    cartas que se tienen en la mano y el de una o más de las tendidas boca arriba"; "si el jugador tienen en
    la mano un caballo, con èl podrá tomar de la mesa un seis (si lo hay), o bien un cuatro y un dos, o un
    cinco y un as" (the 9 with a lone 6: one table card is enough); "con una de sus cartas y otra u otras de
    las de la mesa debe formar la cifra 15". Listed: every non-empty set S of table cards with
    value(c) + sum(S) = 15, one set a capture; no equal-card priority ([V] equal_card_first: false; [Nc]
    names the lone 6 and the 4+2 side by side as choices).
R7  Escoba: trailing is always allowed. [Yo] "Si, por el contrario, el jugador no logra sumar quince puntos
    con ninguna combinación, debe dejar una de sus cartas sobre la mesa"; [V] ``compulsory: never`` after
    [Si] (solitalian.it) "non c'è nessun obbligo di prendere carte ... il giocatore può decidere di
    scartare". ``c trail`` is listed for every card of the hand (D2).
R8  Scopone is Scopa for four in two partnerships. [E2] "It is always played in couples ... you start the
    game with a hand of nine cards, and four cards on the table"; [Ts] "The basic rules are the SCOPA
    ones"; [Ld] "If on the table there's a card whose value is the same as the card played, then the player
    can collect the card". Partners share a pile and the score; nothing of the partnership changes which
    card may take what, so Scopone's legal plays are R3-R5.

Readings where a text is ambiguous or the texts differ
------------------------------------------------------
D1  Compulsory capture, card by card (R5). [Sw] forbids placing on the table "a card ... that has the
    ability to" capture; it does not oblige a player holding such a card to play it. Another reading
    (seen on howdoyouplayit.com: the player "must either make that match or play a new card from their
    hand") agrees. [V] scopa.yaml takes the same (``compulsory: when_card_can_capture``: "no source forbids
    playing another card that takes nothing").
D2  Escoba: no compulsory capture (R7); the files agree ([V] ``compulsory: never``).
D3  Scopone: the fewest-cards rule. [Mj] (Scopone) says "es obligatorio tomar la combinación con el menor
    número de cartas" (and boardgamearena's Scopa help says the same). [V] scopone.yaml cites [Mj] only for
    the direction of play and inherits Scopa's capture (any one set); [Lw], [Ga] and [Ts] ("the basic rules
    are the SCOPA ones") leave the choice of set free. This reference follows [Lw]/[Ga]: any set (R4).
D4  Scopa with several equal cards on the table takes exactly one ([Lw]); taking two equal cards as a "set"
    is not a sum of two or more cards worth c's value, so it never arises (two 5s sum to 10: a king may take
    both, [Mg] "Playing a Re king captures both 5s", which is R4 since no king lies on the table).
D5  Escoba's first-play "escoba de mano" (the dealer's or the first player's taking of an initial table of
    15, [Aj], [Mo]) and Scopa's misdeal with three kings ([Lw]) happen at the deal, before any play: they
    are no listed move.

Compared with the variant files
-------------------------------
Agree on every point above (R3-R8, D1-D5). No reading is declared as a knowing difference (``DECLARED``
is empty); ``ENGINE_ERRORS`` lists the disagreements in which the texts are read against the engine
(none found). ``benchmarks/reference_compare.py --reference scopa_reference --seeds 600`` (seeds 1-600 of
every seating): 1,236,948 positions compared (4,077,938 engine moves), 12 left out as too large, 0 lossy,
0 disagreements.
"""

from __future__ import annotations

from itertools import combinations
from typing import Any, Callable

__all__ = ["VARIANTS", "DECLARED", "ENGINE_ERRORS", "legal_moves", "value"]

VARIANTS = ("scopa", "scopone", "escoba")

# R1
_VALUES: dict[str, int] = {"A": 1, "2": 2, "3": 3, "4": 4, "5": 5, "6": 6, "7": 7, "J": 8, "Q": 9, "K": 10}
_SUITS = frozenset("DHSC")

#: The capture total of a variant (Escoba, R6), or None: the card's own value (Scopa, Scopone).
_TOTAL: dict[str, int | None] = {"scopa": None, "scopone": None, "escoba": 15}

#: (name, the reading a variant file declares, test(disagreement) -> bool): none.
DECLARED: tuple[tuple[str, str, Callable[[Any], bool]], ...] = ()

#: (name, why the engine is read as wrong, test(disagreement) -> bool): none found so far.
ENGINE_ERRORS: tuple[tuple[str, str, Callable[[Any], bool]], ...] = ()


def value(card: str) -> int:
    """R1: a card's capture value."""
    card = str(card).upper()
    rank, suit = card[:-1], card[-1:]
    if suit not in _SUITS or rank not in _VALUES:
        raise ValueError(f"not a card of the 40-card pack: {card!r}")
    return _VALUES[rank]


def _cards(case: dict[str, Any], key: str) -> list[str]:
    cards = case.get(key) or []
    if not isinstance(cards, list):
        raise ValueError(f"case {key!r}: expected a list of cards, got {cards!r}")
    out = [str(c).upper() for c in cards]
    for c in out:
        value(c)
    return out


def _sets(table: list[str], target: int, smallest: int) -> list[tuple[str, ...]]:
    """Every set of `smallest` or more table cards whose values add up to `target`."""
    found = []
    for n in range(smallest, len(table) + 1):
        for group in combinations(table, n):
            if sum(value(c) for c in group) == target:
                found.append(group)
    return found


def _scopa(hand: list[str], table: list[str]) -> set[str]:
    moves: set[str] = set()
    for c in hand:
        v = value(c)
        equal = [t for t in table if value(t) == v]
        if equal:
            captures = [(t,) for t in equal]        # R3: one of the equal cards, the player's choice
        else:
            captures = _sets(table, v, 2)           # R4: one set of two or more cards, only without an equal card
        for group in captures:
            moves.add(f"{c} capture {' '.join(group)}")
        if not captures:
            moves.add(f"{c} trail")                 # R5 / D1: only a card that can take nothing is trailed
    return moves


def _escoba(hand: list[str], table: list[str], total: int) -> set[str]:
    moves: set[str] = set()
    for c in hand:
        for group in _sets(table, total - value(c), 1):   # R6: the card and one or more table cards make 15
            moves.add(f"{c} capture {' '.join(group)}")
        moves.add(f"{c} trail")                            # R7 / D2: trailing is always allowed
    return moves


def legal_moves(variant: str, case: dict[str, Any]) -> set[str]:
    """Every legal play of the scenario case's position for the seat ``to_play``, in the scenario notation."""
    if variant not in _TOTAL:
        raise ValueError(f"{variant!r}: not a variant of this reference ({', '.join(VARIANTS)})")
    if not isinstance(case, dict):
        raise ValueError(f"case: expected a mapping, got {type(case).__name__}")
    if case.get("builds"):
        raise ValueError("the Scopa family has no builds")
    hand, table = _cards(case, "hand"), _cards(case, "table")
    total = _TOTAL[variant]
    return _escoba(hand, table, total) if total is not None else _scopa(hand, table)
