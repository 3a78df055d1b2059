"""Suits renamed: a check of the engine that needs no second implementation.

No rule of a bundled variant makes a play legal or illegal by a card's suit, except through the values a
rule file gives single cards (``deck.card_values``: Nordic Kasino's 2S and 10D) and where capture piles are
in play (``capture.from_piles``: the African games stack the cards a capture takes under the capturing card
in the deck's suit order, a declared reading, so which card is on top depends on the suits). So a
position with its suits renamed, the special cards' suits kept, must list the same moves with the same
suits renamed, and
every play after it must go the same way: the same cards taken, the same sweeps, the same last capturer.
The engine holds cards as bits of a mask ordered by suit within rank, and walks them lowest bit first; a
shortcut that leaned on that order (a first card, a tie broken by position) would show here as a move
listed in one game and not in its renamed twin.

The twin games start from one deal: a game's first position written as a scenario case (every card placed
and the stock in order), read back through the scenario runner as ``cassino check`` reads it, once as
written and once with the suits renamed. Then a random legal move of the first (every action of a turn of
several, mid-turn positions too) is played in both, renamed, to the end of the hand.
"""

from __future__ import annotations

import random
import re
from itertools import permutations
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from cassino.engine.core import Engine
from cassino.engine.game import Game
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


@dataclass(frozen=True)
class Difference:
    """Where the renamed twin parted from its game."""

    variant: str
    players: int
    partners: bool
    seed: int
    ply: int
    suits: tuple[tuple[str, str], ...]
    what: str

    def __str__(self) -> str:
        renamed = ", ".join(f"{a}->{b}" for a, b in self.suits)
        return (f"{self.variant} {self.players}p{' partners' if self.partners else ''} seed {self.seed} ply "
                f"{self.ply} (suits {renamed}): {self.what}")


@dataclass
class Tally:
    hands: int = 0
    positions: int = 0
    moves: int = 0
    skipped: int = 0          # hands with no two free suits, or a position too large to list
    found: list[Difference] = field(default_factory=list)


def _piles(engine: Engine, state: HandState, suits: dict[str, str] | None = None) -> list[list[str]]:
    names = [cards_text(engine.deck, p) for p in state.piles]
    return [sorted(rename_card(c, suits) if suits else c for c in n) for n in names]


def _read(reader: Reader, variant: str, base: Path | None, case: dict[str, Any]) -> tuple[Engine, HandState]:
    """A case's position read as ``cassino check`` reads it (``base``: the folder a rule file's path is
    relative to, as a scenario file's folder is; None: the current folder)."""
    if base is None:
        return reader.state(variant, case)
    rules, engine, _ = reader.runner.variant(variant, base)
    return engine, reader.runner.position(case, {"variant": variant}, rules, engine)[0]


def twin_hand(reader: Reader, variant: str, players: int, partners: bool, seed: int, tally: Tally,
              base: Path | None = None, suits: dict[str, str] | None = None) -> None:
    """One hand of ``variant`` and its renamed twin, from the deal of ``seed``, compared at every ply
    (``variant``: a bundled name, or a rule file's path relative to ``base``; ``suits``: the renaming,
    where not one of ``renamings`` drawn at random)."""
    rules = load_rules(variant if base is None else base / variant)
    rnd = random.Random(seed)
    drawn = renaming(rules, rnd)
    suits = drawn if suits is None else suits
    if not suits:
        tally.skipped += 1
        return
    engine = Engine(rules)
    start = Game.new(engine, seed, players, partners).hand
    case = case_of(engine, start)
    engine_a, a = _read(reader, variant, base, case)
    engine_b, b = _read(reader, variant, base, rename_case(case, suits))
    where = (variant, players, partners, seed)
    named = tuple(sorted(suits.items()))
    tally.hands += 1
    ply = 0
    while not a.over:
        if b.over:
            tally.found.append(Difference(*where, ply, named, "the twin's hand ended first"))
            return
        try:
            listed_a = engine_a.legal_moves(a)
            listed_b = engine_b.legal_moves(b)
        except PositionTooLargeError:
            tally.skipped += 1
            return
        texts_a = {rename_move(format_move(m, engine_a.deck), suits): m for m in listed_a}
        texts_b = {canonical(format_move(m, engine_b.deck)): m for m in listed_b}
        tally.positions += 1
        tally.moves += len(texts_a)
        if texts_a.keys() != texts_b.keys():
            only_a = sorted(texts_a.keys() - texts_b.keys())[:4]
            only_b = sorted(texts_b.keys() - texts_a.keys())[:4]
            tally.found.append(Difference(*where, ply, named,
                                          f"listed in the game only (renamed): {only_a}; in the twin only: {only_b}"))
            return
        chosen = listed_a[rnd.randrange(len(listed_a))]
        a = engine_a.apply(a, chosen)
        b = engine_b.apply(b, texts_b[rename_move(format_move(chosen, engine_a.deck), suits)])
        ply += 1
        for label, x, y in (("seat to play", a.turn, b.turn), ("last capturer", a.last_capturer, b.last_capturer),
                            ("sweeps", [(w.seat, w.size, w.cancelled) for w in a.sweeps],
                             [(w.seat, w.size, w.cancelled) for w in b.sweeps]),
                            ("cards taken", _piles(engine_a, a, suits), _piles(engine_b, b))):
            if x != y:
                tally.found.append(Difference(*where, ply, named, f"{label}: {x} in the game, {y} in the twin"))
                return
    if not b.over:
        tally.found.append(Difference(*where, ply, named, "the game's hand ended first"))


def run(seatings: list[tuple[str, int, bool]], seeds: range, reader: Reader | None = None,
        base: Path | None = None, tally: Tally | None = None) -> Tally:
    """Every seating's hands from each seed, each with its renamed twin (``base``: as ``twin_hand``'s)."""
    reader = reader or Reader()
    tally = tally if tally is not None else Tally()
    for variant, players, partners in seatings:
        for seed in seeds:
            twin_hand(reader, variant, players, partners, seed, tally, base)
    return tally
