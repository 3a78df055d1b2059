"""`benchmarks/sparring.py` and the trials of `benchmarks/playout_trials.py` it plays: the numbers are
printed, not asserted; that a trial on today's search values its playouts as it says is, and that the
Scopa partner `esperto` plays legal moves, the same for a seed (the refusals: test_benchmark_arguments)."""

from __future__ import annotations

import sys

import pytest

from cassino.engine.core import Engine
from cassino.engine.game import Game
from cassino.engine.notation import format_move
from cassino.language.variants import load_rules
from cassino.players.counter import known_reply_move
from cassino.players.gain import greedy_playout
from cassino.players.search import SearchBot
from conftest import benchmark


def test_a_small_match_of_a_trial_on_todays_search(monkeypatch: pytest.MonkeyPatch,
                                                   capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setattr(sys, "argv", ["sparring.py", "--a", "today:lastgreedy", "--b", "greedy", "--pairs", "2",
                                      "--workers", "1"])
    assert benchmark("sparring").main() == 0
    assert "today:lastgreedy vs greedy, standard, 2 mirrored pairs" in capsys.readouterr().out


def _last_deal_but_one(engine: Engine) -> Game:
    """A 2-player standard hand played greedily to the first move of its last deal but one."""
    game = Game.new(engine, 7, 2, dealer=0).with_(target=None)
    greedy = benchmark("sparring").make("greedy", 0)
    while not (game.hand.stock and len(game.hand.stock) <= 8 and game.hand.turn == 0):
        game = game.play(greedy.choose(game, game.hand.turn))
    return game


def test_the_last_deal_trials_value_a_playout_into_the_last_deal_as_they_say() -> None:
    trials = benchmark("playout_trials")
    engine = Engine(load_rules("standard"))
    game = _last_deal_but_one(engine)
    search = SearchBot(3, playouts="greedy")   # (the search the trials were measured on)
    worth = search.worth(game)
    moves = search.candidates(game, game.legal_moves(), worth)
    state = search.determinize(engine, game.hand, 0)
    outlook = search.outlook(game)
    today = search.sampled_values(game, worth, state, 0, moves, False)
    last_deal = trials.TodayTrialBot(3, "lastdeal").sampled_values(game, worth, state, 0, moves, False)
    last_greedy = trials.TodayTrialBot(3, "lastgreedy").sampled_values(game, worth, state, 0, moves, False)
    blend = trials.LAST_DEAL_BLEND
    for m, value, mixed, greedy in zip(moves, today, last_deal, last_greedy):
        end = greedy_playout(engine, worth, state, m, False)
        assert not end.over and not end.stock and end.deal_no == state.deal_no + 1   # the last deal's start
        assert value == outlook.lead(end, 0, {0: 0, 1: 0}, True, 1.0)
        played = end
        while not played.over:
            played = engine.apply(played, known_reply_move(engine, worth, played))
        assert mixed == pytest.approx((1 - blend) * value + blend * outlook.lead(played, 0, {0: 0, 1: 0}, True, 1.0))
        assert greedy == pytest.approx(outlook.lead(greedy_playout(engine, worth, state, m, True), 0, {0: 0, 1: 0},
                                                    True, 1.0))
    assert last_deal != today and last_greedy != today


def test_the_last_deal_trials_are_todays_search_in_the_other_deals() -> None:
    trials = benchmark("playout_trials")
    engine = Engine(load_rules("standard"))
    game = Game.new(engine, 7, 2, dealer=0).with_(target=None)
    search = SearchBot(3, playouts="greedy")   # (the search the trials were measured on)
    worth = search.worth(game)
    moves = search.candidates(game, game.legal_moves(), worth)
    state = search.determinize(engine, game.hand, game.hand.turn)
    today = search.sampled_values(game, worth, state, 1, moves, False)
    for idea in ("lastdeal", "lastgreedy", "resampled"):
        assert trials.TodayTrialBot(3, idea).sampled_values(game, worth, state, 1, moves, False) == today


def _esperto_hand(seed: int) -> tuple[list[str], dict[int, int]]:
    """A 2-player Scopa hand, esperto in seat 0 against greedy, through the engine: its moves' text, each
    side's points."""
    sparring = benchmark("sparring")
    engine = Engine(load_rules("scopa"))
    game = Game.new(engine, seed, 2, dealer=0).with_(target=None)
    players = [sparring.make("esperto", seed), sparring.make("greedy", seed)]
    played = []
    while not game.over and game.hand_no == 1:
        seat = game.hand.turn
        players[seat].reseed(seed * 100 + len(played))
        move = players[seat].choose(game, seat)
        assert move in game.legal_moves()
        played.append(format_move(move, engine.deck))
        game = game.play(move)   # (the engine refuses a move not legal)
    return played, {side: sum(r.points.get(side, 0) for r in game.results) for side in (0, 1)}


def test_the_esperto_partner_plays_legal_scopa_moves_the_same_for_a_seed() -> None:
    for seed in (3, 4, 5):
        played, points = _esperto_hand(seed)
        assert len(played) == 36 and sum(points.values()) > 0   # a whole hand: 40 cards, 4 of them dealt to the table
        assert _esperto_hand(seed) == (played, points)


def test_the_esperto_partner_solves_the_last_deal_and_samples_before_it() -> None:
    sparring = benchmark("sparring")
    engine = Engine(load_rules("scopa"))
    game = Game.new(engine, 11, 2, dealer=0).with_(target=None)
    greedy = sparring.make("greedy", 0)
    while game.hand.stock:
        game = game.play(greedy.choose(game, game.hand.turn))
    while len(game.legal_moves()) < 2:   # (a decision with a choice)
        game = game.play(greedy.choose(game, game.hand.turn))
    seat = game.hand.turn
    # The last deal: no draw from the random source, the same move whatever the seed.
    assert len({sparring.make("esperto", s).choose(game, seat) for s in range(4)}) == 1
    early = Game.new(engine, 12, 2, dealer=0).with_(target=None)
    bot = sparring.make("esperto:2", 1)
    assert bot.deals == 2 and bot.choose(early, early.hand.turn) in early.legal_moves()
