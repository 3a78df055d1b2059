"""An engine keeps a few things between calls to save work (issue 29, part III): the emptied
subset-sum lists of the last position it generated, and where each card of a deal goes. Neither
may carry anything from one position or one deal into the next: one engine, used for many
positions in turn, must answer as a fresh engine answers each one.
"""

from __future__ import annotations

import random

import pytest

from cassino.engine.core import Engine
from cassino.language.variants import load_rules

from conftest import VARIANTS


def _states(engine: Engine, seed: int, players: int) -> list:
    """Every state of one random hand (the same engine all through)."""
    rnd = random.Random(seed)
    state = engine.start(seed, players, dealer=seed % players)
    out = [state]
    while not state.over:
        keys = engine.move_keys(state)
        state = engine.apply_key(state, keys[rnd.randrange(len(keys))])
        out.append(state)
    return out


@pytest.mark.parametrize("name", VARIANTS)
def test_one_engine_lists_each_position_as_a_fresh_engine_does(name: str) -> None:
    rules = load_rules(name)
    shared = Engine(rules)
    players = rules.seats.max_players
    # States of two hands, then visited backwards and interleaved: whatever the shared engine
    # kept from the position before must not show in the next position's moves.
    states = _states(shared, 1, rules.seats.min_players) + _states(shared, 2, players)
    order = states[::-1] + states[::2]
    for state in order:
        assert shared.move_keys(state) == Engine(rules).move_keys(state)
        assert shared.count_moves(state) == len(Engine(rules).move_keys(state))


@pytest.mark.parametrize("name", VARIANTS)
def test_one_engine_deals_each_hand_as_a_fresh_engine_does(name: str) -> None:
    rules = load_rules(name)
    shared = Engine(rules)
    for players in range(rules.seats.min_players, rules.seats.max_players + 1):
        for dealer in range(players):
            for seed in (3, 11):
                fresh = Engine(rules).start(seed, players, dealer=dealer)
                dealt = shared.start(seed, players, dealer=dealer)
                assert (dealt.hands, dealt.table, dealt.stock, dealt.turn) == \
                    (fresh.hands, fresh.table, fresh.stock, fresh.turn)
    # Later deals of a hand (short stocks included) through the shared engine's play.
    for seed in (5, 6):
        a = _states(shared, seed, rules.seats.min_players)
        b = _states(Engine(rules), seed, rules.seats.min_players)
        assert [(s.hands, s.table, s.stock, s.deal_no) for s in a] == \
            [(s.hands, s.table, s.stock, s.deal_no) for s in b]


@pytest.mark.parametrize("name", VARIANTS)
def test_games_of_one_engine_share_a_scorer_that_scores_as_a_fresh_one(name: str) -> None:
    """``Game`` makes the engine's scorer once (``Scorer.of``) and every later game of that engine
    shares it: it must hold what a scorer made anew holds, and score a played hand the same."""
    from cassino.engine.game import Game
    from cassino.engine.scoring import Scorer

    rules = load_rules(name)
    engine = Engine(rules)
    first = Game.new(engine, seed=3, players=rules.seats.min_players)
    second = Game.new(engine, seed=4, players=rules.seats.max_players)
    assert first.scorer is second.scorer is Scorer.of(engine)
    assert Game.new(Engine(rules), seed=3, players=rules.seats.min_players).scorer is not first.scorer
    fresh = Scorer(engine)
    assert (first.scorer.masks, first.scorer.card_points, first.scorer.suit_masks) == (
        fresh.masks, fresh.card_points, fresh.suit_masks)
    state = _states(engine, 5, rules.seats.min_players)[-1]
    assert first.scorer.hand_points(state) == fresh.hand_points(state)
