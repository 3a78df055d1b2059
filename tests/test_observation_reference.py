"""The observation tensor's pieces against a second reading written from docs/research.md alone.

``observation_reference`` recomputes ``seat``, ``to_play``, ``dealer``, ``hand_sizes``, ``table``,
``builds``, ``captured``, ``pile_tops``, ``sweeps``, ``scores``, ``stock`` and ``hand`` / ``hands`` from the
engine's public position, by the readings listed at its top; here random games of a few variants and seatings
are compared with OpenSpiel's observers (a seat's own hand, and every hand) at every node, for every seat.

The whole sweep (every bundled variant, every seating, several seeds) is ``sweep`` in the reference module:
``python tests/observation_reference.py 4`` (single hands) and ``... 2 whole`` (whole games of two hands).
"""

from __future__ import annotations

import pytest

pytest.importorskip("pyspiel")

import observation_reference as reference  # noqa: E402  (tests/ is on the path, as for conftest)

# (variant, players, partners): one pack and two, capture piles (the African Casinos), partnerships,
# a 40-card deck, three seats.
SLICE = [
    ("standard", 2, False),
    ("royal", 3, False),
    ("scopa", 2, False),
    ("krypkasino", 4, True),
    ("south-african-casino", 2, False),
    ("swazi-casino", 4, True),
]


def _check(params: dict, seeds: range) -> None:
    import pyspiel

    import cassino.openspiel  # noqa: F401  (registers python_cassino)

    game = pyspiel.load_game("python_cassino", params)
    observers = reference.observers(game)
    compared = 0
    problems = []
    for seed in seeds:
        for node, state in enumerate(reference.play(params, seed)):
            for player in range(game.num_players()):
                found = reference.compare(state, player, observers)   # Unknown would fail the test
                compared += 1
                problems += [f"seed {seed} node {node} seat {player}: {piece}: {what}" for piece, what in found]
    assert compared > 100
    assert not problems, f"{len(problems)} disagreements, first: " + "\n".join(problems[:5])


@pytest.mark.parametrize("variant, players, partners", SLICE)
def test_single_hands_agree_with_the_doc_reading(variant: str, players: int, partners: bool) -> None:
    _check({"variant": variant, "players": players, "partners": partners}, range(2))


@pytest.mark.parametrize("variant, players, partners", [("standard", 2, False), ("south-african-casino", 4, True)])
def test_whole_games_agree_with_the_doc_reading(variant: str, players: int, partners: bool) -> None:
    """Two hands and the cut-off: the dealer passes, the scores carry over, the next deal is chance."""
    _check({"variant": variant, "players": players, "partners": partners, "whole_game": True, "max_hands": 2},
           range(1))


def test_sweep_counts() -> None:
    """The sweep's own bookkeeping: every seating a variant allows, positions counted, none unknown."""
    assert reference.seatings("standard") == [(2, False), (3, False), (4, False), (4, True)]
    assert reference.seatings("scopone") == [(4, True)]
    assert reference.seatings("hungarian") == [(2, False)]
    assert (6, True) in reference.seatings("krypkasino") and (6, False) in reference.seatings("krypkasino")
    result = reference.sweep(["two-handed"], range(1))
    assert result["games"] == 1 and result["positions"] > 100 and result["unknown"] == 0
    assert sum(result["disagreements"].values()) == 0, dict(result["examples"])


def test_the_default_observation_tensor_is_the_own_hand_view() -> None:
    """``state.observation_tensor(seat)`` (OpenSpiel's default observer: no perfect recall, public
    information and the seat's own hand) is the flat array the compared pieces lie over."""
    import numpy as np
    import pyspiel

    import cassino.openspiel  # noqa: F401  (registers python_cassino)

    params = {"variant": "royal", "players": 3}
    own = reference.observers(pyspiel.load_game("python_cassino", params))["own"]
    for node, state in enumerate(reference.play(params, 5)):
        if node % 7 == 0 or state.is_terminal():
            for seat in range(3):
                own.set_from(state, seat)
                assert np.array_equal(np.asarray(state.observation_tensor(seat), np.float32), own.tensor)
