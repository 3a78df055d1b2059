"""The tutorial's rules that limit a move (``tutorial.limits``: taught before the learner chooses) held against the
engine's legal moves, in every seating of every bundled variant and example house rule: where it says the
owner's duty keeps the player from trailing, no trail is legal; where it says compulsory capture keeps a card
from being trailed, that card (by name: with two packs a card held twice is one card for play) has no trail and
has a capture."""

from __future__ import annotations

import random
import zlib

import pytest

from cassino.apps.authors.matrix import Seating
from cassino.apps.learning.tutorial import limits
from cassino.engine.core import Position
from cassino.engine.game import Game
from cassino.engine.moves import MoveKind
from cassino.engine.notation import cards_text
from cassino.language.variants import load_rules
from cassino.players.bots import make_bot

from test_counting_bounds import SEATINGS


def _wrong(game: Game) -> list[str]:
    hand, engine = game.hand, game.engine
    said = limits(game)
    moves = engine.playable_moves(hand)
    names = lambda mask: set(cards_text(engine.deck, mask))  # noqa: E731
    trailed = set().union(*(names(m.played) for m in moves if m.kind == MoveKind.TRAIL))
    wrong = []
    if "owner's duty" in said and trailed:
        wrong.append(f"the owner's duty is said to keep them from trailing, but {sorted(trailed)} may be trailed")
    if "compulsory capture" in said:
        refused = names(hand.hands[hand.turn]) - trailed
        capturing = set().union(*(names(m.played) for m in moves if m.kind == MoveKind.CAPTURE))
        if not refused & capturing:
            wrong.append(f"compulsory capture is said to refuse a trail, but the cards not trailed "
                         f"{sorted(refused)} capture nothing")
    return wrong


@pytest.mark.parametrize("seating", SEATINGS, ids=lambda s: s.short)
def test_what_the_tutorial_says_limits_a_move_limits_it(seating: Seating) -> None:
    seed = zlib.crc32(seating.label.encode()) % 10_000
    game = Game.new(load_rules(seating.variant), seed, seating.players, seating.partners)
    rng = random.Random(seed)
    bots = [make_bot(rng.choice(["random", "greedy"]), seed + s) for s in range(seating.players)]
    wrong = []
    while not game.over and game.hand_no == 1:
        wrong += [f"ply {game.hand.ply}: {w}" for w in _wrong(game)]
        game = game.play(bots[game.hand.turn].choose(game, game.hand.turn))
    assert not wrong, f"seed {seed}: " + "\n".join(wrong[:5])


def test_a_card_held_twice_is_not_a_card_refused() -> None:
    """Krypkasino (two packs, compulsory capture): a hand of 5C 5C 6S 9C against a 10 of diamonds may trail
    every card; the moves name the trail of 5C once, and the tutorial read the second copy as refused and
    taught compulsory capture there (found by the test above)."""
    rules = load_rules("krypkasino")
    game = Game.new(rules, 1, 3)
    engine, deck = game.engine, game.engine.deck
    state = engine.position(Position(players=3, hands={0: [deck.parse(c) for c in ("5C", "5C", "6S", "9C")],
                                                       1: [deck.parse(c) for c in ("2H", "3H")],
                                                       2: [deck.parse(c) for c in ("2D", "3D")]},
                                     table=[deck.parse("10D")]))
    at = Game.at(engine, state)
    assert "compulsory capture" not in limits(at) and not _wrong(at)
    assert {m.kind for m in engine.playable_moves(at.hand)} == {MoveKind.TRAIL}
