"""Issue 30's audit of the research interfaces: what an RL or search run trusts the game to say.

Information-state tensors that tell every information state apart, utility bounds that
are true and tight, redeals that never hand a searcher the real hidden cards, game
strings that say what is played and carry a rule file's rules, and IS-MCTS (OpenSpiel's
Python one; the compiled one cannot reach a Python game's resampler) playing games."""

from __future__ import annotations

import random

import numpy as np
import pyspiel
import pytest

import cassino.openspiel  # noqa: F401  (registers python_cassino)
from cassino.apps.openspiel import CassinoState, GameParameterError
from cassino.apps.stepwise import Setup, Table
from cassino.engine.core import bits
from cassino.engine.moves import Move, MoveKind

from conftest import ROOT


def _load(**params: object) -> pyspiel.Game:
    return pyspiel.load_game("python_cassino", params)


def _deal(state: CassinoState, rng: random.Random) -> CassinoState:
    while state.is_chance_node():
        actions, probs = zip(*state.chance_outcomes())
        state.apply_action(rng.choices(actions, probs)[0])
    return state


def _play(state: CassinoState, move: Move) -> None:
    for action in state.actions_for(move):
        state.apply_action(action)


# ---------------------------------------------------------------------- information-state tensors
def _trail(state: CassinoState, card: int) -> None:
    _play(state, Move(MoveKind.TRAIL, 1 << card))


def test_trails_in_another_order_give_another_information_state_tensor() -> None:
    """The issue's case: the same deal, trails A0 B0 A1 B1 and A1 B1 A0 B0, reach one position."""
    game = _load(variant="standard")
    orders = []
    for order in ((0, 1), (1, 0)):
        state = _deal(game.new_initial_state(), random.Random(11))
        first = state.current_player()
        hands = state.cassino_game.hand.hands
        a, b = bits(hands[first]), bits(hands[1 - first])
        for k in order:
            _trail(state, a[k])
            _trail(state, b[k])
        orders.append(state)
    x, y = orders
    assert x.observation_tensor(0) == y.observation_tensor(0)          # the same position ...
    for seat in (0, 1):
        assert x.information_state_string(seat) != y.information_state_string(seat)
        assert x.information_state_tensor(seat) != y.information_state_tensor(seat)   # ... another history


def _states(game: pyspiel.Game, games: int, seed: int) -> list[CassinoState]:
    """Decision states of games from one deal, played at random: many share their early plies,
    and many reach one position by different orders."""
    out = []
    for g in range(games):
        chance, players = random.Random(seed), random.Random(seed * 1000 + g)
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                _deal(state, chance)
                continue
            out.append(state.clone())
            state.apply_action(players.choice(state.legal_actions()))
        out.append(state)
    return out


@pytest.mark.parametrize("params", [
    {"variant": "standard"},
    {"variant": "draw"},
    {"variant": "dominican", "players": 4},
    {"variant": "tuxedo", "players": 3},
], ids=["standard", "draw", "dominican-4", "tuxedo-3"])
def test_information_state_tensors_are_equal_exactly_when_the_strings_are(params: dict) -> None:  # type: ignore[type-arg]
    game = _load(**params)
    kinds = {
        "everything seen": pyspiel.IIGObservationType(perfect_recall=True),
        "private only": pyspiel.IIGObservationType(perfect_recall=True, public_info=False),
        "public only": pyspiel.IIGObservationType(perfect_recall=True, private_info=pyspiel.PrivateInfoType.NONE),
    }
    states = _states(game, 12, seed=4)
    rng = random.Random(9)
    for state in states[::7]:       # and redeals: other hidden cards, the same information state
        if not state.is_terminal():
            seat = state.current_player()
            states.append(state.resample_from_infostate(seat, rng))
    for name, kind in kinds.items():
        observer = game.make_py_observer(kind)
        for seat in range(game.num_players()):
            by_text: dict[str, bytes] = {}
            by_tensor: dict[bytes, str] = {}
            for state in states:
                text = observer.string_from(state, seat)
                observer.set_from(state, seat)
                tensor = observer.tensor.tobytes()
                assert by_text.setdefault(text, tensor) == tensor, f"{name}, seat {seat}: one text, two tensors"
                assert by_tensor.setdefault(tensor, text) == text, f"{name}, seat {seat}: one tensor, two texts"
            shared = len(states) - len(by_text)
            assert shared > 0, "no two states shared an information state: the check would prove nothing"
