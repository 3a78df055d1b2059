"""Reading what the other seats did: the game's per-hand log and the search's ``infer`` option.

By default (``infer="weighted"``, ``players.inference``) the search draws its deals of the
unseen cards by how likely they make the moves the others made in this deal: a seat that
trailed while a 7 lay open is seldom dealt a 7. The older reading (``infer="passed"``): a seat
that trails while a card of some rank would have captured something is dealt other cards first.
These tests check that both readings use only what every seat saw, that they are applied
when the unseen cards allow it, and that they fall back to plain dealing when not.
"""

from __future__ import annotations

import math
import random

import pytest

from cassino.engine.core import Engine, Position, bits
from cassino.engine.game import Game
from cassino.engine.moves import MoveKind
from cassino.engine.state import HandState
from cassino.language.variants import load_rules
from cassino.players.bots import SearchBot
from cassino.players.inference import DRAWS, LEAST_SHARE, Evidence, card_terms, evidence, relative, weighted_deal
from cassino.players.knowledge import determinize, passed_up
from cassino.players.search import _survivors, _total
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
        bot = SearchBot(seed=1, iterations=8, infer="passed")
        avoid = bot.unlikely(other, seat)
        assert avoid[seat] == 0
        unlikely.add(avoid)
        deals.add(bot.determinize(other.engine, other.hand, seat, avoid))
        choices.add(SearchBot(seed=1, iterations=8, infer="passed").choose(other, seat))
    assert len(unlikely) == len(deals) == len(choices) == 1


@pytest.mark.parametrize("variant,seed,plies,players", [("standard", 3, 9, 2), ("royal", 8, 13, 2),
                                                         ("dominican", 2, 7, 2), ("tuxedo", 4, 10, 2),
                                                         ("standard", 5, 14, 4), ("scopa", 6, 5, 2),
                                                         ("swazi-casino", 3, 8, 2)])
def test_weighted_inference_reads_nothing_the_seat_cannot_see(variant: str, seed: int, plies: int,
                                                              players: int) -> None:
    """The default reading: games that differ only in cards the seat could never see give the
    same evidence, the same weighted deals and the same choice."""
    game = _random_game(variant, seed, plies, players)
    seat = game.hand.turn
    seen, deals, choices = [], set(), set()
    for k in range(3):
        other = game if k == 0 else _relog(game, seat, k)
        bot = SearchBot(seed=1, iterations=8)
        evidence = bot.evidence(other, seat)
        assert evidence is not None and all(mover != seat for mover, _, _ in evidence.seen)
        seen.append(evidence.seen)
        deals.add(weighted_deal(other.engine, other.hand, seat, random.Random(4), evidence))
        choices.add(SearchBot(seed=1, iterations=8).choose(other, seat))
    assert seen[0] == seen[1] == seen[2]
    assert len(deals) == len(choices) == 1


def test_a_deal_under_inference_keeps_what_the_seat_sees() -> None:
    game = _random_game("standard", 4, 6)
    state, seat = game.hand, game.hand.turn
    bot = SearchBot(seed=2, infer="passed")
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
    with_inference, without = SearchBot(seed=5, infer="passed"), SearchBot(seed=5)
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
    """``infer="off"`` deals exactly as the search does without the log, and so does the
    default where nothing was seen (a game made at a position has no log)."""
    game = _random_game("standard", 9, 11)
    seat = game.hand.turn
    plain = SearchBot(seed=3, iterations=8, infer="off").choose(game, seat)
    assert SearchBot(seed=3, iterations=8).choose(game.with_(log=None), seat) == plain
    assert SearchBot(seed=3, iterations=8, infer="off").choose(game.with_(log=None), seat) == plain


@pytest.mark.parametrize("bad", ["yes", True, False, 1, None, 0.5, "Weighted", ["weighted"]])
def test_infer_must_be_one_of_its_names(bad: object) -> None:
    with pytest.raises(ValueError, match="infer is one of weighted, passed, off"):
        SearchBot(infer=bad)  # type: ignore[arg-type]


# ---------------------------------------------------------------- weighted deals (the default)
def test_a_seat_that_trailed_past_a_capture_is_seldom_dealt_a_card_that_takes_it() -> None:
    """Seat 0 trailed the 2 of hearts with a 7 and a king open: deals that give it a 7 or a king
    weigh less than the same deals without, and the weighted deals give it one less often."""
    game, sevens_and_kings = _declined_seven_and_king()
    engine, seat = game.engine, game.hand.turn
    evidence = SearchBot(seed=5).evidence(game, seat)
    assert evidence is not None and [mover for mover, _, _ in evidence.seen] == [0]
    position, _ = game.moves_this_hand()[0]
    terms = card_terms(engine, SearchBot().worth(game), position)
    index = lambda name: engine.deck.mask([engine.deck.parse(name)]).bit_length() - 1  # noqa: E731
    for card in bits(sevens_and_kings):
        assert terms[card] > terms[index("4H")] > 0.0      # a 7 or a king captures; a 4 only trails
    assert terms[index("7D")] == 0.0                       # open on the table: not held
    def world(*names: str) -> HandState:
        hand = engine.deck.mask([engine.deck.parse(n) for n in names])
        unseen = [i for i in range(52) if not (hand | game.hand.hands[1] | game.hand.table) >> i & 1
                  and not any(p >> i & 1 for p in game.hand.piles)]
        return game.hand.with_(hands=(hand, game.hand.hands[1]), stock=tuple(unseen[:len(game.hand.stock)]))
    assert evidence.weight(world("4H", "5H", "7C")) < evidence.weight(world("4H", "5H", "6H"))
    assert evidence.weight(world("4H", "KC", "7C")) < evidence.weight(world("4H", "5H", "7C"))

    def share_holding(seen: object) -> float:
        rng = random.Random(9)
        draws = [weighted_deal(engine, game.hand, seat, rng, seen) for _ in range(600)]  # type: ignore[arg-type]
        return sum(1 for d in draws if d.hands[0] & sevens_and_kings) / len(draws)
    assert share_holding(evidence) < 0.85 * share_holding(None)


def test_weighted_deals_keep_what_the_seat_sees_and_repeat_by_seed() -> None:
    game = _random_game("standard", 4, 6)
    state, seat = game.hand, game.hand.turn
    evidence = SearchBot(seed=2).evidence(game, seat)
    assert evidence is not None
    hidden = sum(state.hands[o] for o in range(2) if o != seat) | sum(1 << i for i in state.stock)
    rng = random.Random(3)
    for _ in range(20):
        guess = weighted_deal(game.engine, state, seat, rng, evidence)
        assert guess.hands[seat] == state.hands[seat] and guess.table == state.table
        assert guess.builds == state.builds and guess.piles == state.piles and guess.turn == state.turn
        assert [len(bits(h)) for h in guess.hands] == [len(bits(h)) for h in state.hands]
        assert sum(guess.hands[o] for o in range(2) if o != seat) | sum(1 << i for i in guess.stock) == hidden
    again = [weighted_deal(game.engine, state, seat, random.Random(8), evidence) for _ in range(2)]
    assert again == [weighted_deal(game.engine, state, seat, random.Random(8), evidence) for _ in range(2)]
    # Without evidence a deal is drawn as determinize draws it, from the same random numbers.
    assert weighted_deal(game.engine, state, seat, random.Random(8), None) == determinize(
        game.engine, state, seat, random.Random(8))
    assert DRAWS > 1


def test_nothing_is_read_across_a_deal_or_from_the_seats_own_moves() -> None:
    """The first move of a deal has nothing to read; a seat's own moves are not evidence; in a
    4-player partnership game the partner's moves are read as the opponents' are."""
    engine = Engine(load_rules("standard"))
    game = Game.new(engine, 12, 2)
    rng = random.Random(12)
    while game.hand.deal_no == 1:
        game = game.play(rng.choice(game.legal_moves()))
    assert SearchBot().evidence(game, game.hand.turn) is None       # a new deal: nothing seen yet
    game = game.play(rng.choice(game.legal_moves()))
    first = 1 - game.hand.turn
    assert SearchBot().evidence(game, first) is None                # only its own move so far
    four = _random_game("standard", 5, 7, 4)
    seat = four.hand.turn
    assert four.hand.deal_no == 1 and four.hand.teams[seat] == four.hand.teams[(seat + 2) % 4]
    movers = {m for m, _, _ in SearchBot().evidence(four, seat).seen}  # type: ignore[union-attr]
    assert movers == {0, 1, 2, 3} - {seat}                          # the partner's moves too


def test_a_variant_that_draws_after_each_play_reads_only_moves_made_with_the_stock_empty() -> None:
    """In Draw Cassino a seat takes a new card after each play, so what it held when it moved is
    not what it holds now: nothing is read while the stock lasts."""
    engine = Engine(load_rules("draw"))
    game = Game.new(engine, 6, 2)
    rng = random.Random(6)
    read_with_stock = 0
    while not game.over and game.hand_no == 1:
        seen = SearchBot().evidence(game, game.hand.turn)
        if game.hand.stock:
            read_with_stock += seen is not None
        game = game.play(rng.choice(game.legal_moves()))
    assert read_with_stock == 0
    # Once the stock is out, the moves made since are read.
    game = Game.new(engine, 6, 2)
    rng = random.Random(6)
    while game.hand.stock:
        game = game.play(rng.choice(game.legal_moves()))
    game = game.play(rng.choice(game.legal_moves()))
    game = game.play(rng.choice(game.legal_moves()))
    seen = SearchBot().evidence(game, game.hand.turn)
    assert seen is not None and len(seen.seen) == 1


def test_evidence_is_read_once_a_move() -> None:
    """The terms of a logged move are worked out once and found again for the later decisions."""
    game = _random_game("standard", 9, 11)
    bot = SearchBot(seed=1)
    first = bot.evidence(game, game.hand.turn)
    kept = dict(bot._terms)
    assert first is not None and kept
    second = bot.evidence(game, game.hand.turn)
    assert second is not None and second.seen == first.seen and bot._terms == kept
    assert evidence(game.engine, bot.worth(game), game.hand, None, 0, {}) is None


def test_log_weights_and_their_relative_weights() -> None:
    """A deal that makes a move seen impossible weighs nothing; weights are taken relative to the
    likeliest deal, so many moves seen cannot underflow them all to zero."""
    game, sevens_and_kings = _declined_seven_and_king()
    seen = SearchBot().evidence(game, 1)
    assert seen is not None
    deal = determinize(game.engine, game.hand, 1, random.Random(2))
    assert seen.weight(deal) == pytest.approx(math.exp(seen.log_weight(deal)))
    (mover, since, terms), = seen.seen
    impossible = Evidence([(mover, since, [0.0] * len(terms))])
    assert impossible.log_weight(deal) == -math.inf and impossible.weight(deal) == 0.0
    assert relative([-2000.0, -2001.0, -math.inf]) == [1.0, pytest.approx(math.exp(-1.0)), 0.0]
    assert relative([-math.inf, -math.inf]) == [1.0, 1.0]       # nothing to choose by: all alike
    assert relative([]) == []


def test_the_search_weighs_its_deals_and_compares_candidates_by_the_weighted_mean() -> None:
    """Equal weights compare candidates exactly as plain deals do; a deal that weighs nothing
    does not count; the search with the default reading plays where moves were seen."""
    move_a, move_b = object(), object()
    rewards = {move_a: [1.0] * 16, move_b: [0.0, 9.0] * 8}
    alive = [move_a, move_b]
    assert _survivors(alive, rewards, [1.0] * 16) == _survivors(alive, rewards) == ([move_b], 0.0)  # type: ignore[arg-type]
    only_even = [1.0, 0.0] * 8        # the deals where b scores 9 are impossible
    assert _survivors(alive, rewards, only_even) == ([move_a], 0.0)  # type: ignore[arg-type]
    assert _total(rewards[move_b], only_even) == 0.0 and _total(rewards[move_a], None) == 16.0  # type: ignore[index]
    game, _ = _declined_seven_and_king()
    assert SearchBot(seed=1).choose(game, 1) in game.legal_moves()


def test_weights_too_uneven_are_tempered_to_keep_a_share_of_the_deals_in_play() -> None:
    """Many moves seen can leave a handful of deals deciding alone: ``relative`` raises the weights
    to the largest power that keeps ``LEAST_SHARE`` of the deals in effect, keeping their order."""
    logs = [0.0, -1.0, -8.0, -9.0, -20.0, -30.0, -40.0, -50.0]
    plain = relative(logs)
    tempered = relative(logs, LEAST_SHARE)

    def share(ws: list[float]) -> float:
        return sum(ws) ** 2 / (len(ws) * sum(w * w for w in ws))
    assert share(plain) < LEAST_SHARE <= share(tempered) < LEAST_SHARE + 0.01
    assert sorted(range(8), key=lambda k: -tempered[k]) == list(range(8)) and tempered[0] == 1.0
    even = [0.0, -0.1, -0.2, -0.1]
    assert relative(even, LEAST_SHARE) == relative(even)          # even enough: untouched
    assert relative([-math.inf, 0.0], LEAST_SHARE)[0] == 0.0       # an impossible deal stays impossible
    assert relative([-math.inf, -math.inf, -math.inf, 0.0], LEAST_SHARE) == [0.0, 0.0, 0.0, 1.0]
