"""The cyclic garbage collector held off while a computer player thinks (``players.collector``), and the
solver's table made of values the collector need not walk."""

from __future__ import annotations

import gc
from typing import Any, Iterator

import pytest

from cassino.engine.core import Engine
from cassino.engine.game import Game
from cassino.engine.rng import derive
from cassino.language.variants import load_rules
from cassino.players.bots import GreedyBot, SearchBot
from cassino.players.collector import collector_paused
from cassino.players.solver import Solver, cards_left, missing_knowledge


@pytest.fixture
def collections() -> Iterator[list[int]]:
    """The generations of the collections that start while the test runs."""
    seen: list[int] = []

    def note(phase: str, info: dict[str, Any]) -> None:
        if phase == "start":
            seen.append(info["generation"])

    was_on = gc.isenabled()
    gc.enable()
    gc.callbacks.append(note)
    try:
        yield seen
    finally:
        gc.callbacks.remove(note)
        if not was_on:
            gc.disable()


def known_position(variant: str, left: int, seed: int = 0) -> Game:
    """A 2-player position of greedy play whose every card's place the seat to move knows, with at most
    ``left`` cards to play and more than one legal move."""
    engine = Engine(load_rules(variant))
    for k in range(50):
        game = Game.new(engine, derive(seed, k), 2).with_(target=None)
        bots = [GreedyBot(derive(seed, k, s)) for s in range(2)]
        while not game.over:
            hand = game.hand
            if (missing_knowledge(hand, hand.turn) is None and cards_left(hand) <= left
                    and len(game.legal_moves()) > 1):
                return game
            game = game.play(bots[hand.turn].choose(game, hand.turn))
    raise AssertionError(f"no known position of {variant} with {left} cards left in 50 hands")


def test_a_decision_runs_without_collections_and_leaves_the_collector_on(collections: list[int]) -> None:
    """The search's decision in a known last deal (the exact solver's) starts no collection while it thinks:
    at most one, the one its allocations start as soon as the collector is on again; the same solver's work
    outside a decision starts many."""
    game = known_position("south-african-casino", 9)
    hand = game.hand
    bot = SearchBot(3)
    gc.collect()   # (the count of allocations that starts the next collection back at 0)
    before = len(collections)
    bot.choose(game, hand.turn)
    assert len(collections) - before <= 1
    assert gc.isenabled()
    gc.collect()
    before = len(collections)
    Solver(game.engine, game.scorer, hand.teams[hand.turn], dict(enumerate(game.scores))).best_move(hand)
    assert len(collections) - before > 5


def test_a_decision_leaves_a_collector_that_was_off_off(collections: list[int]) -> None:
    game = Game.new(Engine(load_rules("scopa")), 4, 2)
    gc.disable()
    SearchBot(3, iterations=8).choose(game, game.hand.turn)
    assert not gc.isenabled()
    gc.enable()


def test_the_collector_comes_back_after_an_error_and_after_nested_pauses() -> None:
    assert gc.isenabled()
    with pytest.raises(ZeroDivisionError):
        with collector_paused():
            assert not gc.isenabled()
            with collector_paused():
                assert not gc.isenabled()
            assert not gc.isenabled()   # (the inner block leaves it to the outer one)
            1 / 0
    assert gc.isenabled()


def test_a_decision_that_fails_leaves_the_collector_on() -> None:
    game = Game.new(Engine(load_rules("standard")), 4, 2)
    with pytest.raises(Exception):
        SearchBot(3).choose(game, 7)   # (no seat 7 in a 2-player game)
    assert gc.isenabled()


@pytest.mark.parametrize("variant,left", [("standard", 8), ("south-african-casino", 9), ("royal", 8)])
def test_the_solver_table_holds_nothing_the_collector_walks(variant: str, left: int) -> None:
    """Every key and entry of the solver's table is made of numbers and tuples of them, which the collector
    stops tracking: before, each key held the position's proven values (frozensets, even empty ones) and its
    builds, and every full collection walked a table of tens of thousands of such keys."""
    game = known_position(variant, left)
    hand = game.hand
    solver = Solver(game.engine, game.scorer, hand.teams[hand.turn], dict(enumerate(game.scores)))
    solver.best_move(hand)
    assert len(solver.table) > 10
    for _ in range(4):   # (each collection untracks one more level of tuples within tuples)
        gc.collect()
    assert [k for k in solver.table if gc.is_tracked(k)] == []
    assert [v for v in solver.table.values() if gc.is_tracked(v)] == []


def test_equal_positions_with_builds_share_one_entry() -> None:
    """Builds in a key compare by their values, as the builds themselves do: a position reached again with
    equal (not the same) build objects finds its entry."""
    engine = Engine(load_rules("standard"))
    for seed in range(200):
        game = Game.new(engine, seed, 2)
        bot = GreedyBot(seed)
        while not game.over and not game.hand.builds:
            game = game.play(bot.choose(game, game.hand.turn))
        if game.hand.builds:
            break
    state = game.hand
    twin = state.with_(builds=tuple(type(b)(*b.values()) for b in state.builds))
    assert twin.builds == state.builds and twin.builds[0] is not state.builds[0]
    solver = Solver(engine, game.scorer, 0)
    assert solver.key(state) == solver.key(twin)
    assert hash(solver.key(state)) == hash(solver.key(twin))
