"""Reading what a seat did not do: the game's per-hand log and the search's ``infer`` option.

A seat that trails while a card of some rank would have captured something probably
holds no such card; the search (``SearchBot(infer=True)``) deals it other cards first.
These tests check that the reading uses only what every seat saw, that it is applied
when the unseen cards allow it, and that it falls back to plain dealing when not.
"""

from __future__ import annotations

import random

import pytest

from cassino.engine.core import Engine, Position, bits
from cassino.engine.game import Game
from cassino.engine.moves import MoveKind
from cassino.engine.state import HandState
from cassino.language.variants import load_rules
from cassino.players.bots import SearchBot
from cassino.players.knowledge import determinize, passed_up
from test_bots import _mid_hand


def _random_game(variant: str, seed: int, plies: int, players: int = 2) -> Game:
    return _mid_hand(variant, seed, plies, players, partners=players == 4)


def _hidden_shuffled(state: HandState, seat: int, seed: int) -> HandState:
    """``state`` with the cards ``seat`` could not see there dealt differently (same sizes)."""
    seen = state.hands[seat] | state.table
    for b in state.builds:
        seen |= b.cards
    for pile in state.piles:
        seen |= pile
    hidden = [i for i in range(52) if not seen >> i & 1]
    random.Random(seed).shuffle(hidden)
    hands = list(state.hands)
    for other in range(state.players):
        if other != seat:
            hands[other] = sum(1 << hidden.pop() for _ in range(len(bits(state.hands[other]))))
    return state.with_(hands=tuple(hands), stock=tuple(hidden))


def _relog(game: Game, seat: int, seed: int) -> Game:
    """The same game and log as ``seat`` saw them, every hidden card of every logged position moved."""
    log = None
    for position, move in game.moves_this_hand():
        log = (log, _hidden_shuffled(position, seat, seed), move)
    return game.with_(hand=_hidden_shuffled(game.hand, seat, seed), log=log)


# ---------------------------------------------------------------- the game's log
def test_the_log_holds_this_hands_moves_and_starts_again_with_the_next_hand() -> None:
    engine = Engine(load_rules("standard"))
    game = Game.new(engine, 7, 2)
    rng = random.Random(7)
    played = []
    while game.hand_no == 1:
        assert [m for _, m in game.moves_this_hand()] == played
        assert all(p.ply == k for k, (p, _) in enumerate(game.moves_this_hand()))
        move = rng.choice(game.legal_moves())
        played.append(move)
        game = game.play(move)
    assert game.moves_this_hand() == [] and len(played) == 48
    game = game.play(rng.choice(game.legal_moves()))
    assert len(game.moves_this_hand()) == 1 and game.moves_this_hand()[0][0].ply == 0


def test_the_log_does_not_change_what_a_game_is() -> None:
    """Same seed and moves: the same game, log and all; a game with its log dropped is still equal,
    and a hand set by hand drops a log that no longer belongs to it."""
    a, b = _random_game("royal", 3, 17), _random_game("royal", 3, 17)
    assert a == b and a.moves_this_hand() == b.moves_this_hand() and len(a.moves_this_hand()) == 17
    assert a.with_(log=None) == a
    assert a.with_(hand=a.hand).moves_this_hand() == []
    assert Game.at(a.engine, a.hand).moves_this_hand() == []


# ---------------------------------------------------------------- public information only
@pytest.mark.parametrize("variant,seed,plies,players", [("standard", 3, 9, 2), ("royal", 8, 13, 2),
                                                         ("dominican", 2, 7, 2), ("tuxedo", 4, 10, 2),
                                                         ("standard", 5, 14, 4), ("draw", 6, 6, 2)])
def test_inference_reads_nothing_the_seat_cannot_see(variant: str, seed: int, plies: int, players: int) -> None:
    """Games that differ only in cards the seat could never see, now or in any logged position,
    give the same inferences, the same deals and the same choice."""
    game = _random_game(variant, seed, plies, players)
    seat = game.hand.turn
    assert game.moves_this_hand()
    unlikely, deals, choices = set(), set(), set()
    for k in range(3):
        other = game if k == 0 else _relog(game, seat, k)
        assert other.legal_moves() == game.legal_moves()
        bot = SearchBot(seed=1, iterations=8, infer=True)
        avoid = bot.unlikely(other, seat)
        assert avoid[seat] == 0
        unlikely.add(avoid)
        deals.add(bot.determinize(other.engine, other.hand, seat, avoid))
        choices.add(SearchBot(seed=1, iterations=8, infer=True).choose(other, seat))
    assert len(unlikely) == len(deals) == len(choices) == 1


def test_a_deal_under_inference_keeps_what_the_seat_sees() -> None:
    game = _random_game("standard", 4, 6)
    state, seat = game.hand, game.hand.turn
    bot = SearchBot(seed=2, infer=True)
    avoid = bot.unlikely(game, seat)
    hidden = sum(state.hands[o] for o in range(2) if o != seat) | sum(1 << i for i in state.stock)
    for _ in range(20):
        guess = bot.determinize(game.engine, state, seat, avoid)
        assert guess.hands[seat] == state.hands[seat] and guess.table == state.table
        assert guess.builds == state.builds and guess.piles == state.piles and guess.turn == state.turn
        assert [len(bits(h)) for h in guess.hands] == [len(bits(h)) for h in state.hands]
        assert sum(guess.hands[o] for o in range(2) if o != seat) | sum(1 << i for i in guess.stock) == hidden
        assert len(guess.stock) == len(state.stock)


# ---------------------------------------------------------------- applied when possible
def _declined_seven_and_king() -> tuple[Game, int]:
    """Standard, two players: seat 0 trails the 2 of hearts with the 7 of diamonds and the king of
    spades loose on the table, then it is seat 1's turn. Returns the game and the mask of the
    sevens and kings seat 1 cannot see."""
    engine = Engine(load_rules("standard"))
    deck = engine.deck
    cards = lambda *names: [deck.parse(n) for n in names]  # noqa: E731
    state = engine.position(Position(players=2, to_play=0, dealer=1,
                                     hands={0: cards("2H", "3C", "9S", "JD"), 1: cards("4S", "5D", "8C", "QH")},
                                     table=cards("7D", "KS")))
    game = Game.at(engine, state)
    (trail,) = [m for m in game.legal_moves() if m.kind is MoveKind.TRAIL and m.played == deck.mask(cards("2H"))]
    game = game.play(trail)
    return game, deck.mask(cards("7C", "7H", "7S", "KC", "KD", "KH"))


def test_a_seat_that_trailed_past_a_capture_is_dealt_no_card_that_takes_it() -> None:
    game, sevens_and_kings = _declined_seven_and_king()
    seat = game.hand.turn
    assert seat == 1
    position, move = game.moves_this_hand()[0]
    assert passed_up(game.engine, position, move) & ~position.hands[0] == sevens_and_kings
    with_inference, without = SearchBot(seed=5, infer=True), SearchBot(seed=5)
    avoid = with_inference.unlikely(game, seat)
    assert avoid[0] & sevens_and_kings == sevens_and_kings and avoid[1] == 0
    given, given_without = 0, 0
    for _ in range(50):
        given |= with_inference.determinize(game.engine, game.hand, seat, avoid).hands[0]
        given_without |= without.determinize(game.engine, game.hand, seat).hands[0]
    assert given & sevens_and_kings == 0
    assert given_without & sevens_and_kings                # without the option, they come up


def test_a_capture_is_no_sign_of_anything() -> None:
    captures = 0
    for seed in range(20):
        game = _random_game("standard", seed, 5)
        for move in game.legal_moves():
            if move.kind is MoveKind.CAPTURE:
                captures += 1
                assert passed_up(game.engine, game.hand, move) == 0
    assert captures


def test_too_few_other_cards_fall_back_to_the_unlikely_ones() -> None:
    """When the seat passed up (nearly) every unseen card, it is dealt them all the same: full hands,
    every hidden card dealt once, the few others given to it first."""
    game = _random_game("standard", 11, 3)
    state, seat = game.hand, game.hand.turn
    other = 1 - seat
    hidden = state.hands[other] | sum(1 << i for i in state.stock)
    spare = 1 << bits(hidden)[0]
    for avoid_other in (hidden, hidden & ~spare):
        for k in range(10):
            avoid = (0, 0)[:other] + (avoid_other,) + (0, 0)[other + 1:]
            guess = determinize(game.engine, state, seat, random.Random(k), avoid)
            assert len(bits(guess.hands[other])) == len(bits(state.hands[other]))
            assert guess.hands[other] | sum(1 << i for i in guess.stock) == hidden
            assert avoid_other == hidden or guess.hands[other] & spare


def test_without_inference_the_search_is_as_before() -> None:
    """``infer=False`` (the default) deals exactly as the search did without the log."""
    game = _random_game("standard", 9, 11)
    seat = game.hand.turn
    plain = SearchBot(seed=3, iterations=8).choose(game, seat)
    assert SearchBot(seed=3, iterations=8, infer=False).choose(game.with_(log=None), seat) == plain


@pytest.mark.parametrize("bad", ["yes", 1, None, 0.5])
def test_infer_must_be_true_or_false(bad: object) -> None:
    with pytest.raises(ValueError, match="infer is True or False"):
        SearchBot(infer=bad)  # type: ignore[arg-type]
