"""OpenSpiel on African Casino's building (issue 36): pile cards under a top are in play
(``HandState.pile_reach``, up to four of a pile in one move), so every legal move, one that uses a
card under a top included, maps to actions and back, the actions offer no move the turn rules
refuse, and the observation says which cards lie under each top, in order."""

from __future__ import annotations

import random
from typing import Any

import numpy as np
import pytest

pyspiel = pytest.importorskip("pyspiel")

import cassino.openspiel  # noqa: E402,F401  (registers python_cassino)
from cassino.apps.research.stepwise import Setup, Step, table_for  # noqa: E402
from cassino.engine.core import Position  # noqa: E402
from pile_reach_helpers import TABLES, TURNS, round_trip, walked_moves  # noqa: E402


def test_the_khasino_example_takes_the_card_under_the_top_by_its_actions() -> None:
    table = table_for(Setup(variant="swazi-casino", players=2))
    engine = table.engine
    card = engine.deck.parse
    hand = engine.position(Position(players=2, to_play=0, dealer=1,
                                    hands={0: [card("9C"), card("KD")], 1: [card("3S")]},
                                    table=[card(c) for c in ("9S", "7H", "4D")],
                                    captured={1: [card("AS"), card("2C"), card("5H")]}))
    step = Step.at(table, hand)
    assert round_trip(step) >= 1
    walked = walked_moves(step)
    assert set(walked) == {table.encoding.move_text(m) for m in engine.legal_moves(hand)}
    assert "9C capture 2C 4D 5H 7H 9S" in walked
    assert not any("AS" in text for text in walked)                 # under the 2: no set reaches it
    move = next(m for m in table.engine.legal_moves(hand) if table.encoding.move_text(m) == "9C capture 2C 4D 5H 7H 9S")
    assert "loose 2C" in [step.describe(a) for a in table.encoding.sequence(hand, move)]


@pytest.mark.parametrize("variant, players, partners", TABLES)
def test_random_games_round_trip_every_legal_move(variant: str, players: int, partners: bool) -> None:
    game = pyspiel.load_game("python_cassino", {"variant": variant, "players": players, "partners": partners})
    rng = random.Random(f"{variant}-{players}")
    turns = 0
    state = game.new_initial_state()
    while not state.is_terminal() and turns < TURNS:   # a hand's first turns, every player action random
        if state.is_chance_node():
            actions, probs = zip(*state.chance_outcomes())
            state.apply_action(rng.choices(actions, probs)[0])
            continue
        if not state.step.prefix:
            round_trip(state.step, rng)
            turns += 1
        state.apply_action(rng.choice(state.legal_actions()))
    assert turns == TURNS


def test_the_observation_says_the_cards_under_each_top_in_order() -> None:
    game = pyspiel.load_game("python_cassino", {"variant": "swazi-casino"})
    table = game.table
    engine = table.engine
    card = engine.deck.parse
    hand = engine.position(Position(players=2, to_play=0, dealer=1,
                                    hands={0: [card("9C"), card("KD")], 1: [card("3S")]},
                                    table=[card(c) for c in ("9S", "7H", "4D")],
                                    captured={1: [card(c) for c in ("10D", "QS", "AS", "2C", "5H")]}))
    state = game.new_initial_state()
    state.step = Step.at(table, hand)
    from open_spiel.python.observation import make_observation

    obs = make_observation(game, pyspiel.IIGObservationType(perfect_recall=False))
    obs.set_from(state, 0)
    under: Any = obs.dict["pile_under"]
    assert under.shape == (engine.pile_reach - 1, 2, engine.n_cards)
    assert [list(np.flatnonzero(under[d][1])) for d in range(3)] == [[engine.deck.index(card(c))] for c in
                                                                     ("2C", "AS", "QS")]
    assert not under[:, 0].any()                                     # seat 0's pile is empty
    assert list(np.flatnonzero(obs.dict["pile_tops"][1])) == [engine.deck.index(card("5H"))]
    assert "pile top 5H, under it 2C AS QS" in state.observation_string(0)
    plain = pyspiel.load_game("python_cassino", {"variant": "royal"})
    assert "pile_under" not in make_observation(plain, pyspiel.IIGObservationType(perfect_recall=False)).dict
