"""The learning aids read no hidden card: the ``blind`` consumer of the matrix (:mod:`.matrix`).

What a seat is told (the warnings before its move, its counting aid, the tutorial's word before it chooses, the
hint) may name cards it cannot see, as possibilities ("seat 1 may take it with 10D" where 10D is the one ten it has
not seen), never as facts read from where they lie. So the words must be the same whichever way the cards hidden
from that seat are dealt among the other hands and the stock (``knowledge.determinize``: the seat's own view, a
seat holding a build still given a card of its value). :func:`check` deals them again a few times and compares.

The hand's earlier positions (``Game.log``) are kept as they were: an aid that read a hidden card of an earlier
position would not be caught here, only one that reads the hand as it stands.
"""

from __future__ import annotations

import random
from typing import Any, Callable

from ...engine.game import Game
from ...engine.moves import Move
from ...engine.notation import format_move
from ...players.knowledge import determinize
from ..learning.counting import count_for
from ..learning.tutorial import Tutorial
from ..learning.warnings import warnings_for


def redealt(game: Game, seat: int, rng: random.Random) -> Game:
    """``game`` with the cards hidden from ``seat`` dealt again (its hand, the table, builds and piles as they
    are; the hand's history kept)."""
    return game.with_(hand=determinize(game.engine, game.hand, seat, rng), log=game.log)


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
    for _ in range(deals):
        other = redealt(game, seat, rng)
        if other.hand == game.hand:
            continue    # (nothing hidden, or only one way to deal it)
        again = said(other, seat, move, hint, tutorial)
        for aid, words in real.items():
            if again[aid] != words:
                raise AssertionError(f"the {aid} told seat {seat} {words!r}, but {again[aid]!r} with the cards "
                                     f"hidden from it dealt otherwise: it reads where they lie")
