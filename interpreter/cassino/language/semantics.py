"""Checks a variant needs that a JSON Schema cannot state.

Each check reads the resolved, defaults-filled settings and reports, in the
same FILE:LINE:COL form as schema errors, a rule set that cannot be played:
a deal that needs more cards than the deck has, partnerships without four
seats, a build limit below the cards' values, a target nothing can reach.
"""

from __future__ import annotations

from typing import Any, Callable

from .cards import CardError, Deck
from ..errors import Diagnostic
from .rules import Rules
from .selectors import SelectorError, compile_selector

Locate = Callable[..., Diagnostic]


def check(data: dict[str, Any], rules: Rules, locate: Locate) -> list[Diagnostic]:
    out: list[Diagnostic] = []
    for checker in (_deck, _seats, _deal, _capture_build, _scoring, _game, _nordic_sweeps):
        out.extend(checker(data, rules, locate))
    return out


def _deck(data: dict[str, Any], rules: Rules, locate: Locate) -> list[Diagnostic]:
    out = []
    seen: dict[str, int] = {}
    for i, r in enumerate(rules.deck.ranks):
        if r.rank == "T":
            out.append(locate(("deck", "ranks", i, "rank"), "rank `T` is reserved: card names read T as 10",
                              hint="write the ten as \"10\""))
        if r.rank in seen:
            out.append(locate(("deck", "ranks", i, "rank"), f"rank `{r.rank}` is given twice (first as ranks[{seen[r.rank]}])"))
        seen.setdefault(r.rank, i)
    letters: dict[str, int] = {}
    for i, s in enumerate(rules.deck.suits):
        if s.letter in letters:
            out.append(locate(("deck", "suits", i, "letter"), f"suit letter `{s.letter}` is given twice"))
        letters.setdefault(s.letter, i)
    if out:
        return out
    deck = Deck.from_rules(rules.deck)
    for i, cv in enumerate(rules.deck.card_values):
        try:
            deck.parse(cv.card)
        except CardError as e:
            out.append(locate(("deck", "card_values", i, "card"), str(e)))
    return out


def _seats(data: dict[str, Any], rules: Rules, locate: Locate) -> list[Diagnostic]:
    s = rules.seats
    out = []
    if s.min_players > s.max_players:
        out.append(locate(("seats", "min_players"), f"min_players {s.min_players} is more than max_players {s.max_players}"))
    if s.partnerships == "always" and s.max_players < 4:
        out.append(locate(("seats", "partnerships"), f"partnerships need four seats, but max_players is {s.max_players}",
                          hint="set max_players: 4, or partnerships: never"))
    return out


def _deal(data: dict[str, Any], rules: Rules, locate: Locate) -> list[Diagnostic]:
    d, s = rules.deal, rules.seats
    n_cards = len(rules.deck.ranks) * len(rules.deck.suits)
    out = []
    for players in range(s.min_players, s.max_players + 1):
        first = d.table_cards + players * d.hand_size
        if first > n_cards:
            out.append(locate(("deal", "hand_size"),
                              f"the first deal needs {first} cards for {players} players "
                              f"({d.table_cards} to the table and {d.hand_size} each) but the deck has {n_cards}",
                              hint="deal fewer cards, or lower seats.max_players"))
            break
        rest = n_cards - first
        per_deal = players * d.hand_size
        if d.short_stock == "exact" and d.redeal == "when_hands_empty" and not d.draw_after_play and rest % per_deal:
            out.append(locate(("deal", "hand_size"),
                              f"with {players} players the deck does not deal out exactly: {rest} cards remain after "
                              f"the first deal, not a multiple of {per_deal}",
                              hint="set deal.short_stock: split_rest_to_table, or change hand_size or the player counts"))
            break
    if d.packet > d.hand_size:
        out.append(locate(("deal", "packet"), f"packets of {d.packet} are larger than a hand of {d.hand_size}"))
    if rules.capture.hand_cards_max > d.hand_size:
        out.append(locate(("capture", "hand_cards", "max"),
                          f"up to {rules.capture.hand_cards_max} cards played together, but a hand holds {d.hand_size}"))
    return out


def _capture_build(data: dict[str, Any], rules: Rules, locate: Locate) -> list[Diagnostic]:
    out = []
    b = rules.build
    deck = Deck.from_rules(rules.deck)
    top = deck.max_value()
    if b.max_value is not None and b.max_value < top:
        out.append(locate(("build", "max_value"),
                          f"build.max_value {b.max_value} is below the highest card value {top}: "
                          f"cards above it could never capture a build",
                          hint=f"set max_value to at least {top}, or null"))
    if b.valueless != "never" and all(deck.hand_values[i] for i in range(len(deck))):
        out.append(locate(("build", "valueless"), "builds of cards without a number value are allowed, "
                                                  "but every card in this deck has a value",
                          hint="set build.valueless: never"))
    if rules.capture.hand_cards_max > 1 and b.allowed:
        out.append(locate(("capture", "hand_cards", "max"),
                          "several hand cards played together is defined for captures only; "
                          "it cannot be combined with building",
                          hint="set build.allowed: false, or hand_cards.max: 1"))
    return out


def _scoring(data: dict[str, Any], rules: Rules, locate: Locate) -> list[Diagnostic]:
    out = []
    deck = Deck.from_rules(rules.deck)
    events = {e.name for e in rules.scoring.events}
    for item in rules.scoring.items:
        where = ("scoring", "items", item.name)
        if item.count in ("most", "each"):
            try:
                compile_selector(item.cards, deck.view)
            except SelectorError as e:
                out.append(locate(where + ("cards",), str(e).split("\n")[0]))
        if item.count == "event" and item.event not in events:
            out.append(locate(where + ("event",), f"scoring item `{item.name}` counts event `{item.event}`, "
                                                  f"which `scoring.events` does not define",
                              hint=f"defined events: {', '.join(sorted(events)) or 'none'}"))
        for card in item.order:
            try:
                deck.parse(card)
            except CardError as e:
                out.append(locate(where + ("order",), str(e)))
    for ev in rules.scoring.events:
        for i, sel in enumerate(ev.takes):
            try:
                compile_selector(sel, deck.view)
            except SelectorError as e:
                out.append(locate(("scoring", "events", ev.name, "takes", i), str(e).split("\n")[0]))
    return out


def _game(data: dict[str, Any], rules: Rules, locate: Locate) -> list[Diagnostic]:
    out = []
    g = rules.game
    names = {i.name for i in rules.scoring.items}
    for i, name in enumerate(g.count_out):
        if name not in names:
            out.append(locate(("game", "count_out", i), f"count_out names `{name}`, which is not a scoring item",
                              hint=f"scoring items: {', '.join(sorted(names))}"))
    for i, r in enumerate(rules.endgame.restrictions):
        for j, name in enumerate(r.only):
            if name not in names:
                out.append(locate(("endgame", "restrictions", i, "only", j),
                                  f"restriction at {r.score} names `{name}`, which is not a scoring item",
                                  hint=f"scoring items: {', '.join(sorted(names))}"))
        if g.target is not None and r.score >= g.target:
            out.append(locate(("endgame", "restrictions", i, "score"),
                              f"a restriction at {r.score} can never apply: the game ends at {g.target}"))
    if g.score_mode == "difference":
        out.extend(_difference_needs_two_sides(rules, locate))
    if g.both_reach == "count_out" and not g.count_out:
        out.append(locate(("game", "count_out"), "both_reach is count_out but count_out lists no items"))
    if g.target is not None and not any(i.points > 0 or any(s.points for s in i.by_size) for i in rules.scoring.items):
        out.append(locate(("scoring", "items"), f"the target {g.target} can never be reached: no scoring item scores points"))
    return out


def _difference_needs_two_sides(rules: Rules, locate: Locate) -> list[Diagnostic]:
    """000 (Variations, Scoring): the side with more points scores the difference "in a two player
    game (or a 4-player game with partners)": with three or more sides there is no one difference,
    so every player count the file allows must seat exactly two sides."""
    s = rules.seats
    many = [n for n in range(s.min_players, s.max_players + 1)
            if (2 if n == 4 and s.partnerships == "always" else n) > 2]
    if not many:
        return []
    counts = ", ".join(str(n) for n in many)
    alone = " (four may play without partners: seats.partnerships is optional)" if 4 in many and s.partnerships == "optional" else ""
    return [locate(("game", "score_mode"),
                   f"score_mode `difference` needs two sides, but this variant seats more than two with "
                   f"{counts} players{alone}",
                   hint="set seats.max_players: 2, or seats.min_players: 4 with partnerships: always; "
                        "or score_mode: cumulative")]


def _nordic_sweeps(data: dict[str, Any], rules: Rules, locate: Locate) -> list[Diagnostic]:
    """Finnish Kasino's sweep limits: each needs the setting it qualifies."""
    out = []
    if rules.endgame.sweeps_from_side == "any" and rules.endgame.sweeps_from is None:
        out.append(locate(("endgame", "sweeps_from_side"),
                          "sweeps_from_side is `any`, but endgame.sweeps_from is null: there is no score for it to read",
                          hint="set endgame.sweeps_from to a score, or sweeps_from_side: own"))
    d = rules.deal
    if not rules.sweeps.in_last_deal and d.redeal != "when_hands_empty" and not d.draw_after_play:
        out.append(locate(("sweeps", "in_last_deal"),
                          "in_last_deal is false, but the hand has only one deal: no sweep could ever count",
                          hint="set sweeps.in_last_deal: true, or deal.redeal: when_hands_empty"))
    return out
