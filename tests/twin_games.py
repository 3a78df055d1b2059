"""Twin games: a check of the engine that needs no second implementation.

Suits renamed. No rule of a bundled variant makes a play legal or illegal by a card's suit, except through
the values a rule file gives single cards (``deck.card_values``: Nordic Kasino's 2S and 10D) and where
capture piles are in play (``capture.from_piles``: the African games stack the cards a capture takes under
the capturing card in the deck's suit order, a declared reading, so which card is on top depends on the
suits). So a position with its suits renamed, the special cards' values kept, must list the same moves
with the same suits renamed, and every play after it must go the same way: the same cards taken, the same
sweeps, the same last capturer. The engine holds cards as bits of a mask ordered by suit within rank, and
walks them lowest bit first; a shortcut that leaned on that order (a first card, a tie broken by position)
would show here as a move listed in one game and not in its renamed twin.

Seats moved round the table. Nothing but the seats' order round the table (who deals, who plays next, who
partners whom) may depend on a seat's number: the same deal with every seat moved k places on (the dealer
too) must list the same moves at every turn, and end with each seat's points those of the seat k places on
in the twin, item by item. A rule that read seat 0 as the dealer's left, or a partner as the seat two on
in one direction only, would part the twins.

The twin games start from one deal: a game's first position written as a scenario case (every card placed
and the stock in order), read back through the scenario runner as ``cassino check`` reads it, once as
written and once as the twin's. Then a random legal move of the first (every action of a turn of several,
mid-turn positions too) is played in both, as the twin writes it, to the end of the hand.
"""

from __future__ import annotations

import random
import re
from itertools import permutations
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable

from cassino.engine.core import Engine
from cassino.engine.game import Game
from cassino.engine.scoring import Scorer
from cassino.engine.notation import cards_text, format_move
from cassino.engine.state import HandState
from cassino.errors import PositionTooLargeError
from cassino.language.variants import load_rules

from reference_positions import Reader, canonical, case_of

#: A card's text: a rank (digits or one letter) and a suit letter.
_CARD = re.compile(r"^(10|[0-9]|[A-Z])([A-Z])$")


def renamings(rules: Any) -> list[dict[str, str]]:
    """Every renaming of the deck's suits (but the identity) that gives each card a card of the same
    values: one that moves no card a rule file values on its own (``deck.card_values``) to a card valued
    otherwise (Nordic Kasino's four aces may change places, its 2S not). None where capture piles are in
    play (their order is the suits')."""
    if rules.capture.from_piles != "none":
        return []
    letters = [s.letter.upper() for s in rules.deck.suits]
    special = {c.card.upper(): (c.hand, c.table) for c in rules.deck.card_values}
    out = []
    for order in permutations(letters):
        suits = dict(zip(letters, order))
        if order != tuple(letters) and all(special.get(rename_card(card, suits)) == values
                                           for card, values in special.items()):
            out.append(suits)
    return out


def renaming(rules: Any, rnd: random.Random) -> dict[str, str]:
    """One of ``renamings`` drawn at random ({} where there is none)."""
    found = renamings(rules)
    return found[rnd.randrange(len(found))] if found else {}


def rename_card(card: str, suits: dict[str, str]) -> str:
    found = _CARD.match(card.upper())
    if found is None:
        return card
    rank, suit = found.groups()
    return rank + suits.get(suit, suit)


def rename_move(move: str, suits: dict[str, str]) -> str:
    """A move's text with every card's suit renamed (values, words and brackets kept)."""
    words = move.upper().replace("[", " [ ").replace("]", " ] ").split()
    out = ["+".join(rename_card(c, suits) for c in w.split("+")) if i == 0 else rename_card(w, suits)
           for i, w in enumerate(words)]
    return canonical(" ".join(out))


def rename_case(case: dict[str, Any], suits: dict[str, str]) -> dict[str, Any]:
    """A scenario case's position with every card's suit renamed."""
    cards = lambda names: [rename_card(n, suits) for n in names]   # noqa: E731
    out = dict(case)
    out["hand"] = cards(case["hand"])
    out["hands"] = {s: cards(h) for s, h in case["hands"].items()}
    out["table"] = cards(case["table"])
    out["builds"] = [dict(b, cards=cards(b["cards"])) for b in case["builds"]]
    out["captured"] = {s: cards(p) for s, p in case["captured"].items()}
    out["stock"] = cards(case["stock"])
    return out


def rotate_case(case: dict[str, Any], shift: int) -> dict[str, Any]:
    """A scenario case's position with every seat moved ``shift`` places on (the dealer and the seat to
    play too), every card where it was."""
    n = case["players"]
    seat = lambda s: (int(s) + shift) % n   # noqa: E731
    out = dict(case, to_play=seat(case["to_play"]), dealer=seat(case["dealer"]))
    out["hands"] = {seat(s): h for s, h in case["hands"].items()}
    out["captured"] = {seat(s): p for s, p in case["captured"].items()}
    out["builds"] = [dict(b, owner=seat(b["owner"]), holder=seat(b["holder"])) for b in case["builds"]]
    if "last_capture" in case:
        out["last_capture"] = seat(case["last_capture"])
    return out


@dataclass(frozen=True)
class Twin:
    """How a twin game differs from its game: its position (``case``), each move of the game as the twin
    writes it (``move``, canonical), each seat (``seat``), and whether the hand's points must agree
    seat for seat (``scores``: not where the suits are renamed, since points go by suits)."""

    label: str
    case: Callable[[dict[str, Any]], dict[str, Any]]
    move: Callable[[str], str]
    seat: Callable[[int], int]
    scores: bool


def renamed(suits: dict[str, str]) -> Twin:
    """The twin with the suits renamed."""
    return Twin("suits " + ", ".join(f"{a}->{b}" for a, b in sorted(suits.items())),
                lambda case: rename_case(case, suits), lambda move: rename_move(move, suits), lambda seat: seat,
                False)


def rotated(shift: int, players: int) -> Twin:
    """The twin with every seat ``shift`` places on."""
    return Twin(f"seats +{shift}", lambda case: rotate_case(case, shift), canonical,
                lambda seat: (seat + shift) % players, True)


#: The kinds of twin: the suits renamed, the seats moved round the table (whole hands, ``twin_hand``), or the
#: builds on the table listed in another order (single positions, ``builds_reordered``).
KINDS = ("suits", "seats", "builds")


@dataclass(frozen=True)
class Difference:
    """Where the twin parted from its game."""

    variant: str
    players: int
    partners: bool
    seed: int
    ply: int
    twin: str
    what: str

    def __str__(self) -> str:
        return (f"{self.variant} {self.players}p{' partners' if self.partners else ''} seed {self.seed} ply "
                f"{self.ply} ({self.twin}): {self.what}")


@dataclass
class Tally:
    hands: int = 0
    positions: int = 0
    moves: int = 0
    skipped: int = 0          # hands with no renaming the rules allow, or a position too large to list
    found: list[Difference] = field(default_factory=list)


def _read(reader: Reader, variant: str, base: Path | None,
          case: dict[str, Any]) -> tuple[Engine, Scorer, HandState]:
    """A case's position read as ``cassino check`` reads it (``base``: the folder a rule file's path is
    relative to, as a scenario file's folder is; None: the current folder)."""
    rules, engine, scorer = reader.runner.variant(variant, Path.cwd() if base is None else base)
    return engine, scorer, reader.runner.position(case, {"variant": variant}, rules, engine)[0]


def _seen(engine: Engine, state: HandState, twin: Twin | None) -> list[tuple[str, object]]:
    """What the compared positions must share, as the twin would see the game's (``twin``; None: as it is)."""
    seat = twin.seat if twin else (lambda s: s)
    card = twin.move if twin else canonical   # (a card alone is a one-word move: renamed, upper case)
    piles: dict[int, list[str]] = {seat(s): sorted(card(c) for c in cards_text(engine.deck, p))
                                   for s, p in enumerate(state.piles)}
    return [("seat to play", seat(state.turn)),
            ("last capturer", None if state.last_capturer is None else seat(state.last_capturer)),
            ("sweeps", [(seat(w.seat), w.size, w.cancelled) for w in state.sweeps]),
            ("cards taken", sorted(piles.items()))]


def twin_hand(reader: Reader, variant: str, players: int, partners: bool, seed: int, tally: Tally,
              base: Path | None = None, suits: dict[str, str] | None = None, kind: str = "suits") -> None:
    """One hand of ``variant`` and its twin, from the deal of ``seed``, compared at every ply, and at its end
    the points where the twin keeps them (``variant``: a bundled name, or a rule file's path relative to
    ``base``; ``kind``: the suits renamed, by ``suits`` or one of ``renamings`` drawn at random, or the seats
    moved a random number of places round the table)."""
    rules = load_rules(variant if base is None else base / variant)
    rnd = random.Random(seed)
    if kind == "seats":
        twin = rotated(rnd.randrange(1, players), players)
    else:
        drawn = renaming(rules, rnd)
        suits = drawn if suits is None else suits
        if not suits:
            tally.skipped += 1
            return
        twin = renamed(suits)
    engine = Engine(rules)
    case = case_of(engine, Game.new(engine, seed, players, partners).hand)
    engine_a, scorer_a, a = _read(reader, variant, base, case)
    engine_b, scorer_b, b = _read(reader, variant, base, twin.case(case))
    where = (variant, players, partners, seed)
    tally.hands += 1
    ply = 0
    while not a.over:
        if b.over:
            tally.found.append(Difference(*where, ply, twin.label, "the twin's hand ended first"))
            return
        try:
            listed_a = engine_a.legal_moves(a)
            listed_b = engine_b.legal_moves(b)
        except PositionTooLargeError:
            tally.skipped += 1
            return
        texts_a = {twin.move(format_move(m, engine_a.deck)): m for m in listed_a}
        texts_b = {canonical(format_move(m, engine_b.deck)): m for m in listed_b}
        tally.positions += 1
        tally.moves += len(texts_a)
        if texts_a.keys() != texts_b.keys():
            only_a = sorted(texts_a.keys() - texts_b.keys())[:4]
            only_b = sorted(texts_b.keys() - texts_a.keys())[:4]
            tally.found.append(Difference(*where, ply, twin.label,
                                          f"listed in the game only (as the twin writes it): {only_a}; "
                                          f"in the twin only: {only_b}"))
            return
        chosen = listed_a[rnd.randrange(len(listed_a))]
        a = engine_a.apply(a, chosen)
        b = engine_b.apply(b, texts_b[twin.move(format_move(chosen, engine_a.deck))])
        ply += 1
        for (label, x), (_, y) in zip(_seen(engine_a, a, twin), _seen(engine_b, b, None)):
            if x != y:
                tally.found.append(Difference(*where, ply, twin.label, f"{label}: {x} in the game, {y} in the twin"))
                return
    if not b.over:
        tally.found.append(Difference(*where, ply, twin.label, "the game's hand ended first"))
    elif twin.scores:
        points_a, items_a = scorer_a.hand_points(a)
        points_b, items_b = scorer_b.hand_points(b)
        for s in range(players):
            t = twin.seat(s)
            got_a = (points_a[a.teams[s]], {i: p.get(a.teams[s]) for i, p in items_a.items()})
            got_b = (points_b[b.teams[t]], {i: p.get(b.teams[t]) for i, p in items_b.items()})
            if got_a != got_b:
                tally.found.append(Difference(*where, ply, twin.label, f"seat {s}'s points: {got_a} in the game, "
                                                                      f"seat {t}'s {got_b} in the twin"))
                return


def builds_reordered(reader: Reader, variant: str, players: int, partners: bool, seed: int, tally: Tally,
                     base: Path | None = None) -> None:
    """Every turn's start of a random hand of ``variant`` (seed ``seed``) with two builds or more on the table,
    read back as a scenario case once as written and once with its builds listed in another order (reversed,
    and the first moved last): the same moves. A move names a build by its cards, never by its place, and no
    rule asks which build was made first; the state keeps them in a list all the same (a changed build goes
    last), so a rule that read the list's order would show here. (``variant``, ``base``: as ``twin_hand``'s.)"""
    rules = load_rules(variant if base is None else base / variant)
    engine = Engine(rules)
    game = Game.new(engine, seed, players, partners)
    rnd = random.Random(seed)
    tally.hands += 1
    ply = 0
    while not game.over and game.hand_no == 1:
        h = game.hand
        if len(h.builds) >= 2 and not h.turn_card:
            case = case_of(engine, h)
            try:
                engine_a, _, a = _read(reader, variant, base, case)
                listed = {canonical(format_move(m, engine_a.deck)) for m in engine_a.legal_moves(a)}
                for label, order in (("reversed", case["builds"][::-1]), ("the first last", case["builds"][1:] +
                                                                          case["builds"][:1])):
                    engine_b, _, b = _read(reader, variant, base, dict(case, builds=order))
                    other = {canonical(format_move(m, engine_b.deck)) for m in engine_b.legal_moves(b)}
                    tally.moves += len(listed)
                    if listed != other:
                        tally.found.append(Difference(
                            variant, players, partners, seed, ply, f"builds {label}",
                            f"listed as written only: {sorted(listed - other)[:4]}; reordered only: "
                            f"{sorted(other - listed)[:4]}"))
                        return
                tally.positions += 1
            except PositionTooLargeError:
                tally.skipped += 1
        moves = game.playable_moves()
        game = game.play(moves[rnd.randrange(len(moves))])
        ply += 1


def run(seatings: list[tuple[str, int, bool]], seeds: range, reader: Reader | None = None,
        base: Path | None = None, tally: Tally | None = None, kind: str = "suits") -> Tally:
    """Every seating's hands from each seed, each with its twin (``base``, ``kind``: as ``twin_hand``'s, and
    ``"builds"``: ``builds_reordered``)."""
    reader = reader or Reader()
    tally = tally if tally is not None else Tally()
    for variant, players, partners in seatings:
        for seed in seeds:
            if kind == "builds":
                builds_reordered(reader, variant, players, partners, seed, tally, base)
            else:
                twin_hand(reader, variant, players, partners, seed, tally, base, kind=kind)
    return tally
