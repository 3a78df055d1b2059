"""The counting heuristic (players/counter.py), which the sparring partner of
benchmarks/sparring.py plays by: what a move takes, less the next hand's best reply."""

from __future__ import annotations

import random

from cassino.engine.core import Engine, Position
from cassino.engine.notation import format_move
from cassino.engine.scoring import Scorer
from cassino.language.variants import load_rules
from cassino.players.counter import assess, banked, counter_move, reply_hands
from cassino.players.gain import CardWorth


def _position(engine: Engine, table: list[str], mine: list[str], theirs: list[str]):
    card = engine.deck.parse
    return engine.position(Position(players=2, to_play=0, hands={0: [card(c) for c in mine], 1: [card(c) for c in theirs]},
                                    table=[card(c) for c in table]))


def test_a_capture_banks_its_cards_and_a_trail_nothing() -> None:
    engine = Engine(load_rules("standard"))
    worth = CardWorth(engine, Scorer(engine))
    state = _position(engine, ["10D", "5S"], ["10C", "5C"], ["KH"])
    by_name = {format_move(m, engine.deck): m for m in engine.legal_moves(state)}
    take = next(m for name, m in by_name.items() if "10D" in name and "10C" in name)
    assert banked(worth, state, take) == worth.of(take.played | take.loose)
    assert all(banked(worth, state, m) == 0.0 for m in by_name.values() if m.kind.value == "trail")


def test_a_trail_that_hands_the_next_player_a_capture_is_rated_below_one_that_does_not() -> None:
    # 4D on the table; trailing the 5 lets a 9 take 4+5, trailing the king gives nothing away.
    engine = Engine(load_rules("standard"))
    worth = CardWorth(engine, Scorer(engine))
    state = _position(engine, ["4D"], ["5H", "KC"], ["9S"])
    trails = {format_move(m, engine.deck): m for m in engine.legal_moves(state) if m.kind.value == "trail"}
    five = next(m for name, m in trails.items() if "5H" in name)
    king = next(m for name, m in trails.items() if "KC" in name)
    values = assess(engine, worth, state, [five, king], [state.hands[1]])
    assert values[1] == 0.0 and values[0] < 0.0
    assert assess(engine, worth, state, [five, king], []) == [0.0, 0.0]   # no hand to reply with: no risk seen


def test_the_counter_move_is_legal_and_seeded() -> None:
    engine = Engine(load_rules("standard"))
    worth = CardWorth(engine, Scorer(engine))
    state = engine.start(5, 2)
    hands = reply_hands(engine, state, state.turn, random.Random(1), 3)
    assert len(hands) == 3 and all(h & state.hands[state.turn] == 0 for h in hands)
    while not state.over:
        a = counter_move(engine, worth, state, random.Random(state.ply), 2)
        assert a == counter_move(engine, worth, state, random.Random(state.ply), 2)
        assert engine.is_legal(state, a)
        state = engine.apply(state, a)
