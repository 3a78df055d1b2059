"""The learning aids read no hidden card: the ``blind`` consumer of the matrix (:mod:`.matrix`).

What a seat is told (the warnings before its move, its counting aid, the tutorial's word before it chooses, the
hint) may name cards it cannot see, as possibilities ("seat 1 may take it with 10D" where 10D is the one ten it has
not seen), never as facts read from where they lie. So the words must be the same whichever way the cards hidden
from that seat are dealt among the other hands and the stock (``knowledge.determinize``: the seat's own view, a
seat holding a build still given a card of its value). :func:`check` deals them again a few times and compares.

The hand's earlier positions (``Game.log``: the search reads the others' moves from them) are dealt the same way
(:func:`redealt`), so an aid that read a hidden card of an earlier position is caught too.
"""

from __future__ import annotations

import random
import re
from typing import Any, Callable, Iterable

from ...engine.core import bits
from ...engine.game import Game
from ...engine.moves import Move
from ...engine.notation import format_move
from ...engine.state import HandState
from ...players.knowledge import determinize, held_values, must_hold
from ..learning.counting import count_for
from ..learning.tutorial import Tutorial
from ..learning.warnings import warnings_for


def hidden_names(game: Game, viewer: int | None) -> set[str]:
    """The names of the cards hidden from ``viewer`` (None: a watcher): the other hands and the stock; with two packs a
    name only where no copy of it is in sight."""
    engine, hand = game.engine, game.hand
    deck = engine.deck
    hidden = sum(1 << i for i in hand.stock)
    for other in range(hand.players):
        if other != viewer:
            hidden |= hand.hands[other]
    return ({str(deck.cards[i]) for i in bits(hidden)}
            - {str(deck.cards[i]) for i in bits(~hidden & ((1 << engine.n_cards) - 1))})


def named(forms: Iterable[str], text: str) -> list[str]:
    """The ``forms`` (cards' names as shown) that ``text`` names as words of their own, sorted."""
    return sorted(form for form in set(forms) if re.search(rf"(?<![0-9A-Za-z]){re.escape(form)}(?![0-9A-Za-z])", text))


#: Deals drawn for each one compared, at most: those the moves seen rule out are drawn again.
TRIES = 8


def redealt(game: Game, seat: int, rng: random.Random) -> Game | None:
    """``game`` with the cards hidden from ``seat`` dealt again: its hand, the table, builds and piles as they are,
    and the hand's earlier positions (``Game.log``) dealt the same way. The new deal swaps each hidden card for
    another (``swap``: a card of another seat's hand for one the redeal gave that seat, the stock's place by place);
    every card hidden now was hidden before too (nothing goes back into a hand or the stock), so the earlier
    positions take the same swap, and everything the seat saw, every move played included, stays as it was.

    The deal keeps what the moves of the deal show (``knowledge.held_values``: a seat that built a 7 held a 7 then,
    and still does if it has played none since, though its build was taken since), and a seat's cards that capture a
    value it must hold take the places of the cards it has held longest (where the players draw after every play, a
    card drawn after a build was not in the hand that made it), then a card dealt to it again keeps its own place.
    None where the swap still makes a move of the hand illegal where it was played (0.5% of the redeals of random
    Draw Casino positions with four players: a played card keeps the time it was drawn, so a seat that built a 10
    with one 10 and played another later must hold a 10 in this swap, which the deal need not give it): a deal the
    moves seen rule out is no deal the seat could be in."""
    hand = game.hand
    held = held_values(game.engine, hand, game.log, seat)
    again = determinize(game.engine, hand, seat, rng, held=held)
    swap: dict[int, int] = {}
    for other in range(hand.players):
        if other != seat:
            old, (new, needed) = _longest_held(game, other), _needed_first(game, again, other, held)
            swap.update(zip(old[:needed], new[:needed]))   # (a card of a value it must hold: in its hand longest)
            old, new = old[needed:], new[needed:]
            kept = set(old) & set(new)   # (then a card dealt to the seat again keeps its own place)
            swap.update((i, i) for i in kept)
            swap.update(zip([i for i in old if i not in kept], [i for i in new if i not in kept]))
    swap.update(zip(hand.stock, again.stock))

    def moved(state: HandState) -> HandState:
        hands = []
        for k, cards in enumerate(state.hands):
            if k == seat:
                hands.append(cards)
                continue
            kept = 0
            for i in bits(cards):
                kept |= 1 << swap.get(i, i)
            hands.append(kept)
        return state.with_hidden(tuple(hands), tuple(swap.get(i, i) for i in state.stock))

    chain = []
    node = game.log
    engine = game.engine
    while node is not None:
        node, position, move = node
        position = moved(position)
        if not engine.is_legal(position, move):
            return None
        chain.append((position, move))
    log = None
    for position, move in reversed(chain):
        log = (log, position, move)
    return game.with_(hand=again, log=log)


def _longest_held(game: Game, seat: int) -> list[int]:
    """``seat``'s cards, those it has held longest first (where the players draw after every play, a card drawn
    after a build was not in the hand that made it), then in deck order."""
    cards = bits(game.hand.hands[seat])
    since = dict.fromkeys(cards, game.hand.ply)
    node = game.log
    while node is not None:
        node, position, _ = node
        for i in cards:
            if position.hands[seat] >> i & 1:
                since[i] = position.ply
    return sorted(cards, key=lambda i: (since[i], i))


def _needed_first(game: Game, again: HandState, seat: int,
                  held: tuple[frozenset[int | str], ...]) -> tuple[list[int], int]:
    """``seat``'s cards in the new deal, those that capture a value it must hold (a build it holds, a value proven or
    shown by its builds, ``held``) first, the value needed longest first, then in deck order; and how many capture
    one: they take the places of the cards held longest (``_longest_held``)."""
    needed = dict.fromkeys(must_hold(again, seat, held), again.ply)
    node = game.log
    while node is not None and needed:   # (the earliest position since which the seat has held a build of each value)
        node, position, _ = node
        if position.deal_no != again.deal_no:
            break
        for b in position.builds:
            if b.holder == seat and b.value in needed:
                needed[b.value] = min(needed[b.value], position.ply)
    engine = game.engine
    never = again.ply + 1

    def since(i: int) -> int:
        return min((needed[v] for v in engine.captured_values(1 << i) if v in needed), default=never)

    cards = sorted(bits(again.hands[seat]), key=lambda i: (since(i), i))
    return cards, sum(1 for i in cards if since(i) < never)


def said(game: Game, seat: int, move: Move, hint: Callable[[Game], Move] | None,
         tutorial: Tutorial | None) -> dict[str, Any]:
    """What each aid tells ``seat`` (the seat to move, about to play ``move``) at ``game``."""
    words: dict[str, Any] = {
        "warnings": [w.to_json() for w in warnings_for(game, move)],
        "counting": count_for(game, seat).to_json(),
    }
    if tutorial is not None:
        words["tutorial"] = [lesson.text for lesson in tutorial.before(game)[1]]
    if hint is not None:
        words["hint"] = format_move(hint(game), game.engine.deck)
    return words


def check(game: Game, move: Move, seed: int, deals: int = 2, hint: Callable[[Game], Move] | None = None,
          tutorial: Tutorial | None = None) -> None:
    """AssertionError naming the aid and what changed where an aid's words for the seat to move at ``game`` change
    when the cards hidden from it are dealt again (``deals`` times, from ``seed``)."""
    seat = game.hand.turn
    rng = random.Random(seed)
    real = said(game, seat, move, hint, tutorial)
    drawn = 0
    for _ in range(deals * TRIES):
        if drawn == deals:
            break
        other = redealt(game, seat, rng)
        if other is None:
            continue    # (a deal the moves seen rule out)
        drawn += 1
        if other.hand == game.hand:
            continue    # (nothing hidden, or only one way to deal it)
        again = said(other, seat, move, hint, tutorial)
        for aid, words in real.items():
            if again[aid] != words:
                raise AssertionError(f"the {aid} told seat {seat} {words!r}, but {again[aid]!r} with the cards "
                                     f"hidden from it dealt otherwise: it reads where they lie")
